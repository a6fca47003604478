/**
 * What the socket modes share while they run one mode and payload: the
 * context they were given, the cases of the payload's codecs, and the
 * bookkeeping of progress, recorded slices and finished cases. The two
 * ways of running a payload (rounds.ts, fresh-runs.ts) take it.
 */

import type { CodecCatalog } from "../../protocols/registry.ts";
import { performanceClock, type Clock, type ClockCalibration } from "../harness/clock.ts";
import type { BenchmarkHooks } from "../harness/progress.ts";
import type { ServerSliceFigures, SliceLatency } from "../harness/socket-results.ts";
import { percentileSorted } from "../harness/statistics.ts";
import type { ClientKind, Settings, SocketMode } from "../harness/settings.ts";
import type { Message, PayloadName } from "../../protocols/messages.ts";
import type { SocketCase, SocketCaseFigures, SocketCaseOptions } from "./socket-case.ts";
import type { RouteRun } from "./route.ts";
import type { RouteWaySlice } from "../harness/results.ts";
import { requestServerGc, type WebSocketClass } from "./client-connection.ts";
import type { ClientWorkers } from "./workers.ts";

/** What the socket modes need besides the settings. */
export interface SocketModeContext extends BenchmarkHooks {
  /** Server base URL, http://host:port. */
  server: string;
  clock: Clock;
  calibration: ClockCalibration;
  WebSocket: WebSocketClass;
  client: ClientKind;
  clientLibrary: string;
  /** The run's codecs, by name (its plan's catalog). */
  catalog: CodecCatalog;
  /** With `settings.clients` above 1, the worker threads that run the connections. */
  workers?: ClientWorkers;
  /** Asks a server (`server`, or one of `serverForks`) to collect its garbage before each run. */
  serverGc?: (server: string) => Promise<void>;
  /** Server forks (--forks) the rounds take turns with, `server` first (client/socket/rounds.ts); absent: `server` alone. */
  serverForks?: readonly string[];
  /** `server` is a cluster: each of its processes' own URL (fanout and route place their connections on them). */
  cluster?: readonly string[];
  /** What joins the cluster's processes ("redis"), for the results; "" or absent: nothing. */
  backplane?: string;
  /** --link: the address of the link in front of each server URL (the WebSockets open there). */
  linkVia?: Readonly<Record<string, string>>;
  cpuMs?: () => number;
  /** Kept connections end every slice with a mark and keep the server's figures of it (default); false leaves the marks out (a run that counts frames). */
  sliceFigures?: boolean;
  /**
   * Calls of a codec's encode and decode this process made before the socket modes, by
   * `${payload} ${codec}` (codec mode, where it ran in this process: its verifying pass and its
   * runs): the client's own warm-up makes only what they leave short (rounds.ts).
   */
  warmedInProcess?: ReadonlyMap<string, number>;
}

/** Where a client's connections go: the server, the processes its rounds take turns with, a cluster's own processes and what joins them. */
export interface SocketTarget {
  server: string;
  serverForks?: readonly string[];
  cluster?: { urls: readonly string[]; backplane?: string };
  /** --link: the address of the link in front of each server URL above. */
  linkVia?: Readonly<Record<string, string>>;
}

/** What differs between the clients that run the socket modes (Bun, the Node client, a browser): the WebSocket and what it is. */
export interface SocketClient {
  kind: ClientKind;
  library: string;
  WebSocket: WebSocketClass;
  /** This process's CPU time, ms, where the runtime tells it (not in a browser). */
  cpuMs?: () => number;
}

/** The run's side of a socket-mode context: its catalog, clock calibration and hooks, and what the client brings besides. */
export interface SocketRun {
  catalog: CodecCatalog;
  calibration: ClockCalibration;
  hooks: BenchmarkHooks;
  workers?: ClientWorkers;
  warmedInProcess?: ReadonlyMap<string, number>;
  sliceFigures?: boolean;
}

/**
 * The one way a front end makes its socket modes' context (the Bun CLI, the Node client, the
 * page): the clock every client times with, the server's collection before each run, and a
 * cluster's processes where the server is one (fanout and route place their connections on them).
 */
