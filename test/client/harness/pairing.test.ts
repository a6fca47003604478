/** Two cases of one run compared round by round: paired ratios, their intervals, the baselines they pair with, and the machine noise. */
import { describe, expect, it } from "vitest";
import { caseOf } from "../../helpers/cases.ts";
import { pairedRatio, roundToRoundNoise } from "../../../client/harness/pairing.ts";

describe("paired ratios", () => {
  it("pair run with run and take the geometric mean of the ratios", () => {
    // Runs drift together (2x slower in run 1), the ratio stays 0.5 in every run.
    const r = pairedRatio(caseOf("a", [100, 200, 150]), caseOf("b", [200, 400, 300]))!;
    expect(r.value).toBeCloseTo(0.5, 12);
    expect(r.low).toBeCloseTo(0.5, 12);
    expect(r.high).toBeCloseTo(0.5, 12);
    expect(r.rounds).toBe(3);
  });

  it("give a 95% interval from the spread of the log ratios", () => {
    const r = pairedRatio(caseOf("a", [100, 120, 100, 120]), caseOf("b", [100, 100, 100, 100]))!;
    expect(r.value).toBeCloseTo(Math.sqrt(1.2), 12);
    expect(r.low).toBeLessThan(r.value);
    expect(r.high).toBeGreaterThan(r.value);
    expect(r.low).toBeLessThan(1);
  });

  it("use only the runs both cases finished, and nothing for a failed case", () => {
    const a = caseOf("a", [100, 100, 100]);
    const b = caseOf("b", [200]);
    expect(pairedRatio(a, b)!.rounds).toBe(1);
    expect(pairedRatio(a, { ...b, verified: false })).toBeUndefined();
  });

  it("from 6 rounds on: the median of the per-round ratios with a rank-based interval, untouched by one wild round", () => {
    const json = caseOf("json", [100, 100, 100, 100, 100, 100, 100, 100, 100, 100]);
    // Nine rounds at 0.5, one slice hit by a collection at 5.0.
    const codec = caseOf("codec", [50, 50, 50, 50, 500, 50, 50, 50, 50, 50]);
    const r = pairedRatio(codec, json)!;
    expect(r.value).toBe(0.5);
    expect([r.low, r.high]).toEqual([0.5, 0.5]);
    expect(r.rounds).toBe(10);
  });
});

describe("machine noise", () => {
  it("is how much JSON's slices typically change from round to round (the median change)", () => {
    // Rounds alternating 100 and 110: changes of +10% and -9.1%, five of each.
    const json = caseOf("json", [100, 110, 100, 110, 100, 110, 100, 110, 100, 110, 100]);
    expect(roundToRoundNoise([json])).toBeCloseTo((0.1 + 10 / 110) / 2, 12);
    expect(roundToRoundNoise([caseOf("json", [100, 100, 100])])).toBe(0);
  });

  it("needs codec-mode JSON rounds", () => {
    expect(roundToRoundNoise([caseOf("fast", [1, 2, 3])])).toBeUndefined();
    expect(roundToRoundNoise([caseOf("json", [1, 2, 3], { mode: "stream" })])).toBeUndefined();
  });
});
