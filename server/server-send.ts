/**
 * What the server sends on a socket: replies (the caller stops at the
 * first one Bun has to queue, until drain); publishes to a topic; and the
 * close that refuses a client.
 */

import type { ServerWebSocket } from "bun";
import { utf8Length, type Encoded } from "../protocols/codec.ts";
import type { Connection } from "./socket-state.ts";

/** Bun's per-socket send buffer limit: `send()` returns -1 once past it, and the connection waits for drain. */
export const BACKPRESSURE_LIMIT_BYTES = 1024 * 1024;

/** Bun's `server.publish`: the handlers get it from server.ts, which owns the server. */
export type Publish = (topic: string, data: Encoded, compress: boolean) => number;

/** Sends one reply: "blocked" when Bun had to queue it past its limit (send nothing more until drain), "dropped" when it could not. */
export function reply(ws: ServerWebSocket<Connection>, data: Encoded): "sent" | "blocked" | "dropped" {
  const c = ws.data;
  const result = ws.send(data, c.compress);
  if (result > 0) {
    c.stats.bytesOut += typeof data === "string" ? result : data.byteLength;
    return "sent";
  }
  if (result === -1) {
    // Queued by Bun beyond its limit: it will go out, but nothing more until drain.
    c.stats.backpressure++;
    c.stats.bytesOut += typeof data === "string" ? utf8Length(data) : data.byteLength;
    return "blocked";
  }
  c.stats.dropped++;
  return "dropped";
}

/** Publishes to every subscriber of the topic; every result is checked, and returned. */
export function publish(c: Connection, data: Encoded, serverPublish: Publish): number {
  // Explicit either way: server.publish compresses by default, unlike send().
  const result = serverPublish(c.topic, data, c.compress);
  c.stats.published++;
  if (result === -1) c.stats.publishBackpressure++;
  else if (result === 0) c.stats.publishDropped++;
  else c.stats.bytesOut += result;
  return result;
}

/** A close reason must fit 123 bytes of UTF-8. */
function closeReason(s: string): string {
  let out = s;
  while (utf8Length(out) > 123) out = out.slice(0, -2) + "…";
  return out;
}

/** Closes the socket with `code`, keeping the full reason in its stats. */
export function reject(ws: ServerWebSocket<Connection>, code: number, reason: string): void {
  ws.data.stats.error = reason;
  ws.close(code, closeReason(reason));
}
