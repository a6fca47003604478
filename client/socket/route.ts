/**
 * `route` mode: the server as a router, as in a chat or market-data
 * service (protocols/socket/router.ts). Members join rooms: the values the
 * run's messages carry in their routing key (ROUTING_KEYS), spread over the
 * members so that every room has at least one (routePlan). Several routers
 * share the messages (message i goes out on router i mod P, in order), and
 * the server publishes each to the members of its room, forwarding its bytes
 * or decoding and encoding it again, as the run's way says.
 *
 * Every member checks every message it gets: the room must be one it
 * joined (else misrouted), and the message must be the next one it expects
 * from one of the routers, equal to what was sent (else corrupted: lost,
 * reordered or changed). A run ends when every message has reached every
 * member of its room; then each router marks its slice, and the server's
 * answers give its time and CPU for the routing (contract.ts, ServerSlice).
 */

import type { ClientFigures } from "../../bench/harness/socket-results.ts";
import { ROUTING_KEYS, type BuiltInPayload, type Message } from "../../protocols/messages.ts";
import { CLOSE, parseSlice, roomName, socketUrl, type JoinAnswer, type JoinRequest, type RouteWay, type ServerSlice } from "../../protocols/socket/contract.ts";
import { clientCodec, toBytes, type ClientCodec, type MessageData } from "./client-codec.ts";
import { byteLength, fetchServerStats, openSocket, sendFrame } from "./client-connection.ts";
import { Replies, Watchdog } from "./reply-queue.ts";
import { emptyFigures, type SocketCaseFigures, type SocketCaseOptions } from "./socket-case.ts";
import { ClientError } from "../client-errors.ts";

/** Routers per case: several senders, so that order is checked per sender and the server interleaves them. */
export const ROUTE_PUBLISHERS = 4;

export type RouteOptions = Omit<SocketCaseOptions, "mode" | "payload"> & {
  payload: BuiltInPayload;
  /** Members (--clients). */
  subscribers: number;
  publishers: number;
  way: RouteWay;
  /** The server decodes and checks every message before routing it (--validate). */
  validate: boolean;
};

/** Who is in which room, and what each member is to receive from each router. */
export interface RoutePlan {
  /** Room names, in the order the messages first name them. */
  rooms: string[];
  /** The room of each message (an index into rooms). */
  roomOf: Int32Array;
  /** The rooms each member joins. */
  roomsOf: number[][];
  /** The members of each room. */
  membersOf: number[][];
  /** expect[member][router]: the indices of the messages the member is to get from that router, in order. */
  expect: Int32Array[][];
  /** Deliveries in all: each message once per member of its room. */
  deliveries: number;
}

/**
 * The rooms of a run's messages and who joins them: with at least as many members as rooms,
 * member m joins room m mod R (every room gets one or two more than the others); with fewer,
 * member m joins every room r with r mod N = m (every room one member). A message whose key
 * names no room cannot be routed: it throws.
 */
export function routePlan(messages: readonly Message[], key: string, members: number, routers: number): RoutePlan {
  const index = new Map<string, number>();
  const rooms: string[] = [];
  const roomOf = new Int32Array(messages.length);
  messages.forEach((m, i) => {
    const name = roomName((m as Record<string, unknown>)[key]);
    if (name === undefined) throw new ClientError("PROTOCOL", `message #${i} has no room: its ${key} is neither a string nor a finite number`);
    let r = index.get(name);
    if (r === undefined) index.set(name, (r = rooms.push(name) - 1));
    roomOf[i] = r;
  });
  const roomsOf: number[][] = Array.from({ length: members }, () => []);
  const membersOf: number[][] = rooms.map(() => []);
  if (members >= rooms.length) {
    for (let m = 0; m < members && rooms.length > 0; m++) roomsOf[m]!.push(m % rooms.length);
  } else {
    for (let r = 0; r < rooms.length; r++) roomsOf[r % members]!.push(r);
  }
  roomsOf.forEach((rs, m) => rs.forEach((r) => membersOf[r]!.push(m)));
  const lists: number[][][] = roomsOf.map(() => Array.from({ length: routers }, () => []));
  let deliveries = 0;
  for (let i = 0; i < messages.length; i++) {
    for (const m of membersOf[roomOf[i]!]!) lists[m]![i % routers]!.push(i);
    deliveries += membersOf[roomOf[i]!]!.length;
  }
  return { rooms, roomOf, roomsOf, membersOf, expect: lists.map((perRouter) => perRouter.map((l) => Int32Array.from(l))), deliveries };
}

/** What one run of a route case measured, one way. */
export interface RouteRun {
  way: RouteWay;
  /** sent: messages the routers sent; received: deliveries; lost: deliveries missing; corrupted: deliveries that were not the next message expected from any router. */
  figures: SocketCaseFigures;
  rooms: number;
  /** Deliveries the plan called for. */
  expected: number;
  /** Deliveries to a member not in the message's room. */
  misrouted: number;
  /** Messages the server found no one in the room for (none, when every room has a member). */
  unrouted: number;
  perMember: ClientFigures[];
  /** The server's figures for the routers' slices, summed (undefined when a router's mark went unanswered). */
  server: ServerSlice | undefined;
}

