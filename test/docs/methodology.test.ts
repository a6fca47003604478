/**
 * Keeps docs/methodology.md true to the committed default runs: which ratio
 * moved most between them, and by how much, is worked out from their files.
 */
import { describe, expect, it } from "vitest";
import type { CaseResult, Ratio } from "../../client/harness/results.ts";
import { casesOf, csvSample, doc, flat, num } from "../helpers/samples.ts";
import { fig } from "../helpers/prose.ts";

const text = flat(doc("methodology.md"));
const runs = [1, 2, 3].map((n) => casesOf(`epyc-default-${n}.csv`));
const rows = [1, 2, 3].map((n) => csvSample(`epyc-default-${n}.csv`));
const LAB = {
  "in process": { pick: (c: CaseResult) => c.ratios?.vsJson, time: "total_ns" },
  echo: { pick: (c: CaseResult) => c.ratios?.echoVsJson, time: "echo_ns" },
  "read-one": { pick: (c: CaseResult) => c.ratios?.readOneVsJson, time: "read_one_ns" },
  validated: { pick: (c: CaseResult) => c.ratios?.validatedVsJson, time: "validated_ns" },
} as const;

/** Each codec's ratio of a mode in the three runs (json and raw left out), and how far apart they were. */
function across(mode: string, pick: (c: CaseResult) => Ratio | undefined) {
  return runs[0]!
    .filter((c) => c.mode === mode && c.codec !== "json" && c.codec !== "raw")
    .map((c) => {
      const ratios = runs.map(
        (cases) => pick(cases.find((x) => x.mode === mode && x.payload === c.payload && x.codec === c.codec)!)!.ratio,
      );
      return { payload: c.payload, codec: c.codec, ratios, spread: Math.max(...ratios) / Math.min(...ratios) };
    });
}
const widest = <T extends { spread: number }>(all: T[]): T => all.reduce((a, b) => (b.spread > a.spread ? b : a));

describe("docs/methodology.md", () => {
  it("the codec-mode ratio that moved most between the default runs is the runs' own, with its times", () => {
    const all = Object.entries(LAB).flatMap(([what, { pick, time }]) =>
      across("codec", pick).map((r) => ({ ...r, what, time })),
    );
    const most = widest(all);
    const [lo, hi] = [most.ratios.indexOf(Math.min(...most.ratios)), most.ratios.indexOf(Math.max(...most.ratios))];
    const ns = (run: number, codec: string) =>
      num(rows[run]!.row({ mode: "codec", payload: most.payload, codec }), most.time);
    const own = most.ratios.map((_, i) => ns(i, most.codec));
    const ownRange = [Math.min(...own), Math.max(...own)].map((x) => String(Math.round(x)));
    expect(text).toContain(
      `the widest ${most.spread.toFixed(2)}x (${most.codec}'s ${most.what} on the ${most.payload} message, ${fig(most.ratios[lo]!)} to ${fig(most.ratios[hi]!)} of JSON's: its own ${ownRange[0] === ownRange[1] ? ownRange[0] : ownRange.join("-")} ns, JSON's parse ${(ns(lo, "json") / 1000).toFixed(2)} to ${(ns(hi, "json") / 1000).toFixed(2)} µs)`,
    );
  });

  it("how far the field ratios moved between the default runs, and which moved most in roundtrip mode", () => {
    const stream = across("stream", (c) => c.ratios?.fieldVsJson);
    const idle = across("roundtrip", (c) => c.ratios?.fieldVsJson);
    const most = widest(idle);
    expect(text).toContain(
      `Their field ratios stay within ${widest(stream).spread.toFixed(2)}x in stream mode; in roundtrip mode ${idle.filter((r) => r.spread <= 1.1).length} of ${idle.length} stay within 1.10x, the widest ${most.spread.toFixed(2)}x (${most.codec} on the ${most.payload} message)`,
    );
  });

  it("how many codec-mode ratios the default runs put within 1.05x and 1.10x of each other, and the widest", () => {
    const lab = Object.values(LAB).flatMap(({ pick }) => across("codec", pick));
    expect(lab).toHaveLength(72);
    const within = (x: number) => lab.filter((r) => r.spread <= x).length;
    expect(text).toContain(
      `put ${within(1.05)} of 72 codec-mode ratios (in process, echo, read-one and validated, 18 each) within 1.05x of each other and ${within(1.1)} within 1.10x, the widest ${widest(lab).spread.toFixed(2)}x`,
    );
  });
});
