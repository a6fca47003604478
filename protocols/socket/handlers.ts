/**
 * Bun.serve's `websocket` handlers: each message is decoded with the
 * connection's codec, checked for shape, encoded again and answered (echo)
 * or published (publisher); subscribers only listen.
 */

import type { ServerWebSocket, WebSocketHandler } from "bun";
import { errorText, utf8Length, type Encoded, type PayloadCodec } from "../codec.ts";
import { refreshOpenMs, type Connection } from "./connection.ts";
import type { SocketServer } from "./context.ts";
import { CLOSE } from "./contract.ts";
import { block, closeLagging, hold, release, subscribed, unblock } from "./flow.ts";
import type { Incoming } from "./inbox.ts";
import { publish, reject, reply } from "./replies.ts";
import { shapeError } from "./shape.ts";

type Handlers = Required<Pick<WebSocketHandler<Connection>, "open" | "message" | "drain" | "close">>;

/** Decodes and re-encodes one message, timing both; undefined once it has closed the socket. */
function recode(s: SocketServer, ws: ServerWebSocket<Connection>, pc: PayloadCodec, message: Encoded): Encoded | undefined {
  const { now, timerOverheadNs: overheadNs } = s.ctx;
  const stats = ws.data.stats;
  try {
    const t0 = now();
    const decoded = pc.decode(message);
    const t1 = now();
    // Outside the timings: well-formed data of the wrong shape is refused, never echoed.
    const wrong = shapeError(stats.payload, decoded);
    if (wrong !== undefined) {
      reject(ws, CLOSE.invalidPayload, `${stats.codec}: not a ${stats.payload} message: ${wrong}`);
      return undefined;
    }
    const t2 = now();
    const encoded = pc.encode(decoded);
    const t3 = now();
    stats.decodeNs += (t1 - t0) * 1e6 - overheadNs;
    stats.encodeNs += (t3 - t2) * 1e6 - overheadNs;
    return encoded;
  } catch (e) {
    reject(ws, CLOSE.invalidPayload, `${stats.codec}: ${errorText(e)}`);
    return undefined;
  }
}

export function socketHandlers(s: SocketServer): Handlers {
  const { now } = s.ctx;

  /** Answers the sender (echo) or the topic (publisher). */
  function forward(ws: ServerWebSocket<Connection>, data: Encoded): void {
    const c = ws.data;
    c.stats.messages++;
    if (c.role === "publisher") {
      const result = publish(c, data, s.ctx.publish);
      // Every 64th publish, and whenever Bun reports backpressure, look for sockets that stopped reading.
      if (result === -1 || c.stats.published % 64 === 0) closeLagging(s, c.topic);
    } else if (reply(ws, data) === "blocked") block(s, ws);
  }

  /** One message: checked, decoded, re-encoded and answered. */
  function handle(ws: ServerWebSocket<Connection>, message: Incoming): void {
    const c = ws.data;
    const isText = typeof message === "string";
    if ((c.frame === "text") !== isText) {
      reject(ws, CLOSE.invalidPayload, `${c.stats.codec} expects ${c.frame} frames, got a ${isText ? "text" : "binary"} frame`);
      return;
    }
    s.cpu.busy(c.stats);
    c.stats.bytesIn += isText ? utf8Length(message) : message.byteLength;
    // raw: the transport alone.
    const answer = c.pc === undefined ? message : recode(s, ws, c.pc, message);
    if (answer !== undefined) forward(ws, answer);
  }

  return {
    open(ws) {
      s.open++;
      // A publisher hears its own messages too: that is its flow control.
      if (ws.data.role !== "echo") {
        ws.subscribe(ws.data.topic);
        subscribed(s, ws);
      }
      s.stats.keep(ws.data.stats);
    },
    message(ws, message) {
      const c = ws.data;
      if (c.role === "subscriber") {
        reject(ws, CLOSE.policy, "subscribers receive only; publish with role=publisher");
        return;
      }
      // Closed by the server (reject() records why): what Bun still delivers is not answered.
      if (c.stats.error !== "") return;
      // While replies cannot go out, what Bun has already read waits, undecoded and in order.
      if (c.blocked || c.inbox.size > 0) hold(s, ws, message);
      else handle(ws, message);
    },
    drain(ws) {
      unblock(s, ws, (message) => handle(ws, message));
    },
    close(ws, code, reason) {
      s.open--;
      const c = ws.data;
      release(s, ws);
      c.stats.closeCode = code;
      c.stats.closeReason = reason;
      s.cpu.closing(c.stats);
      refreshOpenMs(c, now);
    },
  };
}
