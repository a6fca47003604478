/**
 * The summary table printed at the end of a run: one block per payload,
 * one line per codec, means with the 95% confidence interval, and the ratio
 * to JSON. Where a codec's interval overlaps JSON's, the ratio is marked "≈"
 * and the text does not call either faster.
 */

import { provenanceLine } from "./provenance-line.ts";
import type { BenchResults, CaseResult } from "../../client/harness/results.ts";
import type { Mode } from "../../client/harness/settings.ts";
import { linkText } from "../../client/harness/link.ts";
import { caseLinkUse, heldByText } from "./link-use.ts";
import { isBuiltIn, orderPayloads } from "../../protocols/messages.ts";
import { runSummary } from "./summary.ts";
import {
  codecLabel,
  count,
  formatNs,
  mebibytes,
  pad,
  percent,
  PRECISION_MARK,
  markNotes,
  ratioText,
  TERMINAL_WIDTH,
  wrapLine,
} from "./format.ts";
import { codecModeRatios } from "../../client/harness/ratios.ts";
import { FLOOR_MARK, floorNote, noiseLines } from "./table-notes.ts";
import { KNEE_RULE, knees } from "../../client/harness/knee.ts";
import { accountLines } from "./account-lines.ts";

// The columns, one set per mode, and the order each mode's rows are listed in.

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
interface Column {
  title: string;
  width: number;
  cell: (c: CaseResult) => string;
  wide?: true;
  /** A wide column shown by default when the connections negotiated permessage-deflate. */
  deflate?: true;
  /** Shown only when the cases crossed a link (--link). */
  link?: true;
}

const NAME: Column = { title: "codec", width: 17, cell: codecLabel };
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

/** Codec mode's messages compressed (client/harness/compression.ts): bytes per message and time to compress one. */
const COMPRESSION_COLUMNS: Column[] = [
  NAME,
  BYTES,
  { title: "deflate", width: 7, cell: (c) => count(c.compression!.deflateBytes) },
  { title: "in stream", width: 9, cell: (c) => count(c.compression!.deflateContextBytes) },
  { title: "zstd", width: 6, cell: (c) => count(c.compression!.zstdBytes) },
  { title: "zstd time", width: 10, cell: (c) => formatNs(c.compression!.zstdNs) },
  // zstd's fixed cost alone moves between runs by more than the figures beside it: --wide and the CSV have it.
  { title: "empty", width: 9, wide: true, cell: (c) => formatNs(c.compression!.zstdEmptyNs) },
];

