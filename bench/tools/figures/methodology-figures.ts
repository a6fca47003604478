/**
 * docs/methodology.md's figures: how far the ratios of the three committed default runs
 * (epyc-default-{1,2,3}.json.gz) moved between them, in codec mode and in the field.
 */

import type { CaseResult, Estimate } from "../../../client/harness/results.ts";
import type { Summary } from "../../../client/harness/statistics.ts";
import type { PageFigures } from "./figure-spec.ts";
import { fig } from "./prose.ts";
import { caseIn, casesIn } from "./sample-files.ts";

const FILES = ["epyc-default-1.json.gz", "epyc-default-2.json.gz", "epyc-default-3.json.gz"];

/** Codec mode's four ratios to JSON as the page names them, the time each is taken from, and what that time is of JSON's. */
const LAB: {
  what: string;
  pick: (c: CaseResult) => Estimate | undefined;
  time: (c: CaseResult) => Summary | undefined;
  json: string;
}[] = [
  { what: "in process", pick: (c) => c.ratios?.vsJson, time: (c) => c.total, json: "serialize and deserialize" },
  { what: "echo", pick: (c) => c.ratios?.echoVsJson, time: (c) => c.echo, json: "echo" },
  { what: "read-one", pick: (c) => c.ratios?.readOneVsJson, time: (c) => c.readOne, json: "parse" },
  { what: "validated", pick: (c) => c.ratios?.validatedVsJson, time: (c) => c.validated, json: "validated parse" },
];

/** One codec's ratio in the three runs: its case in each, the ratio in each, and how far apart they were. */
interface Across {
  payload: CaseResult["payload"];
  codec: string;
  cases: CaseResult[];
  ratios: number[];
  spread: number;
}

/** Each codec's ratio of a mode in the three runs (json and raw left out). */
const across = (mode: CaseResult["mode"], pick: (c: CaseResult) => Estimate | undefined): Across[] =>
  casesIn(FILES[0]!, { mode })
    .filter((c) => c.codec !== "json" && c.codec !== "raw")
    .map(({ payload, codec }) => {
      const cases = FILES.map((f) => caseIn(f, { mode, payload, codec }));
      const ratios = cases.map((x) => pick(x)!.value);
      return { payload, codec, cases, ratios, spread: Math.max(...ratios) / Math.min(...ratios) };
    });
const widest = <T extends { spread: number }>(all: T[]): T => all.reduce((a, b) => (b.spread > a.spread ? b : a));

/** Codec mode's ratios, each with the kind of ratio it is. */
const lab = () => LAB.flatMap((kind) => across("codec", kind.pick).map((r) => ({ ...r, kind })));
const within = (x: number): string => String(lab().filter((r) => r.spread <= x).length);
const field = (mode: CaseResult["mode"]) => across(mode, (c) => c.ratios?.fieldVsJson);

export const METHODOLOGY: PageFigures = {
  page: "docs/methodology.md",
  figures: {
    "lab-105": () => within(1.05),
    "lab-count": () => String(lab().length),
    "lab-each": () => {
      const each = new Set(LAB.map((kind) => across("codec", kind.pick).length));
      if (each.size !== 1)
        throw new Error(`the four kinds of codec-mode ratio count ${[...each].join(", ")}: not one count each`);
      return String([...each][0]);
    },
    "lab-110": () => within(1.1),
    "lab-widest": () => {
      const most = widest(lab());
      const [low, high] = [
        most.ratios.indexOf(Math.min(...most.ratios)),
        most.ratios.indexOf(Math.max(...most.ratios)),
      ];
      const own = most.cases.map((c) => Math.round(most.kind.time(c)!.median));
      const ownRange =
        Math.min(...own) === Math.max(...own) ? String(own[0]) : `${Math.min(...own)}-${Math.max(...own)}`;
      const json = (run: number) =>
        (
          most.kind.time(caseIn(FILES[run]!, { mode: "codec", payload: most.payload, codec: "json" }))!.median / 1000
        ).toFixed(2);
      return `${most.spread.toFixed(2)}x (${most.codec}'s ${most.kind.what} on the ${most.payload} message, ${fig(most.ratios[low]!)} to ${fig(most.ratios[high]!)} of JSON's: its own ${ownRange} ns, JSON's ${most.kind.json} ${json(low)} to ${json(high)} µs)`;
    },
    "field-stream": () => `${widest(field("stream")).spread.toFixed(2)}x`,
    "field-roundtrip": () => {
      const idle = field("roundtrip");
      const most = widest(idle);
      return `${idle.filter((r) => r.spread <= 1.1).length} of ${idle.length} stay within 1.10x, the widest ${most.spread.toFixed(2)}x (${most.codec} on the ${most.payload} message)`;
    },
  },
};
