/**
 * What the routes and the handlers share. protocols/ may not import the
 * clock, the page or the library versions (they live above it), so
 * server.ts passes them in as plain values.
 */

import type { CodecCatalog } from "../protocols/registry.ts";
import type { ServerWebSocket } from "bun";
import type { Connection } from "./socket-state.ts";
import { StolenTime } from "./stolen-time.ts";
import { CpuMeter } from "./cpu.ts";
import type { Publish } from "./server-send.ts";
import { StatsStore } from "./connection-stats.ts";

/** One file of the page, as server.ts built it. */
interface PageFile {
  body: Uint8Array<ArrayBuffer>;
  type: string;
}

export interface SocketServerContext {
  /** The clock the timings read, ms. */
  now: () => number;
  /** What one clock read costs, subtracted from every timing, ns. */
  timerOverheadNs: number;
  /** URL path ("/", "/chunk-abc.js", ...) -> file, for every file of the page. */
  page: ReadonlyMap<string, PageFile>;
  /** The /info body (JSON). */
  info: string;
  /** Payloads a socket may name: the built-ins, and the user's own (--messages). Default: the built-ins. */
  payloads?: readonly string[];
  /** The codecs a socket may name (with raw): the server's plan's catalog. */
  codecs: CodecCatalog;
  /** Origins allowed besides the server's own page (--allow-origin). */
  allowOrigins: readonly string[];
  /** Open sockets at most (--max-connections). */
  maxConnections: number;
  /** Bound to loopback: answer only requests addressed to a loopback name. */
  loopbackOnly: boolean;
  publish: Publish;
  /** Bun's `server.subscriberCount`: sockets subscribed to a topic (route mode tells a room no one joined from a dropped message by it). */
  subscriberCount: (topic: string) => number;
  /**
   * Ask Bun to compress every reply and publish (--deflate). Bun's send() compresses only when
   * asked, even on a connection that negotiated permessage-deflate; a client that did not gets
   * the frame uncompressed.
   */
  compress?: boolean;
  /** Limits on what waits in memory (SOCKET_LIMITS has the defaults). */
  limits?: Partial<SocketLimits>;
  /** The page's Content-Security-Policy (requests.ts): strict forbids eval. Default: none. */
  csp?: "off" | "strict";
  /** One process of a cluster (bun run server --processes N): which, of how many. */
  cluster?: { index: number; size: number };
  /** With a backplane (--backplane): its figures for /health. */
  backplane?: () => BackplaneStats;
}

/** What /health says of the backplane, counted since the process started. */
export interface BackplaneStats {
  /** The Redis URL and this cluster's channel prefix. */
  url: string;
  channelPrefix: string;
  /** "up", or "lost" with why. */
  state: "up" | "lost";
  error?: string;
  /** Messages this process published to the backplane, and received from it. */
  published: number;
  received: number;
  /** Wire bytes (RESP framing included) written by publishing, and read by subscribing. */
  publishedBytes: number;
  receivedBytes: number;
  /** Publishes Redis refused or never answered because it went away. */
  publishFailed: number;
  /** Messages received whose local publish Bun dropped (0), or had to queue past its limit (-1). */
  deliveryDropped: number;
  deliveryBackpressure: number;
}

/** One process of a cluster, as /health lists them: its own URL reaches it alone. */
export interface ClusterPeer {
  index: number;
  pid: number;
  url: string;
}

/** What the server holds for clients that do not read, and how long. */
export interface SocketLimits {
  /** Bytes of messages one connection may have waiting for their replies to go out (--max-queued-bytes). */
  maxQueuedBytes: number;
  /** The same, all connections together (--max-total-queued-bytes). */
  maxTotalQueuedBytes: number;
  /** How long replies may wait for a client to read before the connection is closed (--send-timeout), ms. */
  sendTimeoutMs: number;
}

export const SOCKET_LIMITS: SocketLimits = {
  maxQueuedBytes: 4 * 1024 * 1024,
  maxTotalQueuedBytes: 64 * 1024 * 1024,
  sendTimeoutMs: 10_000,
};

/** What the server refuses, by kind; /health counts each. */
const REFUSALS = [
  /** A malformed request: path escape, Host header, request line. */
  "badRequest",
  /** A Host that is not a loopback name while bound to loopback (DNS rebinding). */
  "foreignHost",
  /** A page from another origin, on /ws or /gc. */
  "foreignOrigin",
  /** An upgrade past --max-connections. */
  "tooManyConnections",
  /** POST /gc sooner than GC_MIN_INTERVAL_MS after the last collection. */
  "gcTooSoon",
  /** A connection closed because it stopped reading its replies (its queue passed --max-queued-bytes). */
  "notReading",
  /** A request refused because the server's queues together passed --max-total-queued-bytes. */
  "serverQueueFull",
] as const;
export type Refusal = (typeof REFUSALS)[number];

export interface SocketServer {
  readonly ctx: SocketServerContext;
  readonly limits: SocketLimits;
  /** Bytes waiting in every connection's inbox. */
  queuedBytes: number;
  /** Open sockets subscribed to each topic (publishers and subscribers), to find the ones that stopped reading. */
  readonly topics: Map<string, Set<ServerWebSocket<Connection>>>;
  /** Refusals so far, by kind. */
  readonly refused: Record<Refusal, number>;
  /** When the last POST /gc collected (ctx.now, ms). */
  lastGcMs: number;
  /** Open sockets, for --max-connections and /health. */
  open: number;
  /** The open sockets themselves, to close the pub/sub ones when the backplane goes away. */
  readonly connections: Set<ServerWebSocket<Connection>>;
  /**
   * Set while this server cannot serve pub/sub (fanout and route): several processes and no
   * backplane, or a backplane gone. Such connections are closed as they open, with this code and reason.
   */
  pubsubRefusal?: { code: number; reason: string };
  /** The cluster's processes (bun run server --processes N), as its supervisor told this one; empty alone. */
  peers: ClusterPeer[];
  /** Numbers connections that bring no id. */
  nextId: number;
  readonly stats: StatsStore;
  /** Charges the process's CPU to the busy connection. */
  readonly cpu: CpuMeter;
  /** What the scheduler took from this thread for other processes (undefined where the system cannot tell): taken off interrupted messages. */
  readonly stolen: StolenTime | undefined;
}

export function socketServer(ctx: SocketServerContext): SocketServer {
  const refused = Object.fromEntries(REFUSALS.map((k) => [k, 0])) as Record<Refusal, number>;
  const limits = { ...SOCKET_LIMITS, ...ctx.limits };
  return {
    ctx,
    limits,
    queuedBytes: 0,
    topics: new Map(),
    refused,
    lastGcMs: Number.NEGATIVE_INFINITY,
    open: 0,
    connections: new Set(),
    peers: [],
    nextId: 1,
    stats: new StatsStore(),
    cpu: new CpuMeter(ctx.now),
    stolen: StolenTime.open(),
  };
}