const MODE_VIEWS = [
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
    // Its block is the summary's route section (summary.ts), as the page and report.html show it, under the same title.
    columns: [],
    order: (a: CaseResult, b: CaseResult) => a.total.mean - b.total.mean,
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

/** How the table is laid out: `wide` shows every column (wider than a terminal). */
export interface TableOptions {
  wide?: boolean;
}

const widthOf = (columns: readonly Column[]): number =>
  columns.reduce((w, c) => w + c.width, 0) + 2 * (columns.length - 1);

/**
 * The columns of a block: every one with `wide`, else the default ones,
 * and, with several clients, the clients' spread in place of the
 * per-side codec times when it would not fit otherwise.
 */
function columnsFor(cases: readonly CaseResult[], all: readonly Column[], wide: boolean): Column[] {
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

function block(
  cases: readonly CaseResult[],
  baseColumns: readonly Column[],
  order: (a: CaseResult, b: CaseResult) => number,
  wide: boolean,
  /** false: no near-floor mark (a table whose figures are not the loop's, compression's). */
  floorMarks = true,
): string[] {
  const lines: string[] = [];
  const columns = columnsFor(cases, baseColumns, wide);
  const header = columns.map((col, i) => pad(col.title, col.width, i > 0)).join("  ");
  lines.push(header);
  lines.push("-".repeat([...header].length));
  const sorted = [...cases].sort((a, b) =>
    a.verified === b.verified ? (a.verified ? order(a, b) : 0) : a.verified ? -1 : 1,
  );
  for (const c of sorted) {
    if (!c.verified) {
      lines.push(
        ...wrapLine(`${pad(NAME.cell(c), NAME.width)}  FAILED: ${c.error}`, TERMINAL_WIDTH, " ".repeat(NAME.width + 2)),
      );
      continue;
    }
    const flag = floorMarks && c.flags.includes("near-empty-loop") ? ` ${FLOOR_MARK}` : "";
    lines.push(columns.map((col, i) => pad(col.cell(c), col.width, i > 0)).join("  ") + flag);
  }
  return lines;
}

/** How many rounds and slices codec mode's figures rest on. */
function codecModeLine(cases: readonly CaseResult[], iterations: number, forks: number): string {
  const slices = orderPayloads(cases.map((c) => c.payload))
    .map((p) => {
      const c = cases.find((x) => x.payload === p && x.verified);
      // Results from before rounds: one slice per run.
      return c ? `${p} ${c.rounds ?? c.raw.length} x ${c.serializeBatches.batch.toLocaleString("en-US")}` : "";
    })
    .filter((x) => x !== "");
  return (
    `   ${iterations.toLocaleString("en-US")} messages per run${forks > 1 ? `, the runs spread over ${forks} processes` : ""}, timed in rounds: one slice per codec,\n` +
    `   order shuffled per round\n` +
    `   rounds x messages per slice: ${slices.join(", ")}\n` +
    `   total and ratios: medians of the rounds; mean+gc: every message, garbage collection included`
  );
}

/** How many messages and rounds a socket mode's figures rest on. */
function socketModeLine(cases: readonly CaseResult[], s: BenchResults["settings"], mode: Mode): string {
  const iterations = `   ${s.iterations[mode].toLocaleString("en-US")} messages per run`;
  const c = cases.find((x) => x.verified && x.rounds > x.runs);
  if (!c) return `${iterations}; rtt and msgs/s: means of the runs`;
  return (
    `${iterations}, timed in rounds on connections kept open:\n` +
    `   one slice of ${(c.socket?.slice ?? NaN).toLocaleString("en-US")} per codec, order shuffled per round; ${c.rounds} rounds; rtt and msgs/s: means of the rounds, ratios: medians`
  );
}

/** What route mode's table shows: the topology, and each column. */
function routeModeLine(c: CaseResult, s: BenchResults["settings"]): string {
  const r = c.route;
  return (
    `   ${s.iterations.route.toLocaleString("en-US")} messages per run in ${c.rounds > 0 ? Math.round(c.rounds / Math.max(1, c.runs)) : "?"} slices, each routed both ways; ` +
    `${r?.publishers ?? "?"} routers, ${r?.members ?? "?"} members${r?.validate ? "; every message validated on the way in (--validate)" : ""}`
  );
}

/** Each codec's knee, per payload, when latency mode ran at several rates (client/harness/knee.ts). */
function kneeLines(cases: readonly CaseResult[]): string[] {
  const found = knees(cases);
  if (found.length === 0) return [];
  const lines = [
    "",
    `knee: the highest rate kept (at least ${KNEE_RULE.minAchievedShare * 100}% of it sent, at most ${KNEE_RULE.maxLateShare * 100}% late, p99 within ` +
      `${KNEE_RULE.maxP99Factor}x its p99 at the lowest rate, or 10 ms; each the median of the step's slices) before two rates in a row missed, msgs/s` +
      `${found.some((k) => k.besideRaw) ? "; (beside raw: the knee when only the rates raw kept count against the codec)" : ""}`,
  ];
  const payloads = orderPayloads(found.map((k) => k.payload));
  const width = Math.max(...payloads.map((p) => p.length)) + 1;
  for (const payload of payloads) {
    const of = found.filter((k) => k.payload === payload).sort((a, b) => b.rate - a.rate);
    const beside = (k: (typeof of)[number]): string =>
      k.besideRaw ? ` (beside raw ${count(k.besideRaw.rate)}${k.besideRaw.missed === undefined ? "+" : ""})` : "";
    if (of.length > 0)
      lines.push(
        `${pad(payload, width)}${of.map((k) => `${k.codec} ${k.rate > 0 ? count(k.rate) : "none"}${k.missed === undefined ? "+" : ""}${k.forgiven ? "~" : ""}${beside(k)}`).join(", ")}`,
      );
  }
  lines.push(
    `   (+: kept every rate tried${found.some((k) => k.forgiven) ? "; ~: missed a lower rate once, then kept the next" : ""})`,
  );
  return lines;
}

/** Codec mode's compressed sizes, a block per payload, smallest in a stream first. */
function compressionLines(cases: readonly CaseResult[], wide: boolean): string[] {
  const sized = cases.filter((c) => c.compression !== undefined && c.verified);
  if (sized.length === 0) return [];
  const lines = [
    "",
    "compressed, bytes per message: permessage-deflate alone and in a stream (context kept), zstd alone;",
    wide
      ? "   zstd time: one zstdCompressSync call per message, set-up included (empty: the call on no bytes)"
      : "   zstd time: one zstdCompressSync call per message, set-up included (the set-up alone, --wide and\n   the CSV's zstd_empty_ns, moves between runs by more than these figures do)",
  ];
  for (const payload of orderPayloads(sized.map((c) => c.payload))) {
    const of = sized.filter((c) => c.payload === payload);
    if (of.length === 0) continue;
    lines.push("", `${payload}, compressed`);
    lines.push(
      ...block(
        of,
        COMPRESSION_COLUMNS,
        (a, b) => a.compression!.deflateContextBytes - b.compression!.deflateContextBytes,
        wide,
        false,
      ),
    );
  }
  return lines;
}

/** Where a socket mode's cases ran: the client, the server, how they were pinned, and the link between them (--link). */
function whereLine(first: CaseResult, s: BenchResults["settings"]): string {
  return (
    `; client: ${first.clientLibrary}; server: ${s.server ?? "?"}${s.pinning ? `; ${s.pinning}` : ""}` +
    (s.link ? `\n   over a link, ${linkText(s.link)} (emulated by Toxiproxy: docs/links.md)` : "")
  );
}

/** "3 run(s)", or per mode where they differ: "codec 1, roundtrip 3, stream 3 run(s)". */
function runsText(s: BenchResults["settings"], modes: readonly Mode[]): string {
  const shown = modes.length > 0 ? modes : s.modes;
  const counts = [...new Set(shown.map((m) => s.runs[m]))];
  return counts.length === 1 ? `${counts[0]} run(s)` : `${shown.map((m) => `${m} ${s.runs[m]}`).join(", ")} run(s)`;
}

export function formatTable(results: BenchResults, options: TableOptions = {}): string {
  const wide = options.wide === true;
  const s = results.settings;
  const lines: string[] = [];
  lines.push(
    `${s.fixed ? "The article's identical messages" : "Varied messages"}, ${runsText(s, [...new Set(results.cases.map((c) => c.mode))])} through them per case.`,
  );
  lines.push(`"vs json" / "vs raw": ratio to that codec, paired round by round (median of the per-round`);
  lines.push(`ratios; below 6 rounds, their geometric mean), ± its 95% interval; ≈: the interval holds 1.`);
  const summary = runSummary(results, { wide });
  lines.push(...summary.fidelity);
  for (const view of MODE_VIEWS) {
    const ofMode = results.cases.filter((c) => c.mode === view.mode);
    if (ofMode.length === 0) continue;
    if (view.mode === "route") {
      // The summary's route section, with the benchmark's settings under its title.
      const [blank = "", title = `== ${view.title}`, ...body] = summary.route;
      const first = ofMode[0]!;
      lines.push(blank, title, routeModeLine(first, s) + whereLine(first, s), ...body);
      continue;
    }
    for (const client of [...new Set(ofMode.map((c) => c.client))]) {
      const first = ofMode.find((c) => c.client === client)!;
      lines.push("");
      lines.push(`== ${view.title}`);
      lines.push(
        (view.mode === "codec"
          ? codecModeLine(ofMode, s.iterations.codec, s.forks ?? 1)
          : socketModeLine(ofMode, s, view.mode)) +
          (view.mode === "fanout"
            ? ` published, ${first.socket?.clients ?? 1} subscriber(s)${wide ? ' ("clients" column: slowest..fastest subscriber)' : ""}`
            : (first.socket?.clients ?? 1) > 1
              ? ` per client, ${first.socket!.clients} concurrent clients (msgs/s: all clients together; "clients" column: slowest..fastest client)`
              : "") +
          (client === "inprocess" ? "" : whereLine(first, s)) +
          (view.mode === "stream" || view.mode === "fanout" ? `; window ${first.socket?.window ?? "?"}` : "") +
          (view.mode === "latency"
            ? `; at most ${first.socket?.window ?? "?"} in flight` +
              `\n   p50..p99.9: from when each message was due (stalls included); svc p99: from when it went out;` +
              `\n   late: sent over one interval (at least 1 ms) after it was due; vs json: mean latency`
            : "") +
          (first.socket?.extensions.includes("permessage-deflate")
            ? `\n   COMPRESSED (permessage-deflate): "bytes" before compression; "wire" / "reply wire": frames counted on the socket`
            : view.mode !== "codec" && s.deflate
              ? "\n   --deflate was offered but not negotiated: nothing was compressed"
              : ""),
      );
      for (const payload of orderPayloads(ofMode.map((c) => c.payload))) {
        const ofPayload = ofMode.filter((c) => c.client === client && c.payload === payload);
        // Latency mode: a block per rate; the other modes have none.
        for (const rate of [...new Set(ofPayload.map((c) => c.socket?.targetRate))].sort(
          (a, b) => (a ?? 0) - (b ?? 0),
        )) {
          const cases = ofPayload.filter((c) => c.socket?.targetRate === rate);
          if (cases.length === 0) continue;
          lines.push("");
          const title = rate === undefined ? payload : `${payload} at ${count(rate)} msgs/s`;
          // raw alone is no comparison: one line instead of a table of the transport by itself.
          if (cases.every((c) => c.codec === "raw")) {
            lines.push(`${title}: no codec was timed on these messages (the verdict says why); raw's row left out`);
            continue;
          }
          lines.push(title);
          lines.push(...block(cases, view.columns, view.order, wide));
        }
      }
      if (view.mode === "latency") lines.push(...kneeLines(ofMode.filter((c) => c.client === client)));
      if (view.mode === "codec")
        lines.push(
          ...compressionLines(
            ofMode.filter((c) => c.client === client),
            wide,
          ),
        );
    }
    if (view.mode === "codec") lines.push(...summary.patterns);
  }
  lines.push(...summary.labField, ...summary.calibration);
  if (results.cases.some((c) => codecModeRatios(c).some((r) => r.wide))) {
    lines.push("");
    lines.push(
      `${PRECISION_MARK}: its interval is still wider than the ±${s.precision ?? "?"}% asked (--precision); the time allowed ran out first (--max-time).`,
    );
  }
  lines.push(...floorNote(results.cases));
  // `!` is the fidelity table's to explain (it leads the output); `*` is said here, of the codecs that carry it.
  const { nonStandard } = markNotes(results.cases);
  if (nonStandard) lines.push("", nonStandard);
  if (results.cases.some((c) => c.codec === "raw")) {
    lines.push(
      `raw: the transport alone (${results.cases.some((c) => c.codec === "raw" && !isBuiltIn(c.payload)) ? "custom-binary's bytes, or your messages' JSON" : "custom-binary's bytes"}, echoed without decoding).`,
    );
  }
  if (results.cases.some((c) => c.mode !== "codec" && c.codec !== "raw")) {
    lines.push("client / server: encode + decode time per message on that side of the socket; server: timed inside");
    lines.push("   the server message by message, raw's timers (the same clock reads around no work) taken off.");
  }
  const fanout = results.cases.filter((c) => c.mode === "fanout" && c.socket?.cluster);
  if (fanout.length > 0) {
    const { processes, backplane } = fanout[0]!.socket!.cluster!;
    lines.push(
      `fanout: ${processes} server process${processes > 1 ? "es" : ""}${backplane ? ` joined by ${backplane}` : ""}; p50 / p99: each delivery's time from its send;`,
    );
    lines.push("   cpu/dlv: every server process's CPU per delivered message (medians of the runs);");
    lines.push("   bp B/msg: backplane wire bytes per published message (RESP framing, every process's share).");
  }
  lines.push(...noiseLines(results.cases));
  lines.push("");
  for (const env of [results.environment, ...Object.values(results.environments ?? {})]) {
    if (!env) continue;
    const isolation =
      env.crossOriginIsolated === undefined
        ? ""
        : env.crossOriginIsolated
          ? ", cross-origin isolated"
          : ", NOT cross-origin isolated";
    // A strict Content-Security-Policy (--csp strict): loops shared by every codec, and codecs that need eval fail.
    const policy = env.evalAllowed === false ? "; eval refused (strict CSP)" : "";
    lines.push(
      `${env.runtime} ${env.runtimeVersion}, ${env.os}, ${env.cpu} x${env.cores}; clock ${env.clock}: resolution ${formatNs(env.timerResolutionNs)}, read ${formatNs(env.timerOverheadNs)}${isolation}${policy}`,
    );
  }
  // What code made it (a page's own run knows no commit and says nothing).
  if (results.provenance) lines.push(provenanceLine(results.provenance));
  lines.push(...accountLines(results.account));
  if (summary.verdict.length > 0) lines.push("", ...summary.verdict);
  // Prose wraps at the terminal's width (table rows are laid out to fit it); --wide wraps nothing.
  const physical = lines.flatMap((l) => l.split("\n"));
  return (wide ? physical : physical.flatMap((l) => wrapLine(l))).join("\n");
}
