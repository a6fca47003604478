/**
 * The benchmark server's WebSocket contract, shared by the server and every
 * client (Bun, Node `ws`, browser, or anything else that speaks WebSocket):
 *
 *   GET /ws?codec=NAME&payload=NAME[&id=ID]   upgrade; one codec and payload per connection
 *       [&role=publisher|subscriber&topic=T]  fanout: a publisher's messages go to every
 *                                             subscriber of T (and back to the publisher)
 *       [&role=member&topic=NS]               route: joins rooms of namespace NS by sending
 *                                             {"join":["room",...]} as text (answered
 *                                             {"joined":N}); then receives only
 *       [&role=router&topic=NS&way=forward|recode[&validate=1]]
 *                                             route: each message goes to the members of the
 *                                             room its routing key names (router.ts): forward
 *                                             its bytes (key read the codec's cheapest way),
 *                                             or decode and encode it again; validate=1
 *                                             decodes and checks every message first
 *   GET /stats/ID                             the server's figures for connection ID (JSON)
 *   POST /known-cost[?codec=NAME]             a calibration codec's known work (cal-spin's loop)
 *                                             timed hot here: {"codec","calls","ns"}
 *   POST /warm-up?codec=NAME&payload=NAME&messages=N
 *                                             the codec's decode + encode run N times here over
 *                                             the frames of the body (packFrames), so the engine
 *                                             compiles them before a case is timed:
 *                                             {"codec","payload","frames","messages","ms"}
 *   POST /gc                                  full garbage collection between cases
 *   GET /info                                 server runtime and library versions
 *   GET /health                               liveness, open connections, memory
 *   GET /                                     the benchmark page
 *
 * Each message a client sends is decoded by the server with the named codec
 * and encoded again; the fresh encoding comes back in the codec's frame type
 * (text for json, binary otherwise). The `raw` pseudo-codec echoes the bytes
 * untouched, to show what the transport alone costs.
 *
 * An empty message (no bytes, in the connection's frame type) is a slice
 * mark, never a message: the server answers it, in order, with one message
 * of the same frame type holding the figures of the messages it handled
 * since the previous mark (a ServerSlice as JSON), so a client that sends
 * its messages in slices gets the server's side of every slice. No codec's
 * encoding of a message is empty.
 */

import { CODEC_FAMILIES, type Frame } from "./codec.ts";
import { CALIBRATION_CODEC_NAMES } from "./calibration.ts";
import type { CodecCatalog } from "./registry.ts";
import type { PayloadName } from "./messages.ts";

export const WS_PATH = "/ws";
export const STATS_PATH = "/stats/";
export const GC_PATH = "/gc";
/** The calibration loop's cost per call in the server's process, timed hot (protocols/calibration.ts). */
export const KNOWN_COST_PATH = "/known-cost";
/** A codec's warm-up in the server's process, over frames the client sends (packFrames). */
export const WARM_UP_PATH = "/warm-up";
/** Most decode + encode calls one warm-up request may ask for. */
export const WARM_UP_MAX_MESSAGES = 1_000_000;
/** Largest warm-up body the server reads, bytes. */
export const WARM_UP_MAX_BYTES = 16 * 1024 * 1024;
/** Liveness, open connections and memory (JSON). */
export const HEALTH_PATH = "/health";
/** Server runtime and library versions, for the page's results (JSON). */
export const INFO_PATH = "/info";
/** The page's codec-mode worker: each of its processes, a fresh JavaScript engine (client/page/codec-worker.ts). */
export const CODEC_WORKER_PATH = "/codec-worker.js";

/** Close codes the server uses (RFC 6455 section 7.4.1). */
export const CLOSE = {
  /** Normal closure: the client finished. */
  normal: 1000,
  /** The server is shutting down. */
  goingAway: 1001,
  /** A frame the codec could not decode, the wrong frame type for it, a routing key that cannot be read, or (validate=1) a malformed message. */
  invalidPayload: 1007,
  /** A subscriber sent a message (subscribers receive only), a member sent anything but a join request, or a client stopped reading its replies. */
  policy: 1008,
  /** A frame larger than the server's maxPayloadLength. */
  tooBig: 1009,
  /** The server could not send a reply (Bun dropped it). */
  internalError: 1011,
  /** The server's queues, all connections together, are full: try again later. */
  tryAgainLater: 1013,
  /** Bad Gateway: the backplane joining a cluster's processes (--backplane) is gone; every pub/sub connection is closed with it, and new ones refused. */
  backplaneLost: 1014,
} as const;

/** Largest frame the server accepts, in bytes. */
export const MAX_PAYLOAD_BYTES = 1024 * 1024;

/**
 * The transport baseline: the client sends each message's custom-binary
 * bytes (encoded once, before timing) and the server echoes them as they
 * came. The same bytes custom-binary moves, so the difference between the
 * two is what encoding and decoding cost on top of the transport.
 */
