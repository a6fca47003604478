/**
 * Comparing two cases of one run. The machine's speed drifts over
 * milliseconds to seconds, so the ratio of two codecs is taken round by
 * round (both measured in the same round, close in time) and summarised as
 * the median of the per-round ratios with its distribution-free 95%
 * interval (statistics.ts, medianInterval). With fewer than 6 paired rounds no
 * such interval exists; then the geometric mean of the ratios with a
 * Student's t interval on their logarithms stands in. The ratios every
 * report shows are worked out with these once, when the results are
 * assembled (ratios.ts).
 */

import type { CaseResult, Estimate, SliceFigures } from "./results.ts";
import { medianInterval, percentileSorted, tQuantile975 } from "./statistics.ts";

/** The figure of one round a comparison pairs: a case's total time per message unless said otherwise; undefined where the round has none. */
export type RoundFigure = (r: SliceFigures) => number | undefined;
const TOTAL: RoundFigure = (r) => r.totalNs;

/** The values of `pick` that `a` and `b` both have, round by round. */
function pairs(a: CaseResult, b: CaseResult, pick: RoundFigure): [number, number][] {
  if (!a.verified || !b.verified) return [];
  const byRound = new Map<number, number>();
  for (const r of b.raw) {
    const v = pick(r);
    if (v !== undefined) byRound.set(r.round ?? r.run, v);
  }
  const out: [number, number][] = [];
  for (const r of a.raw) {
    const x = pick(r);
    const y = byRound.get(r.round ?? r.run);
    if (x !== undefined && y !== undefined) out.push([x, y]);
  }
  return out;
}

/** Time per message of `a` relative to `b` (total time unless `pick` says which figure), paired round by round; undefined without a common round. */
export function pairedRatio(a: CaseResult, b: CaseResult, pick: RoundFigure = TOTAL): Estimate | undefined {
  const ratios = pairs(a, b, pick)
    .filter(([x, y]) => x > 0 && y > 0)
    .map(([x, y]) => x / y);
  const n = ratios.length;
  if (n === 0) return undefined;
  const median = medianInterval(ratios);
  if (median) return { value: median.median, low: median.low, high: median.high, rounds: n };
  const { mean, half } = meanInterval(ratios.map(Math.log));
  return { value: Math.exp(mean), low: Math.exp(mean - half), high: Math.exp(mean + half), rounds: n };
}

/** The mean of a few values and the half-width of its Student's t 95% interval (0 for one value). */
function meanInterval(values: readonly number[]): { mean: number; half: number } {
  const n = values.length;
  const mean = values.reduce((s, v) => s + v, 0) / n;
  const sd = n > 1 ? Math.sqrt(values.reduce((s, v) => s + (v - mean) ** 2, 0) / (n - 1)) : 0;
  return { mean, half: n > 1 ? (tQuantile975(n - 1) * sd) / Math.sqrt(n) : 0 };
}

/** The median of `values` (one per round) with its 95% interval; undefined without a value. */
export function estimate(values: readonly number[]): Estimate | undefined {
  const n = values.length;
  if (n === 0) return undefined;
  const median = medianInterval(values);
  if (median) return { value: median.median, low: median.low, high: median.high, rounds: n };
  const { mean, half } = meanInterval(values);
  return { value: mean, low: mean - half, high: mean + half, rounds: n };
}

/** `a`'s figure less `b`'s, round by round (what `a` costs on top of `b`, per message), as a median with its interval. */
export function pairedDifference(a: CaseResult, b: CaseResult, pick: RoundFigure): Estimate | undefined {
  return estimate(pairs(a, b, pick).map(([x, y]) => x - y));
}

/** The verified case of `codec` (the baseline) with the same client, mode, payload and (latency mode) rate as `c`. */
export function baselineCase(cases: readonly CaseResult[], c: CaseResult, codec: string): CaseResult | undefined {
  return cases.find(
    (x) =>
      x.codec === codec &&
      x.payload === c.payload &&
      x.client === c.client &&
      x.mode === c.mode &&
      x.socket?.targetRate === c.socket?.targetRate &&
      x.verified,
  );
}

/** Whether a ratio's interval holds 1, so that neither side can be called faster; one round has no interval and shows nothing either way. */
export function overlapsOne(r: Estimate): boolean {
  return r.rounds < 2 || (r.low <= 1 && 1 <= r.high);
}

/** `a` relative to `b` by the figure `pick` takes from each round, and whether the interval holds 1. */
export function vsBaseline(a: CaseResult, b: CaseResult, pick: RoundFigure = TOTAL): Estimate | undefined {
  const ratio = pairedRatio(a, b, pick);
  return ratio && { ...ratio, overlap: overlapsOne(ratio) };
}

/**
 * How noisy the machine was while codec mode ran: how much JSON's time per
 * message changed from one round to the next (the same codec, the same
 * kind of messages, a few milliseconds apart): the median of
 * |t(r) / t(r-1) - 1| over every payload. Undefined without codec rounds.
 */
export function roundToRoundNoise(cases: readonly CaseResult[]): number | undefined {
  const changes: number[] = [];
  for (const c of cases) {
    if (c.mode !== "codec" || c.codec !== "json" || !c.verified) continue;
    const byRound = [...c.raw].sort((a, b) => (a.round ?? a.run) - (b.round ?? b.run));
    for (let i = 1; i < byRound.length; i++) changes.push(Math.abs(byRound[i]!.totalNs / byRound[i - 1]!.totalNs - 1));
  }
  if (changes.length === 0) return undefined;
  return percentileSorted(
    changes.sort((a, b) => a - b),
    50,
  );
}
