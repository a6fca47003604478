/**
 * How long a timed batch lasts and in what order cases run: the pieces of
 * the measuring plan every mode shares.
 */

import type { ClockCalibration } from "./clock.ts";

/**
 * Shortest batch worth timing: 100x the clock's resolution, so a tick is at
 * most 1% of a sample, and 1000x the cost of a clock read, so reading the
 * clock is at most 0.1% of it.
 */
export function minBatchNs(calibration: ClockCalibration): number {
  return Math.max(100 * calibration.resolutionNs, 1000 * calibration.overheadNs);
}

/**
 * Messages per batch for an operation costing `perOpNs`, aiming 10% above
 * the floor so that an estimate one tick off still clears it.
 */
export function batchSizeFor(perOpNs: number, calibration: ClockCalibration, iterations: number): number {
  const ideal = Math.ceil((1.1 * minBatchNs(calibration)) / Math.max(perOpNs, 1e-3));
  return Math.max(1, Math.min(iterations, ideal));
}

/** Fisher-Yates with the benchmark's seeded generator. */
export function shuffled<T>(items: readonly T[], rng: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(rng() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}
