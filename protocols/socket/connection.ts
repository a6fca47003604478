/** What the server keeps for each open socket (Bun's `ws.data`). */

import type { Encoded, Frame, PayloadCodec } from "../codec.ts";
import type { PayloadName } from "../messages.ts";
import { getCodec } from "../registry.ts";
import { RAW_CODEC_NAME, frameOf, type ServerConnectionStats } from "./contract.ts";
import { newStats } from "./stats.ts";

/** echo: answer each message; publisher: publish each message to its topic; subscriber: receive only. */
export type Role = "echo" | "publisher" | "subscriber";
export const ROLES: readonly Role[] = ["echo", "publisher", "subscriber"];
export const TOPIC = /^[A-Za-z0-9_.-]{1,128}$/;

export interface Connection {
  role: Role;
  topic: string;
  stats: ServerConnectionStats;
  pc: PayloadCodec | undefined;
  frame: Frame;
  /** Replies waiting for drain after a send() returned -1. */
  pending: Encoded[];
  blocked: boolean;
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

/** A connection's state at upgrade; `codec` must be one of SOCKET_CODEC_NAMES. */
export function newConnection(r: ConnectionRequest, timerOverheadNs: number, now: () => number, compress = false): Connection {
  return {
    role: r.role,
    topic: r.topic,
    stats: newStats(r.id, r.codec, r.payload, timerOverheadNs),
    pc: r.codec === RAW_CODEC_NAME ? undefined : getCodec(r.codec)!.forPayload(r.payload),
    frame: frameOf(r.codec),
    pending: [],
    blocked: false,
    openedAt: now(),
    compress,
  };
}

/** Brings the connection's wall time up to now. */
export function refreshOpenMs(c: Connection, now: () => number): void {
  c.stats.openMs = now() - c.openedAt;
}
