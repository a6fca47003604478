/**
 * Route mode's server: a router, as in a chat or market-data service.
 * Members join rooms; routers send messages that carry a routing key (the
 * payload's field in ROUTING_KEYS: market's symbol, chat's room, ...), and
 * the server publishes each message to the room its key names, through
 * Bun's pub/sub. A router connection routes one of two ways, named in its
 * URL (contract.ts):
 *
 * - forward: reads the key by the codec's cheapest way (PayloadCodec.readKey:
 *   an offset for custom-binary, a lazy accessor for FlatBuffers and Cap'n
 *   Proto, a scan of the fields for Protobuf and Avro; a full decode for
 *   the rest) and publishes the bytes it received, untouched;
 * - recode: decodes the message, takes the key from the object, encodes it
 *   again and publishes that (the naive router).
 *
 * With validate=1 either way decodes every message and checks it first
 * (the validated pattern: protocols/validation.ts) and refuses a malformed
 * one. Without it, the forwarding router reads the key only: a message
 * whose other fields are damaged is forwarded as it came, and its members
 * find out when they decode it.
 *
 * What each answer is:
 * - a key that cannot be read (a damaged frame, a key that is not a string
 *   or a number): the router's connection is closed with 1007 and the
 *   reason; what it routed before stays delivered, other routers carry on;
 * - a key naming a room nobody joined: the message goes nowhere, counted as
 *   `unrouted` in the connection's stats; the connection carries on.
 */

import type { ServerWebSocket } from "bun";
import { errorText, kindOf, type Encoded } from "../protocols/codec.ts";
import type { Connection, RouterState } from "./socket-state.ts";
import type { SocketServer } from "./context.ts";
import { CLOSE, parseJoin, roomName, type JoinAnswer } from "../protocols/contract.ts";
import { closeLagging, subscribed } from "./flow.ts";
import { reject, reply } from "./server-send.ts";

/** The topic of room `name` in a namespace: the rooms of two runs never meet. */
function roomTopic(namespace: string, name: string): string {
  return `${namespace}:${name}`;
}

/**
 * Routes one message: the key read (timed, with the decode and checks it needs), the message
 * re-encoded on the recode way (timed), then published to the key's room (timed).
 */
export function routeMessage(s: SocketServer, ws: ServerWebSocket<Connection>, message: Encoded): void {
  const { now, timerOverheadNs: overheadNs } = s.ctx;
  const c = ws.data;
  const r = c.router as RouterState;
  const { stats, pc } = c;
  let key: unknown;
  let out = message;
  let keyNs: number;
  let encodeNs = 0;
  try {
    const t0 = now();
    let t1: number;
    if (r.way === "forward" && !r.validate) {
      key = r.read(message);
      t1 = now();
    } else {
      const decoded = pc.decode(message);
      r.check?.(decoded);
      key = (decoded as Record<string, unknown>)[r.key];
      t1 = now();
      if (r.way === "recode") {
        out = pc.encode(decoded);
        encodeNs = (now() - t1) * 1e6 - overheadNs;
      }
    }
    keyNs = (t1 - t0) * 1e6 - overheadNs;
  } catch (e) {
    reject(ws, CLOSE.invalidPayload, `${stats.codec}: routing key '${r.key}' unreadable: ${errorText(e)}`);
    return;
  }
  const name = roomName(key);
  if (name === undefined) {
    reject(
      ws,
      CLOSE.invalidPayload,
      `${stats.codec}: routing key '${r.key}' is ${kindOf(key)}, not a string or a finite number`,
    );
    return;
  }
  stats.decodeNs += keyNs;
  stats.encodeNs += encodeNs;
  c.slice.add(keyNs + encodeNs);
  stats.messages++;
  const topic = roomTopic(c.topic, name);
  const t2 = now();
  const result = s.ctx.publish(topic, out, c.compress);
  // Bun's publish answers 0 for a room no one is in as for a dropped message; only the count tells them apart.
  const unrouted = result === 0 && s.ctx.subscriberCount(topic) === 0;
  stats.sendNs += (now() - t2) * 1e6 - overheadNs;
  if (unrouted) {
    stats.unrouted++;
    return;
  }
  stats.published++;
  if (result > 0) stats.bytesOut += result;
  else if (result === 0) stats.publishDropped++;
  else stats.publishBackpressure++;
  if (result === -1 || stats.published % 64 === 0) closeLagging(s, topic);
}

/** A member's message: a join request (its only kind), answered with how many rooms it is in now. */
export function joinRooms(s: SocketServer, ws: ServerWebSocket<Connection>, message: Encoded): void {
  const c = ws.data;
  const names = typeof message === "string" ? parseJoin(message) : undefined;
  if (names === undefined) {
    reject(
      ws,
      CLOSE.policy,
      `members send only join requests, as text: {"join":["room",...]} (room names of 1 to 256 characters)`,
    );
    return;
  }
  const rooms = c.rooms as string[];
  for (const name of names) {
    const topic = roomTopic(c.topic, name);
    if (ws.isSubscribed(topic)) continue;
    ws.subscribe(topic);
    rooms.push(topic);
    subscribed(s, ws, topic);
  }
  const answer: JoinAnswer = { joined: rooms.length };
  reply(ws, JSON.stringify(answer));
}