export const RAW_CODEC_NAME = "raw";

/** Codec names a socket accepts: every codec of the catalog, plus `raw`. */
export function socketCodecNames(catalog: CodecCatalog): string[] {
  return [...catalog.names, RAW_CODEC_NAME];
}

/** The codecs a run takes under "all": every socket codec but the calibration codecs (--calibrate). */
export function benchCodecNames(catalog: CodecCatalog): string[] {
  return socketCodecNames(catalog).filter((name) => !CALIBRATION_CODEC_NAMES.includes(name));
}

/** The codecs a run takes without --codecs: the catalog's defaults, and raw. */
export function defaultCodecNames(catalog: CodecCatalog): string[] {
  return [...catalog.defaults, RAW_CODEC_NAME];
}

/**
 * The names --codecs (and the page's codecs=) take beside single codecs,
 * each for a list of codecs: "all", "default", and each family.
 */
export function codecGroups(catalog: CodecCatalog): Record<string, string[]> {
  const all = benchCodecNames(catalog);
  const groups: Record<string, string[]> = { all, default: defaultCodecNames(catalog) };
  for (const family of CODEC_FAMILIES) groups[family] = catalog.family(family).filter((name) => all.includes(name));
  return groups;
}

/** The frame type a codec's messages travel in (raw: binary). */
export function frameOf(codecName: string, catalog: CodecCatalog): Frame {
  if (codecName === RAW_CODEC_NAME) return "binary";
  return catalog.get(codecName)?.frame ?? "binary";
}

/** How a router passes a message on (router.ts): its bytes as they came, or decoded and encoded again (the naive router). */
export type RouteWay = "forward" | "recode";
export const ROUTE_WAYS: readonly RouteWay[] = ["forward", "recode"];

/** A connection's part in fanout (a topic) or route mode (a namespace of rooms; routers say how they route). */
export type SocketRole =
  | { role: "publisher" | "subscriber"; topic: string }
  | { role: "member"; topic: string }
  | { role: "router"; topic: string; way: RouteWay; validate: boolean };

export function socketUrl(base: string, codec: string, payload: PayloadName, id: string, as?: SocketRole): string {
  const url = new URL(WS_PATH, base.replace(/^http/, "ws"));
  url.searchParams.set("codec", codec);
  url.searchParams.set("payload", payload);
  url.searchParams.set("id", id);
  if (as) {
    url.searchParams.set("role", as.role);
    url.searchParams.set("topic", as.topic);
    if (as.role === "router") {
      url.searchParams.set("way", as.way);
      if (as.validate) url.searchParams.set("validate", "1");
    }
  }
  return url.toString();
}

/** Longest room name a member may join, in characters. */
const MAX_ROOM_NAME = 256;

/** The room a routing key names: a string as it is, a finite number in its shortest decimal form; undefined for anything else. */
export function roomName(key: unknown): string | undefined {
  if (typeof key === "string") return key.length > 0 && key.length <= MAX_ROOM_NAME ? key : undefined;
  if (typeof key === "number" && Number.isFinite(key)) return String(key);
  return undefined;
}

/** A member's join request, as it sends it. */
export interface JoinRequest {
  join: string[];
}
/** The server's answer to a join request: the rooms the member is in now. */
export interface JoinAnswer {
  joined: number;
}

/** The room names of a join request's text, or undefined when it is not one. */
export function parseJoin(text: string): string[] | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  const join = (value as Partial<JoinRequest> | null)?.join;
  if (!Array.isArray(join) || !join.every((n) => typeof n === "string" && n.length > 0 && n.length <= MAX_ROOM_NAME))
    return undefined;
  return join as string[];
}

/** What the server measured on one connection, served at /stats/ID. */
export interface ServerConnectionStats {
  id: string;
  codec: string;
  payload: PayloadName;
  /** Messages decoded and answered. */
  messages: number;
  bytesIn: number;
  bytesOut: number;
  /** Sum of per-message decode / encode times, clock read cost already subtracted, ns (raw: the same timers around no work). */
  decodeNs: number;
  encodeNs: number;
  /** Sum of per-message `send()` (echo) or `publish()` times, clock read cost subtracted, ns: where a text frame is encoded to UTF-8. */
  sendNs: number;
  /** The server's clock read cost that was subtracted per timing, ns. */
  timerOverheadNs: number;
  /** `send()` returned -1: queued, waiting for drain. */
  backpressure: number;
  /** `send()` returned 0: Bun dropped the message. Any drop invalidates a run. */
  dropped: number;
  /** Publisher connections: messages published to the topic, and `publish()` returning -1 / 0. */
  published: number;
  publishBackpressure: number;
  publishDropped: number;
  /** Router connections (route mode): messages whose key named a room no one had joined (not published, not dropped). */
  unrouted: number;
  /** Server CPU time (user + system) while this connection was the busy one (see cpu.ts), ms. */
  cpuMs: number;
  /** Times the server process slept waiting for work and woke while this connection was the busy one (voluntary context switches). */
  wakeups: number;
  /** The server process's highest resident memory sampled while this connection was the busy one (see cpu.ts), bytes; 0 before its first message. */
  rssPeakBytes: number;
  /** Wall time the connection was open, ms. */
  openMs: number;
  closeCode: number | null;
  closeReason: string;
  /** Why the server closed the connection, when it did (absent when it did not). */
  error?: string;
}

