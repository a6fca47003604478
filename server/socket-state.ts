/** What the server keeps for each open socket (Bun's `ws.data`). */

import type { Codec, Encoded, Frame, PayloadCodec } from "../protocols/codec.ts";
import { ROUTING_KEYS, type BuiltInPayload, type PayloadName } from "../protocols/messages.ts";
import type { CodecCatalog } from "../protocols/registry.ts";
import { RAW_CODEC_NAME, frameOf, type RouteWay, type ServerConnectionStats } from "../protocols/contract.ts";
import { Inbox } from "./inbox.ts";
import { checksFor, type MessageCheck } from "../protocols/validation.ts";
import type { StolenTime } from "./stolen-time.ts";
import { newStats, SliceRecord } from "./connection-stats.ts";

/**
 * echo: answer each message; publisher: publish each message to its topic; subscriber: receive
 * only; router: publish each message to the room its routing key names (route mode, router.ts);
 * member: join rooms, then receive only.
 */
export type Role = "echo" | "publisher" | "subscriber" | "router" | "member";
export const ROLES: readonly Role[] = ["echo", "publisher", "subscriber", "router", "member"];
export const TOPIC = /^[A-Za-z0-9_.-]{1,128}$/;

/** What a router connection needs besides its codec (router.ts). */
export interface RouterState {
  way: RouteWay;
  /** The payload's routing key (ROUTING_KEYS). */
  key: string;
  /** Reads the routing key from a frame the codec's cheapest way (its readKey, or a full decode). */
  read: (data: Encoded) => unknown;
  /** validate=1: every message is decoded and checked before it is routed (the validated pattern). */
  validate: boolean;
  /** The checks validating adds after the decode (protocols/validation.ts, checksFor); absent where the decoder's own are enough. */
  check?: MessageCheck;
}

export interface Connection {
  role: Role;
  /** The topic (publisher, subscriber), or the namespace of the rooms (router, member). */
  topic: string;
  /** Router only. */
  router?: RouterState;
  /** Member only: the topics of the rooms it joined. */
  rooms?: string[];
  stats: ServerConnectionStats;
  /** The codec's pair; raw's passes the message through, timed by the same clock reads as a codec (its figures read the timers' own cost). */
  pc: PayloadCodec;
  /** Decoded messages are checked for the payload's shape (not raw's: it decodes nothing). */
  checkShape: boolean;
  frame: Frame;
  /** The slice in progress: the figures at the client's last slice mark, and every message's time since. */
  slice: SliceRecord;
  /** Messages that arrived while replies could not go out, undecoded, in order. */
  inbox: Inbox;
  /** send() returned -1: nothing more goes out, and the socket is paused, until drain. */
  blocked: boolean;
  /** Closes the connection when it stays blocked too long (--send-timeout). */
  blockedTimer: ReturnType<typeof setTimeout> | undefined;
  openedAt: number;
  /** Replies and publishes go out compressed (SocketServerContext.compress). */
  compress: boolean;
}

export interface ConnectionRequest {
  id: string;
  codec: string;
  payload: PayloadName;
  role: Role;
  topic: string;
  /** Router only: how it routes (the rest of its RouterState follows from the codec and payload). */
  route?: Pick<RouterState, "way" | "validate">;
}

/** raw's codec: the message as it came, both ways. */
const PASS_THROUGH: PayloadCodec = {
  decode: (data: Encoded) => data as unknown as ReturnType<PayloadCodec["decode"]>,
  encode: (message) => message as unknown as Encoded,
};

/** A connection's state at upgrade; `codec` must be raw or one of the catalog's. */
export function newConnection(
  r: ConnectionRequest,
  codecs: CodecCatalog,
  timerOverheadNs: number,
  now: () => number,
  compress = false,
  stolen?: StolenTime,
): Connection {
  return {
    role: r.role,
    topic: r.topic,
    ...(r.route ? { router: routerState(r.route, codecs.get(r.codec)!, r.payload as BuiltInPayload) } : {}),
    ...(r.role === "member" ? { rooms: [] } : {}),
    stats: newStats(r.id, r.codec, r.payload, timerOverheadNs),
    pc: r.codec === RAW_CODEC_NAME ? PASS_THROUGH : codecs.get(r.codec)!.forPayload(r.payload),
    checkShape: r.codec !== RAW_CODEC_NAME,
    frame: frameOf(r.codec, codecs),
    slice: new SliceRecord(stolen),
    inbox: new Inbox(),
    blocked: false,
    blockedTimer: undefined,
    openedAt: now(),
    compress,
  };
}

/** A router's state: the codec's own key reader where it has one that reads less than a decode, and the checks validating adds. */
function routerState(route: Pick<RouterState, "way" | "validate">, codec: Codec, payload: BuiltInPayload): RouterState {
  const pc = codec.forPayload(payload);
  const key = ROUTING_KEYS[payload];
  const own = pc.readKey !== undefined && (codec.keyAccess ?? "decode") !== "decode";
  const read = own ? pc.readKey!.bind(pc) : (data: Encoded) => (pc.decode(data) as Record<string, unknown>)[key];
  const check = route.validate ? checksFor(codec, payload) : undefined;
  return { ...route, key, read, ...(check ? { check } : {}) };
}

/** Brings the connection's wall time up to now. */
export function refreshOpenMs(c: Connection, now: () => number): void {
  c.stats.openMs = now() - c.openedAt;
}
