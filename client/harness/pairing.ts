/**
 * Comparing two cases of one run. The machine's speed drifts over
 * milliseconds to seconds, so the ratio of two codecs is taken round by
 * round (both measured in the same round, close in time).
 *
 * Rounds of one process are not independent: they share its compiled code,
 * its heap and its collector's pacing, and a second process reads
 * differently however many rounds the first one ran (docs/methodology.md).
 * So where the rounds came from several processes (codec mode's fresh ones,
 * or the server processes a socket mode's rounds take turns with: --forks),
 * the process is the unit: each gives one estimate, the median of its rounds'
 * ratios, and the figure is their geometric mean with a Student's t 95%
 * interval on their logarithms (n - 1 degrees of freedom for n processes).
 *
 * Rounds of one process only (codec mode with --forks 1 or in a page, a
 * socket mode against one server) give the median of the per-round ratios with
 * its distribution-free 95% interval (statistics.ts, medianInterval); with
 * fewer than 6 paired rounds no such interval exists and the geometric mean
 * with a t interval on the logarithms stands in. The ratios every report
 * shows are worked out with these once, when the results are assembled
 * (ratios.ts).
 */

import type { CaseResult, Estimate, SliceFigures } from "./results.ts";
import { meanInterval, medianInterval, percentileSorted } from "./statistics.ts";

/** The figure of one round a comparison pairs: a case's total time per message unless said otherwise; undefined where the round has none. */
export type RoundFigure = (r: SliceFigures) => number | undefined;
const TOTAL: RoundFigure = (r) => r.totalNs;

/** Two figures of one round, `a`'s and `b`'s, and the process that timed it (undefined: one process timed them all). */
type Pair = [number, number, number | undefined];

/** The values of `pick` that `a` and `b` both have, round by round. */
function pairs(a: CaseResult, b: CaseResult, pick: RoundFigure): Pair[] {
  if (!a.verified || !b.verified) return [];
  const byRound = new Map<number, number>();
  for (const r of b.raw) {
    const v = pick(r);
    if (v !== undefined) byRound.set(r.round ?? r.run, v);
  }
  const out: Pair[] = [];
  for (const r of a.raw) {
    const x = pick(r);
    const y = byRound.get(r.round ?? r.run);
    if (x !== undefined && y !== undefined) out.push([x, y, r.process]);
  }
  return out;
}

/** The pairs' values of `of` per process, in the order the processes ran; undefined unless two or more processes timed them. */
function perProcess(pairs: readonly Pair[], of: (p: Pair) => number): number[][] | undefined {
  if (pairs.length === 0 || pairs.some((p) => p[2] === undefined)) return undefined;
  const by = new Map<number, number[]>();
  for (const p of pairs) {
    const list = by.get(p[2]!) ?? [];
    if (list.length === 0) by.set(p[2]!, list);
    list.push(of(p));
  }
  return by.size >= 2 ? [...by.entries()].sort((x, y) => x[0] - y[0]).map((e) => e[1]) : undefined;
}

/** The median of a process's values: its one estimate. */
function medianOf(values: readonly number[]): number {
  return percentileSorted(Float64Array.from(values).sort(), 50);
}

/** Time per message of `a` relative to `b` (total time unless `pick` says which figure), paired round by round; undefined without a common round. */
export function pairedRatio(a: CaseResult, b: CaseResult, pick: RoundFigure = TOTAL): Estimate | undefined {
  const both = pairs(a, b, pick).filter(([x, y]) => x > 0 && y > 0);
  const n = both.length;
  if (n === 0) return undefined;
  const processes = perProcess(both, ([x, y]) => x / y);
  if (processes) {
    const { mean, half } = meanInterval(processes.map((ratios) => Math.log(medianOf(ratios))));
    return {
      value: Math.exp(mean),
      low: Math.exp(mean - half),
      high: Math.exp(mean + half),
      rounds: n,
      processes: processes.length,
    };
  }
  const ratios = both.map(([x, y]) => x / y);
  const median = medianInterval(ratios);
  if (median) return { value: median.median, low: median.low, high: median.high, rounds: n };
  const { mean, half } = meanInterval(ratios.map(Math.log));
  return { value: Math.exp(mean), low: Math.exp(mean - half), high: Math.exp(mean + half), rounds: n };
}

/**
 * Where a ratio's spread comes from, for sizing an experiment as Kalibera and Jones do
 * ("Rigorous Benchmarking in Reasonable Time", 2013): the variance of its rounds' log ratios
 * within a process (pooled over the processes), and the variance between processes beyond what
 * their rounds' own spread explains (the variance of the processes' means less the within
 * variance over the rounds a process ran, at least 0). Undefined unless two processes timed both.
 */
export function varianceParts(
  a: CaseResult,
  b: CaseResult,
  pick: RoundFigure = TOTAL,
): { within: number; between: number; rounds: number; processes: number } | undefined {
  const groups = perProcess(
    pairs(a, b, pick).filter(([x, y]) => x > 0 && y > 0),
    ([x, y]) => Math.log(x / y),
  );
  if (!groups) return undefined;
  const mean = (v: readonly number[]): number => v.reduce((s, x) => s + x, 0) / v.length;
  let squares = 0;
  let freedom = 0;
  for (const g of groups) {
    const m = mean(g);
    for (const v of g) squares += (v - m) ** 2;
    freedom += g.length - 1;
  }
  const within = freedom > 0 ? squares / freedom : 0;
  const means = groups.map(mean);
  const grand = mean(means);
  const ofMeans = means.reduce((s, m) => s + (m - grand) ** 2, 0) / (means.length - 1);
  const rounds = mean(groups.map((g) => g.length));
  return { within, between: Math.max(0, ofMeans - within / rounds), rounds, processes: groups.length };
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

/** `a`'s figure less `b`'s, round by round (what `a` costs on top of `b`, per message), as a median with its interval; the process the unit where several timed the rounds. */
export function pairedDifference(a: CaseResult, b: CaseResult, pick: RoundFigure): Estimate | undefined {
  const both = pairs(a, b, pick);
  const processes = perProcess(both, ([x, y]) => x - y);
  if (!processes) return estimate(both.map(([x, y]) => x - y));
  const { mean, half } = meanInterval(processes.map(medianOf));
  return { value: mean, low: mean - half, high: mean + half, rounds: both.length, processes: processes.length };
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
