/**
 * The JSON results file: settings, environment, codec order of every run,
 * and every case with its summaries and raw per-round figures. NaN (a figure
 * a failed case never got) is written as null.
 *
 * Indented for a reader, except the long lists, one entry per line (each
 * case's rounds, the codec order of every round): indented field by field,
 * three back-to-back default runs were 13 MB each. Fractions keep 7
 * significant digits, far finer than any clock here reads.
 */

import type { BenchResults } from "../harness/results.ts";

/** Keys whose arrays are written one entry per line. */
const LISTS = new Set(["raw", "order"]);

function number(value: unknown): unknown {
  if (typeof value !== "number") return value;
  if (!Number.isFinite(value)) return null;
  return Number.isInteger(value) ? value : Number(value.toPrecision(7));
}

/** `value` on one line, numbers as in the file. */
const compact = (value: unknown): string => JSON.stringify(value, (_key, v: unknown) => number(v));

export function toJson(results: BenchResults): string {
  const lists: string[] = [];
  const text = JSON.stringify(
    { format: "ws-serialization-bench/1", ...results },
    (key, value: unknown) => {
      if (!LISTS.has(key) || !Array.isArray(value)) return number(value);
      lists.push(`[\n${value.map(compact).join(",\n")}\n]`);
      return `\u0000list ${lists.length - 1}\u0000`;
    },
    2,
  );
  return text.replace(/"\\u0000list (\d+)\\u0000"/g, (_m, i: string) => lists[Number(i)]!);
}
