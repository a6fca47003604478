/**
 * Results from k6's JSON output (`k6 run --out json=FILE` of an exported
 * test, bench/cli/k6-export.ts): one case per codec and payload, client k6,
 * an open loop like latency mode's (a routing test's rows flagged "routed":
 * their latency runs from publish to delivery). The files of several k6 processes
 * (execution segments, several machines) are one test: their samples are
 * merged into one distribution before any percentile is taken, never
 * averaged, and their counts summed. What k6 does not measure (sizes,
 * encode and decode times, the machine) is NaN or empty.
 */

import type { BenchResults, CaseResult, Environment } from "../../client/harness/results.ts";
import { partialSummary } from "../../client/harness/statistics.ts";
import type { PayloadName } from "../../protocols/messages.ts";
import { ReportError } from "./report-errors.ts";
import { BUILT_IN } from "../../protocols/registry.ts";
import { frameOf } from "../../protocols/contract.ts";
import { MODE_NAMES, type Mode } from "../../client/harness/settings.ts";

/** A per-mode setting k6's export does not have: NaN in every mode. */
const noFigure = (): Record<Mode, number> =>
  Object.fromEntries(MODE_NAMES.map((m) => [m, NaN])) as Record<Mode, number>;

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
  /** A routing test (--export-k6 with --modes route): latency is from publish to delivery through the router. */
  routed: boolean;
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

/** A case: percentiles from when each message was due (as latency mode's), the service time's mean as its total. */
function caseOf(c: K6Case): CaseResult {
  const sorted = [...(c.dueMs.length > 0 ? c.dueMs : c.latencyMs)].sort((a, b) => a - b);
  const service = c.latencyMs;
  const ns = (q: number): number => quantile(sorted, q) * 1e6;
  const spanS = (c.last - c.first) / 1000;
  const batches = { batch: NaN, samples: NaN, p50: NaN, p90: NaN, p99: NaN };
  return {
    client: "k6",
    clientLibrary: c.version,
    mode: "latency",
    codec: c.codec,
    // k6's output names the codec only: the rest is the built-in catalog's.
    standard: BUILT_IN.get(c.codec)?.standard ?? true,
    frame: frameOf(c.codec, BUILT_IN),
    library: BUILT_IN.get(c.codec)?.library ?? "",
    libraryVersion: "",
    payload: c.payload as PayloadName,
    iterations: c.sent,
    runs: 1,
    rounds: 1,
    warmup: NaN,
    bytes: NaN,
    bytesMin: NaN,
    bytesMax: NaN,
    verified: true,
    error: "",
    serialize: partialSummary(),
    deserialize: partialSummary(),
    total: partialSummary({
      n: 1,
      mean: service.length > 0 ? (service.reduce((a, b) => a + b, 0) / service.length) * 1e6 : NaN,
      median: ns(0.5),
    }),
    totalMs: partialSummary(),
    msgsPerS: spanS > 0 ? c.received / spanS : NaN,
    serializeBatches: batches,
    deserializeBatches: batches,
    loopFloorNs: NaN,
    flags: [
      "k6",
      ...(c.routed ? ["routed"] : []),
      ...(c.lost > 0 ? ["lost"] : []),
      ...(c.checksFailed > 0 ? ["failed-checks"] : []),
      "ms-clock",
    ],
    raw: [],
    socket: {
      clients: NaN,
      window: NaN,
      slice: NaN,
      sent: c.sent,
      received: c.received,
      lost: c.lost,
      reordered: NaN,
      corrupted: NaN,
      wireBytes: NaN,
      replyBytes: NaN,
      rtt: undefined,
      latency: {
        samples: sorted.length,
        p50: ns(0.5),
        p90: ns(0.9),
        p99: ns(0.99),
        p999: ns(0.999),
        p9999: ns(0.9999),
        max: sorted.length > 0 ? sorted[sorted.length - 1]! * 1e6 : NaN,
      },
      serverDeserialize: partialSummary(),
      serverSerialize: partialSummary(),
      mbPerS: NaN,
      serverCpuMs: NaN,
      clientCpuMs: NaN,
      elapsedMs: spanS * 1000,
      backpressure: NaN,
      dropped: NaN,
      extensions: "",
    },
    ratios: {},
  };
}

