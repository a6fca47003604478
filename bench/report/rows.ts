/**
 * Flat figures for charts, read from any results source: a run in memory,
 * a CSV file, or a JSON file written by the CLI or the page. Going through
 * the CSV contract means every source is charted from the same columns.
 */

import type { BenchResults } from "../harness/results.ts";
import { toCsv } from "./csv.ts";
import { parseCsv } from "./csv-parse.ts";

export interface ChartRow {
  /**
   * What ran the figures, one name per runtime: "bun 1.4.4" (in process and
   * Bun's client alike), "node client", "Chrome 156"; a loaded file's name
   * is added to it.
   */
  source: string;
  mode: string;
  codec: string;
  payload: string;
  standard: boolean;
  bytes: number;
  /** Codec mode from the CLI: bytes per message compressed (deflate alone, deflate in a stream, zstd); NaN elsewhere. */
  deflateBytes: number;
  deflateContextBytes: number;
  zstdBytes: number;
  /** Means per message, with the half-width of their 95% interval. */
  serializeNs: number;
  deserializeNs: number;
  totalNs: number;
  serializeCi95Ns: number;
  deserializeCi95Ns: number;
  totalCi95Ns: number;
  /** Median per message (codec mode: of the rounds). */
  totalMedianNs: number;
  rttP50Ns: number;
  rttP99Ns: number;
  /** The rest of the latency percentiles (latency mode: corrected, from each message's due time). */
  rttP90Ns: number;
  rttP999Ns: number;
  rttP9999Ns: number;
  rttMaxNs: number;
  /** Replies received (the samples behind the percentiles). */
  received: number;
  /** Latency mode: messages per second asked for (NaN in the other modes). */
  targetRate: number;
  msgsPerS: number;
  /** Paired ratio to json and its 95% interval (NaN where json did not run). */
  vsJson: number;
  vsJsonLow: number;
  vsJsonHigh: number;
  flags: string[];
  /** Timed slices the figures rest on (codec mode: rounds; socket modes: runs). */
  rounds: number;
  /** When the run began (ISO 8601). */
  timestamp: string;
  /** The run's settings and machine, as every CSV row carries them. */
  settings: { iterations: number; runs: number; seed: string; fixed: boolean; deflate: boolean; window: number; clients: number };
  machine: { os: string; cpu: string; cores: number; timerResolutionNs: number; timerOverheadNs: number; clientLibrary: string };
}

const num = (v: string | undefined): number => (v === undefined || v === "" ? NaN : Number(v));

/** One label per runtime: the in-process rows and Bun's client of one run are the same "bun 1.4.4". */
function sourceOf(client: string, runtime: string, version: string): string {
  if (client === "browser") return version.replace(/^(\w+) (\d+)\..*$/, "$1 $2") || "browser";
  if (client === "node") return "node client";
  return `${runtime} ${version}`.trim();
}

/** Columns version 2 of the CSV renamed, under their new names, so files written before still load. */
const VERSION_1_NAMES: Record<string, string> = {
  total_median_ns: "total_round_median_ns",
  serialize_median_ns: "serialize_round_median_ns",
  deserialize_median_ns: "deserialize_round_median_ns",
  total_ms: "run_total_ms",
};

/** Rows of a CSV in the benchmark's contract (version 1 or 2); failed cases are left out. */
function rowsFromCsv(text: string): ChartRow[] {
  const [header, ...body] = parseCsv(text);
  if (!header || !header.includes("codec") || !header.includes("mode")) throw new Error("not a results CSV: no codec and mode columns");
  const col = new Map(header.map((name, i) => [VERSION_1_NAMES[name] ?? name, i]));
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
      deflateBytes: num(get(row, "deflate_bytes")),
      deflateContextBytes: num(get(row, "deflate_context_bytes")),
      zstdBytes: num(get(row, "zstd_bytes")),
      serializeNs: num(get(row, "serialize_mean_ns")),
      deserializeNs: num(get(row, "deserialize_mean_ns")),
      totalNs: num(get(row, "total_mean_ns")),
      serializeCi95Ns: num(get(row, "serialize_ci95_ns")),
      deserializeCi95Ns: num(get(row, "deserialize_ci95_ns")),
      totalCi95Ns: num(get(row, "total_ci95_ns")),
      totalMedianNs: num(get(row, "total_round_median_ns")),
      rttP50Ns: num(get(row, "rtt_p50_ns")),
      rttP99Ns: num(get(row, "rtt_p99_ns")),
      rttP90Ns: num(get(row, "rtt_p90_ns")),
      rttP999Ns: num(get(row, "rtt_p999_ns")),
      rttP9999Ns: num(get(row, "rtt_p9999_ns")),
      rttMaxNs: num(get(row, "rtt_max_ns")),
      received: num(get(row, "received")),
      targetRate: num(get(row, "target_rate")),
      msgsPerS: num(get(row, "msgs_per_s")),
      vsJson: num(get(row, "total_vs_json")),
      vsJsonLow: num(get(row, "total_vs_json_ci95_low")),
      vsJsonHigh: num(get(row, "total_vs_json_ci95_high")),
      flags: (get(row, "flags") ?? "").split(/[ ;|]+/).filter((f) => f !== ""),
      rounds: num(get(row, "rounds") ?? get(row, "runs")),
      timestamp: get(row, "timestamp") ?? "",
      settings: {
        iterations: num(get(row, "iterations")),
        runs: num(get(row, "runs")),
        seed: get(row, "seed") ?? "",
        fixed: get(row, "fixed") === "true",
        deflate: get(row, "deflate") === "true",
        window: num(get(row, "window")),
        clients: num(get(row, "clients")),
      },
      machine: {
        os: get(row, "os") ?? "",
        cpu: get(row, "cpu") ?? "",
        cores: num(get(row, "cores")),
        timerResolutionNs: num(get(row, "timer_resolution_ns")),
        timerOverheadNs: num(get(row, "timer_overhead_ns")),
        clientLibrary: get(row, "client_library") ?? "",
      },
    }));
}

export function rowsFromResults(results: BenchResults): ChartRow[] {
  return rowsFromCsv(toCsv(results));
}

/** A results JSON's text as results (figures a failed case never got, written as null, back to NaN); undefined for a CSV. */
export function resultsFromFile(text: string): BenchResults | undefined {
  const trimmed = text.trimStart();
  if (!trimmed.startsWith("{")) return undefined;
  const results = JSON.parse(trimmed) as BenchResults;
  if (!Array.isArray(results.cases)) throw new Error("not a results JSON: no cases");
  for (const c of results.cases) reviveNulls(c as unknown as Record<string, unknown>);
  return results;
}

/** A results file's text, CSV or JSON (as the CLI and the page write them). */
export function rowsFromFile(text: string): ChartRow[] {
  const results = resultsFromFile(text);
  return results ? rowsFromResults(results) : rowsFromCsv(text);
}

function reviveNulls(o: Record<string, unknown>): void {
  for (const [k, v] of Object.entries(o)) {
    if (v === null) o[k] = NaN;
    else if (typeof v === "object" && !Array.isArray(v)) reviveNulls(v as Record<string, unknown>);
  }
}
