/**
 * Bun.serve's `websocket` handlers: each message is decoded with the
 * connection's codec, checked for shape, encoded again and answered (echo)
 * or published (publisher); subscribers only listen. Routers and members
 * are route mode's (router.ts). An empty message is a slice mark
 * (contract.ts): it is answered with the slice's figures.
 *
 * Every message's decode, encode and send are timed, each with two clock
 * reads whose cost is subtracted; raw runs through the same timers around
 * no work, so its figures show what the timers themselves leave behind.
 */

import type { ServerWebSocket, WebSocketHandler } from "bun";
import { errorText, utf8Length, type Encoded } from "../protocols/codec.ts";
import { refreshOpenMs, type Connection } from "./socket-state.ts";
import type { SocketServer } from "./context.ts";
import { CLOSE } from "../protocols/contract.ts";
import { block, closeLagging, hold, release, subscribed, unblock } from "./flow.ts";
import type { Incoming } from "./inbox.ts";
import { publish, reject, reply } from "./server-send.ts";
import { shapeError } from "./shape.ts";
import { joinRooms, routeMessage } from "./router.ts";
import { closePubSub } from "./backplane-relay.ts";

type Handlers = Required<Pick<WebSocketHandler<Connection>, "open" | "message" | "drain" | "close">>;

/** Decodes and re-encodes one message, timing both; undefined once it has closed the socket. */
function recode(s: SocketServer, ws: ServerWebSocket<Connection>, message: Encoded): Encoded | undefined {
  const { now, timerOverheadNs: overheadNs } = s.ctx;
  const { stats, pc, checkShape, slice } = ws.data;
  try {
    const t0 = now();
    const decoded = pc.decode(message);
    const t1 = now();
    // Outside the timings: well-formed data of the wrong shape is refused, never echoed.
    const wrong = checkShape ? shapeError(stats.payload, decoded) : undefined;
    if (wrong !== undefined) {
      reject(ws, CLOSE.invalidPayload, `${stats.codec}: not a ${stats.payload} message: ${wrong}`);
      return undefined;
    }
    const t2 = now();
    const encoded = pc.encode(decoded);
    const t3 = now();
    const decodeNs = (t1 - t0) * 1e6 - overheadNs;
    const encodeNs = (t3 - t2) * 1e6 - overheadNs;
    stats.decodeNs += decodeNs;
    stats.encodeNs += encodeNs;
    slice.add(decodeNs + encodeNs);
    return encoded;
  } catch (e) {
    reject(ws, CLOSE.invalidPayload, `${stats.codec}: ${errorText(e)}`);
    return undefined;
  }
}

/** Answers the sender (echo) or the topic (publisher), timing the send. */
function forward(s: SocketServer, ws: ServerWebSocket<Connection>, data: Encoded): void {
  const { now, timerOverheadNs } = s.ctx;
  const c = ws.data;
  c.stats.messages++;
  const t0 = now();
  const result = c.role === "publisher" ? publish(c, data, s.ctx.publish) : reply(ws, data);
  c.stats.sendNs += (now() - t0) * 1e6 - timerOverheadNs;
  // Every 64th publish, and whenever Bun reports backpressure, look for sockets that stopped reading.
  if (c.role === "publisher") {
    if (result === -1 || c.stats.published % 64 === 0) closeLagging(s, c.topic);
  } else if (result === "blocked") block(s, ws);
}

/**
 * A slice mark: the connection stops owning the CPU (what follows is charged to no one) and
 * gets the figures of its messages since the last mark, in its own frame type.
 */
function endSlice(s: SocketServer, ws: ServerWebSocket<Connection>): void {
  const c = ws.data;
  s.cpu.release(c.stats);
  const body = JSON.stringify(c.slice.take(c.stats));
  if (reply(ws, c.frame === "text" ? body : new TextEncoder().encode(body)) === "blocked") block(s, ws);
}

export function socketHandlers(s: SocketServer): Handlers {
  const { now } = s.ctx;

  /** One message: checked, decoded, re-encoded and answered. */
  function handle(ws: ServerWebSocket<Connection>, message: Incoming): void {
    const c = ws.data;
    const isText = typeof message === "string";
    if ((c.frame === "text") !== isText) {
      reject(
        ws,
        CLOSE.invalidPayload,
        `${c.stats.codec} expects ${c.frame} frames, got a ${isText ? "text" : "binary"} frame`,
      );
      return;
    }
    if (message.length === 0) {
      endSlice(s, ws);
      return;
    }
    s.cpu.busy(c.stats);
    c.stats.bytesIn += isText ? utf8Length(message) : message.byteLength;
    if (c.role === "router") {
      routeMessage(s, ws, message);
      return;
    }
    const answer = recode(s, ws, message);
    if (answer !== undefined) forward(s, ws, answer);
  }

  return {
    open(ws) {
      s.open++;
      s.connections.add(ws);
      s.stats.keep(ws.data.stats);
      const refusal = s.pubsubRefusal;
      if (refusal && closePubSub(ws, refusal.code, refusal.reason)) return;
      // A publisher hears its own messages too: that is its flow control. Members join rooms by message, routers join none.
      if (ws.data.role === "publisher" || ws.data.role === "subscriber") {
        ws.subscribe(ws.data.topic);
        subscribed(s, ws);
      }
    },
    message(ws, message) {
      const c = ws.data;
      if (c.role === "subscriber") {
        reject(ws, CLOSE.policy, "subscribers receive only; publish with role=publisher");
        return;
      }
      if (c.role === "member") {
        if (c.stats.error === undefined) joinRooms(s, ws, message);
        return;
      }
      // Closed by the server (reject() records why): what Bun still delivers is not answered.
      if (c.stats.error !== undefined) return;
      // While replies cannot go out, what Bun has already read waits, undecoded and in order.
      if (c.blocked || c.inbox.size > 0) hold(s, ws, message);
      else handle(ws, message);
    },
    drain(ws) {
      unblock(s, ws, (message) => handle(ws, message));
    },
    close(ws, code, reason) {
      s.open--;
      s.connections.delete(ws);
      const c = ws.data;
      release(s, ws);
      c.stats.closeCode = code;
      c.stats.closeReason = reason;
      s.cpu.release(c.stats);
      refreshOpenMs(c, now);
    },
  };
}
