/**
 * Rows from k6's JSON output (`k6 run --out json=FILE` of an exported test,
 * bench/cli/k6-export.ts): one row per codec and payload, client k6. The
 * files of several k6 processes (execution segments, several machines) are
 * one test: their samples are merged into one distribution before any
 * percentile is taken, never averaged, and their counts summed.
 */

import type { ChartRow } from "./rows.ts";

/** True for the text of a k6 JSON output file (one JSON object per line, k6's "Metric" and "Point" lines). */
export function isK6Output(text: string): boolean {
  return /^\{"(type":"(Metric|Point)"|metric":")/.test(text.trimStart());
}

interface K6Point {
  metric: string;
  type: string;
  data: { time: string; value: number; tags?: Record<string, string> };
}

interface K6Case {
  codec: string;
  payload: string;
  version: string;
  /** From send to echo (service), and from when the message was due to echo (corrected). */
  latencyMs: number[];
  dueMs: number[];
  sent: number;
  received: number;
  lost: number;
  checksPassed: number;
  checksFailed: number;
  first: number;
  last: number;
}

/** The value at quantile q of sorted values (nearest rank, as HdrHistogram reports). */
function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}

/** A case's row: percentiles from when each message was due (as latency mode's), the service time's mean. */
function row(c: K6Case): ChartRow {
  const sorted = [...(c.dueMs.length > 0 ? c.dueMs : c.latencyMs)].sort((a, b) => a - b);
  const service = c.latencyMs;
  const ns = (q: number): number => quantile(sorted, q) * 1e6;
  const flags = ["k6", ...(c.lost > 0 ? ["lost"] : []), ...(c.checksFailed > 0 ? ["failed-checks"] : []), "ms-clock"];
  const spanS = (c.last - c.first) / 1000;
  return {
    source: c.version,
    mode: "k6",
    codec: c.codec,
    payload: c.payload,
    standard: c.codec !== "msgpackr-records",
    bytes: NaN,
    deflateBytes: NaN,
    deflateContextBytes: NaN,
    zstdBytes: NaN,
    serializeNs: NaN,
    deserializeNs: NaN,
    totalNs: service.length > 0 ? (service.reduce((a, b) => a + b, 0) / service.length) * 1e6 : NaN,
    serializeCi95Ns: NaN,
    deserializeCi95Ns: NaN,
    totalCi95Ns: NaN,
    totalMedianNs: ns(0.5),
    rttP50Ns: ns(0.5),
    rttP99Ns: ns(0.99),
    rttP90Ns: ns(0.9),
    rttP999Ns: ns(0.999),
    rttP9999Ns: ns(0.9999),
    rttMaxNs: sorted.length > 0 ? sorted[sorted.length - 1]! * 1e6 : NaN,
    received: c.received,
    targetRate: NaN,
    msgsPerS: spanS > 0 ? c.received / spanS : NaN,
    vsJson: NaN,
    vsJsonLow: NaN,
    vsJsonHigh: NaN,
    flags,
    rounds: 1,
    timestamp: new Date(c.first).toISOString(),
    settings: { iterations: c.sent, runs: 1, seed: "", fixed: false, deflate: false, window: NaN, clients: NaN },
    machine: { os: "", cpu: "", cores: NaN, timerResolutionNs: 1e6, timerOverheadNs: NaN, clientLibrary: c.version },
  };
}

/** What one k6 test (one or several processes' files) measured, per codec and payload. */
export interface K6Summary {
  rows: ChartRow[];
  /** Per case: sent, received, lost, checks passed and failed, summed over the files. */
  counts: { codec: string; payload: string; sent: number; received: number; lost: number; checksPassed: number; checksFailed: number; serviceP50Ms: number; serviceP99Ms: number }[];
}

/** Merges the files of one k6 test into rows; a line that is not k6's JSON throws, naming it. */
export function k6Rows(texts: readonly string[]): K6Summary {
  const cases = new Map<string, K6Case>();
  for (const text of texts) {
    text.split("\n").forEach((line, i) => {
      if (line.trim() === "") return;
      let p: K6Point;
      try {
        p = JSON.parse(line) as K6Point;
      } catch {
        throw new Error(`line ${i + 1} is not k6's JSON output`);
      }
      if (p.type !== "Point" || !p.metric.startsWith("wsbench_") && p.metric !== "checks") return;
      const tags = p.data.tags ?? {};
      if (tags.codec === undefined || tags.payload === undefined) return;
      const key = `${tags.codec}\u0000${tags.payload}`;
      let c = cases.get(key);
      const at = Date.parse(p.data.time);
      if (!c) {
        c = { codec: tags.codec, payload: tags.payload, version: tags.k6_version || "k6", latencyMs: [], dueMs: [], sent: 0, received: 0, lost: 0, checksPassed: 0, checksFailed: 0, first: at, last: at };
        cases.set(key, c);
      }
      c.first = Math.min(c.first, at);
      c.last = Math.max(c.last, at);
      const v = p.data.value;
      if (p.metric === "wsbench_echo_ms") c.latencyMs.push(v);
      else if (p.metric === "wsbench_due_ms") c.dueMs.push(v);
      else if (p.metric === "wsbench_sent") c.sent += v;
      else if (p.metric === "wsbench_received") c.received += v;
      else if (p.metric === "wsbench_lost") c.lost += v;
      else if (p.metric === "checks") {
        if (v === 1) c.checksPassed++;
        else c.checksFailed++;
      }
    });
  }
  const all = [...cases.values()];
  return {
    rows: all.map(row),
    counts: all.map(({ codec, payload, sent, received, lost, checksPassed, checksFailed, latencyMs }) => {
      const sorted = [...latencyMs].sort((a, b) => a - b);
      return { codec, payload, sent, received, lost, checksPassed, checksFailed, serviceP50Ms: quantile(sorted, 0.5), serviceP99Ms: quantile(sorted, 0.99) };
    }),
  };
}
