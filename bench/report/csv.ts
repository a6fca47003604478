/**
 * The CSV contract (version 2, in `csv_version`): one row per client x mode x codec x payload; a
 * header row; comma-separated; dot decimals; RFC 4180 quoting; UTF-8; ISO 8601 timestamps; units
 * in column names; no comment lines. The columns that answer the question come first (which
 * client, mode, payload and codec; its size; its time and ratio to JSON), then the spread, the
 * socket figures, the settings and last the machine, so a spreadsheet's first screen is the answer
 * and a row copied into another sheet still says what it was measured on. Every column is
 * described in docs/results-columns.md. Within a version columns may be added, never removed or
 * renamed; the report and the page read version 1 files too (rows.ts).
 */

import type { BenchResults, CaseResult } from "../harness/results.ts";
import type { Summary } from "../harness/stats.ts";
import { baselineCase, vsJson, vsRaw } from "./ratios.ts";

type Row = Record<string, string | number | boolean | undefined>;

const CSV_VERSION = 2;

/** The spread of the per-message figure over the rounds a row rests on (its mean and ci95 have columns of their own). */
const ROUND_FIELDS = [
  ["median", "median"],
  ["min", "min"],
  ["max", "max"],
  ["stddev", "stddev"],
] as const satisfies readonly (readonly [string, keyof Summary])[];

function roundColumns(prefix: string): string[] {
  return ROUND_FIELDS.map(([label]) => `${prefix}_round_${label}_ns`);
}

export const CSV_COLUMNS: readonly string[] = [
  // The answer: what was measured, and how it compares.
  "client",
  "mode",
  "payload",
  "codec",
  "verified",
  "bytes",
  "total_mean_ns",
  "total_ci95_ns",
  "total_vs_json",
  "total_vs_json_ci95_low",
  "total_vs_json_ci95_high",
  "bytes_vs_json",
  "deflate_bytes",
  "deflate_context_bytes",
  "zstd_bytes",
  "serialize_mean_ns",
  "deserialize_mean_ns",
  "msgs_per_s",
  "rtt_p50_ns",
  "rtt_p99_ns",
  "msgs_per_s_vs_raw",
  "flags",
  "error",
  // The spread over rounds, and the batches behind codec mode's times.
  ...roundColumns("total"),
  "serialize_ci95_ns",
  ...roundColumns("serialize"),
  "deserialize_ci95_ns",
  ...roundColumns("deserialize"),
  "run_total_ms",
  "bytes_min",
  "bytes_max",
  "round_msgs",
  "loop_floor_ns",
  "zstd_ns",
  "zstd_empty_ns",
  // The WebSocket modes.
  "rtt_p90_ns",
  "rtt_p999_ns",
  "rtt_p9999_ns",
  "rtt_max_ns",
  "target_rate",
  "achieved_rate",
  "late_sends",
  "service_p50_ns",
  "service_p99_ns",
  "service_p999_ns",
  "service_p9999_ns",
  "service_max_ns",
  "clients",
  "client_msgs_per_s_min",
  "client_msgs_per_s_max",
  "window",
  "deflate",
  "extensions",
  "wire_bytes",
  "reply_bytes",
  "reply_wire_bytes",
  "wire_compressed_share",
  "sent",
  "received",
  "lost",
  "reordered",
  "corrupted",
  "server_deserialize_mean_ns",
  "server_serialize_mean_ns",
  "mb_per_s",
  "backpressure",
  "dropped",
  "client_cpu_ms",
  "server_cpu_ms",
  "client_cpu_ns_per_msg",
  "client_busy_ns_per_msg",
  "server_cpu_ns_per_msg",
  "server_rss_peak_bytes",
  "elapsed_ms",
  // How it was run.
  "standard",
  "frame",
  "library",
  "library_version",
  "client_library",
  "fixed",
  "seed",
  "iterations",
  "runs",
  "rounds",
  "warmup",
  // When and on what.
  "timestamp",
  "runtime",
  "runtime_version",
  "os",
  "cpu",
  "cores",
  "timer_resolution_ns",
  "timer_overhead_ns",
  "cross_origin_isolated",
  "csv_version",
];

