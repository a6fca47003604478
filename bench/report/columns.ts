/**
 * The case table's columns, one set per mode, and the order each mode's rows are listed in: one
 * spec the terminal's table (table.ts), report.html and the page (table-html.ts) all lay out.
 * Each column a title, a width in the terminal, and the cell text of a case; `wide` ones the
 * terminal shows only with --wide (its default fits 100 columns), the HTML tables always.
 */

import type { CaseResult, Estimate } from "../../client/harness/results.ts";
import { caseLinkUse, heldByText } from "./link-use.ts";
import { codecLabel, count, formatNs, mebibytes, percent, ratioText, TERMINAL_WIDTH } from "./format.ts";

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
  /** Shown only when the cases crossed a link (--link). */
  link?: true;
}

export const NAME: Column = { title: "codec", width: 17, cell: codecLabel };
const BYTES: Column = { title: "bytes", width: 6, cell: (c) => count(c.bytes) };
const VS_JSON: Column = { title: "vs json", width: 12, cell: (c) => ratioCell(c, "json") };
const VS_RAW: Column = { title: "vs raw", width: 12, cell: (c) => ratioCell(c, "raw") };
/** Frames on the wire per message, as counted on the socket: what compression left of the bytes. */
const WIRE: Column = { title: "wire", width: 6, cell: (c) => count(c.socket!.wireBytes), wide: true, deflate: true };
const REPLY_WIRE: Column = {
  title: "reply wire",
  width: 10,
  cell: (c) => count(c.socket!.replyWireBytes ?? NaN),
  wide: true,
  deflate: true,
};
const LOST: Column = { title: "lost", width: 5, cell: (c) => count(c.socket!.lost), wide: true };
/** Roundtrip over a link: its frames' time at the link's rates, ms; the link's own round trip is in the header. */
const ON_WIRE: Column = {
  title: "on wire",
  width: 8,
  cell: (c) => formatNs((caseLinkUse(c)?.bytesMs ?? NaN) * 1e6),
  link: true,
};
/** Stream and fanout over a link: what held the case back, and how full that way was. */
const LIMIT: Column = {
  title: "held by",
  width: 11,
  cell: (c) => {
    const u = caseLinkUse(c);
    return u ? heldByText(u) : "";
  },
  link: true,
};
/** a + b, or NaN when either is unknown (a results file stores NaN as null). */
const sum = (a: number | null, b: number | null): number =>
  typeof a === "number" && typeof b === "number" ? a + b : NaN;
/** Encode + decode per message on each side of the socket ("-" for raw, which does neither). */
const CLIENT_CODEC: Column = {
  title: "client",
  width: 10,
  cell: (c) => formatNs(sum(c.serialize.mean, c.deserialize.mean)),
};
/** The server's side: the field figure (client/harness/field.ts) where the slices carried it, else its totals over the connection. */
const SERVER_CODEC: Column = {
  title: "server",
  width: 10,
  cell: (c) =>
    c.codec === "raw"
      ? "-"
      : formatNs(c.ratios?.field?.value ?? sum(c.socket!.serverDeserialize.mean, c.socket!.serverSerialize.mean)),
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
  { title: "rtt", width: 9, cell: (c) => formatNs(c.total.median) },
  ON_WIRE,
  {
    title: "95%",
    width: 19,
    cell: (c) =>
      Number.isFinite(c.total.medianLow) ? `${formatNs(c.total.medianLow)}-${formatNs(c.total.medianHigh)}` : "-",
    wide: true,
  },
  { title: "rtt mean", width: 9, cell: (c) => formatNs(c.total.mean), wide: true },
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
  LIMIT,
  {
    title: "MB/s",
    width: 6,
    cell: (c) => (Number.isFinite(c.socket!.mbPerS) ? c.socket!.mbPerS.toFixed(1) : "-"),
    wide: true,
  },
  VS_RAW,
  VS_JSON,
  CLIENT_CODEC,
  SERVER_CODEC,
  CLIENT_SER,
  CLIENT_DE,
  {
    title: "cpu cl/srv",
    width: 10,
    cell: (c) =>
      `${percent(c.socket!.clientCpuMs, c.socket!.elapsedMs)}/${percent(c.socket!.serverCpuMs, c.socket!.elapsedMs)}`,
  },
  LOST,
];

