/**
 * Drives a user's load at the server (`--load`, client/harness/load.ts): for each codec, each
 * payload's messages published at its rate on a schedule that does not wait for replies (an open
 * loop), the payloads at once, each message delivered to `fanout` sockets through Bun's pub/sub
 * (fanout - 1 subscribers, and the publisher itself, whose copies bound what it has in flight).
 * After a warm-up the server process's CPU is read from its /health, and again a window later:
 * the cores it used to carry the load with that codec. `raw` is driven the same way: the
 * transport alone, on which every prediction rests.
 *
 * Every codec is driven once per round, in a shuffled order each round, and round r runs on
 * server process r mod N (--forks), so a figure's rounds come from different processes where there
 * are several. The subscribers count what they receive and do not decode it: a client that
 * decoded every delivery would be the bottleneck long before the server. The socket modes have
 * verified each codec on these messages already; here a delivery that never arrives fails the
 * drive, by its count.
 */

import type { Encoded } from "../../protocols/codec.ts";
import { CLOSE, socketUrl } from "../../protocols/contract.ts";
import type { Message, PayloadName } from "../../protocols/messages.ts";
import type { CodecCatalog } from "../../protocols/registry.ts";
import type { Clock } from "../harness/clock.ts";
import {
  LOAD_ROUNDS,
  LOAD_WARM_MS,
  LOAD_WINDOW_MS,
  loadCell,
  type LoadDrive,
  type LoadMeasurement,
  type LoadRound,
} from "../harness/load.ts";
import type { LoadSpec } from "../harness/settings.ts";
import type { Progress } from "../harness/progress.ts";
import { createRng } from "../harness/random.ts";
import { ClientError } from "../client-errors.ts";
import { clientCodec } from "./client-codec.ts";
import { closedLine, fetchServerStats, openSocket, sendFrame, type WebSocketClass } from "./client-connection.ts";
import { readCluster } from "./cluster-figures.ts";
import { shortTopic } from "./socket-case.ts";
import { shuffled } from "../harness/schedule.ts";

/** Messages a publisher cycles through: its payload's first ones, encoded before the drive. */
export const LOAD_MESSAGES = 1_000;
/** A publisher's own copies not yet back: past this many, a due message waits (the load is not carried, and the drive says so by its rate). */
const MAX_IN_FLIGHT = 4_096;
/** How often the loop sends what is due, ms: a millisecond's messages go out together, as a busy server's arrivals do. */
const TICK_MS = 1;

export interface LoadDriveContext {
  /** Each server process's own URL; round r drives server r mod N. */
  servers: readonly string[];
  catalog: CodecCatalog;
  WebSocket: WebSocketClass;
  clock: Clock;
  /** A drive whose deliveries stop arriving for this long fails. */
  stallTimeoutMs: number;
  /** The messages each payload's publisher sends (the run's), cycled. */
  messagesOf: (payload: PayloadName) => readonly Message[];
  seed: number;
  /** This process's CPU so far, ms, where the runtime tells it: the client's own cores over each window. */
  cpuMs?: () => number;
  shouldStop?: () => boolean;
  onProgress?: (e: Progress) => void;
  /** Shorter windows and fewer rounds (tests); the defaults are LOAD_*. */
  rounds?: number;
  warmMs?: number;
  windowMs?: number;
}

/** One payload's sockets and counts during a window. */
interface Stream {
  payload: PayloadName;
  rate: number;
  frames: Encoded[];
  pub: WebSocket;
  subs: WebSocket[];
  sent: number;
  echoed: number;
}

