/**
 * `route` mode: the server as a router, as in a chat or market-data
 * service (server/router.ts). Members join rooms: the values the
 * run's messages carry in their routing key (ROUTING_KEYS), spread over the
 * members so that every room has at least one (routePlan). Several routers
 * share the messages (message i goes out on router i mod P, in order), and
 * the server publishes each to the members of its room, forwarding its bytes
 * or decoding and encoding it again: a session keeps the members and a set
 * of routers for each way open, and routes the same slice of messages one
 * way, then the other, slice by slice.
 *
 * Every member checks every message it gets: the room must be one it
 * joined (else misrouted), and the message must be the next one it expects
 * from one of the routers, equal to what was sent (else corrupted: lost,
 * reordered or changed). A slice ends when each of its messages has reached
 * every member of its room; then each router marks it, and the server's
 * answers give its time and CPU for the routing (contract.ts, ServerSlice).
 */

import type { ClientFigures } from "../harness/socket-results.ts";
import { ROUTING_KEYS, type BuiltInPayload, type Message } from "../../protocols/messages.ts";
import {
  CLOSE,
  parseSlice,
  ROUTE_WAYS,
  roomName,
  socketUrl,
  type JoinAnswer,
  type JoinRequest,
  type RouteWay,
  type ServerSlice,
} from "../../protocols/contract.ts";
import { clientCodec, toBytes, type ClientCodec, type MessageData } from "./client-codec.ts";
import { byteLength, closed, closedLine, fetchServerStats, openSocket, sendFrame } from "./client-connection.ts";
import { Replies, Watchdog } from "./reply-queue.ts";
import {
  emptyFigures,
  processesOf,
  processFor,
  shortTopic,
  viaLink,
  type SocketCaseFigures,
  type SocketCaseOptions,
} from "./socket-case.ts";
import { clusterRun, readCluster } from "./cluster-figures.ts";
import { ClientError } from "../client-errors.ts";

/** Routers per case: several senders, so that order is checked per sender and the server interleaves them. */
export const ROUTE_PUBLISHERS = 4;

export type RouteOptions = Omit<SocketCaseOptions, "mode" | "payload"> & {
  payload: BuiltInPayload;
  /** Members (--clients). */
  subscribers: number;
  /** Routers per way. */
  publishers: number;
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
    if (name === undefined)
      throw new ClientError(
        "PROTOCOL",
        `message #${i} has no room: its ${key} is neither a string nor a finite number`,
      );
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
  return {
    rooms,
    roomOf,
    roomsOf,
    membersOf,
    expect: lists.map((perRouter) => perRouter.map((l) => Int32Array.from(l))),
    deliveries,
  };
}

/** What one slice of a route session measured, one way. */
export interface RouteRun {
  way: RouteWay;
  /** sent: messages the routers sent; received: deliveries; lost: deliveries missing; corrupted: deliveries that were not the next message expected from any router. */
  figures: SocketCaseFigures;
  rooms: number;
  publishers: number;
  /** Deliveries the plan called for. */
  expected: number;
  /** Deliveries to a member not in the message's room. */
  misrouted: number;
  perMember: ClientFigures[];
  /** The server's figures for the routers' slices, summed (undefined when a router's mark went unanswered). */
  server: ServerSlice | undefined;
}

/** Opens the members and has each join its rooms; resolves once the server has answered every join. */
async function openMembers(o: RouteOptions, plan: RoutePlan, topic: string, sockets: WebSocket[]): Promise<void> {
  for (let k = 0; k < o.subscribers; k++) {
    const ws = await openSocket(
      o.WebSocket,
      socketUrl(viaLink(o, processFor(o, k)), o.codec, o.payload, `${o.id}-m${k}`, { role: "member", topic }),
      o.stallTimeoutMs,
    );
    sockets.push(ws);
    const replies = new Replies(ws, o.clock, o.stallTimeoutMs, () => `member ${k}'s join request`);
    try {
      const join: JoinRequest = { join: plan.roomsOf[k]!.map((r) => plan.rooms[r]!) };
      ws.send(JSON.stringify(join));
      const data = await replies.next();
      const answer = JSON.parse(
        typeof data === "string" ? data : new TextDecoder().decode(toBytes(data)),
      ) as Partial<JoinAnswer>;
      if (answer.joined !== join.join.length)
        throw new ClientError(
          "PROTOCOL",
          `member ${k} asked to join ${join.join.length} room(s); the server answered ${JSON.stringify(answer)}`,
        );
    } finally {
      replies.dispose();
    }
  }
}