/** Opens the members and has each join its rooms; resolves once the server has answered every join. */
async function openMembers(o: RouteOptions, plan: RoutePlan, topic: string, sockets: WebSocket[]): Promise<void> {
  for (let k = 0; k < o.subscribers; k++) {
    const ws = await openSocket(o.WebSocket, socketUrl(o.server, o.codec, o.payload, `${o.id}-m${k}`, { role: "member", topic }), o.stallTimeoutMs);
    sockets.push(ws);
    const replies = new Replies(ws, o.clock, o.stallTimeoutMs, () => `member ${k}'s join request`);
    try {
      const join: JoinRequest = { join: plan.roomsOf[k]!.map((r) => plan.rooms[r]!) };
      ws.send(JSON.stringify(join));
      const data = await replies.next();
      const answer = JSON.parse(typeof data === "string" ? data : new TextDecoder().decode(toBytes(data))) as Partial<JoinAnswer>;
      if (answer.joined !== join.join.length) throw new ClientError("PROTOCOL", `member ${k} asked to join ${join.join.length} room(s); the server answered ${JSON.stringify(answer)}`);
    } finally {
      replies.dispose();
    }
  }
}

/** Sends every message through the routers within the window until every member has every message of its rooms. */
function routeAll(routers: WebSocket[], members: WebSocket[], codec: ClientCodec, plan: RoutePlan, o: RouteOptions, f: SocketCaseFigures, got: Int32Array, doneMs: Float64Array): Promise<number> {
  const n = o.messages.length;
  const P = routers.length;
  const now = o.clock.now;
  const window = Math.max(1, o.window);
  // Deliveries each message still waits for; a router's message is acknowledged when it reaches none.
  const pending = Int32Array.from(plan.roomOf, (r) => plan.membersOf[r]!.length);
  const sent = new Int32Array(P);
  const acked = new Int32Array(P);
  const count = Int32Array.from({ length: P }, (_, p) => Math.ceil((n - p) / P));
  const heads = members.map(() => new Int32Array(P));
  const inRoom = plan.roomsOf.map((rs) => new Set(rs.map((r) => plan.rooms[r]!)));
  let delivered = 0;
  let misrouted = 0;
  return new Promise<number>((resolve, reject) => {
    let finished = false;
    const start = now();
    const watchdog = new Watchdog(o.clock, o.stallTimeoutMs, () =>
      finish(new ClientError("STALLED", `stalled: nothing for ${o.stallTimeoutMs} ms after ${delivered} of ${plan.deliveries} deliveries`)),
    );
    const finish = (e?: Error): void => {
      if (finished) return;
      finished = true;
      watchdog.stop();
      f.elapsedMs = now() - start;
      if (e) reject(e);
      else resolve(misrouted);
    };
    const refill = (p: number): void => {
      const k = Math.min(window - (sent[p]! - acked[p]!), count[p]! - sent[p]!);
      if (k <= 0) return;
      const t0 = now();
      const batch = Array.from({ length: k }, (_, j) => codec.encode((sent[p]! + j) * P + p));
      f.serializeNs += (now() - t0) * 1e6 - o.timerOverheadNs;
      for (const e of batch) {
        sendFrame(routers[p]!, e);
        f.bytesSent += byteLength(e);
      }
      sent[p] = sent[p]! + k;
      f.sent += k;
    };
    members.forEach((ws, m) => {
      ws.onmessage = (ev: MessageEvent) => {
        watchdog.touch();
        const data = ev.data as MessageData;
        const t0 = now();
        const decoded = codec.decode(data);
        f.deserializeNs += (now() - t0) * 1e6 - o.timerOverheadNs;
        f.bytesReceived += byteLength(data);
        f.received++;
        got[m] = got[m]! + 1;
        const room = roomName((decoded as Record<string, unknown> | null)?.[ROUTING_KEYS[o.payload]]);
        if (room === undefined || !inRoom[m]!.has(room)) {
          misrouted++;
          return finish(new ClientError("PROTOCOL", `member ${m} got a message for room ${room ?? "(none)"}, which it did not join: misrouted`));
        }
        const head = heads[m]!;
        for (let p = 0; p < P; p++) {
          const list = plan.expect[m]![p]!;
          const i = list[head[p]!];
          if (i === undefined || !codec.matches(i, decoded)) continue;
          head[p] = head[p]! + 1;
          delivered++;
          if (--pending[i]! === 0) {
            acked[p] = acked[p]! + 1;
            if (sent[p]! - acked[p]! <= window >> 1) refill(p);
          }
          if (head.every((h, q) => h === plan.expect[m]![q]!.length)) doneMs[m] = now() - start;
          if (delivered === plan.deliveries) finish();
          return;
        }
        f.corrupted++;
        finish(new ClientError("PROTOCOL", `member ${m} got a message that is not the next one it expects from any router (lost, reordered or changed)`));
      };
      ws.onclose = (ev: CloseEvent) =>
        finish(new ClientError("CLOSED", `member ${m} was closed with ${ev.code}${ev.reason ? ` (${ev.reason})` : ""} after ${got[m]} deliveries`));
    });
    routers.forEach((ws, p) => {
      ws.onmessage = () => finish(new ClientError("PROTOCOL", `router ${p} got a message while routing; routers get only their slice marks' answers`));
      ws.onclose = (ev: CloseEvent) => finish(new ClientError("CLOSED", `router ${p} was closed with ${ev.code}${ev.reason ? ` (${ev.reason})` : ""} after ${sent[p]} sent`));
    });
    if (plan.deliveries === 0) return finish();
    for (let p = 0; p < P; p++) refill(p);
  });
}

