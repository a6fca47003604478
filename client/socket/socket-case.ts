/**
 * One WebSocket case: what it is asked to do (SocketCaseOptions), what each
 * of its slices measured (SocketCaseFigures), shared by the loops
 * (runner.ts, open-loop.ts), the modes and the workers, and its figures run
 * by run turned into the results shape every reporter reads (SocketCase,
 * socketCaseResult).
 */

import type { CodecCatalog } from "../../protocols/registry.ts";
import type { Clock } from "../harness/clock.ts";
import type { Message, PayloadName } from "../../protocols/messages.ts";
import {
  type RouteWay,
  type ServerConnectionStats,
  type ServerSlice,
  RAW_CODEC_NAME,
  frameBytes,
  frameOf,
} from "../../protocols/contract.ts";
import type { WebSocketClass } from "./client-connection.ts";
import {
  summarizeRuns,
  type CaseResult,
  type RouteResult,
  type RouteWaySummary,
  type SliceFigures,
} from "../harness/results.ts";
import { estimate } from "../harness/pairing.ts";
import type { ClientFigures, ClusterFigures, FieldFigures, LatencyPercentiles } from "../harness/socket-results.ts";
import type { Settings, SocketMode } from "../harness/settings.ts";
import { encodeHistogram, latencyHistogram } from "../harness/histogram.ts";
import { percentileSorted, summarize } from "../harness/statistics.ts";
import type { ClusterRun } from "./cluster-figures.ts";

export interface SocketCaseOptions {
  /** Server base URL, http://host:port. */
  server: string;
  /** A cluster's processes, each one's own URL (bun run server --processes N): fanout and route place their connections on them. */
  cluster?: readonly string[];
  /** The run's codecs, by name. */
  catalog: CodecCatalog;
  codec: string;
  payload: PayloadName;
  mode: SocketMode;
  messages: readonly Message[];
  /** A lossy codec timed on request (--allow-lossy): replies must equal the codec's own round trip of each message. */
  ownRoundTrip?: boolean;
  /** Messages in flight in stream mode; at most, in latency mode. */
  window: number;
  /** Latency mode: messages per second, sent on schedule. */
  rate?: number;
  /** A case with no reply for this long ends as stalled. */
  stallTimeoutMs: number;
  clock: Clock;
  /** Clock read cost subtracted from each per-call timing, ns. */
  timerOverheadNs: number;
  WebSocket: WebSocketClass;
  /** Connection id, so the server's figures can be fetched afterwards. */
  id: string;
  /** CPU time of this process so far, ms (undefined where the runtime has no such counter). */
  cpuMs?: () => number;
  /** After each slice, send a slice mark and keep the server's figures of the slice (protocols/contract.ts). */
  sliceFigures?: boolean;
  /** --link: the address of the link in front of each server URL; the WebSockets open there (the server's figures are fetched from it directly). */
  linkVia?: Readonly<Record<string, string>>;
}

/** Where a WebSocket to `server` opens: the link in front of it (--link), else the server itself. */
export function viaLink(o: Pick<SocketCaseOptions, "linkVia">, server: string): string {
  return o.linkVia?.[server] ?? server;
}

/** Connection k's server: in a cluster, process k mod N's own URL (so every run places its connections alike); else the server. */
export function processFor(o: Pick<SocketCaseOptions, "server" | "cluster">, k: number): string {
  const all = processesOf(o);
  return all[((k % all.length) + all.length) % all.length]!;
}

/** Every server process of the case: a cluster's, each by its own URL, or the one server. */
export function processesOf(o: Pick<SocketCaseOptions, "server" | "cluster">): readonly string[] {
  return o.cluster && o.cluster.length > 0 ? o.cluster : [o.server];
}

/**
 * A run's topic: short, since a backplane carries its name with every message (bp B/msg counts
 * it), and unique on the server, whose topics outlive runs: a hash of the connection id.
 */
export function shortTopic(prefix: string, id: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) h = Math.imul(h ^ id.charCodeAt(i), 0x01000193);
  return `${prefix}-${(h >>> 0).toString(36)}`;
}