/** RFC 4180: quote a field holding a comma, quote, CR or LF; double inner quotes. */
export function csvField(value: string | number | boolean | undefined): string {
  if (value === undefined) return "";
  if (typeof value === "number") return Number.isFinite(value) ? formatNumber(value) : "";
  const s = String(value);
  return /[",\r\n]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
}

/** Up to 3 decimals, no exponent, no thousands separator. */
function formatNumber(v: number): string {
  if (Number.isInteger(v)) return Math.abs(v) < 1e21 ? String(v) : BigInt(v).toString();
  return v.toFixed(3).replace(/\.?0+$/, "");
}

/** What identifies a row and how it was measured, known even for a failed case. */
function identityColumns(results: BenchResults, c: CaseResult): Row {
  const env = results.environments?.[c.client] ?? results.environment;
  const json = baselineCase(results.cases, c, "json");
  return {
    timestamp: results.timestamp,
    runtime: env.runtime,
    runtime_version: env.runtimeVersion,
    client: c.client,
    client_library: c.clientLibrary,
    mode: c.mode,
    codec: c.codec,
    standard: c.standard,
    frame: c.frame,
    library: c.library,
    library_version: c.libraryVersion,
    payload: c.payload,
    fixed: results.settings.fixed,
    seed: results.settings.seed,
    iterations: c.iterations,
    runs: c.runs,
    rounds: c.rounds,
    warmup: c.warmup,
    verified: c.verified,
    error: c.error,
    flags: c.flags.join(" "),
    bytes: c.bytes,
    bytes_min: c.bytesMin,
    bytes_max: c.bytesMax,
    os: env.os,
    cpu: env.cpu,
    cores: env.cores,
    timer_resolution_ns: env.timerResolutionNs,
    timer_overhead_ns: env.timerOverheadNs,
    cross_origin_isolated: env.crossOriginIsolated ?? "",
    bytes_vs_json: json ? c.bytes / json.bytes : "",
    csv_version: CSV_VERSION,
  };
}

/** The timings of a verified case. */
function timingColumns(results: BenchResults, c: CaseResult): Row {
  const row: Row = {};
  for (const [prefix, summary] of [
    ["serialize", c.serialize],
    ["deserialize", c.deserialize],
    ["total", c.total],
  ] as const) {
    row[`${prefix}_mean_ns`] = summary.mean;
    row[`${prefix}_ci95_ns`] = summary.ci95;
    for (const [label, key] of ROUND_FIELDS) row[`${prefix}_round_${label}_ns`] = summary[key];
  }
  const ratio = vsJson(c, results.cases);
  return Object.assign(row, {
    run_total_ms: c.totalMs.mean,
    msgs_per_s: c.msgsPerS,
    total_vs_json: ratio?.ratio,
    total_vs_json_ci95_low: ratio?.low,
    total_vs_json_ci95_high: ratio?.high,
    round_msgs: c.socket ? c.socket.slice : c.serializeBatches.batch,
    loop_floor_ns: c.loopFloorNs,
  });
}

/** What only the WebSocket modes have; figures only for a verified case. */
function socketColumns(results: BenchResults, c: CaseResult, sock: NonNullable<CaseResult["socket"]>): Row {
  const perClient = (sock.perClient ?? []).flat().map((x) => x.msgsPerS);
  const row: Row = {
    clients: sock.clients,
    client_msgs_per_s_min: perClient.length > 0 ? Math.min(...perClient) : "",
    client_msgs_per_s_max: perClient.length > 0 ? Math.max(...perClient) : "",
    window: sock.window,
    wire_bytes: sock.wireBytes,
    reply_bytes: sock.replyBytes,
    reply_wire_bytes: sock.replyWireBytes,
    wire_compressed_share: sock.compressedShare,
    sent: sock.sent,
    received: sock.received,
    lost: sock.lost,
    reordered: sock.reordered,
    corrupted: sock.corrupted,
    backpressure: sock.backpressure,
    dropped: sock.dropped,
    client_cpu_ms: sock.clientCpuMs,
    server_cpu_ms: sock.serverCpuMs,
    client_cpu_ns_per_msg: sock.clientCpuNsPerMsg,
    client_busy_ns_per_msg: sock.clientBusyNsPerMsg,
    server_cpu_ns_per_msg: sock.serverCpuNsPerMsg,
    server_rss_peak_bytes: sock.serverRssPeakBytes,
    elapsed_ms: sock.elapsedMs,
    deflate: results.settings.deflate ?? false,
    extensions: sock.extensions,
  };
  if (!c.verified) return row;
  return Object.assign(row, {
    rtt_p50_ns: sock.rtt?.p50,
    rtt_p90_ns: sock.rtt?.p90,
    rtt_p99_ns: sock.rtt?.p99,
    rtt_p999_ns: sock.rtt?.p999,
    rtt_p9999_ns: sock.rtt?.p9999,
    rtt_max_ns: sock.rtt?.max,
    target_rate: sock.targetRate,
    achieved_rate: sock.achievedRate,
    late_sends: sock.late,
    service_p50_ns: sock.serviceTime?.p50,
    service_p99_ns: sock.serviceTime?.p99,
    service_p999_ns: sock.serviceTime?.p999,
    service_p9999_ns: sock.serviceTime?.p9999,
    service_max_ns: sock.serviceTime?.max,
    server_deserialize_mean_ns: sock.serverDeserialize.mean,
    server_serialize_mean_ns: sock.serverSerialize.mean,
    mb_per_s: sock.mbPerS,
    msgs_per_s_vs_raw: vsRaw(c, results.cases)?.ratio,
  });
}

function caseRow(results: BenchResults, c: CaseResult): Row {
  return {
    ...identityColumns(results, c),
    ...(c.verified ? timingColumns(results, c) : {}),
    ...(c.socket ? socketColumns(results, c, c.socket) : {}),
    ...(c.compression && c.verified
      ? {
          deflate_bytes: c.compression.deflateBytes,
          deflate_context_bytes: c.compression.deflateContextBytes,
          zstd_bytes: c.compression.zstdBytes,
          zstd_ns: c.compression.zstdNs,
          zstd_empty_ns: c.compression.zstdEmptyNs,
        }
      : {}),
  };
}

export function csvHeader(): string {
  return CSV_COLUMNS.join(",") + "\r\n";
}

/** The rows of these cases, each ending in CRLF as RFC 4180 has it. */
export function csvRows(results: BenchResults, cases: readonly CaseResult[] = results.cases): string {
  return cases
    .map((c) => {
      const row = caseRow(results, c);
      return CSV_COLUMNS.map((col) => csvField(row[col] as string | number | boolean | undefined)).join(",") + "\r\n";
    })
    .join("");
}

export function toCsv(results: BenchResults): string {
  return csvHeader() + csvRows(results);
}
