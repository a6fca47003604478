/** Two cases of one run compared round by round: paired ratios, their intervals, the baselines they pair with, and the machine noise. */
import { describe, expect, it } from "vitest";
import { caseOf } from "../../helpers/cases.ts";
import { pairedRatio, roundToRoundNoise, varianceParts } from "../../../client/harness/pairing.ts";

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

  it("with rounds from fresh processes, the process is the unit: its median ratio one estimate, a t interval over them", () => {
    /** 20 rounds a process, json at 100 throughout; the codec at `at` in every round of its process. */
    const rounds = (at: readonly number[]) => at.flatMap((v) => Array.from({ length: 20 }, () => v));
    const tagged = (c: ReturnType<typeof caseOf>) => ({
      ...c,
      raw: c.raw.map((r, i) => ({ ...r, process: Math.floor(i / 20) })),
    });
    const json = tagged(caseOf("json", rounds([100, 100, 100])));
    const codec = tagged(caseOf("codec", rounds([50, 55, 60])));
    const r = pairedRatio(codec, json)!;
    const logs = [0.5, 0.55, 0.6].map(Math.log);
    const mean = logs.reduce((a, b) => a + b) / 3;
    const sd = Math.sqrt(logs.reduce((a, b) => a + (b - mean) ** 2, 0) / 2);
    expect(r.value).toBeCloseTo(Math.exp(mean), 12);
    // t with 2 degrees of freedom: 4.303; 60 identical rounds a process would have had no width at all.
    expect(r.high).toBeCloseTo(Math.exp(mean + (4.303 * sd) / Math.sqrt(3)), 12);
    expect(r.low).toBeCloseTo(Math.exp(mean - (4.303 * sd) / Math.sqrt(3)), 12);
    expect([r.rounds, r.processes]).toEqual([60, 3]);
    // Pooled as one process, the same rounds claim a far narrower interval.
    const pooled = pairedRatio(caseOf("codec", rounds([50, 55, 60])), caseOf("json", rounds([100, 100, 100])))!;
    expect(pooled.high / pooled.low).toBeLessThan(r.high / r.low);
    expect(pooled.processes).toBeUndefined();
  });

  it("split a ratio's variance into within processes and between them, for sizing an experiment", () => {
    // Two processes of 4 rounds each: log ratios alternate ±0.1 around a process mean of 0 and of 0.4.
    const d = 0.1;
    const logs = [
      [d, -d, d, -d],
      [0.4 + d, 0.4 - d, 0.4 + d, 0.4 - d],
    ];
    const codec = caseOf(
      "codec",
      logs.flat().map((l) => 100 * Math.exp(l)),
    );
    const json = caseOf(
      "json",
      Array.from({ length: 8 }, () => 100),
    );
    const tag = (c: typeof codec) => ({ ...c, raw: c.raw.map((r, i) => ({ ...r, process: i < 4 ? 0 : 1 })) });
    const parts = varianceParts(tag(codec), tag(json))!;
    const within = (4 * d * d * 2) / 6;
    expect(parts.within).toBeCloseTo(within, 12);
    // The means 0 and 0.4: their variance 0.08, less within / 4 rounds.
    expect(parts.between).toBeCloseTo(0.08 - within / 4, 12);
    expect([parts.rounds, parts.processes]).toEqual([4, 2]);
    expect(varianceParts(codec, json)).toBeUndefined();
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
