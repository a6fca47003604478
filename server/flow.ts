/**
 * A client that stops reading must not cost the server memory. When Bun has to queue a reply
 * past its limit (`send()` returns -1), the connection is blocked: the socket is paused (Bun
 * stops reading it, so the client meets TCP backpressure), messages Bun had already read wait
 * undecoded in the connection's inbox, and nothing more is sent until drain. A connection that
 * stays blocked for --send-timeout, or whose inbox passes --max-queued-bytes, is closed with
 * 1008 "client is not reading"; one that would take the inboxes of all connections past
 * --max-total-queued-bytes is closed with 1013. Subscribers that stop reading are found the
 * same way, by the bytes Bun holds for them, and closed with 1008 rather than left to miss
 * messages silently.
 */

import type { ServerWebSocket } from "bun";
import type { Connection } from "./socket-state.ts";
import type { SocketServer } from "./context.ts";
import { CLOSE } from "../protocols/contract.ts";
import { incomingBytes, type Incoming } from "./inbox.ts";
import { BACKPRESSURE_LIMIT_BYTES, reject } from "./server-send.ts";

const OPEN = 1;

/** A socket on a topic with this much waiting for it has stopped reading (half of Bun's limit, past which it drops). */
const LAGGING_BYTES = BACKPRESSURE_LIMIT_BYTES / 2;

/** Stops reading and sending on a connection whose reply Bun had to queue; closes it if it stays so. */
export function block(s: SocketServer, ws: ServerWebSocket<Connection>): void {
  const c = ws.data;
  if (c.blocked) return;
  c.blocked = true;
  ws.pause();
  c.blockedTimer = setTimeout(() => {
    if (!c.blocked || ws.readyState !== OPEN) return;
    s.refused.notReading++;
    reject(
      ws,
      CLOSE.policy,
      `client is not reading: its replies waited ${s.limits.sendTimeoutMs / 1000} s to be sent (--send-timeout)`,
    );
  }, s.limits.sendTimeoutMs);
}

/** Keeps a message that arrived while blocked, within the connection's and the server's budgets; false when it closed the connection instead. */
export function hold(s: SocketServer, ws: ServerWebSocket<Connection>, message: Incoming): boolean {
  const c = ws.data;
  const bytes = incomingBytes(message);
  if (c.inbox.bytes + bytes > s.limits.maxQueuedBytes) {
    s.refused.notReading++;
    reject(
      ws,
      CLOSE.policy,
      `client is not reading: ${c.inbox.bytes + bytes} bytes of its messages wait for replies it does not read (--max-queued-bytes ${s.limits.maxQueuedBytes})`,
    );
    return false;
  }
  if (s.queuedBytes + bytes > s.limits.maxTotalQueuedBytes) {
    s.refused.serverQueueFull++;
    reject(
      ws,
      CLOSE.tryAgainLater,
      `server busy: messages waiting for clients that do not read fill its budget (--max-total-queued-bytes ${s.limits.maxTotalQueuedBytes})`,
    );
    return false;
  }
  // Bun may reuse a binary message's memory once the handler returns.
  c.inbox.push(typeof message === "string" ? message : message.slice());
  s.queuedBytes += bytes;
  return true;
}

/** Bun's buffer has drained: answer what waited, in order, until blocked again; then read again. */
export function unblock(s: SocketServer, ws: ServerWebSocket<Connection>, handle: (message: Incoming) => void): void {
  const c = ws.data;
  if (!c.blocked) return;
  c.blocked = false;
  clearTimeout(c.blockedTimer);
  c.blockedTimer = undefined;
  while (!c.blocked && ws.readyState === OPEN) {
    const next = c.inbox.shift();
    if (!next) break;
    s.queuedBytes -= next.bytes;
    handle(next.message);
  }
  if (!c.blocked && ws.readyState === OPEN) ws.resume();
}

/** The connection is gone: its inbox and timer with it. */
export function release(s: SocketServer, ws: ServerWebSocket<Connection>): void {
  const c = ws.data;
  clearTimeout(c.blockedTimer);
  s.queuedBytes -= c.inbox.clear();
  if (c.role === "publisher" || c.role === "subscriber") s.topics.get(c.topic)?.delete(ws);
  for (const room of c.rooms ?? []) s.topics.get(room)?.delete(ws);
}

/** A connection on a topic (its own, or a room it joined): watched for falling behind. */
export function subscribed(s: SocketServer, ws: ServerWebSocket<Connection>, topic = ws.data.topic): void {
  let set = s.topics.get(topic);
  if (!set) s.topics.set(topic, (set = new Set()));
  set.add(ws);
}

/**
 * After a publish: every socket on the topic for which Bun holds more than its limit has
 * stopped reading, and would miss the next messages without a word; it is closed with 1008.
 */
export function closeLagging(s: SocketServer, topic: string): void {
  for (const ws of s.topics.get(topic) ?? []) {
    const waiting = ws.getBufferedAmount();
    // Bun drops what would take a socket past its limit, so one near it is already missing messages.
    if (waiting < LAGGING_BYTES || ws.readyState !== OPEN) continue;
    s.refused.notReading++;
    reject(
      ws,
      CLOSE.policy,
      `subscriber is not reading: ${waiting} bytes wait to be sent to it (past ${LAGGING_BYTES}, Bun drops messages); closed before it misses any`,
    );
  }
}
