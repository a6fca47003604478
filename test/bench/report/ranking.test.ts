/** One ranking for the verdict and the published figures: a case with its ratio missing is placed the same way in both. */
import { describe, expect, it } from "vitest";
import type { CaseResult } from "../../../client/harness/results.ts";
import { handWrittenStanding, ranked } from "../../../bench/report/ranking.ts";
import { caseOf } from "../../helpers/cases.ts";

/** A codec-mode case whose per-round totals are `totals` and whose ratio to json is `ratio` (none: undefined). */
const at = (codec: string, totals: number[], ratio?: number): CaseResult =>
  caseOf(
    codec,
    totals,
    ratio === undefined
      ? {}
      : {
          ratios: {
            vsJson: { value: ratio, low: ratio * 0.98, high: ratio * 1.02, rounds: totals.length, overlap: false },
          } as CaseResult["ratios"],
        },
  );
const vsJson = (c: CaseResult): number | undefined => c.ratios?.vsJson?.value;
const own = (c: CaseResult): number => c.total.median;

describe("ranked", () => {
  it("puts the codecs with a ratio to json first, by it (json at 1), then those without one by their own figure", () => {
    const cases = [
      at("msgpackr", [300, 300], 1.5),
      at("json", [200, 200]),
      at("unpaired", [100, 100]),
      at("custom-binary", [80, 80], 0.4),
      at("avro", [150, 150], 0.7),
    ];
    expect(ranked(cases, vsJson, own).map((c) => c.codec)).toEqual([
      "custom-binary",
      "avro",
      "json",
      "msgpackr",
      "unpaired",
    ]);
  });

  it("ranks by their own figure when no case has a ratio (a run without json)", () => {
    const cases = [at("msgpackr", [300]), at("custom-binary", [80]), at("avro", [150])];
    expect(ranked(cases, vsJson, own).map((c) => c.codec)).toEqual(["custom-binary", "avro", "msgpackr"]);
  });
});

describe("handWrittenStanding", () => {
  const cases = [
    at("json", [200, 210, 190]),
    at("avro", [150, 160, 140], 0.75),
    at("custom-binary", [120, 126, 114], 0.55),
    at("msgpackr", [100, 105, 95], 0.5),
  ];
  const order = ranked(cases, vsJson, own);

  it("gives custom-binary's place and the fastest other schema codec, paired round by round where the rounds are there", () => {
    const s = handWrittenStanding(order, vsJson, (r) => r.totalNs)!;
    expect([s.place, s.of, s.rival?.codec]).toEqual([2, 4, "avro"]);
    // Paired: the rounds' own ratios (about 0.80), not the ratio of their ratios to json (0.55 / 0.75).
    expect(s.vsRival!.value).toBeCloseTo(0.8, 2);
  });

  it("falls back to the ratio of their ratios to json without a round figure (a CSV, the field figure)", () => {
    const s = handWrittenStanding(order, vsJson)!;
    expect(s.vsRival).toEqual({ value: 0.55 / 0.75, overlap: false });
  });

  it("has no standing without custom-binary", () => {
    expect(
      handWrittenStanding(
        order.filter((c) => c.codec !== "custom-binary"),
        vsJson,
      ),
    ).toBeUndefined();
  });
});