export function socketModeContext(client: SocketClient, target: SocketTarget, run: SocketRun): SocketModeContext {
  return {
    ...run.hooks,
    server: target.server,
    ...(target.serverForks ? { serverForks: target.serverForks } : {}),
    ...(target.cluster ? { cluster: target.cluster.urls, backplane: target.cluster.backplane ?? "" } : {}),
    ...(target.linkVia ? { linkVia: target.linkVia } : {}),
    clock: performanceClock,
    calibration: run.calibration,
    WebSocket: client.WebSocket,
    client: client.kind,
    clientLibrary: client.library,
    catalog: run.catalog,
    serverGc: requestServerGc,
    ...(client.cpuMs ? { cpuMs: client.cpuMs } : {}),
    ...(run.workers ? { workers: run.workers } : {}),
    ...(run.warmedInProcess ? { warmedInProcess: run.warmedInProcess } : {}),
    ...(run.sliceFigures !== undefined ? { sliceFigures: run.sliceFigures } : {}),
  };
}

/** The key of `warmedInProcess`: one codec on one payload. */
export function warmedKey(payload: PayloadName, codec: string): string {
  return `${payload} ${codec}`;
}

/** How a payload's cases ended early, if they did. */
export interface PayloadOutcome {
  /** shouldStop ended the run. */
  stopped: boolean;
  /** Why the server could no longer be reached (absent while it could). */
  aborted?: string;
}

/** One mode and payload of a socket run: its cases (in the settings' codec order) and its bookkeeping. */
export interface PayloadRun {
  settings: Settings;
  ctx: SocketModeContext;
  mode: SocketMode;
  payload: PayloadName;
  cases: SocketCase[];
  /** The messages case `s`'s codec sends (each codec its own, schedule.ts, codecMessages). */
  messagesOf(s: SocketCase): readonly Message[];
  /** Filled as it runs: the codecs of each round (or run), in the order they ran. */
  order: string[][];
  /** Reports progress; `done` counts case-runs finished, fractions included. */
  progress(stage: "warmup" | "run", codec: string, run: number, done: number): void;
  /** The options of one connection of case `s`: `count` messages from the payload's list. */
  options(s: SocketCase, count: number, label: string): SocketCaseOptions;
  /**
   * Warm-up messages each server process has had of a codec on this payload in the run so far,
   * by `server codec` (and this client's own, by `client codec`): a server that has run a codec
   * often enough in an earlier mode (roundtrip's 20,000 before stream's 10,000) has compiled it
   * already, and is not warmed up again.
   */
  warmedOn: Map<string, number>;
  /** The most messages per codec any socket mode of the benchmark sends: a case's warm-up is no longer (a run of a few hundred messages is not preceded by 100,000). */
  longestRun: number;
}

/** A failure that means the server cannot be reached: every case would fail alike, so the run stops at the first. */
export function unreachable(error: string | undefined): boolean {
  return error !== undefined && /(^|: )cannot connect to /.test(error);
}

function mean(values: Float64Array): number {
  let sum = 0;
  for (let i = 0; i < values.length; i++) sum += values[i]!;
  return sum / values.length;
}

/** The server's figures of a slice per message, when it answered the slice's mark for every message sent. */
function serverSlice(f: SocketCaseFigures): ServerSliceFigures | undefined {
  const x = f.serverSlice;
  if (x === undefined || x.messages === 0 || x.messages !== f.sent) return undefined;
  const all = x.decodeNs + x.encodeNs;
  const counted = all - x.schedulerNs;
  return {
    codecNs: counted / x.messages,
    quietNs: x.kept > 0 ? x.keptNs / x.kept : Number.NaN,
    interrupted: (x.messages - x.kept) / x.messages,
    collection: counted > 0 ? x.pausedNs / counted : Number.NaN,
    scheduler: all > 0 ? x.schedulerNs / all : Number.NaN,
    sendNs: x.sendNs / x.messages,
    cpuNs: (x.cpuMs * 1e6) / x.messages,
    wakeups: x.wakeups / x.messages,
  };
}