/** What the counters held at a moment, and the server's CPU then. */
interface Reading {
  atMs: number;
  cpuMs: number;
  clientCpuMs: number;
  sent: number;
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Opens one payload's subscribers and publisher on `server`, the subscribers known to it before the publisher opens. */
async function openStream(
  ctx: LoadDriveContext,
  server: string,
  codec: string,
  payload: PayloadName,
  rate: number,
  fanout: number,
  id: string,
  sockets: WebSocket[],
): Promise<Stream> {
  const messages = ctx.messagesOf(payload);
  const cc = clientCodec(ctx.catalog, codec, payload, messages);
  const frames = Array.from({ length: Math.min(messages.length, LOAD_MESSAGES) }, (_, i) => cc.encode(i));
  const topic = shortTopic("l", id);
  const subIds = Array.from({ length: fanout - 1 }, (_, k) => `${id}-s${k}`);
  // Each socket is held as it opens, so one that fails to open leaves none of the others open.
  const subs = await Promise.all(
    subIds.map((sid) =>
      openSocket(
        ctx.WebSocket,
        socketUrl(server, codec, payload, sid, { role: "subscriber", topic }),
        ctx.stallTimeoutMs,
      ).then((ws) => {
        sockets.push(ws);
        return ws;
      }),
    ),
  );
  const known = await Promise.all(subIds.map((sid) => fetchServerStats(server, sid)));
  const missing = known.findIndex((s) => s === undefined || s.error !== undefined);
  if (missing >= 0) {
    const error = known[missing]?.error;
    throw error === undefined
      ? new ClientError("PROTOCOL", `subscriber ${missing} of ${payload} is not known to the server`)
      : new ClientError("CLOSED", `subscriber ${missing} of ${payload} was closed by the server: ${error}`);
  }
  const pub = await openSocket(
    ctx.WebSocket,
    socketUrl(server, codec, payload, `${id}-p`, { role: "publisher", topic }),
    ctx.stallTimeoutMs,
  );
  sockets.push(pub);
  return { payload, rate, frames, pub, subs, sent: 0, echoed: 0 };
}

/** One window of `codec` at the load on `server`: the server's cores and what went each way. */
async function driveWindow(
  ctx: LoadDriveContext,
  spec: LoadSpec,
  server: string,
  codec: string,
  id: string,
): Promise<Omit<LoadRound, "round">> {
  const now = ctx.clock.now;
  const sockets: WebSocket[] = [];
  let failure: string | undefined;
  let delivered = 0;
  let lastDeliveryMs = now();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let sending = false;
  try {
    const streams: Stream[] = [];
    for (const [g, { payload, rate }] of spec.rates.entries())
      streams.push(await openStream(ctx, server, codec, payload, rate, spec.fanout, `${id}-${g}`, sockets));
    // Counted, not decoded or measured: the one client thread must keep up with every delivery.
    const received = (): void => {
      delivered++;
      lastDeliveryMs = now();
    };
    for (const s of streams) {
      s.pub.onmessage = () => {
        s.echoed++;
        received();
      };
      s.subs.forEach((ws, k) => {
        ws.onmessage = received;
        ws.onclose = (ev) =>
          (failure ??= closedLine(ev, `${s.payload}'s subscriber ${k} closed`, `${s.payload}'s subscriber ${k}`));
      });
      s.pub.onclose = (ev) =>
        (failure ??= closedLine(ev, `${s.payload}'s publisher was closed`, `${s.payload}'s publisher`));
    }
    const start = now();
    sending = true;
    const tick = (): void => {
      if (!sending) return;
      const t = now();
      for (const s of streams) {
        const due = Math.floor(((t - start) * s.rate) / 1000) + 1;
        while (s.sent < due && s.sent - s.echoed < MAX_IN_FLIGHT) {
          sendFrame(s.pub, s.frames[s.sent % s.frames.length]!);
          s.sent++;
        }
      }
      timer = setTimeout(tick, TICK_MS);
    };
    tick();
    const read = async (): Promise<Reading> => {
      const before = now();
      const { cpuMs } = await readCluster([server]);
      const after = now();
      return {
        atMs: (before + after) / 2,
        cpuMs,
        clientCpuMs: ctx.cpuMs?.() ?? Number.NaN,
        sent: streams.reduce((n, s) => n + s.sent, 0),
      };
    };
    await sleep(ctx.warmMs ?? LOAD_WARM_MS);
    const a = await read();
    await sleep(ctx.windowMs ?? LOAD_WINDOW_MS);
    const b = await read();
    sending = false;
    clearTimeout(timer);
    // Every message's copies arrive before the window counts: a drive that lost deliveries did not carry the load.
    const expected = (): number => streams.reduce((n, s) => n + s.sent, 0) * spec.fanout;
    while (delivered < expected() && failure === undefined && now() - lastDeliveryMs < ctx.stallTimeoutMs)
      await sleep(5);
    if (failure !== undefined) throw new ClientError("CLOSED", failure);
    if (delivered < expected())
      throw new ClientError(
        "STALLED",
        `${expected() - delivered} of ${expected()} deliveries did not arrive (none for ${ctx.stallTimeoutMs} ms)`,
      );
    if (!Number.isFinite(a.cpuMs) || !Number.isFinite(b.cpuMs))
      throw new ClientError("PROTOCOL", `the server at ${server} did not tell its CPU (/health)`);
    const s = (b.atMs - a.atMs) / 1000;
    return {
      cores: (b.cpuMs - a.cpuMs) / 1000 / s,
      sentPerS: (b.sent - a.sent) / s,
      ...(Number.isFinite(b.clientCpuMs - a.clientCpuMs)
        ? { clientCores: (b.clientCpuMs - a.clientCpuMs) / 1000 / s }
        : {}),
    };
  } finally {
    sending = false;
    clearTimeout(timer);
    for (const ws of sockets) {
      ws.onclose = null;
      ws.onmessage = null;
      ws.close(CLOSE.normal);
    }
  }
}

/**
 * Drives the load with each of `codecs` (raw among them for the predictions), round by round; a
 * codec whose drive fails keeps its finished windows and its error, and is not driven again.
 */
export async function driveLoad(
  spec: LoadSpec,
  codecs: readonly string[],
  ctx: LoadDriveContext,
): Promise<LoadMeasurement> {
  const rounds = ctx.rounds ?? LOAD_ROUNDS;
  const rng = createRng(ctx.seed ^ 0x10ad);
  const drives = new Map<string, LoadDrive>(codecs.map((c) => [c, { codec: c, rounds: [] }]));
  const started = ctx.clock.now();
  const total = rounds * codecs.length;
  let done = 0;
  let connection = 0;
  for (let round = 0; round < rounds; round++) {
    for (const codec of shuffled(codecs, rng)) {
      const drive = drives.get(codec)!;
      if (drive.error !== undefined) continue;
      if (ctx.shouldStop?.()) return { spec, windowMs: ctx.windowMs ?? LOAD_WINDOW_MS, drives: [...drives.values()] };
      ctx.onProgress?.({
        mode: "load",
        stage: "run",
        codec,
        payload: loadCell(spec),
        run: round,
        runs: rounds,
        done,
        total,
        elapsedMs: ctx.clock.now() - started,
      });
      const server = ctx.servers[round % ctx.servers.length]!;
      const id = `load-${codec}-${round}-${Date.now().toString(36)}-${connection++}`;
      try {
        drive.rounds.push({ round, ...(await driveWindow(ctx, spec, server, codec, id)) });
      } catch (e) {
        drive.error = `round ${round + 1}: ${(e as Error).message}`;
      }
      done++;
    }
  }
  return { spec, windowMs: ctx.windowMs ?? LOAD_WINDOW_MS, drives: [...drives.values()] };
}
