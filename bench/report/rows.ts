/**
 * Flat figures for charts, read from any results source: a run in memory,
 * a CSV file, or a JSON file written by the CLI or the page. Going through
 * the CSV contract means every source is charted from the same columns.
 */

import type { BenchResults } from "../harness/results.ts";
import { toCsv } from "./csv.ts";
import { parseCsv } from "./csv-parse.ts";

export interface ChartRow {
  /** Where the figures come from, e.g. "bun 1.4.4", "bun client", "browser (Chrome 156)". */
  source: string;
  mode: string;
  codec: string;
  payload: string;
  standard: boolean;
  bytes: number;
  serializeNs: number;
  deserializeNs: number;
  totalNs: number;
  rttP50Ns: number;
  rttP99Ns: number;
  msgsPerS: number;
}

const num = (v: string | undefined): number => (v === undefined || v === "" ? NaN : Number(v));

function sourceOf(client: string, runtime: string, version: string): string {
  if (client === "inprocess") return `${runtime} ${version}`.trim();
  if (client === "browser") return `browser (${version})`;
  return `${client} client`;
}

/** Rows of a CSV in the benchmark's contract; failed cases are left out. */
function rowsFromCsv(text: string): ChartRow[] {
  const [header, ...body] = parseCsv(text);
  if (!header || !header.includes("codec") || !header.includes("mode")) throw new Error("not a results CSV: no codec and mode columns");
  const col = new Map(header.map((name, i) => [name, i]));
  const get = (row: string[], name: string): string | undefined => {
    const i = col.get(name);
    return i === undefined ? undefined : row[i];
  };
  return body
    .filter((row) => row.length > 1 && get(row, "verified") === "true")
    .map((row) => ({
      source: sourceOf(get(row, "client") ?? "", get(row, "runtime") ?? "", get(row, "runtime_version") ?? ""),
      mode: get(row, "mode") ?? "",
      codec: get(row, "codec") ?? "",
      payload: get(row, "payload") ?? "",
      standard: get(row, "standard") !== "false",
      bytes: num(get(row, "bytes")),
      serializeNs: num(get(row, "serialize_mean_ns")),
      deserializeNs: num(get(row, "deserialize_mean_ns")),
      totalNs: num(get(row, "total_mean_ns")),
      rttP50Ns: num(get(row, "rtt_p50_ns")),
      rttP99Ns: num(get(row, "rtt_p99_ns")),
      msgsPerS: num(get(row, "msgs_per_s")),
    }));
}

export function rowsFromResults(results: BenchResults): ChartRow[] {
  return rowsFromCsv(toCsv(results));
}

/** A results file's text, CSV or JSON (as the CLI and the page write them). */
export function rowsFromFile(text: string): ChartRow[] {
  const trimmed = text.trimStart();
  if (trimmed.startsWith("{")) {
    const results = JSON.parse(trimmed) as BenchResults;
    if (!Array.isArray(results.cases)) throw new Error("not a results JSON: no cases");
    // The JSON writes figures a failed case never got as null.
    for (const c of results.cases) reviveNulls(c as unknown as Record<string, unknown>);
    return rowsFromResults(results);
  }
  return rowsFromCsv(text);
}

function reviveNulls(o: Record<string, unknown>): void {
  for (const [k, v] of Object.entries(o)) {
    if (v === null) o[k] = NaN;
    else if (typeof v === "object" && !Array.isArray(v)) reviveNulls(v as Record<string, unknown>);
  }
}