/** Latency mode: the rate achieved, corrected percentiles (from each message's due time), the service time's p99 beside them. */
const LATENCY_COLUMNS: Column[] = [
  NAME,
  BYTES,
  { title: "msgs/s", width: 7, cell: (c) => count(c.socket!.achievedRate ?? NaN) },
  { title: "p50", width: 9, cell: (c) => formatNs(c.socket!.latency?.p50 ?? NaN) },
  { title: "p99", width: 9, cell: (c) => formatNs(c.socket!.latency?.p99 ?? NaN) },
  { title: "p99.9", width: 9, cell: (c) => formatNs(c.socket!.latency?.p999 ?? NaN), wide: true },
  { title: "svc p99", width: 9, cell: (c) => formatNs(c.socket!.serviceTime?.p99 ?? NaN) },
  { title: "late", width: 5, cell: (c) => count(c.socket!.late ?? NaN) },
  VS_JSON,
  // Which side saturates first: CPU per message on each side, the server's memory during the step.
  { title: "busy cl", width: 9, cell: (c) => formatNs(c.socket!.clientBusyNsPerMsg ?? NaN), wide: true },
  { title: "cpu srv", width: 9, cell: (c) => formatNs(c.socket!.serverCpuNsPerMsg ?? NaN) },
  { title: "srv RSS", width: 7, cell: (c) => mebibytes(c.socket!.serverRssPeakBytes ?? NaN), wide: true },
  LOST,
];

/**
 * fanout: deliveries per second, each delivery's time from its message's send, and what the whole
 * server side (every process, client/socket/cluster-figures.ts) spent per delivery; with a
 * backplane, its wire bytes per message.
 */
const FANOUT_COLUMNS: Column[] = [
  NAME,
  BYTES,
  { title: "deliveries/s", width: 12, cell: (c) => count(c.msgsPerS) },
  LIMIT,
  VS_JSON,
  { title: "p50", width: 8, cell: (c) => formatNs(c.socket!.rtt?.p50 ?? NaN) },
  { title: "p99", width: 8, cell: (c) => formatNs(c.socket!.rtt?.p99 ?? NaN) },
  { title: "cpu/dlv", width: 8, cell: (c) => formatNs(c.socket!.cluster?.cpuNsPerDelivery.median ?? NaN) },
  {
    title: "bp B/msg",
    width: 8,
    cell: (c) => (c.socket!.cluster?.backplane ? count(c.socket!.cluster.backplaneBytesPerMsg.median) : "-"),
  },
  { ...VS_RAW, wide: true },
  CLIENT_SER,
  CLIENT_DE,
  { title: "pub drops", width: 9, cell: (c) => count(c.socket!.dropped), wide: true },
  LOST,
];

/** A cold-mode figure's median over the processes ("-" without one). */
const coldNs = (c: CaseResult, pick: (s: NonNullable<CaseResult["cold"]>) => { median: number } | undefined): string =>
  formatNs((c.cold && pick(c.cold)?.median) ?? NaN);
/** A cold-mode ratio to json's ("1.00" for json's own row). */
const coldRatio = (c: CaseResult, pick: (r: NonNullable<CaseResult["ratios"]>) => Estimate | undefined): string =>
  c.codec === "json" ? "1.00" : ratioText(c.ratios && pick(c.ratios));

