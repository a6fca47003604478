/** What the server keeps for each open socket (Bun's `ws.data`). */

import type { Encoded, Frame, PayloadCodec } from "../codec.ts";
import type { PayloadName } from "../messages.ts";
import type { CodecCatalog } from "../registry.ts";
import { RAW_CODEC_NAME, frameOf, type ServerConnectionStats } from "./contract.ts";
import { Inbox } from "./inbox.ts";
import { newStats, SliceRecord } from "./connection-stats.ts";

/** echo: answer each message; publisher: publish each message to its topic; subscriber: receive only. */
export type Role = "echo" | "publisher" | "subscriber";
export const ROLES: readonly Role[] = ["echo", "publisher", "subscriber"];
export const TOPIC = /^[A-Za-z0-9_.-]{1,128}$/;

export interface Connection {
  role: Role;
  topic: string;
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
}

/** raw's codec: the message as it came, both ways. */
const PASS_THROUGH: PayloadCodec = {
  decode: (data: Encoded) => data as unknown as ReturnType<PayloadCodec["decode"]>,
  encode: (message) => message as unknown as Encoded,
};

/** A connection's state at upgrade; `codec` must be raw or one of the catalogue's. */
export function newConnection(r: ConnectionRequest, codecs: CodecCatalog, timerOverheadNs: number, now: () => number, compress = false): Connection {
  return {
    role: r.role,
    topic: r.topic,
    stats: newStats(r.id, r.codec, r.payload, timerOverheadNs),
    pc: r.codec === RAW_CODEC_NAME ? PASS_THROUGH : codecs.get(r.codec)!.forPayload(r.payload),
    checkShape: r.codec !== RAW_CODEC_NAME,
    frame: frameOf(r.codec, codecs),
    slice: new SliceRecord(),
    inbox: new Inbox(),
    blocked: false,
    blockedTimer: undefined,
    openedAt: now(),
    compress,
  };
}

/** Brings the connection's wall time up to now. */
export function refreshOpenMs(c: Connection, now: () => number): void {
  c.stats.openMs = now() - c.openedAt;
}