/**
 * The server's figures for one slice of a connection's messages: those it
 * handled since the client's previous slice mark (see the header). Times
 * are sums over the slice's messages, ns; CPU is the process's while the
 * connection was the busy one, ms.
 */
export interface ServerSlice {
  messages: number;
  decodeNs: number;
  encodeNs: number;
  sendNs: number;
  cpuMs: number;
  wakeups: number;
  /**
   * The slice's messages whose decode + encode took under INTERRUPTION_FACTOR times the slice's
   * median, and their decode + encode summed, ns. A message past it was interrupted: by a
   * collection or a compiler thread (the codec's cost, which a server pays), or by the scheduler
   * giving the CPU to another process (not the codec's).
   */
  kept: number;
  keptNs: number;
  /**
   * Of the interrupted messages' time over the slice's median, ns: what the scheduler
   * demonstrably took from the server's thread for another process (stolen-time.ts; 0 where the
   * system cannot tell), and the rest, pauses the codec caused (collections, mostly). The field
   * figure is decodeNs + encodeNs less schedulerNs.
   */
  schedulerNs: number;
  pausedNs: number;
}

/** A message whose decode + encode takes this many times its slice's median (or than 1 µs, when that is more) was interrupted. */
export const INTERRUPTION_FACTOR = 10;
/** The median that limit is taken from is at least this, ns: raw's timers around no work read about 0, and an interruption lasts microseconds. */
export const INTERRUPTION_FLOOR_NS = 1000;

/** The figures a ServerSlice carries, in the order the server writes them. */
const SLICE_FIELDS = [
  "messages",
  "decodeNs",
  "encodeNs",
  "sendNs",
  "cpuMs",
  "wakeups",
  "kept",
  "keptNs",
  "schedulerNs",
  "pausedNs",
] as const satisfies readonly (keyof ServerSlice)[];

/**
 * A slice mark's answer as the client received it (text, or its UTF-8
 * bytes), or undefined when it is not one: every field a finite number.
 */
export function parseSlice(data: string | Uint8Array): ServerSlice | undefined {
  let value: unknown;
  try {
    value = JSON.parse(typeof data === "string" ? data : new TextDecoder().decode(data));
  } catch {
    return undefined;
  }
  if (value === null || typeof value !== "object") return undefined;
  const v = value as Record<string, unknown>;
  return SLICE_FIELDS.every((k) => typeof v[k] === "number" && Number.isFinite(v[k]))
    ? (value as ServerSlice)
    : undefined;
}

/**
 * A warm-up request's body: each frame as a 4-byte little-endian length and its bytes (a text
 * frame's as UTF-8), one after another.
 */
export function packFrames(frames: readonly (string | Uint8Array)[]): Uint8Array<ArrayBuffer> {
  const utf8 = new TextEncoder();
  const bytes = frames.map((f) => (typeof f === "string" ? utf8.encode(f) : f));
  const out = new Uint8Array(bytes.reduce((n, b) => n + 4 + b.byteLength, 0));
  const view = new DataView(out.buffer);
  let at = 0;
  for (const b of bytes) {
    view.setUint32(at, b.byteLength, true);
    out.set(b, at + 4);
    at += 4 + b.byteLength;
  }
  return out;
}

/** The frames of a warm-up body, as strings for a text codec; undefined when a length runs past the end. */
export function unpackFrames(body: Uint8Array, frame: Frame): (string | Uint8Array)[] | undefined {
  const view = new DataView(body.buffer, body.byteOffset, body.byteLength);
  const utf8 = new TextDecoder();
  const frames: (string | Uint8Array)[] = [];
  let at = 0;
  while (at < body.byteLength) {
    if (at + 4 > body.byteLength) return undefined;
    const n = view.getUint32(at, true);
    if (at + 4 + n > body.byteLength) return undefined;
    const bytes = body.subarray(at + 4, at + 4 + n);
    frames.push(frame === "text" ? utf8.decode(bytes) : bytes.slice());
    at += 4 + n;
  }
  return frames;
}

/** Bytes a WebSocket frame of `payload` bytes takes on the wire (RFC 6455 5.2), without extensions. */
export function frameBytes(payload: number, masked: boolean): number {
  const header = payload < 126 ? 2 : payload < 65536 ? 4 : 10;
  return header + (masked ? 4 : 0) + payload;
}
