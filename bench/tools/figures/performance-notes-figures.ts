/**
 * docs/performance-notes.md's figures: the machine every committed results file comes from (the
 * samples bench/tools/sample-list.ts names), and how the field figure of the three default runs
 * stands against their lab echo. The page's other figures are dated measurements, not committed samples.
 */

import type { CaseResult } from "../../../client/harness/results.ts";
import { isSocketMode } from "../../../client/harness/settings.ts";
import { SAMPLES } from "../sample-list.ts";
import { claim, type PageFigures } from "./figure-spec.ts";
import { DEFAULT_RUNS } from "./methodology-figures.ts";
import { fixed, list, range } from "./prose.ts";
import { caseIn, casesIn, sampleResults } from "./sample-files.ts";

/**
 * Every codec's (not raw's) socket case of the three default runs, with the field figure over the lab
 * echo of its payload and codec per message (`over`), and the field's ratio to JSON's beside the lab echo's.
 */
const pairs = () =>
  DEFAULT_RUNS.flatMap((file) =>
    casesIn(file)
      .filter((c) => isSocketMode(c.mode) && c.codec !== "raw")
      .map((c) => {
        const lab = caseIn(file, { mode: "codec", payload: c.payload, codec: c.codec });
        const [over, field] = [c.ratios!.field!.value / lab.echo!.median, c.ratios!.fieldVsJson!.value];
        return { ...c, over, field, lab: lab.ratios!.echoVsJson!.value };
      }),
  );
type Pair = ReturnType<typeof pairs>[number];
const inMode = (mode: CaseResult["mode"]): Pair[] => pairs().filter((p) => p.mode === mode);
/** "lo-hi" of a figure of some pairs, to so many decimals. */
const of = (ps: Pair[], digits: number, f: (p: Pair) => number): string => range(ps.map(f), fixed(digits));
/** The cases that inflated most and least in a mode. */
const ends = (mode: CaseResult["mode"]): string => {
  const sorted = inMode(mode).sort((a, b) => a.over - b.over);
  const name = (p: Pair) => `${p.codec} on the ${p.payload} message`;
  return `${name(sorted.at(-1)!)} inflated most, ${name(sorted[0]!)} least`;
};
const roundtrip = (codec: string): Pair[] => inMode("roundtrip").filter((p) => p.codec === codec);
/** The payloads on which a codec's roundtrip field ratio lies below its lab echo's in all three runs. */
const below = (codec: string): string => {
  const all = [...new Set(roundtrip(codec).map((p) => p.payload))];
  const under = all.filter((payload) => roundtrip(codec).every((p) => p.payload !== payload || p.field < p.lab));
  const text = `for ${codec} on ${under.length === all.length ? "every message" : `the ${list(under)} messages`}`;
  return claim(under.length > 0, text, `${codec}'s roundtrip field ratio below its lab echo's on some message`);
};

export const PERFORMANCE_NOTES: PageFigures = {
  page: "docs/performance-notes.md",
  figures: {
    machine: () => {
      const machines = new Set(
        SAMPLES.flatMap((entry) => Object.keys(entry.files).filter((f) => f.endsWith(".json.gz")))
          .map((file) => sampleResults(file).environment)
          // A browser does not tell a page what CPU it runs on.
          .filter((env) => !env.cpu.startsWith("unknown"))
          .map((env) => `${env.cores}-core ${env.cpu}`),
      );
      return claim(machines.size === 1, [...machines][0] ?? "", "every committed results file from one machine");
    },
    "over-stream": () => `${of(inMode("stream"), 1, (p) => p.over)}x`,
    "over-roundtrip": () => `${of(inMode("roundtrip"), 1, (p) => p.over)}x`,
    "inflated-ends": () =>
      ends("stream") === ends("roundtrip")
        ? ends("stream")
        : `in stream mode ${ends("stream")}; in roundtrip mode ${ends("roundtrip")}`,
    "below-lab": () => `${below("protobuf")} and ${below("msgpack")}`,
    "cb-above": () => {
      const cb = roundtrip("custom-binary");
      return claim(
        cb.every((p) => p.field >= 0.99 * p.lab),
        `whose roundtrip field ratios there lie above its lab echo's or within 1% of them (${of(cb, 2, (p) => p.field)} against ${of(cb, 2, (p) => p.lab)})`,
        "custom-binary's roundtrip field ratios no more than 1% below its lab echo's in the three default runs",
      );
    },
  },
};
