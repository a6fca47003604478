/**
 * A results file from disk as every report reads it: the JSON a run writes, as it is or
 * gzip-compressed (results/sample/ keeps its files so; a CI baseline may be kept so too).
 */

import { readFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import type { BenchResults } from "../../client/harness/results.ts";
import { resultsFromFile } from "../report/results-file.ts";

/** A file's text, gunzipped when it is gzip (its first two bytes say so, whatever its name). */
export function resultsText(file: string): string {
  const bytes = readFileSync(file);
  return (bytes[0] === 0x1f && bytes[1] === 0x8b ? gunzipSync(bytes) : bytes).toString("utf8");
}

/** A results file's results; a file that is not one throws ReportError, saying what it is instead. */
export function readResults(file: string): BenchResults {
  return resultsFromFile(resultsText(file));
}
