/**
 * One WebSocket case, written against the standard WebSocket API only, so
 * the same code runs in Bun (its built-in WebSocket), in Node (the npm `ws`
 * package, whose class has the same API) and in a browser.
 *
 * Three loops, labelled as what they measure:
 * - roundtrip: one message in flight (closed loop, concurrency 1); every
 *   message's round-trip time is a sample.
 * - stream: up to `window` messages in flight (flow control, never an
 *   unbounded burst); the result is throughput.
 * - latency: messages sent at a fixed rate whatever the replies do (open
 *   loop, open-loop.ts); each reply's latency is taken from the time its
 *   message was due, so a stalled server cannot hide its queue.
 *
 * Every message is accounted for: each reply is decoded and compared with
 * what was sent (sent, received, lost, reordered, corrupted).
 *
 * A connection is a session timed in slices (the socket modes' rounds);
 * `runSocketCase` is a session of one slice over every message.
 */

import type { Encoded } from "../../protocols/codec.ts";
import { CLOSE, parseSlice, socketUrl } from "../../protocols/contract.ts";
import { clientCodec, toBytes, type ClientCodec } from "./client-codec.ts";
import { byteLength, closed, fetchServerStats, openSocket, sendFrame } from "./client-connection.ts";
import { emptyFigures, viaLink, type SocketCaseFigures, type SocketCaseOptions } from "./socket-case.ts";
import { InFlight } from "./in-flight.ts";
import { openLoop } from "./open-loop.ts";
import { Replies } from "./reply-queue.ts";
import { ClientError } from "../client-errors.ts";

/**
 * One codec's open connection, timed slice by slice: the socket modes'
 * rounds send a slice on every codec's connection in turn, so the
 * connections stay open for the whole case and the handshake is never
 * timed. Only opening throws; a slice's failures come back in its `error`.
 */
export class SocketSession {
  /** Resolves with how the connection closed, once it has. */
  private readonly closing: Promise<string>;

  private constructor(
    private readonly ws: WebSocket,
    private readonly codec: ClientCodec,
    private readonly o: SocketCaseOptions,
  ) {
    this.closing = new Promise((resolve) =>
      ws.addEventListener("close", (ev: CloseEvent) =>
        resolve(`the server closed the connection with ${ev.code}${ev.reason ? ` (${ev.reason})` : ""} between slices`),
      ),
    );
  }

  /** Prepares the codec and opens the connection; throws (a ClientError, or the codec's own error) when either fails. */
  static async open(o: SocketCaseOptions): Promise<SocketSession> {
    const codec = clientCodec(o.catalog, o.codec, o.payload, o.messages, o.ownRoundTrip);
    return new SocketSession(
      await openSocket(o.WebSocket, socketUrl(viaLink(o, o.server), o.codec, o.payload, o.id), o.stallTimeoutMs),
      codec,
      o,
    );
  }

  /** Sends messages [start, start + count) as the mode says and waits for every reply. */
  async slice(start: number, count: number): Promise<SocketCaseFigures> {
    const { ws, codec, o } = this;
    const figures = emptyFigures();
    figures.extensions = ws.extensions ?? "";
    if (ws.readyState !== 1) {
      // The close event may still be on its way: wait for it (briefly) to say how it closed.
      let timer: ReturnType<typeof setTimeout> | undefined;
      const unknown = new Promise<string>(
        (resolve) => (timer = setTimeout(resolve, 1000, "the connection closed between slices")),
      );
      figures.error = await Promise.race([this.closing, unknown]);
      clearTimeout(timer);
      return figures;
    }
    const range = { start, count: Math.max(0, Math.min(count, o.messages.length - start)) };
    const cpu0 = o.cpuMs?.() ?? NaN;
    try {
      if (o.mode === "roundtrip") await roundtrip(ws, codec, o, range, figures);
      else if (o.mode === "latency") await openLoop(ws, codec, o, range, figures);
      else await stream(ws, codec, o, range, figures);
      if (o.sliceFigures) await markSlice(ws, codec, o, figures);
    } catch (e) {
      figures.error = (e as Error).message;
    }
    // No CPU counter (a browser): unknown, not zero.
    figures.clientCpuMs = o.cpuMs ? o.cpuMs() - cpu0 : NaN;
    figures.lost = figures.sent - figures.received;
    if (figures.error === undefined) {
      if (figures.lost > 0) figures.error = `${figures.lost} of ${figures.sent} message(s) lost`;
      else if (figures.corrupted > 0) figures.error = `${figures.corrupted} reply(ies) did not match what was sent`;
      else if (figures.reordered > 0) figures.error = `${figures.reordered} reply(ies) arrived out of order`;
    }
    return figures;
  }

  /**
   * Closes the connection and hands `last` (the session's last slice) the
   * server's figures for the whole connection; a message the server
   * dropped fails it. Without a slice, it only closes.
   */
  async close(last?: SocketCaseFigures): Promise<void> {
    await closed(this.ws, CLOSE.normal);
    if (!last) return;
    last.server = await fetchServerStats(this.o.server, this.o.id);
    if (last.error === undefined && last.server && last.server.dropped > 0) {
      last.error = `the server dropped ${last.server.dropped} message(s) (send() returned 0)`;
    }
  }
}

