import { build } from "hdr-histogram-js";
import { describe, expect, it } from "vitest";
import {
  decodeHistogram,
  encodeHistogram,
  latencyHistogram,
  percentileSpectrum,
} from "../../../client/harness/histogram.ts";

/** Latencies in ns with a long tail: most near 80 µs, a few in the milliseconds. */
function samples(n: number, seed: number): Float64Array {
  let x = seed;
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    x = (x * 1103515245 + 12345) % 2 ** 31;
    const u = x / 2 ** 31;
    out[i] = 60_000 + 40_000 * u + (u > 0.99 ? 5_000_000 * u : 0);
  }
  return out;
}

describe("latency histograms (HdrHistogram)", () => {
  it("two clients' histograms add up to the histogram of all their samples", () => {
    const a = samples(5_000, 1);
    const b = samples(7_000, 2);
    const sum = latencyHistogram([a]);
    sum.add(latencyHistogram([b]));
    const all = latencyHistogram([a, b]);
    expect(sum.totalCount).toBe(12_000);
    for (const p of [50, 90, 99, 99.9, 99.99, 100])
      expect(sum.getValueAtPercentile(p), `p${p}`).toBe(all.getValueAtPercentile(p));
    expect(encodeHistogram(sum)).toBe(encodeHistogram(all));
  });

  it("keeps microseconds to 3 significant digits: each percentile within 0.1% of the exact one", () => {
    const a = samples(20_000, 3);
    const h = latencyHistogram([a]);
    const sorted = [...a].map((ns) => Math.round(ns / 1000)).sort((x, y) => x - y);
    for (const p of [50, 90, 99, 99.9]) {
      const exact = sorted[Math.ceil((p / 100) * sorted.length) - 1]!;
      expect(Math.abs(h.getValueAtPercentile(p) - exact) / exact, `p${p}`).toBeLessThanOrEqual(0.001);
    }
  });

  it("its encoding decodes with hdr-histogram-js to the same count and percentiles", () => {
    const h = latencyHistogram([samples(3_000, 4)]);
    const back = decodeHistogram(encodeHistogram(h));
    expect(back.totalCount).toBe(h.totalCount);
    for (const p of [50, 99, 99.9, 100]) expect(back.getValueAtPercentile(p)).toBe(h.getValueAtPercentile(p));
  });

  it("prints HdrHistogram's percentile spectrum (.hgrm), which parses back to the same distribution", () => {
    const h = latencyHistogram([samples(10_000, 5)]);
    const text = percentileSpectrum(h);
    const lines = text.split("\n");
    expect(lines[0]).toMatch(/^\s+Value\s+Percentile\s+TotalCount\s+1\/\(1-Percentile\)$/);
    expect(text).toMatch(/^#\[Mean\s+=\s+[\d.]+, StdDeviation\s+=\s+[\d.]+\]$/m);
    expect(text).toMatch(/^#\[Max\s+=\s+[\d.]+, Total count\s+=\s+10000\]$/m);
    expect(text).toMatch(/^#\[Buckets\s+=\s+\d+, SubBuckets\s+=\s+\d+\]$/m);
    // Rebuild from the rows: each row's TotalCount at its Value.
    const rows = lines
      .filter((l) => /^\s+[\d.]+\s+[\d.]+\s+\d+\s+/.test(l))
      .map((l) => l.trim().split(/\s+/).map(Number));
    expect(rows.length).toBeGreaterThan(20);
    let previous = 0;
    const rebuilt = build({ numberOfSignificantValueDigits: 3 });
    for (const [value, , total] of rows) {
      if (total! > previous) rebuilt.recordValueWithCount(value!, total! - previous);
      previous = total!;
    }
    expect(rebuilt.totalCount).toBe(10_000);
    for (const p of [50, 99])
      expect(
        Math.abs(rebuilt.getValueAtPercentile(p) - h.getValueAtPercentile(p)) / h.getValueAtPercentile(p),
      ).toBeLessThan(0.01);
  });
});
