/**
 * The console table's columns, one set per mode, and the order each mode's
 * rows are listed in. A cell is plain text; ratios are the ones the results
 * carry (bench/harness/ratios.ts).
 */

import type { CaseResult } from "../harness/results.ts";
import { codecLabel, count, formatNs, mebibytes, percent, ratioText } from "./format.ts";

/**
 * Total time relative to json, or throughput relative to raw, paired round
 * by round, with the half-width of its 95% interval in percent. Marked "≈"
 * whenever that interval holds 1, so the table never calls a codec faster
 * than the data can show; one round shows no interval at all. Blank where
 * the baseline did not run.
 */
function ratioCell(c: CaseResult, base: "json" | "raw"): string {
  if (c.codec === base) return "1.00";
  const r = base === "json" ? c.ratios?.vsJson : c.ratios?.vsRaw;
  return r ? ratioText(r) : "";
}

/**
 * A column: header, width, and the cell text of a case. `wide`: shown only
 * with --wide (the default table fits 100 columns; every figure is in the
 * CSV and JSON either way).
 */
export interface Column {
  title: string;
  width: number;
  cell: (c: CaseResult) => string;
  wide?: true;
  /** A wide column shown by default when the connections negotiated permessage-deflate. */
  deflate?: true;
}

export const NAME: Column = { title: "codec", width: 17, cell: codecLabel };
const BYTES: Column = { title: "bytes", width: 6, cell: (c) => count(c.bytes) };
const VS_JSON: Column = { title: "vs json", width: 12, cell: (c) => ratioCell(c, "json") };
const VS_RAW: Column = { title: "vs raw", width: 12, cell: (c) => ratioCell(c, "raw") };
/** Frames on the wire per message, as counted on the socket: what compression left of the bytes. */
const WIRE: Column = { title: "wire", width: 6, cell: (c) => count(c.socket!.wireBytes), wide: true, deflate: true };
const REPLY_WIRE: Column = { title: "reply wire", width: 10, cell: (c) => count(c.socket!.replyWireBytes ?? NaN), wide: true, deflate: true };
const LOST: Column = { title: "lost", width: 5, cell: (c) => count(c.socket!.lost), wide: true };
/** a + b, or NaN when either is unknown (a results file stores NaN as null). */
const sum = (a: number | null, b: number | null): number => (typeof a === "number" && typeof b === "number" ? a + b : NaN);
/** Encode + decode per message on each side of the socket ("-" for raw, which does neither). */
const CLIENT_CODEC: Column = { title: "client", width: 10, cell: (c) => formatNs(sum(c.serialize.mean, c.deserialize.mean)) };
/** The server's side: the field figure (bench/harness/field.ts) where the slices carried it, else its totals over the connection. */
const SERVER_CODEC: Column = {
  title: "server",
  width: 10,
  cell: (c) => (c.codec === "raw" ? "-" : formatNs(c.ratios?.field?.value ?? sum(c.socket!.serverDeserialize.mean, c.socket!.serverSerialize.mean))),
};
const CLIENT_SER: Column = { title: "client ser", width: 10, cell: (c) => formatNs(c.serialize.mean), wide: true };
const CLIENT_DE: Column = { title: "client de", width: 10, cell: (c) => formatNs(c.deserialize.mean), wide: true };

/** Codec mode: medians of the rounds' slices, the mean with collections included, the paired ratio. */
const CODEC_COLUMNS: Column[] = [
  NAME,
  BYTES,
  { title: "serialize", width: 10, cell: (c) => formatNs(c.serialize.median) },
  { title: "deserialize", width: 11, cell: (c) => formatNs(c.deserialize.median) },
  { title: "total", width: 10, cell: (c) => formatNs(c.total.median) },
  { title: "mean+gc", width: 10, cell: (c) => formatNs(c.total.mean) },
  VS_JSON,
  { title: "msgs/s", width: 10, cell: (c) => count(1e9 / c.total.median), wide: true },
];

const ROUNDTRIP_COLUMNS: Column[] = [
  NAME,
  BYTES,
  WIRE,
  REPLY_WIRE,
  CLIENT_CODEC,
  SERVER_CODEC,
  CLIENT_SER,
  CLIENT_DE,
  { title: "rtt mean", width: 9, cell: (c) => formatNs(c.total.mean) },
  { title: "± 95%", width: 9, cell: (c) => (c.total.n < 2 ? "-" : formatNs(c.total.ci95)), wide: true },
  { title: "p50", width: 9, cell: (c) => formatNs(c.socket!.rtt?.p50 ?? NaN) },
  { title: "p99", width: 9, cell: (c) => formatNs(c.socket!.rtt?.p99 ?? NaN) },
  { title: "p99.9", width: 9, cell: (c) => formatNs(c.socket!.rtt?.p999 ?? NaN), wide: true },
  { title: "max", width: 9, cell: (c) => formatNs(c.socket!.rtt?.max ?? NaN), wide: true },
  VS_JSON,
  LOST,
];

