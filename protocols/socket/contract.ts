/**
 * The benchmark server's WebSocket contract, shared by the server and every
 * client (Bun, Node `ws`, browser, or anything else that speaks WebSocket):
 *
 *   GET /ws?codec=NAME&payload=NAME[&id=ID]   upgrade; one codec and payload per connection
 *       [&role=publisher|subscriber&topic=T]  fanout: a publisher's messages go to every
 *                                             subscriber of T (and back to the publisher)
 *   GET /stats/ID                             the server's figures for connection ID (JSON)
 *   POST /gc                                  full garbage collection between cases
 *   GET /info                                 server runtime and library versions
 *   GET /health                               liveness, open connections, memory
 *   GET /                                     the benchmark page
 *
 * Each message a client sends is decoded by the server with the named codec
 * and encoded again; the fresh encoding comes back in the codec's frame type
 * (text for json, binary otherwise). The `raw` pseudo-codec echoes the bytes
 * untouched, to show what the transport alone costs.
 */

import type { Codec, Frame } from "../codec.ts";
import { addCodec, CODECS } from "../registry.ts";
import type { PayloadName } from "../messages.ts";

export const WS_PATH = "/ws";
export const STATS_PATH = "/stats/";
export const GC_PATH = "/gc";
/** Liveness, open connections and memory (JSON). */
export const HEALTH_PATH = "/health";
/** Server runtime and library versions, for the page's results (JSON). */
export const INFO_PATH = "/info";

/** Close codes the server uses (RFC 6455 section 7.4.1). */
export const CLOSE = {
  /** Normal closure: the client finished. */
  normal: 1000,
  /** The server is shutting down. */
  goingAway: 1001,
  /** A frame the codec could not decode, or the wrong frame type for it. */
  invalidPayload: 1007,
  /** A subscriber sent a message (subscribers receive only), or a client stopped reading its replies. */
  policy: 1008,
  /** A frame larger than the server's maxPayloadLength. */
  tooBig: 1009,
  /** The server could not send a reply (Bun dropped it). */
  internalError: 1011,
  /** The server's queues, all connections together, are full: try again later. */
  tryAgainLater: 1013,
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

/** Codec names a socket accepts: every registered codec, plus `raw`. */
const socketCodecNames: string[] = [...CODECS.map((c) => c.name), RAW_CODEC_NAME];
export const SOCKET_CODEC_NAMES: readonly string[] = socketCodecNames;

/**
 * Adds a codec of the user's own (a codec module) to the registry and to
 * the codecs a socket may name, before raw; throws if the name is taken.
 */
export function registerCodec(codec: Codec): void {
  if (socketCodecNames.includes(codec.name)) throw new Error(`a codec named '${codec.name}' exists already; name yours differently`);
  addCodec(codec);
  socketCodecNames.splice(socketCodecNames.length - 1, 0, codec.name);
}

export function frameOf(codecName: string): Frame {
  if (codecName === RAW_CODEC_NAME) return "binary";
  return CODECS.find((c) => c.name === codecName)?.frame ?? "binary";
}

export function socketUrl(base: string, codec: string, payload: PayloadName, id: string, fanout?: { role: "publisher" | "subscriber"; topic: string }): string {
  const url = new URL(WS_PATH, base.replace(/^http/, "ws"));
  url.searchParams.set("codec", codec);
  url.searchParams.set("payload", payload);
  url.searchParams.set("id", id);
  if (fanout) {
    url.searchParams.set("role", fanout.role);
    url.searchParams.set("topic", fanout.topic);
  }
  return url.toString();
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
  /** Sum of per-message decode / encode times, clock read cost already subtracted, ns. */
  decodeNs: number;
  encodeNs: number;
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
  /** Server CPU time (user + system) while this connection was the busy one (see cpu.ts), ms. */
  cpuMs: number;
  /** The server process's highest resident memory sampled while this connection was the busy one (see cpu.ts), bytes; 0 before its first message. */
  rssPeakBytes: number;
  /** Wall time the connection was open, ms. */
  openMs: number;
  closeCode: number | null;
  closeReason: string;
  /** Why the server closed the connection, when it did. */
  error: string;
}

/** Bytes a WebSocket frame of `payload` bytes takes on the wire (RFC 6455 5.2), without extensions. */
export function frameBytes(payload: number, masked: boolean): number {
  const header = payload < 126 ? 2 : payload < 65536 ? 4 : 10;
  return header + (masked ? 4 : 0) + payload;
}