/** Latency mode: the slice's p99 from when each message was due, its late share, and the share of its rate it kept. */
function sliceLatency(f: SocketCaseFigures, rate: number): SliceLatency | undefined {
  if (!f.rttNs || f.rttNs.length === 0 || !(rate > 0)) return undefined;
  const sorted = Float64Array.from(f.rttNs).sort();
  const achieved = f.sendingMs > 0 ? (f.sent / f.sendingMs) * 1000 : Number.NaN;
  return { p99Ns: percentileSorted(sorted, 99), lateShare: f.late / f.sent, achievedShare: achieved / rate };
}

/** A route run's figures per routed message, from the server's answers to the routers' slice marks. */
function routeWay(r: RouteRun): RouteWaySlice {
  const server = r.server!;
  const per = (ns: number): number => (server.messages > 0 ? ns / server.messages : Number.NaN);
  const cluster = r.figures.cluster;
  return {
    ...(cluster ? { clusterCpuNs: per(cluster.cpuMs * 1e6), backplaneBytesPerMsg: per(cluster.backplaneBytes) } : {}),
    totalNs: r.figures.sent > 0 ? (r.figures.elapsedMs * 1e6) / r.figures.sent : Number.NaN,
    cpuNs: per(server.cpuMs * 1e6),
    keyNs: per(server.decodeNs),
    encodeNs: per(server.encodeNs),
    publishNs: per(server.sendNs),
  };
}

/**
 * Adds one run of a route case (the same messages routed each way) to its case: its counts,
 * and when both ways delivered everything, its figures (the forwarding way's as the case's own);
 * else the case's error.
 */
export function recordRoute(
  s: SocketCase,
  runs: readonly RouteRun[],
  at: { run: number; round: number; position: number },
): void {
  const counts = (s.route ??= { rooms: 0, publishers: 0, expected: 0, delivered: 0, misrouted: 0 });
  for (const r of runs) {
    s.figures.push(r.figures);
    counts.rooms = Math.max(counts.rooms, r.rooms);
    counts.publishers = r.publishers;
    counts.expected += r.expected;
    counts.delivered += r.figures.received - r.misrouted;
    counts.misrouted += r.misrouted;
  }
  const failed = runs.find((r) => r.figures.error !== undefined);
  if (failed) {
    s.error = `run ${at.run + 1}, ${failed.way}: ${failed.figures.error}`;
    return;
  }
  const forward = runs.find((r) => r.way === "forward")!;
  const recode = runs.find((r) => r.way === "recode")!;
  const f = forward.figures;
  const ways = { forward: routeWay(forward), recode: routeWay(recode) };
  s.runs.push({
    ...at,
    serializeNs: f.serializeNs / f.sent,
    deserializeNs: f.deserializeNs / f.received,
    totalNs: ways.forward.totalNs,
    route: ways,
  });
  s.perClient.push(forward.perMember);
}

/** Adds one timed slice's figures to its case; sets the case's error when the slice failed. */
export function record(
  s: SocketCase,
  f: SocketCaseFigures,
  at: { run: number; round: number; position: number; process?: number },
): void {
  s.figures.push(f);
  if (f.error !== undefined) {
    s.error = `run ${at.run + 1}: ${f.error}`;
    return;
  }
  const server = serverSlice(f);
  const latency = s.mode === "latency" ? sliceLatency(f, s.rate) : undefined;
  const cluster = f.cluster;
  s.runs.push({
    ...at,
    serializeNs: f.serializeNs / f.sent,
    // fanout: every subscriber decodes every message.
    deserializeNs: s.mode === "fanout" ? f.deserializeNs / f.received : f.deserializeNs / f.sent,
    // roundtrip: the mean round trip; latency: the mean time from due to reply; else wall time per message.
    totalNs: s.mode === "roundtrip" || s.mode === "latency" ? mean(f.rttNs!) : (f.elapsedMs * 1e6) / f.received,
    ...(server ? { server } : {}),
    ...(latency ? { latency } : {}),
    ...(cluster
      ? {
          cluster: {
            processes: cluster.processes,
            cpuNsPerDelivery: (cluster.cpuMs * 1e6) / f.received,
            backplaneBytesPerMsg: f.sent > 0 ? cluster.backplaneBytes / f.sent : Number.NaN,
          },
        }
      : {}),
  });
  if (f.rttNs) s.timesNs.push(f.rttNs);
  if (f.serviceNs) s.service.push(f.serviceNs);
}