/** k6 as the machine the results name: its version and its 1 ms clock. */
function k6Environment(version: string): Environment {
  return {
    runtime: "k6",
    runtimeVersion: version.replace(/^k6 ?/, ""),
    os: "",
    arch: "",
    cpu: "",
    cores: NaN,
    memoryGiB: NaN,
    libraries: {},
    clock: "k6",
    timerResolutionNs: 1e6,
    timerOverheadNs: NaN,
    gcBetweenCases: false,
    msgpackrNative: false,
  };
}

/** What one k6 test (one or several processes' files) measured, per codec and payload. */
export interface K6Summary {
  results: BenchResults;
  /** Per case: sent, received, lost, checks passed and failed, summed over the files. */
  counts: {
    codec: string;
    payload: string;
    sent: number;
    received: number;
    lost: number;
    checksPassed: number;
    checksFailed: number;
    serviceP50Ms: number;
    serviceP99Ms: number;
  }[];
}

/** Merges the files of one k6 test into results; a line that is not k6's JSON throws, naming it. */
export function k6Results(texts: readonly string[]): K6Summary {
  const cases = new Map<string, K6Case>();
  for (const text of texts) {
    text.split("\n").forEach((line, i) => {
      if (line.trim() === "") return;
      let p: K6Point;
      try {
        p = JSON.parse(line) as K6Point;
      } catch {
        throw new ReportError("NOT_RESULTS", `line ${i + 1} is not k6's JSON output`);
      }
      if (p.type !== "Point" || (!p.metric.startsWith("wsbench_") && p.metric !== "checks")) return;
      const tags = p.data.tags ?? {};
      if (tags.codec === undefined || tags.payload === undefined) return;
      const key = `${tags.codec}\u0000${tags.payload}`;
      let c = cases.get(key);
      const at = Date.parse(p.data.time);
      if (!c) {
        c = {
          codec: tags.codec,
          payload: tags.payload,
          version: tags.k6_version || "k6",
          routed: tags.test === "route",
          latencyMs: [],
          dueMs: [],
          sent: 0,
          received: 0,
          lost: 0,
          checksPassed: 0,
          checksFailed: 0,
          first: at,
          last: at,
        };
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
    results: k6Run(all),
    counts: all.map(({ codec, payload, sent, received, lost, checksPassed, checksFailed, latencyMs }) => {
      const sorted = [...latencyMs].sort((a, b) => a - b);
      return {
        codec,
        payload,
        sent,
        received,
        lost,
        checksPassed,
        checksFailed,
        serviceP50Ms: quantile(sorted, 0.5),
        serviceP99Ms: quantile(sorted, 0.99),
      };
    }),
  };
}

/** The test as one run: its cases, k6 as their machine, when its first message went out. */
function k6Run(all: readonly K6Case[]): BenchResults {
  const cases = all.map(caseOf);
  const first = Math.min(...all.map((c) => c.first));
  return {
    timestamp: Number.isFinite(first) ? new Date(first).toISOString() : "",
    settings: {
      codecs: [...new Set(cases.map((c) => c.codec))],
      payloads: [...new Set(cases.map((c) => c.payload))],
      modes: ["latency"],
      iterations: noFigure(),
      warmup: noFigure(),
      runs: { ...noFigure(), latency: 1 },
      seed: NaN,
      fixed: false,
      window: NaN,
      rates: [],
      sweep: false,
      clients: NaN,
      members: NaN,
      validate: false,
      deflate: false,
      stallTimeoutMs: NaN,
      userMessages: [],
      allowLossy: false,
      excluded: [],
      minBatchNs: NaN,
      client: "k6",
    },
    environment: k6Environment(all[0]?.version ?? "k6"),
    order: {},
    cases,
    elapsedMs: NaN,
  };
}