/** The part of a sorted list of message indices within [start, end). */
function within(list: Int32Array, start: number, end: number): Int32Array {
  const first = (v: number): number => {
    let lo = 0;
    let hi = list.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (list[mid]! < v) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  return list.subarray(first(start), first(end));
}

/**
 * Routes messages [start, start + count) through `routers` (message i on router i mod P, each
 * within the window) until each has reached every member of its room, checking every delivery.
 */
function routeSlice(
  routers: readonly WebSocket[],
  members: readonly WebSocket[],
  codec: ClientCodec,
  plan: RoutePlan,
  o: RouteOptions,
  range: { start: number; count: number },
  run: RouteRun,
  onFail: (fail: (e: Error) => void) => void,
): Promise<void> {
  const f = run.figures;
  const P = routers.length;
  const end = range.start + range.count;
  const now = o.clock.now;
  const window = Math.max(1, o.window);
  const expect = plan.expect.map((perRouter) => perRouter.map((l) => within(l, range.start, end)));
  const deliveries = expect.reduce((n, perRouter) => n + perRouter.reduce((k, l) => k + l.length, 0), 0);
  run.expected = deliveries;
  // Deliveries each message still waits for; a router's message is acknowledged when it reaches none.
  const pending = new Int32Array(plan.roomOf.length);
  for (let i = range.start; i < end; i++) pending[i] = plan.membersOf[plan.roomOf[i]!]!.length;
  // Router p sends start + p', start + p' + P, ... (p' the first offset with index mod P = p).
  const next = Int32Array.from({ length: P }, (_, p) => range.start + ((p - (range.start % P) + P) % P));
  const inFlight = new Int32Array(P);
  const heads = members.map(() => new Int32Array(P));
  const got = new Int32Array(members.length);
  const doneMs = new Float64Array(members.length);
  const inRoom = plan.roomsOf.map((rs) => new Set(rs.map((r) => plan.rooms[r]!)));
  let delivered = 0;
  return new Promise<void>((resolve, reject) => {
    let finished = false;
    const start = now();
    const watchdog = new Watchdog(o.clock, o.stallTimeoutMs, () =>
      finish(
        new ClientError(
          "STALLED",
          `stalled: nothing for ${o.stallTimeoutMs} ms after ${delivered} of ${deliveries} deliveries`,
        ),
      ),
    );
    const finish = (e?: Error): void => {
      if (finished) return;
      finished = true;
      watchdog.stop();
      f.elapsedMs = now() - start;
      for (const ws of members) ws.onmessage = null;
      run.perMember = Array.from(got, (g, m) => {
        const wanted = expect[m]!.reduce((acc, l) => acc + l.length, 0);
        return {
          sent: wanted,
          received: g,
          lost: Math.max(0, wanted - g),
          msgsPerS: doneMs[m]! > 0 ? (g / doneMs[m]!) * 1000 : NaN,
        };
      });
      if (e) reject(e);
      else resolve();
    };
    onFail(finish);
    const refill = (p: number): void => {
      const k = Math.min(window - inFlight[p]!, Math.ceil((end - next[p]!) / P));
      if (k <= 0) return;
      const t0 = now();
      const batch = Array.from({ length: k }, (_, j) => codec.encode(next[p]! + j * P));
      f.serializeNs += (now() - t0) * 1e6 - o.timerOverheadNs;
      for (const e of batch) {
        sendFrame(routers[p]!, e);
        f.bytesSent += byteLength(e);
      }
      next[p] = next[p]! + k * P;
      inFlight[p] = inFlight[p]! + k;
      f.sent += k;
    };
    members.forEach((ws, m) => {
      const mine = expect[m]!;
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
          run.misrouted++;
          return finish(
            new ClientError(
              "PROTOCOL",
              `member ${m} got a message for room ${room ?? "(none)"}, which it did not join: misrouted`,
            ),
          );
        }
        const head = heads[m]!;
        for (let p = 0; p < P; p++) {
          const i = mine[p]![head[p]!];
          if (i === undefined || !codec.matches(i, decoded)) continue;
          head[p] = head[p]! + 1;
          delivered++;
          pending[i] = pending[i]! - 1;
          if (pending[i] === 0) {
            inFlight[p] = inFlight[p]! - 1;
            if (inFlight[p]! <= window >> 1) refill(p);
          }
          if (head.every((h, q) => h === mine[q]!.length)) doneMs[m] = now() - start;
          if (delivered === deliveries) finish();
          return;
        }
        f.corrupted++;
        finish(
          new ClientError(
            "PROTOCOL",
            `member ${m} got a message that is not the next one it expects from any router (lost, reordered or changed)`,
          ),
        );
      };
    });
    if (deliveries === 0) return finish();
    for (let p = 0; p < P; p++) refill(p);
  });
}

