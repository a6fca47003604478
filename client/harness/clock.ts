/**
 * The clock every measurement reads, and its calibration: how finely it
 * ticks (resolution) and what one read costs (overhead). Both go into every
 * results file, and the harness sizes its batches from them.
 */

export interface Clock {
  /** Milliseconds, as `performance.now()`. */
  now(): number;
  /** What the results files call it. */
  readonly name: string;
}

export const performanceClock: Clock = {
  name: "performance.now",
  now: () => performance.now(),
};

export interface ClockCalibration {
  /** Median step between two different readings, in ns. */
  resolutionNs: number;
  /** Median cost of one reading, in ns. */
  overheadNs: number;
}

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

/**
 * Spins until the clock ticks, `ticks` times, for the resolution; times
 * `reads` back-to-back reads, `rounds` times, for the overhead.
 */
export function calibrateClock(clock: Clock, ticks = 200, reads = 20_000, rounds = 9): ClockCalibration {
  const steps: number[] = [];
  for (let i = 0; i < ticks; i++) {
    const t0 = clock.now();
    let t1 = clock.now();
    while (t1 === t0) t1 = clock.now();
    // Start on a tick edge, so the step measured is one whole tick.
    const t2 = (() => {
      let t = clock.now();
      while (t === t1) t = clock.now();
      return t;
    })();
    steps.push((t2 - t1) * 1e6);
  }
  const costs: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const t0 = clock.now();
    for (let i = 0; i < reads; i++) clock.now();
    const t1 = clock.now();
    costs.push(((t1 - t0) * 1e6) / (reads + 1));
  }
  // Rounded to picoseconds: the ms-to-ns conversion leaves float dust.
  const ps = (ns: number): number => Math.round(ns * 1000) / 1000;
  return { resolutionNs: ps(median(steps)), overheadNs: ps(median(costs)) };
}