/** Ends each router's slice with a mark and sums the server's answers (untimed). */
async function markSlices(routers: WebSocket[], codec: ClientCodec, o: RouteOptions): Promise<ServerSlice | undefined> {
  const sum: ServerSlice = { messages: 0, decodeNs: 0, encodeNs: 0, sendNs: 0, cpuMs: 0, wakeups: 0, kept: 0, keptNs: 0 };
  for (const [p, ws] of routers.entries()) {
    const replies = new Replies(ws, o.clock, o.stallTimeoutMs, () => `router ${p}'s slice mark`);
    try {
      sendFrame(ws, codec.frame === "text" ? "" : new Uint8Array(0));
      const data = await replies.next();
      const slice = parseSlice(typeof data === "string" ? data : toBytes(data));
      if (slice === undefined) return undefined;
      for (const k of Object.keys(sum) as (keyof ServerSlice)[]) sum[k] += slice[k];
    } finally {
      replies.dispose();
    }
  }
  return sum;
}

/** One run of a route case, one way: every message routed and checked. Never throws: failures come back in figures.error. */
export async function runRouteCase(o: RouteOptions): Promise<RouteRun> {
  const f = emptyFigures();
  const members: WebSocket[] = [];
  const routers: WebSocket[] = [];
  const run: RouteRun = { way: o.way, figures: f, rooms: 0, expected: 0, misrouted: 0, unrouted: 0, perMember: [], server: undefined };
  const got = new Int32Array(o.subscribers);
  const doneMs = new Float64Array(o.subscribers);
  const cpu0 = o.cpuMs?.() ?? NaN;
  const topic = `r-${o.id}`.replace(/[^A-Za-z0-9_.-]/g, "_").slice(0, 128);
  let plan: RoutePlan | undefined;
  try {
    const codec = clientCodec(o.catalog, o.codec, o.payload, o.messages, o.ownRoundTrip);
    plan = routePlan(o.messages, ROUTING_KEYS[o.payload], o.subscribers, o.publishers);
    run.rooms = plan.rooms.length;
    run.expected = plan.deliveries;
    await openMembers(o, plan, topic, members);
    for (let p = 0; p < o.publishers; p++) {
      routers.push(await openSocket(o.WebSocket, socketUrl(o.server, o.codec, o.payload, `${o.id}-r${p}`, { role: "router", topic, way: o.way, validate: o.validate }), o.stallTimeoutMs));
    }
    f.extensions = routers[0]?.extensions ?? "";
    run.misrouted = await routeAll(routers, members, codec, plan, o, f, got, doneMs);
    run.server = await markSlices(routers, codec, o);
    if (run.server === undefined) f.error = "the server did not answer a router's slice mark with the slice's figures (is it this version's server.ts?)";
  } catch (e) {
    f.error = (e as Error).message;
  } finally {
    for (const ws of [...members, ...routers]) {
      ws.onclose = null;
      ws.onmessage = null;
      ws.close(CLOSE.normal);
    }
  }
  f.clientCpuMs = o.cpuMs ? o.cpuMs() - cpu0 : NaN;
  for (let p = 0; p < routers.length; p++) {
    const stats = await fetchServerStats(o.server, `${o.id}-r${p}`);
    if (!stats) continue;
    run.unrouted += stats.unrouted;
    if (f.error === undefined && stats.publishDropped > 0) f.error = `publish() dropped ${stats.publishDropped} message(s) on router ${p}`;
  }
  f.lost = Math.max(0, run.expected - f.received);
  if (f.error === undefined && f.lost > 0) f.error = `${f.lost} of ${run.expected} deliveries lost`;
  if (f.error === undefined && run.unrouted > 0) f.error = `${run.unrouted} message(s) found no one in their room`;
  run.perMember = Array.from(got, (g, m) => {
    const expected = plan?.expect[m]!.reduce((acc, l) => acc + l.length, 0) ?? 0;
    return { sent: expected, received: g, lost: Math.max(0, expected - g), msgsPerS: doneMs[m]! > 0 ? (g / doneMs[m]!) * 1000 : NaN };
  });
  return run;
}