/** Ends each router's slice with a mark and sums the server's answers (untimed). */
async function markSlices(
  routers: readonly WebSocket[],
  codec: ClientCodec,
  o: RouteOptions,
): Promise<ServerSlice | undefined> {
  const sum: ServerSlice = {
    messages: 0,
    decodeNs: 0,
    encodeNs: 0,
    sendNs: 0,
    cpuMs: 0,
    wakeups: 0,
    kept: 0,
    keptNs: 0,
    schedulerNs: 0,
    pausedNs: 0,
  };
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

/**
 * A route case's connections, kept open across its slices: the members, in their rooms, and a
 * set of routers for each way. Only opening throws; a slice's failures come back in its figures.
 */
export class RouteSession {
  /** Why the session can no longer route (a connection closed), once it cannot. */
  private broken: string | undefined;
  /** Ends the slice in progress with an error. */
  private fail: ((e: Error) => void) | undefined;

  private constructor(
    private readonly o: RouteOptions,
    private readonly codec: ClientCodec,
    readonly plan: RoutePlan,
    private readonly members: WebSocket[],
    private readonly routers: Record<RouteWay, WebSocket[]>,
  ) {
    const all: [WebSocket, string][] = [...members.map((ws, m): [WebSocket, string] => [ws, `member ${m}`])];
    for (const way of ROUTE_WAYS) routers[way].forEach((ws, p) => all.push([ws, `${way} router ${p}`]));
    for (const [ws, who] of all)
      ws.addEventListener("close", (ev: CloseEvent) => this.breaks(closedLine(ev, `${who} was closed`, who)));
  }

  /** The session can no longer route: the slice in progress fails, and every later one. */
  private breaks(why: string): void {
    this.broken ??= why;
    this.fail?.(new ClientError("CLOSED", why));
  }

  /** Plans the rooms, opens the members (each joins its rooms) and the routers. */
  static async open(o: RouteOptions): Promise<RouteSession> {
    const codec = clientCodec(o.catalog, o.codec, o.payload, o.messages, o.ownRoundTrip);
    const plan = routePlan(o.messages, ROUTING_KEYS[o.payload], o.subscribers, o.publishers);
    const topic = shortTopic("r", o.id);
    const members: WebSocket[] = [];
    const routers: Record<RouteWay, WebSocket[]> = { forward: [], recode: [] };
    try {
      await openMembers(o, plan, topic, members);
      for (const way of ROUTE_WAYS) {
        for (let p = 0; p < o.publishers; p++) {
          routers[way].push(
            await openSocket(
              o.WebSocket,
              socketUrl(viaLink(o, processFor(o, p)), o.codec, o.payload, `${o.id}-${way}-r${p}`, {
                role: "router",
                topic,
                way,
                validate: o.validate,
              }),
              o.stallTimeoutMs,
            ),
          );
        }
      }
    } catch (e) {
      for (const ws of [...members, ...routers.forward, ...routers.recode]) ws.close(CLOSE.normal);
      throw e;
    }
    return new RouteSession(o, codec, plan, members, routers);
  }

  /** Routes messages [start, start + count) one way and waits for every delivery; never throws. */
  async slice(way: RouteWay, start: number, count: number): Promise<RouteRun> {
    const o = this.o;
    const run: RouteRun = {
      way,
      figures: emptyFigures(),
      rooms: this.plan.rooms.length,
      publishers: o.publishers,
      expected: 0,
      misrouted: 0,
      perMember: [],
      server: undefined,
    };
    const f = run.figures;
    f.extensions = this.routers[way][0]?.extensions ?? "";
    const cpu0 = o.cpuMs?.() ?? NaN;
    const routers = this.routers[way];
    // A router hears only its marks' answers, and those only between slices.
    routers.forEach((ws, p) => (ws.onmessage = () => this.breaks(`${way} router ${p} got a message while routing`)));
    try {
      if (this.broken !== undefined) throw new ClientError("CLOSED", this.broken);
      const range = { start, count: Math.max(0, Math.min(count, o.messages.length - start)) };
      const processes = processesOf(o);
      const before = await readCluster(processes);
      // A member may have closed while the processes were read: say so now, not after a stall.
      if (this.broken !== undefined) throw new ClientError("CLOSED", this.broken);
      try {
        await routeSlice(routers, this.members, this.codec, this.plan, o, range, run, (fail) => (this.fail = fail));
      } finally {
        this.fail = undefined;
      }
      f.cluster = clusterRun(before, await readCluster(processes), processes.length);
      run.server = await markSlices(routers, this.codec, o);
      if (run.server === undefined)
        throw new ClientError(
          "PROTOCOL",
          "the server did not answer a router's slice mark with the slice's figures (is it this version's server.ts?)",
        );
    } catch (e) {
      f.error = (e as Error).message;
    }
    f.clientCpuMs = o.cpuMs ? o.cpuMs() - cpu0 : NaN;
    f.lost = Math.max(0, run.expected - f.received);
    if (f.error === undefined && f.lost > 0) f.error = `${f.lost} of ${run.expected} deliveries lost`;
    return run;
  }

  /**
   * Closes every connection; with `last` (the session's last slice), reads each router's
   * figures from the server: a message it found no one in the room for, or one publish()
   * dropped, fails that slice.
   */
  async close(last?: RouteRun): Promise<void> {
    const routers = [...this.routers.forward, ...this.routers.recode];
    await Promise.all([...this.members, ...routers].map((ws) => closed(ws, CLOSE.normal)));
    if (!last) return;
    for (const way of ROUTE_WAYS) {
      for (let p = 0; p < this.o.publishers; p++) {
        const stats = await fetchServerStats(processFor(this.o, p), `${this.o.id}-${way}-r${p}`);
        if (!stats || last.figures.error !== undefined) continue;
        if (stats.unrouted > 0)
          last.figures.error = `${stats.unrouted} message(s) on ${way} router ${p} found no one in their room`;
        else if (stats.publishDropped > 0)
          last.figures.error = `publish() dropped ${stats.publishDropped} message(s) on ${way} router ${p}`;
      }
    }
  }
}

/** A route run that never started: the session could not open, and why. */
export function unopened(way: RouteWay, publishers: number, e: unknown): RouteRun {
  return {
    way,
    figures: { ...emptyFigures(), error: (e as Error).message },
    rooms: 0,
    publishers,
    expected: 0,
    misrouted: 0,
    perMember: [],
    server: undefined,
  };
}

/** One route case on fresh connections: every message routed one way, then the other (a session of one slice each); never throws. */
export async function runRouteCase(o: RouteOptions, ways: readonly RouteWay[] = ROUTE_WAYS): Promise<RouteRun[]> {
  let session: RouteSession;
  try {
    session = await RouteSession.open(o);
  } catch (e) {
    return [unopened(ways[0] ?? "forward", o.publishers, e)];
  }
  const runs: RouteRun[] = [];
  for (const way of ways) {
    const run = await session.slice(way, 0, o.messages.length);
    runs.push(run);
    if (run.figures.error !== undefined) break;
  }
  await session.close(runs[runs.length - 1]);
  return runs;
}