export interface SocketCaseFigures {
  sent: number;
  received: number;
  lost: number;
  reordered: number;
  corrupted: number;
  /** First send to last reply, ms. */
  elapsedMs: number;
  /** Client serialize / deserialize time summed over all messages, ns (raw: the lookup of prepared bytes and the byte check). */
  serializeNs: number;
  deserializeNs: number;
  /** roundtrip: every message's round-trip time; latency: each reply's time since its message was due; ns. */
  rttNs: Float64Array | undefined;
  /** latency only: each reply's time since its message actually went out (what a closed loop sees), ns. */
  serviceNs: Float64Array | undefined;
  /** latency only: messages sent more than one interval (at least 1 ms) after they were due. */
  late: number;
  /** latency only: the span the messages were sent over at the pace the client kept (open-loop.ts, fittedSpanMs), ms; the rate achieved is messages over it. */
  sendingMs: number;
  /**
   * latency only: time the client spent on messages (encode and send, decode and check), ns. Its
   * process CPU says little there: between sends due within a few ms the pacing loop polls the
   * event loop, which keeps a core busy at any rate.
   */
  busyNs: number;
  /** Payload bytes sent and received, summed. */
  bytesSent: number;
  bytesReceived: number;
  extensions: string;
  clientCpuMs: number;
  server: ServerConnectionStats | undefined;
  /** The server's figures of this slice, from its answer to the slice mark (sliceFigures). */
  serverSlice?: ServerSlice;
  /** fanout: every server process's CPU and the backplane's traffic while it published (cluster-figures.ts). */
  cluster?: ClusterRun;
  /** Why the slice failed: one line, absent when it did not. */
  error?: string;
}

/** Figures before anything happened. */
export function emptyFigures(): SocketCaseFigures {
  return {
    sent: 0,
    received: 0,
    lost: 0,
    reordered: 0,
    corrupted: 0,
    elapsedMs: 0,
    serializeNs: 0,
    deserializeNs: 0,
    rttNs: undefined,
    serviceNs: undefined,
    late: 0,
    sendingMs: 0,
    busyNs: 0,
    bytesSent: 0,
    bytesReceived: 0,
    extensions: "",
    clientCpuMs: NaN,
    server: undefined,
  };
}

/** One codec x payload x mode over a socket, as its runs accumulate. */
export interface SocketCase {
  mode: SocketMode;
  codec: string;
  payload: PayloadName;
  /** Latency mode: messages per second per connection (0 in the other modes). */
  rate: number;
  runs: SliceFigures[];
  figures: SocketCaseFigures[];
  /** Each message's reply time, per run: round-trip time, or in latency mode from its due time. */
  timesNs: Float64Array[];
  /** latency mode: each reply's time since its message actually went out. */
  service: Float64Array[];
  perClient: ClientFigures[][];
  /** Fresh connections: the case has had its warm-up run (rounds warm up as they open). */
  warmed: boolean;
  /** Slices the case was to time (runs x rounds per run); one per run when absent. */
  plannedRounds?: number;
  /** Messages per slice in interleaved rounds (absent: the whole run). */
  slice?: number;
  /** Route mode: its rooms, and its deliveries summed over runs and ways. */
  route?: RouteCounts;
  /** Why the case failed: one line, absent while it has not. */
  error?: string;
}

/** Route mode's counts of a case (route.ts, RouteRun), summed over its runs and both ways. */
interface RouteCounts {
  rooms: number;
  publishers: number;
  expected: number;
  delivered: number;
  misrouted: number;
}

/** Who ran the case, for every row. */
export interface SocketCaseSource {
  client: CaseResult["client"];
  clientLibrary: string;
  libraryVersion?: (library: string) => string;
  catalog: CodecCatalog;
  /** What joined the server's processes ("redis"), if anything did. */
  backplane?: string;
}

function describeCodec(catalog: CodecCatalog, name: string): { standard: boolean; library: string; family?: string } {
  if (name === RAW_CODEC_NAME) return { standard: true, library: "" };
  const c = catalog.get(name);
  return { standard: c?.standard ?? true, library: c?.library ?? "", ...(c?.family ? { family: c.family } : {}) };
}

function latency(samples: Float64Array[]): LatencyPercentiles | undefined {
  const count = samples.reduce((n, s) => n + s.length, 0);
  if (count === 0) return undefined;
  const all = new Float64Array(count);
  let at = 0;
  for (const s of samples) {
    all.set(s, at);
    at += s.length;
  }
  all.sort();
  return {
    samples: count,
    p50: percentileSorted(all, 50),
    p90: percentileSorted(all, 90),
    p99: percentileSorted(all, 99),
    p999: percentileSorted(all, 99.9),
    p9999: percentileSorted(all, 99.99),
    max: all[count - 1]!,
  };
}

/** Messages per second over a span in ms (NaN without one). */
const rateOver = (messages: number, ms: number): number => (ms > 0 ? (messages / ms) * 1000 : Number.NaN);

const NO_BATCHES = { batch: NaN, samples: 0, p50: NaN, p90: NaN, p99: NaN };

/** The mean of the finite values (NaN without one). */
function meanOf(values: readonly number[]): number {
  const finite = values.filter(Number.isFinite);
  return finite.length > 0 ? finite.reduce((a, b) => a + b, 0) / finite.length : Number.NaN;
}

