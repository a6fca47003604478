/**
 * The summary table printed at the end of a run: one block per payload,
 * one line per codec, means with the 95% confidence interval, and the ratio
 * to JSON. Where a codec's interval overlaps JSON's, the ratio is marked "≈"
 * and the text does not call either faster.
 */

import type { BenchResults, CaseResult } from "../harness/results.ts";
import { intervalsOverlap } from "../harness/stats.ts";
import { jsonBaseline, pairedRatio } from "./ratios.ts";
import { PAYLOAD_NAMES } from "../../protocols/messages.ts";

/** A duration in ns with a sensible unit. */
export function formatNs(ns: number): string {
  if (!Number.isFinite(ns)) return "-";
  if (ns < 1000) return `${ns.toFixed(ns < 10 ? 2 : 1)} ns`;
  if (ns < 1e6) return `${(ns / 1e3).toFixed(2)} µs`;
  return `${(ns / 1e6).toFixed(2)} ms`;
}

function pad(s: string, width: number, right = false): string {
  const len = [...s].length;
  return len >= width ? s : right ? " ".repeat(width - len) + s : s + " ".repeat(width - len);
}

/**
 * Total time relative to json, paired run by run (bench/compare.ts). Marked
 * "≈" whenever the two codecs' confidence intervals overlap, so the table
 * never calls a codec faster than the data can show.
 */
function ratioText(c: CaseResult, json: CaseResult | undefined): string {
  if (!json) return "";
  if (c === json) return "1.00";
  const ratio = pairedRatio(c, json);
  if (!ratio) return "";
  return intervalsOverlap(c.total, json.total) ? `≈${ratio.ratio.toFixed(2)}` : `${ratio.ratio.toFixed(2)}x`;
}

/** A column: header, width, and the cell text of a case. */
interface Column {
  title: string;
  width: number;
  cell: (c: CaseResult, group: readonly CaseResult[]) => string;
}

const count = (n: number): string => (Number.isFinite(n) ? Math.round(n).toLocaleString("en-US") : "-");
const percent = (part: number, whole: number): string => (whole > 0 && Number.isFinite(part) ? `${Math.round((100 * part) / whole)}%` : "-");

const NAME: Column = { title: "codec", width: 19, cell: (c) => (c.standard ? c.codec : `${c.codec}*`) };
const BYTES: Column = { title: "bytes", width: 6, cell: (c) => count(c.bytes) };
const VS_JSON: Column = { title: "vs json", width: 8, cell: (c, g) => ratioText(c, g.find((x) => jsonBaseline(g, x) === x)) };

const CODEC_COLUMNS: Column[] = [
  NAME,
  BYTES,
  { title: "serialize", width: 12, cell: (c) => formatNs(c.serialize.mean) },
  { title: "deserialize", width: 12, cell: (c) => formatNs(c.deserialize.mean) },
  { title: "total", width: 22, cell: (c) => `${formatNs(c.total.mean)} ± ${formatNs(c.total.ci95)}` },
  VS_JSON,
  { title: "msgs/s", width: 11, cell: (c) => count(c.msgsPerS) },
];

const ROUNDTRIP_COLUMNS: Column[] = [
  NAME,
  BYTES,
  { title: "client ser", width: 10, cell: (c) => formatNs(c.serialize.mean) },
  { title: "server de+ser", width: 13, cell: (c) => formatNs(c.socket!.serverDeserialize.mean + c.socket!.serverSerialize.mean) },
  { title: "client de", width: 10, cell: (c) => formatNs(c.deserialize.mean) },
  { title: "rtt mean", width: 20, cell: (c) => `${formatNs(c.total.mean)} ± ${formatNs(c.total.ci95)}` },
  { title: "p50", width: 9, cell: (c) => formatNs(c.socket!.rtt?.p50 ?? NaN) },
  { title: "p99", width: 9, cell: (c) => formatNs(c.socket!.rtt?.p99 ?? NaN) },
  { title: "p99.9", width: 9, cell: (c) => formatNs(c.socket!.rtt?.p999 ?? NaN) },
  { title: "max", width: 9, cell: (c) => formatNs(c.socket!.rtt?.max ?? NaN) },
  VS_JSON,
  { title: "lost", width: 5, cell: (c) => count(c.socket!.lost) },
];

/** Throughput relative to raw: raw's time per message over this codec's, paired run by run. */
function vsRaw(c: CaseResult, group: readonly CaseResult[]): string {
  const raw = group.find((x) => x.codec === "raw" && x.verified);
  if (!raw) return "";
  if (c === raw) return "1.00";
  const ratio = pairedRatio(raw, c);
  if (!ratio) return "";
  return intervalsOverlap(c.total, raw.total) ? `≈${ratio.ratio.toFixed(2)}` : `${ratio.ratio.toFixed(2)}x`;
}

const STREAM_COLUMNS: Column[] = [
  NAME,
  BYTES,
  { title: "msgs/s", width: 11, cell: (c) => count(c.msgsPerS) },
  { title: "MB/s", width: 6, cell: (c) => (Number.isFinite(c.socket!.mbPerS) ? c.socket!.mbPerS.toFixed(1) : "-") },
  { title: "vs raw", width: 7, cell: vsRaw },
  VS_JSON,
  { title: "client ser", width: 10, cell: (c) => formatNs(c.serialize.mean) },
  { title: "client de", width: 10, cell: (c) => formatNs(c.deserialize.mean) },
  { title: "server de+ser", width: 13, cell: (c) => formatNs(c.socket!.serverDeserialize.mean + c.socket!.serverSerialize.mean) },
  { title: "cpu cl/srv", width: 11, cell: (c) => `${percent(c.socket!.clientCpuMs, c.socket!.elapsedMs)}/${percent(c.socket!.serverCpuMs, c.socket!.elapsedMs)}` },
  { title: "lost", width: 5, cell: (c) => count(c.socket!.lost) },
];

