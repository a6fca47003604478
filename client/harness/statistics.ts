/**
 * Summary statistics across runs. Percentiles interpolate linearly between
 * the closest ranks (the usual spreadsheet PERCENTILE.INC); the 95%
 * confidence interval of the mean uses Student's t, since a handful of runs
 * is far too few for the normal approximation.
 */

export interface Summary {
  n: number;
  mean: number;
  median: number;
  /** The median's distribution-free 95% interval (medianInterval); NaN below 6 values, where none exists. */
  medianLow: number;
  medianHigh: number;
  p90: number;
  p99: number;
  min: number;
  max: number;
  stddev: number;
  /** Half-width of the 95% confidence interval of the mean (0 when n < 2). */
  ci95: number;
}

/** Two-sided 97.5% quantiles of Student's t for 1..30 degrees of freedom. */
const T975 = [
  12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.16, 2.145, 2.131, 2.12, 2.11,
  2.101, 2.093, 2.086, 2.08, 2.074, 2.069, 2.064, 2.06, 2.056, 2.052, 2.048, 2.045, 2.042,
];

export function tQuantile975(degreesOfFreedom: number): number {
  if (degreesOfFreedom < 1) return Number.NaN;
  return T975[degreesOfFreedom - 1] ?? 1.96;
}

/** Percentile `p` (0..100) of values already sorted ascending. */
export function percentileSorted(sorted: ArrayLike<number>, p: number): number {
  const n = sorted.length;
  if (n === 0) return Number.NaN;
  if (n === 1) return sorted[0]!;
  const rank = (p / 100) * (n - 1);
  const lo = Math.floor(rank);
  const hi = Math.min(lo + 1, n - 1);
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (rank - lo);
}

/** A summary that has only `figures` (a file that keeps some of them, a figure nobody measured); the rest NaN. */
export function partialSummary(figures: Partial<Summary> = {}): Summary {
  return {
    n: NaN,
    mean: NaN,
    median: NaN,
    medianLow: NaN,
    medianHigh: NaN,
    p90: NaN,
    p99: NaN,
    min: NaN,
    max: NaN,
    stddev: NaN,
    ci95: NaN,
    ...figures,
  };
}

export function summarize(values: readonly number[]): Summary {
  const n = values.length;
  if (n === 0) return partialSummary({ n: 0 });
  const sorted = [...values].sort((a, b) => a - b);
  const mean = values.reduce((s, v) => s + v, 0) / n;
  const variance = n > 1 ? values.reduce((s, v) => s + (v - mean) ** 2, 0) / (n - 1) : 0;
  const stddev = Math.sqrt(variance);
  const interval = medianInterval(sorted);
  return {
    n,
    mean,
    median: percentileSorted(sorted, 50),
    medianLow: interval?.low ?? NaN,
    medianHigh: interval?.high ?? NaN,
    p90: percentileSorted(sorted, 90),
    p99: percentileSorted(sorted, 99),
    min: sorted[0]!,
    max: sorted[n - 1]!,
    stddev,
    ci95: n > 1 ? (tQuantile975(n - 1) * stddev) / Math.sqrt(n) : 0,
  };
}

/** The mean of a few values and the half-width of its Student's t 95% interval (0 for one value). */
export function meanInterval(values: readonly number[]): { mean: number; half: number } {
  const n = values.length;
  const mean = values.reduce((s, v) => s + v, 0) / n;
  const sd = n > 1 ? Math.sqrt(values.reduce((s, v) => s + (v - mean) ** 2, 0) / (n - 1)) : 0;
  return { mean, half: n > 1 ? (tQuantile975(n - 1) * sd) / Math.sqrt(n) : 0 };
}

/**
 * `summarize`, where each value came from a process (`processes[i]`, codec mode's fresh
 * processes): with two or more, the median's interval is the processes' (rounds of one process
 * are not independent: pairing.ts), the median times exp(±t s / sqrt(n)) for the logarithms of
 * the n processes' medians, s their standard deviation. Without processes, `summarize`.
 */
export function summarizeByProcess(values: readonly number[], processes: readonly (number | undefined)[]): Summary {
  const summary = summarize(values);
  const by = new Map<number, number[]>();
  for (const [i, v] of values.entries()) {
    const p = processes[i];
    if (p === undefined || !(v > 0)) return summary;
    const list = by.get(p) ?? [];
    if (list.length === 0) by.set(p, list);
    list.push(v);
  }
  if (by.size < 2) return summary;
  const { half } = meanInterval(
    [...by.values()].map((list) => Math.log(percentileSorted(Float64Array.from(list).sort(), 50))),
  );
  return { ...summary, medianLow: summary.median * Math.exp(-half), medianHigh: summary.median * Math.exp(half) };
}

/**
 * True when the two 95% intervals overlap: the report must not call either
 * faster. One run has no interval at all, so it proves nothing either way.
 */
export function intervalsOverlap(a: Summary, b: Summary): boolean {
  if (a.n < 2 || b.n < 2) return true;
  return a.mean - a.ci95 <= b.mean + b.ci95 && b.mean - b.ci95 <= a.mean + a.ci95;
}

/**
 * A median and its distribution-free 95% interval: the order statistics
 * x(k) and x(n+1-k) with the largest k for which a Binomial(n, 1/2) falls
 * below k with probability at most 2.5%. It assumes nothing about the
 * shape of the distribution (timings are skewed: a collection or a
 * context switch lands in one slice, not all). Needs at least 6 values;
 * with fewer no 95% interval exists and undefined is returned.
 */
export function medianInterval(values: readonly number[]): { median: number; low: number; high: number } | undefined {
  const n = values.length;
  if (n < 6) return undefined;
  const sorted = Float64Array.from(values).sort();
  // P(B <= j) for B ~ Binomial(n, 1/2), summed in log space to stay finite for large n.
  let logPmf = -n * Math.LN2;
  let cdf = Math.exp(logPmf);
  let k = 0;
  for (let j = 0; cdf <= 0.025 && j < n; j++) {
    k = j + 1;
    logPmf += Math.log((n - j) / (j + 1));
    cdf += Math.exp(logPmf);
  }
  return { median: percentileSorted(sorted, 50), low: sorted[k - 1]!, high: sorted[n - k]! };
}