/** The server's figures of the case's slices (kept connections that marked them), or undefined. */
function fieldFigures(runs: readonly SliceFigures[]): FieldFigures | undefined {
  const slices = runs.map((r) => r.server).filter((x) => x !== undefined);
  if (slices.length === 0) return undefined;
  return {
    slices: slices.length,
    codecNs: summarize(slices.map((x) => x.codecNs)),
    sendNs: summarize(slices.map((x) => x.sendNs)),
    cpuNs: summarize(slices.map((x) => x.cpuNs)),
    wakeupsPerMsg: slices.reduce((acc, x) => acc + x.wakeups, 0) / slices.length,
    interrupted: meanOf(slices.map((x) => x.interrupted)),
    collection: meanOf(slices.map((x) => x.collection)),
    scheduler: meanOf(slices.map((x) => x.scheduler)),
  };
}

/** Counts and server figures summed over the case's runs. */
function socketFigures(
  s: SocketCase,
  settings: Settings,
  bytesPerMessage: number,
  source: SocketCaseSource,
): NonNullable<CaseResult["socket"]> {
  const figures = s.figures;
  const sum = (pick: (f: SocketCaseFigures) => number): number => figures.reduce((acc, f) => acc + pick(f), 0);
  const sent = sum((f) => f.sent);
  const received = sum((f) => f.received);
  const elapsedMs = sum((f) => f.elapsedMs);
  const replyBytes = received > 0 ? sum((f) => f.bytesReceived) / received : NaN;
  const servers = figures.map((f) => f.server).filter((x) => x !== undefined);
  const serverCpuMs = servers.reduce((acc, x) => acc + x.cpuMs, 0);
  const serverMessages = servers.reduce((acc, x) => acc + x.messages, 0);
  const clientCpuMs = sum((f) => f.clientCpuMs);
  const field = fieldFigures(s.runs);
  const serverPer = (pick: (x: (typeof servers)[number]) => number): number[] =>
    s.codec === RAW_CODEC_NAME ? [] : servers.filter((x) => x.messages > 0).map((x) => pick(x) / x.messages);
  return {
    clients: s.mode === "route" ? settings.members : settings.clients,
    perClient: s.perClient.length > 0 ? s.perClient : undefined,
    window: s.mode === "roundtrip" ? 1 : Math.min(settings.window, settings.iterations[s.mode]),
    ...(settings.link ? { link: settings.link } : {}),
    slice: s.slice ?? settings.iterations[s.mode],
    sent,
    received,
    lost: sum((f) => f.lost),
    reordered: sum((f) => f.reordered),
    corrupted: sum((f) => f.corrupted),
    wireBytes: settings.deflate ? NaN : frameBytes(bytesPerMessage, true),
    replyBytes,
    replyWireBytes: settings.deflate ? NaN : frameBytes(replyBytes, false),
    rtt: s.mode === "latency" ? undefined : latency(s.timesNs),
    ...(s.mode === "latency"
      ? {
          latency: latency(s.timesNs),
          serviceTime: latency(s.service),
          late: sum((f) => f.late),
          targetRate: s.rate * settings.clients,
          achievedRate: rateOver(
            sent,
            sum((f) => f.sendingMs),
          ),
          clientBusyNsPerMsg: sent > 0 ? sum((f) => f.busyNs) / sent : NaN,
          histograms: {
            correctedUs: encodeHistogram(latencyHistogram(s.timesNs)),
            serviceUs: encodeHistogram(latencyHistogram(s.service)),
          },
        }
      : {}),
    serverDeserialize: summarize(serverPer((x) => x.decodeNs)),
    serverSerialize: summarize(serverPer((x) => x.encodeNs)),
    ...(field ? { field } : {}),
    mbPerS: elapsedMs > 0 ? sum((f) => f.bytesSent) / 1e6 / (elapsedMs / 1000) : NaN,
    serverCpuMs,
    clientCpuMs,
    clientCpuNsPerMsg: sent > 0 ? (clientCpuMs * 1e6) / sent : NaN,
    serverCpuNsPerMsg: serverMessages > 0 ? (serverCpuMs * 1e6) / serverMessages : NaN,
    serverRssPeakBytes: servers.some((x) => (x.rssPeakBytes ?? 0) > 0)
      ? Math.max(...servers.map((x) => x.rssPeakBytes ?? 0))
      : NaN,
    elapsedMs,
    backpressure: servers.reduce((acc, x) => acc + x.backpressure + x.publishBackpressure, 0),
    dropped: servers.reduce((acc, x) => acc + x.dropped + x.publishDropped, 0),
    extensions: figures[0]?.extensions ?? "",
    ...(clusterOf(s, source) ?? {}),
  };
}

