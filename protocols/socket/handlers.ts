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
import { drain, publish, reject, reply } from "./replies.ts";
import { shapeError } from "./shape.ts";

type Handlers = Required<Pick<WebSocketHandler<Connection>, "open" | "message" | "drain" | "close">>;

export function socketHandlers(s: SocketServer): Handlers {
  const { now, timerOverheadNs: overheadNs } = s.ctx;

  /** Decodes and re-encodes one message, timing both; undefined once it has closed the socket. */
  function recode(ws: ServerWebSocket<Connection>, pc: PayloadCodec, message: Encoded): Encoded | undefined {
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

  /** Answers the sender (echo) or the topic (publisher). */
  function forward(ws: ServerWebSocket<Connection>, data: Encoded): void {
    const c = ws.data;
    c.stats.messages++;
    if (c.role === "publisher") publish(c, data, s.ctx.publish);
    else reply(ws, data);
  }

  return {
    open(ws) {
      s.open++;
      // A publisher hears its own messages too: that is its flow control.
      if (ws.data.role !== "echo") ws.subscribe(ws.data.topic);
      s.stats.keep(ws.data.stats);
    },
    message(ws, message) {
      const c = ws.data;
      if (c.role === "subscriber") {
        reject(ws, CLOSE.policy, "subscribers receive only; publish with role=publisher");
        return;
      }
      const isText = typeof message === "string";
      if ((c.frame === "text") !== isText) {
        reject(ws, CLOSE.invalidPayload, `${c.stats.codec} expects ${c.frame} frames, got a ${isText ? "text" : "binary"} frame`);
        return;
      }
      s.cpu.busy(c.stats);
      c.stats.bytesIn += isText ? utf8Length(message) : message.byteLength;
      // raw: the transport alone.
      const answer = c.pc === undefined ? message : recode(ws, c.pc, message);
      if (answer !== undefined) forward(ws, answer);
    },
    drain,
    close(ws, code, reason) {
      s.open--;
      const c = ws.data;
      c.stats.closeCode = code;
      c.stats.closeReason = reason;
      s.cpu.closing(c.stats);
      refreshOpenMs(c, now);
    },
  };
}