/** Cold mode (client/harness/cold-start.ts): the import and set-up once per fresh process, then its first messages, each beside json's. */
const COLD_COLUMNS: Column[] = [
  NAME,
  { ...BYTES, wide: true },
  { title: "import", width: 8, cell: (c) => coldNs(c, (s) => s.import) },
  { title: "set-up", width: 8, cell: (c) => coldNs(c, (s) => s.setup) },
  { title: "first", width: 9, cell: (c) => coldNs(c, (s) => s.first) },
  { title: "vs json", width: 12, cell: (c) => coldRatio(c, (r) => r.coldFirstVsJson) },
  { title: "first 10", width: 9, cell: (c) => coldNs(c, (s) => s.first10), wide: true },
  { title: "vs json", width: 12, cell: (c) => coldRatio(c, (r) => r.coldFirst10VsJson), wide: true },
  { title: "first 100", width: 9, cell: (c) => coldNs(c, (s) => s.first100) },
  { title: "vs json", width: 12, cell: (c) => coldRatio(c, (r) => r.coldFirst100VsJson), wide: true },
  { title: "first 1k", width: 9, cell: (c) => coldNs(c, (s) => s.first1000) },
  { title: "vs json", width: 12, cell: (c) => coldRatio(c, (r) => r.coldFirst1000VsJson) },
  { title: "page B", width: 8, cell: (c) => count(c.cold?.bundleBytes ?? NaN), wide: true },
  { title: "gzip B", width: 8, cell: (c) => count(c.cold?.bundleGzipBytes ?? NaN), wide: true },
];

/** Codec mode's messages compressed (client/harness/compression.ts): bytes per message and time to compress one. */
export const COMPRESSION_COLUMNS: Column[] = [
  NAME,
  BYTES,
  { title: "deflate", width: 7, cell: (c) => count(c.compression!.deflateBytes) },
  { title: "in stream", width: 9, cell: (c) => count(c.compression!.deflateContextBytes) },
  { title: "zstd", width: 6, cell: (c) => count(c.compression!.zstdBytes) },
  { title: "zstd time", width: 10, cell: (c) => formatNs(c.compression!.zstdNs) },
  // zstd's fixed cost alone moves between runs by more than the figures beside it: --wide and the CSV have it.
  { title: "empty", width: 9, wide: true, cell: (c) => formatNs(c.compression!.zstdEmptyNs) },
];

/** A route figure's median, ns ("-" without one). */
const routeNs = (c: CaseResult, pick: (r: NonNullable<CaseResult["route"]>) => { median: number }): string =>
  c.route ? formatNs(pick(c.route).median) : "-";

/**
 * A figure the server timed around one call, its clock's own read cost taken off: at or below
 * zero the call took less than that clock can tell apart from its own cost (custom-binary's key
 * at an offset, a few bytes read), shown as "≈0"; the CSV keeps the number.
 */
const serverNs = (c: CaseResult, pick: (r: NonNullable<CaseResult["route"]>) => { median: number }): string =>
  c.route && pick(c.route).median <= 0 ? "≈0" : routeNs(c, pick);