/** fanout: the whole server side per delivery, from the runs' readings of every process. */
function clusterOf(s: SocketCase, source: SocketCaseSource): { cluster: ClusterFigures } | undefined {
  const runs = s.runs.map((r) => r.cluster).filter((c) => c !== undefined);
  if (runs.length === 0) return undefined;
  return {
    cluster: {
      processes: runs[0]!.processes,
      backplane: source.backplane ?? "",
      cpuNsPerDelivery: summarize(runs.map((c) => c.cpuNsPerDelivery).filter(Number.isFinite)),
      backplaneBytesPerMsg: summarize(runs.map((c) => c.backplaneBytesPerMsg).filter(Number.isFinite)),
    },
  };
}

/** Route mode's figures of case `s` over its runs, each way's per routed message. */
function routeResult(s: SocketCase, settings: Settings, catalog: CodecCatalog): RouteResult | undefined {
  if (s.mode !== "route" || s.route === undefined) return undefined;
  const runs = s.runs.map((r) => r.route).filter((r) => r !== undefined);
  const way = (w: RouteWay): RouteWaySummary => ({
    cpuNs: summarize(runs.map((r) => r[w].cpuNs)),
    keyNs: summarize(runs.map((r) => r[w].keyNs)),
    encodeNs: summarize(runs.map((r) => r[w].encodeNs)),
    publishNs: summarize(runs.map((r) => r[w].publishNs)),
    msgsPerS: summarize(runs.map((r) => 1e9 / r[w].totalNs)),
    ...(runs.some((r) => r[w].clusterCpuNs !== undefined)
      ? {
          clusterCpuNs: summarize(runs.map((r) => r[w].clusterCpuNs ?? Number.NaN).filter(Number.isFinite)),
          backplaneBytesPerMsg: summarize(
            runs.map((r) => r[w].backplaneBytesPerMsg ?? Number.NaN).filter(Number.isFinite),
          ),
        }
      : {}),
  });
  const recodeOverForward = estimate(runs.map((r) => r.recode.cpuNs / r.forward.cpuNs).filter(Number.isFinite));
  return {
    rooms: s.route.rooms,
    publishers: s.route.publishers,
    members: settings.members,
    validate: settings.validate,
    keyAccess: catalog.get(s.codec)?.keyAccess ?? "decode",
    expected: s.route.expected,
    delivered: s.route.delivered,
    misrouted: s.route.misrouted,
    forward: way("forward"),
    recode: way("recode"),
    ...(recodeOverForward ? { recodeOverForward } : {}),
  };
}

export function socketCaseResult(s: SocketCase, settings: Settings, source: SocketCaseSource): CaseResult {
  const { standard, library, family } = describeCodec(source.catalog, s.codec);
  const ok = s.error === undefined && s.runs.length > 0;
  const n = settings.iterations[s.mode];
  const isRaw = s.codec === RAW_CODEC_NAME;
  const sent = s.figures.reduce((acc, f) => acc + f.sent, 0);
  const bytes = sent > 0 ? s.figures.reduce((acc, f) => acc + f.bytesSent, 0) / sent : NaN;
  const socket = socketFigures(s, settings, bytes, source);
  const route = routeResult(s, settings, source.catalog);
  const summaries = summarizeRuns(s.runs, n);
  const flags: string[] = [];
  if (!standard) flags.push("non-standard");
  if (isRaw) flags.push("transport-baseline");
  const runs = new Set(s.runs.map((r) => r.run)).size;
  if (ok && s.runs.length < (s.plannedRounds ?? settings.runs[s.mode])) flags.push("partial");
  // latency: the client could not send at the rate asked for; the latencies are of a lighter load.
  if (ok && s.mode === "latency" && (socket.achievedRate ?? 0) < 0.99 * (socket.targetRate ?? 0))
    flags.push("below-rate");
  return {
    client: source.client,
    clientLibrary: source.clientLibrary,
    mode: s.mode,
    codec: s.codec,
    standard,
    ...(family ? { family } : {}),
    frame: frameOf(s.codec, source.catalog),
    library,
    libraryVersion: source.libraryVersion?.(library) ?? "",
    payload: s.payload,
    iterations: n,
    runs,
    rounds: s.runs.length,
    warmup: settings.warmup[s.mode],
    bytes,
    bytesMin: NaN,
    bytesMax: NaN,
    verified: ok,
    error: s.error ?? (s.runs.length === 0 ? "no run finished" : ""),
    ...summaries,
    ...(isRaw ? { serialize: summarize([]), deserialize: summarize([]) } : {}),
    // latency: the rate achieved, not the inverse of a latency.
    // From the median of the rounds' time per message, the figure the ratios use.
    msgsPerS: !ok
      ? NaN
      : s.mode === "latency"
        ? (socket.achievedRate ?? NaN)
        : 1e9 / summarize(s.runs.map((r) => r.totalNs)).median,
    serializeBatches: NO_BATCHES,
    deserializeBatches: NO_BATCHES,
    loopFloorNs: NaN,
    flags,
    raw: s.runs,
    socket,
    ...(route ? { route } : {}),
  };
}
