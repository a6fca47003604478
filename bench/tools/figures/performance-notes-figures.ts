/**
 * docs/performance-notes.md's figures: the machine every committed results file comes from (the
 * samples bench/tools/sample-list.ts names), and how the field figure of the three default runs
 * (epyc-default-{1,2,3}.json.gz) stands against their lab echo. The page's other figures are dated
 * measurements, not committed samples.
 */

import type { CaseResult } from "../../../client/harness/results.ts";
import { SAMPLES } from "../sample-list.ts";
import { claim, type PageFigures } from "./figure-spec.ts";
import { fixed, list, range } from "./prose.ts";
import { caseIn, casesIn, sampleResults } from "./sample-files.ts";

const DEFAULT_RUNS = ["epyc-default-1.json.gz", "epyc-default-2.json.gz", "epyc-default-3.json.gz"];

/** A socket case of a default run beside the codec-mode case of its payload and codec. */
interface Pair {
  field: CaseResult;
  lab: CaseResult;
}
/** Every codec's (not raw's) socket cases of the three default runs, each with its lab case. */
const pairs = (): Pair[] =>
  DEFAULT_RUNS.flatMap((file) =>
    casesIn(file)
      .filter((c) => c.mode !== "codec" && c.codec !== "raw")
      .map((field) => ({ field, lab: caseIn(file, { mode: "codec", payload: field.payload, codec: field.codec }) })),
  );
const inMode = (mode: CaseResult["mode"]): Pair[] => pairs().filter((p) => p.field.mode === mode);
/** The field figure over the lab echo, per message. */
const over = (p: Pair): number => p.field.ratios!.field!.value / p.lab.echo!.median;
const spread = (mode: CaseResult["mode"]): string => `${range(inMode(mode).map(over), fixed(1))}x`;
const name = (p: Pair): string => `${p.field.codec} on the ${p.field.payload} message`;
/** The cases that inflated most and least in a mode. */
const ends = (mode: CaseResult["mode"]): [string, string] => {
  const sorted = [...inMode(mode)].sort((a, b) => over(a) - over(b));
  return [name(sorted.at(-1)!), name(sorted[0]!)];
};

const fieldVsJson = (p: Pair): number => p.field.ratios!.fieldVsJson!.value;
const echoVsJson = (p: Pair): number => p.lab.ratios!.echoVsJson!.value;
/** A codec's roundtrip pairs of the three runs. */
const roundtrip = (codec: string): Pair[] => inMode("roundtrip").filter((p) => p.field.codec === codec);
const payloadsOf = (codec: string): string[] => [...new Set(roundtrip(codec).map((p) => p.field.payload))];
/** The payloads on which a codec's roundtrip field ratio lies below its lab echo's in all three runs. */
const payloadsBelow = (codec: string): string[] =>
  payloadsOf(codec).filter((payload) =>
    roundtrip(codec)
      .filter((p) => p.field.payload === payload)
      .every((p) => fieldVsJson(p) < echoVsJson(p)),
  );
/** custom-binary's roundtrip field ratio over its lab echo's. */
const cbAgainst = (p: Pair): number => fieldVsJson(p) / echoVsJson(p);

export const PERFORMANCE_NOTES: PageFigures = {
  page: "docs/performance-notes.md",
  figures: {
    machine: () => {
      const machines = new Set<string>();
      for (const entry of SAMPLES)
        for (const file of Object.keys(entry.files).filter((f) => f.endsWith(".json.gz"))) {
          const env = sampleResults(file).environment;
          // A browser does not tell a page what CPU it runs on.
          if (!env.cpu.startsWith("unknown")) machines.add(`${env.cores}-core ${env.cpu}`);
        }
      return claim(machines.size === 1, [...machines][0] ?? "", "every committed results file from one machine");
    },
    "over-stream": () => spread("stream"),
    "over-roundtrip": () => spread("roundtrip"),
    "inflated-ends": () => {
      const [most, least] = ends("stream");
      const [rtMost, rtLeast] = ends("roundtrip");
      return claim(
        most === rtMost && least === rtLeast,
        `${most} inflated most, ${least} least`,
        "the same cases inflating most and least in roundtrip mode as in stream mode",
      );
    },
    "below-lab": () => {
      // "their ... lie below" covers a codec below on every payload; one below on fewer is named with those payloads.
      const fewer = ["protobuf", "msgpack"]
        .filter((c) => payloadsBelow(c).length < payloadsOf(c).length)
        .map((c) =>
          payloadsBelow(c).length > 0 ? `${c}'s on the ${list(payloadsBelow(c))} messages` : `${c}'s on no message`,
        );
      return `their roundtrip field ratios lie below their lab echo's${fewer.map((f) => `, ${f}`).join("")}`;
    },
    "cb-above": () => {
      const cb = roundtrip("custom-binary");
      // Above, or level: within 1% of the lab echo's counts as level, named with its payload.
      const level = [...new Set(cb.filter((p) => cbAgainst(p) < 1).map((p) => p.field.payload))];
      return claim(
        cb.every((p) => cbAgainst(p) >= 0.99),
        `whose roundtrip field ratios there lie above its lab echo's${
          level.length > 0 ? ` or within 1% of them on the ${list(level)} message${level.length > 1 ? "s" : ""}` : ""
        }`,
        "custom-binary's roundtrip field ratios no more than 1% below its lab echo's in the three default runs",
      );
    },
    "cb-ratios": () => {
      const cb = roundtrip("custom-binary");
      return `${range(cb.map(fieldVsJson), fixed(2))} against ${range(cb.map(echoVsJson), fixed(2))}`;
    },
  },
};
