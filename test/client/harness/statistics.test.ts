import { describe, expect, it } from "vitest";
import {
  intervalsOverlap,
  percentileSorted,
  summarize,
  summarizeByProcess,
  tQuantile975,
} from "../../../client/harness/statistics.ts";

describe("stats", () => {
  it("summarizes a known sample", () => {
    const s = summarize([2, 4, 4, 4, 5, 5, 7, 9]);
    expect(s.n).toBe(8);
    expect(s.mean).toBe(5);
    expect(s.median).toBe(4.5);
    expect(s.min).toBe(2);
    expect(s.max).toBe(9);
    // sample standard deviation: sqrt(32 / 7)
    expect(s.stddev).toBeCloseTo(Math.sqrt(32 / 7), 12);
    expect(s.ci95).toBeCloseTo((2.365 * Math.sqrt(32 / 7)) / Math.sqrt(8), 12);
    expect(s.p90).toBeCloseTo(7.6, 12); // rank 6.3 between 7 and 9
  });

  it("percentiles interpolate like PERCENTILE.INC", () => {
    const sorted = [10, 20, 30, 40, 50];
    expect(percentileSorted(sorted, 0)).toBe(10);
    expect(percentileSorted(sorted, 25)).toBe(20);
    expect(percentileSorted(sorted, 99)).toBeCloseTo(49.6, 12);
    expect(percentileSorted(sorted, 100)).toBe(50);
  });

  it("one run has no interval; Student's t for few runs", () => {
    expect(summarize([3]).ci95).toBe(0);
    expect(tQuantile975(4)).toBe(2.776);
    expect(tQuantile975(1000)).toBe(1.96);
  });

  it("overlapping intervals are told apart from separate ones", () => {
    const a = summarize([100, 102, 98, 101, 99]);
    const b = summarize([101, 103, 99, 102, 100]);
    const c = summarize([150, 152, 148, 151, 149]);
    expect(intervalsOverlap(a, b)).toBe(true);
    expect(intervalsOverlap(a, c)).toBe(false);
    // A single run has no interval: never a winner.
    expect(intervalsOverlap(summarize([100]), summarize([150]))).toBe(true);
  });

  it("with values from processes, the median's interval is the processes': their medians' spread, not the rounds'", () => {
    // Three processes of ten identical values: pooled, the median's rank interval is a point; by process, it is not.
    const values = [100, 110, 121].flatMap((v) => Array.from({ length: 10 }, () => v));
    const processes = values.map((_, i) => Math.floor(i / 10));
    const pooled = summarize(values);
    const byProcess = summarizeByProcess(values, processes);
    expect(byProcess.median).toBe(pooled.median);
    const half = (tQuantile975(2) * Math.log(1.1)) / Math.sqrt(3);
    expect(byProcess.medianLow).toBeCloseTo(110 * Math.exp(-half), 9);
    expect(byProcess.medianHigh).toBeCloseTo(110 * Math.exp(half), 9);
    expect(pooled.medianHigh - pooled.medianLow).toBeLessThan(byProcess.medianHigh - byProcess.medianLow);
    // One process, or values with none: summarize.
    expect(
      summarizeByProcess(
        values,
        values.map(() => 0),
      ),
    ).toEqual(pooled);
    expect(
      summarizeByProcess(
        values,
        values.map(() => undefined),
      ),
    ).toEqual(pooled);
  });
});