/** Runs one case on a fresh connection: every message as one slice. Never throws: failures come back in `error`. */
export async function runSocketCase(o: SocketCaseOptions): Promise<SocketCaseFigures> {
  let session: SocketSession;
  try {
    session = await SocketSession.open(o);
  } catch (e) {
    return { ...emptyFigures(), error: (e as Error).message };
  }
  const figures = await session.slice(0, o.messages.length);
  await session.close(figures);
  return figures;
}

/**
 * Ends a slice: sends the slice mark (an empty message) once every reply is in, and keeps the
 * server's figures of the slice from its answer (protocols/contract.ts). Untimed.
 */
async function markSlice(ws: WebSocket, codec: ClientCodec, o: SocketCaseOptions, f: SocketCaseFigures): Promise<void> {
  const replies = new Replies(ws, o.clock, o.stallTimeoutMs, () => "a slice mark");
  try {
    sendFrame(ws, codec.frame === "text" ? "" : new Uint8Array(0));
    const data = await replies.next();
    const slice = parseSlice(typeof data === "string" ? data : toBytes(data));
    if (slice === undefined)
      throw new ClientError(
        "PROTOCOL",
        "the server did not answer a slice mark with the slice's figures (is it this version's server.ts?)",
      );
    f.serverSlice = slice;
  } finally {
    replies.dispose();
  }
}

/** The messages a slice sends: indices [start, start + count). */
interface Range {
  start: number;
  count: number;
}

async function roundtrip(
  ws: WebSocket,
  codec: ClientCodec,
  o: SocketCaseOptions,
  { start: first, count: n }: Range,
  f: SocketCaseFigures,
): Promise<void> {
  const now = o.clock.now;
  const oh = o.timerOverheadNs;
  const rtt = new Float64Array(n);
  const replies = new Replies(ws, o.clock, o.stallTimeoutMs, () => `${f.received} of ${n} replies`);
  const start = now();
  try {
    for (let k = 0; k < n; k++) {
      const i = first + k;
      const t0 = now();
      const encoded = codec.encode(i);
      const t1 = now();
      sendFrame(ws, encoded);
      f.sent++;
      f.bytesSent += byteLength(encoded);
      const data = await replies.next();
      const t2 = now();
      const decoded = codec.decode(data);
      const t3 = now();
      f.received++;
      f.bytesReceived += byteLength(data);
      f.serializeNs += (t1 - t0) * 1e6 - oh;
      f.deserializeNs += (t3 - t2) * 1e6 - oh;
      // Three clock reads fall inside the interval.
      rtt[k] = (t3 - t0) * 1e6 - 3 * oh;
      if (!codec.matches(i, decoded)) f.corrupted++;
    }
  } finally {
    f.elapsedMs = now() - start;
    replies.dispose();
  }
  f.rttNs = rtt;
}

function stream(
  ws: WebSocket,
  codec: ClientCodec,
  o: SocketCaseOptions,
  { start: first, count: n }: Range,
  f: SocketCaseFigures,
): Promise<void> {
  const now = o.clock.now;
  const oh = o.timerOverheadNs;
  if (n === 0) return Promise.resolve();
  const window = Math.max(1, Math.min(o.window, n));
  const inFlight = new InFlight(window);
  let next = 0;
  const batch: Encoded[] = new Array(window);
  const replies = new Replies(
    ws,
    o.clock,
    o.stallTimeoutMs,
    () => `${f.received} of ${n} replies (${inFlight.count} in flight)`,
  );

  // Encodes a batch (timed as one interval), then sends it (untimed).
  const refill = (): void => {
    const k = Math.min(window - inFlight.count, n - next);
    if (k <= 0) return;
    const t0 = now();
    for (let j = 0; j < k; j++) batch[j] = codec.encode(first + next + j);
    f.serializeNs += (now() - t0) * 1e6 - oh;
    for (let j = 0; j < k; j++) {
      const encoded = batch[j]!;
      sendFrame(ws, encoded);
      f.bytesSent += byteLength(encoded);
      inFlight.push(first + next + j);
    }
    f.sent += k;
    next += k;
  };

  return new Promise<void>((resolve, reject) => {
    const start = now();
    const finish = (e?: Error): void => {
      f.elapsedMs = now() - start;
      replies.dispose();
      if (e) reject(e);
      else resolve();
    };
    replies.onMessage((data) => {
      const t0 = now();
      const decoded = codec.decode(data);
      f.deserializeNs += (now() - t0) * 1e6 - oh;
      f.received++;
      f.bytesReceived += byteLength(data);
      const settled = inFlight.settle((i) => codec.matches(i, decoded));
      if (settled === "reordered") f.reordered++;
      else if (settled === "corrupted") f.corrupted++;
      if (f.received >= n) finish();
      // Refill in halves so serialization is timed over batches, not single calls.
      else if (inFlight.count <= window >> 1) refill();
    }, finish);
    refill();
  });
}