/** Route mode's columns: the server's CPU per routed message, forwarding and recoding, each beside json's; `wide`: shown only with --wide. */
export const ROUTE_COLUMNS: Column[] = [
  { title: "codec", width: 17, cell: codecLabel },
  { title: "bytes", width: 6, cell: (c) => count(c.bytes) },
  { title: "reads", width: 6, cell: (c) => c.route?.keyAccess ?? "-" },
  { title: "routed/s", width: 8, cell: (c) => count(c.route?.forward.msgsPerS.median ?? NaN) },
  { title: "cpu fwd", width: 7, cell: (c) => routeNs(c, (r) => r.forward.cpuNs) },
  { title: "vs json", width: 12, cell: (c) => (c.codec === "json" ? "1.00" : ratioText(c.ratios?.routeVsJson)) },
  { title: "cpu rec", width: 7, cell: (c) => routeNs(c, (r) => r.recode.cpuNs) },
  { title: "vs json", width: 12, cell: (c) => (c.codec === "json" ? "1.00" : ratioText(c.ratios?.routeRecodeVsJson)) },
  {
    title: "rec/f",
    width: 5,
    cell: (c) => (c.route?.recodeOverForward ? c.route.recodeOverForward.value.toFixed(2) : "-"),
  },
  { title: "key fwd", width: 7, cell: (c) => serverNs(c, (r) => r.forward.keyNs), wide: true },
  { title: "dec rec", width: 7, cell: (c) => serverNs(c, (r) => r.recode.keyNs), wide: true },
  { title: "enc rec", width: 7, cell: (c) => serverNs(c, (r) => r.recode.encodeNs), wide: true },
  { title: "publish", width: 7, cell: (c) => serverNs(c, (r) => r.forward.publishNs), wide: true },
  {
    title: "all fwd",
    width: 7,
    cell: (c) => routeNs(c, (r) => r.forward.clusterCpuNs ?? { median: Number.NaN }),
    wide: true,
  },
  {
    title: "all rec",
    width: 7,
    cell: (c) => routeNs(c, (r) => r.recode.clusterCpuNs ?? { median: Number.NaN }),
    wide: true,
  },
  {
    title: "miss",
    width: 4,
    cell: (c) => (c.route ? count(c.route.expected - c.route.delivered + c.route.misrouted) : "-"),
    wide: true,
  },
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
    title: "roundtrip mode: one message in flight; rtt: median of the rounds; p50..: every message",
    columns: ROUNDTRIP_COLUMNS,
    order: (a: CaseResult, b: CaseResult) => a.total.median - b.total.median,
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
    order: (a: CaseResult, b: CaseResult) => a.total.median - b.total.median,
  },
  {
    mode: "fanout",
    title: "fanout mode: one publisher, every message to all subscribers via Bun's pub/sub",
    columns: FANOUT_COLUMNS,
    order: (a: CaseResult, b: CaseResult) => b.msgsPerS - a.msgsPerS,
  },
  {
    mode: "route",
    title: "route mode: the server as a router, each message published to the room its key names",
    // The terminal prints the summary's route section (patterns-table.ts) in these columns, a block per payload with its deliveries.
    columns: ROUTE_COLUMNS,
    order: (a: CaseResult, b: CaseResult) =>
      (a.route?.forward.cpuNs.median ?? NaN) - (b.route?.forward.cpuNs.median ?? NaN),
  },
  {
    mode: "cold",
    title: "cold mode: each codec's first messages in fresh processes, per message, median of the processes",
    columns: COLD_COLUMNS,
    order: (a: CaseResult, b: CaseResult) => (a.cold?.first.median ?? NaN) - (b.cold?.first.median ?? NaN),
  },
] as const;

/** Slowest and fastest client's messages/s, with several clients. */
const SPREAD: Column = {
  title: "clients",
  width: 17,
  cell: (c) => {
    const rates = (c.socket?.perClient ?? []).flat().map((x) => x.msgsPerS);
    return rates.length > 0 ? `${count(Math.min(...rates))}..${count(Math.max(...rates))}` : "-";
  },
};

const widthOf = (columns: readonly Column[]): number =>
  columns.reduce((w, c) => w + c.width, 0) + 2 * (columns.length - 1);

/**
 * The columns of a block: every one with `wide`, else the default ones,
 * and, with several clients, the clients' spread in place of the
 * per-side codec times when it would not fit otherwise.
 */
export function columnsFor(cases: readonly CaseResult[], all: readonly Column[], wide: boolean): Column[] {
  const compressed = cases.some((c) => c.socket?.extensions.includes("permessage-deflate"));
  const linked = cases.some((c) => c.socket?.link !== undefined);
  let columns = (wide ? [...all] : all.filter((c) => c.wide !== true || (compressed && c.deflate === true))).filter(
    (c) => c.link !== true || linked,
  );
  // Route mode's members each get their rooms' share, so their spread says nothing of the codec;
  // fanout's subscribers all get every message (their spread is in --wide and the CSV).
  if (cases.some((c) => (c.socket?.clients ?? 1) > 1 && c.mode !== "route" && (c.mode !== "fanout" || wide)))
    columns.push(SPREAD);
  if (!wide) {
    for (const spare of ["client", "server", "cpu cl/srv", "p99"]) {
      if (widthOf(columns) <= TERMINAL_WIDTH) break;
      columns = columns.filter((c) => c.title !== spare);
    }
  }
  return columns;
}