const FANOUT_COLUMNS: Column[] = [
  NAME,
  BYTES,
  { title: "deliveries/s", width: 12, cell: (c) => count(c.msgsPerS) },
  { title: "vs raw", width: 7, cell: vsRaw },
  VS_JSON,
  { title: "client ser", width: 10, cell: (c) => formatNs(c.serialize.mean) },
  { title: "client de", width: 10, cell: (c) => formatNs(c.deserialize.mean) },
  { title: "pub drops", width: 9, cell: (c) => count(c.socket!.dropped) },
  { title: "lost", width: 5, cell: (c) => count(c.socket!.lost) },
];

const MODE_VIEWS = [
  {
    mode: "codec",
    title: "codec mode: serialize + deserialize in process, per message",
    columns: CODEC_COLUMNS,
    order: (a: CaseResult, b: CaseResult) => a.total.mean - b.total.mean,
  },
  {
    mode: "roundtrip",
    title: "roundtrip mode: one message in flight (concurrency 1); client and server times per message, round-trip latency from every message",
    columns: ROUNDTRIP_COLUMNS,
    order: (a: CaseResult, b: CaseResult) => a.total.mean - b.total.mean,
  },
  {
    mode: "stream",
    title: "stream mode: a window of messages in flight; throughput, and client and server times per message",
    columns: STREAM_COLUMNS,
    order: (a: CaseResult, b: CaseResult) => b.msgsPerS - a.msgsPerS,
  },
  {
    mode: "fanout",
    title: "fanout mode: one publisher, every message published to all subscribers through Bun's pub/sub; deliveries per second",
    columns: FANOUT_COLUMNS,
    order: (a: CaseResult, b: CaseResult) => b.msgsPerS - a.msgsPerS,
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

function block(cases: readonly CaseResult[], baseColumns: readonly Column[], order: (a: CaseResult, b: CaseResult) => number): string[] {
  const lines: string[] = [];
  const columns = cases.some((c) => (c.socket?.clients ?? 1) > 1) ? [...baseColumns, SPREAD] : baseColumns;
  const header = columns.map((col, i) => pad(col.title, col.width, i > 0)).join("  ");
  lines.push(header);
  lines.push("-".repeat([...header].length));
  const sorted = [...cases].sort((a, b) => (a.verified === b.verified ? (a.verified ? order(a, b) : 0) : a.verified ? -1 : 1));
  for (const c of sorted) {
    if (!c.verified) {
      lines.push(`${pad(NAME.cell(c, cases), NAME.width)}  FAILED: ${c.error}`);
      continue;
    }
    const flag = c.flags.includes("near-empty-loop") ? "  (near the empty-loop floor: check)" : "";
    lines.push(columns.map((col, i) => pad(col.cell(c, cases), col.width, i > 0)).join("  ") + flag);
  }
  return lines;
}

export function formatTable(results: BenchResults): string {
  const s = results.settings;
  const lines: string[] = [];
  lines.push(
    `Mean of up to ${s.runs} run(s) of ${s.fixed ? "identical article" : "varied"} messages; ± is the 95% confidence interval of the mean.`,
  );
  lines.push(`"vs json" / "vs raw": relative to that codec, paired run by run (geometric mean); ≈ means the two intervals overlap, so neither is shown faster.`);
  for (const view of MODE_VIEWS) {
    const ofMode = results.cases.filter((c) => c.mode === view.mode);
    if (ofMode.length === 0) continue;
    for (const client of [...new Set(ofMode.map((c) => c.client))]) {
      const first = ofMode.find((c) => c.client === client)!;
      lines.push("");
      lines.push(`== ${view.title}`);
      lines.push(
        `   ${s.iterations[view.mode].toLocaleString("en-US")} messages per run` +
          (view.mode === "fanout"
            ? ` published, ${first.socket?.clients ?? 1} subscriber(s) ("clients" column: slowest..fastest subscriber)`
            : (first.socket?.clients ?? 1) > 1
              ? ` per client, ${first.socket!.clients} concurrent clients (msgs/s: all clients together; "clients" column: slowest..fastest client)`
              : "") +
          (client === "inprocess" ? "" : `; client: ${first.clientLibrary}; server: ${s.server ?? "?"}`) +
          (view.mode === "stream" || view.mode === "fanout" ? `; window ${first.socket?.window ?? "?"}` : ""),
      );
      for (const payload of PAYLOAD_NAMES) {
        const cases = ofMode.filter((c) => c.client === client && c.payload === payload);
        if (cases.length === 0) continue;
        lines.push("");
        lines.push(payload);
        lines.push(...block(cases, view.columns, view.order));
      }
    }
  }
  if (results.cases.some((c) => !c.standard)) {
    lines.push("");
    lines.push("* non-standard: msgpackr records are not MessagePack that other decoders can read.");
  }
  if (results.cases.some((c) => c.codec === "raw")) {
    lines.push("raw: the transport alone (custom-binary's bytes, echoed without decoding).");
  }
  lines.push("");
  for (const env of [results.environment, ...Object.values(results.environments ?? {})]) {
    if (!env) continue;
    const isolation = env.crossOriginIsolated === undefined ? "" : env.crossOriginIsolated ? ", cross-origin isolated" : ", NOT cross-origin isolated";
    lines.push(
      `${env.runtime} ${env.runtimeVersion}, ${env.os}, ${env.cpu} x${env.cores}; clock ${env.clock}: resolution ${formatNs(env.timerResolutionNs)}, read ${formatNs(env.timerOverheadNs)}${isolation}`,
    );
  }
  return lines.join("\n");
}
