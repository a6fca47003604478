/**
 * The JSON results file: settings, environment, codec order of every run,
 * and every case with its summaries and raw per-run figures. NaN (a figure a
 * failed case never got) is written as null.
 */

import type { BenchResults } from "../harness/results.ts";

export function toJson(results: BenchResults): string {
  return JSON.stringify(
    { format: "ws-serialization-bench/1", ...results },
    (_key, value: unknown) => (typeof value === "number" && !Number.isFinite(value) ? null : value),
    2,
  );
}