const STREAM_COLUMNS: Column[] = [
  NAME,
  BYTES,
  WIRE,
  REPLY_WIRE,
  { title: "msgs/s", width: 9, cell: (c) => count(c.msgsPerS) },
  { title: "MB/s", width: 6, cell: (c) => (Number.isFinite(c.socket!.mbPerS) ? c.socket!.mbPerS.toFixed(1) : "-"), wide: true },
  VS_RAW,
  VS_JSON,
  CLIENT_CODEC,
  SERVER_CODEC,
  CLIENT_SER,
  CLIENT_DE,
  { title: "cpu cl/srv", width: 10, cell: (c) => `${percent(c.socket!.clientCpuMs, c.socket!.elapsedMs)}/${percent(c.socket!.serverCpuMs, c.socket!.elapsedMs)}` },
  LOST,
];

/** Latency mode: the rate achieved, corrected percentiles (from each message's due time), the service time's p99 beside them. */
const LATENCY_COLUMNS: Column[] = [
  NAME,
  BYTES,
  { title: "msgs/s", width: 7, cell: (c) => count(c.socket!.achievedRate ?? NaN) },
  { title: "p50", width: 9, cell: (c) => formatNs(c.socket!.rtt?.p50 ?? NaN) },
  { title: "p99", width: 9, cell: (c) => formatNs(c.socket!.rtt?.p99 ?? NaN) },
  { title: "p99.9", width: 9, cell: (c) => formatNs(c.socket!.rtt?.p999 ?? NaN), wide: true },
  { title: "svc p99", width: 9, cell: (c) => formatNs(c.socket!.serviceTime?.p99 ?? NaN) },
  { title: "late", width: 5, cell: (c) => count(c.socket!.late ?? NaN) },
  VS_JSON,
  // Which side saturates first: CPU per message on each side, the server's memory during the step.
  { title: "busy cl", width: 9, cell: (c) => formatNs(c.socket!.clientBusyNsPerMsg ?? NaN), wide: true },
  { title: "cpu srv", width: 9, cell: (c) => formatNs(c.socket!.serverCpuNsPerMsg ?? NaN) },
  { title: "srv RSS", width: 7, cell: (c) => mebibytes(c.socket!.serverRssPeakBytes ?? NaN), wide: true },
  LOST,
];

const FANOUT_COLUMNS: Column[] = [
  NAME,
  BYTES,
  { title: "deliveries/s", width: 12, cell: (c) => count(c.msgsPerS) },
  VS_RAW,
  VS_JSON,
  CLIENT_SER,
  CLIENT_DE,
  { title: "pub drops", width: 9, cell: (c) => count(c.socket!.dropped) },
  LOST,
];

/** Codec mode's messages compressed (bench/harness/compression.ts): bytes per message and time to compress one. */
export const COMPRESSION_COLUMNS: Column[] = [
  NAME,
  BYTES,
  { title: "deflate", width: 7, cell: (c) => count(c.compression!.deflateBytes) },
  { title: "in stream", width: 9, cell: (c) => count(c.compression!.deflateContextBytes) },
  { title: "zstd", width: 6, cell: (c) => count(c.compression!.zstdBytes) },
  { title: "zstd time", width: 10, cell: (c) => formatNs(c.compression!.zstdNs) },
  { title: "empty", width: 9, cell: (c) => formatNs(c.compression!.zstdEmptyNs) },
];

export const MODE_VIEWS = [
  {
    mode: "codec",
    title: "codec mode: serialize + deserialize in process, per message, median of the rounds",
    columns: CODEC_COLUMNS,
    order: (a: CaseResult, b: CaseResult) => a.total.median - b.total.median,
  },
  {
    mode: "roundtrip",
    title: "roundtrip mode: one message in flight; round-trip latency from every message",
    columns: ROUNDTRIP_COLUMNS,
    order: (a: CaseResult, b: CaseResult) => a.total.mean - b.total.mean,
  },
  {
    mode: "stream",
    title: "stream mode: a window of messages in flight; throughput",
    columns: STREAM_COLUMNS,
    order: (a: CaseResult, b: CaseResult) => b.msgsPerS - a.msgsPerS,
  },
  {
    mode: "latency",
    title: "latency mode: an open loop at a fixed rate; latency from when each message was due",
    columns: LATENCY_COLUMNS,
    order: (a: CaseResult, b: CaseResult) => a.total.mean - b.total.mean,
  },
  {
    mode: "fanout",
    title: "fanout mode: one publisher, every message to all subscribers via Bun's pub/sub",
    columns: FANOUT_COLUMNS,
    order: (a: CaseResult, b: CaseResult) => b.msgsPerS - a.msgsPerS,
  },
] as const;

/** Slowest and fastest client's messages/s, with several clients. */
export const SPREAD: Column = {
  title: "clients",
  width: 17,
  cell: (c) => {
    const rates = (c.socket?.perClient ?? []).flat().map((x) => x.msgsPerS);
    return rates.length > 0 ? `${count(Math.min(...rates))}..${count(Math.max(...rates))}` : "-";
  },
};

