/**
 * Comparing two cases of one run. The machine's load drifts over seconds,
 * so the ratio of two codecs is taken run by run (the same run slot for
 * both, close in time) and summarised as a geometric mean with a 95%
 * interval (Student's t on the log ratios). Absolute times move with the
 * load; these ratios move much less. Every report (table, CSV) takes its
 * "vs json" and "vs raw" figures from here.
 */

import type { CaseResult } from "../harness/results.ts";
import { intervalsOverlap, tQuantile975 } from "../harness/stats.ts";

export interface Ratio {
  /** Geometric mean of the per-run ratios of total time. */
  ratio: number;
  /** 95% interval of that ratio (equal to it with one run). */
  low: number;
  high: number;
  /** Runs both cases finished. */
  runs: number;
}

/** A ratio to a baseline, and whether the two cases' intervals overlap (then neither is shown faster). */
export interface Comparison extends Ratio {
  overlap: boolean;
}

/** Total time of `a` relative to `b`, paired run by run; undefined without a common run. */
export function pairedRatio(a: CaseResult, b: CaseResult): Ratio | undefined {
  if (!a.verified || !b.verified) return undefined;
  const byRun = new Map(b.raw.map((r) => [r.run, r.totalNs]));
  const logs: number[] = [];
  for (const r of a.raw) {
    const other = byRun.get(r.run);
    if (other !== undefined && other > 0 && r.totalNs > 0) logs.push(Math.log(r.totalNs / other));
  }
  const n = logs.length;
  if (n === 0) return undefined;
  const mean = logs.reduce((s, v) => s + v, 0) / n;
  const sd = n > 1 ? Math.sqrt(logs.reduce((s, v) => s + (v - mean) ** 2, 0) / (n - 1)) : 0;
  const half = n > 1 ? (tQuantile975(n - 1) * sd) / Math.sqrt(n) : 0;
  return { ratio: Math.exp(mean), low: Math.exp(mean - half), high: Math.exp(mean + half), runs: n };
}

/** The verified case of `codec` (the baseline) with the same client, mode and payload as `c`. */
export function baselineCase(cases: readonly CaseResult[], c: CaseResult, codec: string): CaseResult | undefined {
  return cases.find((x) => x.codec === codec && x.payload === c.payload && x.client === c.client && x.mode === c.mode && x.verified);
}

function compare(a: CaseResult, b: CaseResult): Comparison | undefined {
  const ratio = pairedRatio(a, b);
  return ratio && { ...ratio, overlap: intervalsOverlap(a.total, b.total) };
}

/** `c`'s total time relative to json's (below 1: faster than JSON). */
export function vsJson(c: CaseResult, cases: readonly CaseResult[]): Comparison | undefined {
  const json = baselineCase(cases, c, "json");
  return json && compare(c, json);
}

/** `c`'s throughput relative to raw's, the transport alone (raw's time per message over c's). */
export function vsRaw(c: CaseResult, cases: readonly CaseResult[]): Comparison | undefined {
  const raw = baselineCase(cases, c, "raw");
  return raw && compare(raw, c);
}
