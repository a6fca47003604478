/**
 * One WebSocket case, written against the standard WebSocket API only, so
 * the same code runs in Bun (its built-in WebSocket), in Node (the npm `ws`
 * package, whose class has the same API) and in a browser.
 *
 * Two loops, labelled as what they measure:
 * - roundtrip: one message in flight (closed loop, concurrency 1); every
 *   message's round-trip time is a latency sample.
 * - stream: up to `window` messages in flight (flow control, never an
 *   unbounded burst); the result is throughput.
 *
 * Every message is accounted for: each reply is decoded and compared with
 * what was sent (sent, received, lost, reordered, corrupted).
 */

import type { Clock } from "../../bench/harness/clock.ts";
import type { SocketMode } from "../../bench/harness/settings.ts";
import type { Encoded } from "../../protocols/codec.ts";
import type { Message, PayloadName } from "../../protocols/messages.ts";
import { CLOSE, socketUrl, type ServerConnectionStats } from "../../protocols/socket/contract.ts";
import { clientCodec, type ClientCodec } from "./codec.ts";
import { byteLength, closed, fetchServerStats, openSocket, sendFrame, type WebSocketClass } from "./connection.ts";
import { Replies } from "./replies.ts";


export interface SocketCaseOptions {
  /** Server base URL, http://host:port. */
  server: string;
  codec: string;
  payload: PayloadName;
  mode: SocketMode;
  messages: readonly Message[];
  /** Messages in flight in stream mode. */
  window: number;
  /** A case with no reply for this long ends as stalled. */
  stallTimeoutMs: number;
  clock: Clock;
  /** Clock read cost subtracted from each per-call timing, ns. */
  timerOverheadNs: number;
  WebSocket: WebSocketClass;
  /** Connection id, so the server's figures can be fetched afterwards. */
  id: string;
  /** CPU time of this process so far, ms (undefined where the runtime has no such counter). */
  cpuMs?: () => number;
}

export interface SocketCaseFigures {
  sent: number;
  received: number;
  lost: number;
  reordered: number;
  corrupted: number;
  /** First send to last reply, ms. */
  elapsedMs: number;
  /** Client serialize / deserialize time summed over all messages, ns (raw: the lookup of prepared bytes and the byte check). */
  serializeNs: number;
  deserializeNs: number;
  /** roundtrip only: every message's round-trip time, ns. */
  rttNs: Float64Array | undefined;
  /** Payload bytes sent and received, summed. */
  bytesSent: number;
  bytesReceived: number;
  extensions: string;
  clientCpuMs: number;
  server: ServerConnectionStats | undefined;
  /** Why the case failed ("" when it did not). */
  error: string;
}

/** Figures before anything happened. */
export function emptyFigures(): SocketCaseFigures {
  return {
    sent: 0,
    received: 0,
    lost: 0,
    reordered: 0,
    corrupted: 0,
    elapsedMs: 0,
    serializeNs: 0,
    deserializeNs: 0,
    rttNs: undefined,
    bytesSent: 0,
    bytesReceived: 0,
    extensions: "",
    clientCpuMs: NaN,
    server: undefined,
    error: "",
  };
}

/** Runs one case on a fresh connection. Never throws: failures come back in `error`. */
export async function runSocketCase(o: SocketCaseOptions): Promise<SocketCaseFigures> {
  const figures = emptyFigures();
  let codec: ClientCodec;
  try {
    codec = clientCodec(o.codec, o.payload, o.messages);
  } catch (e) {
    figures.error = (e as Error).message;
    return figures;
  }
  let ws: WebSocket;
  try {
    ws = await openSocket(o.WebSocket, socketUrl(o.server, o.codec, o.payload, o.id), o.stallTimeoutMs);
  } catch (e) {
    figures.error = (e as Error).message;
    return figures;
  }
  figures.extensions = ws.extensions ?? "";
  const cpu0 = o.cpuMs?.() ?? NaN;
  try {
    if (o.mode === "roundtrip") await roundtrip(ws, codec, o, figures);
    else await stream(ws, codec, o, figures);
  } catch (e) {
    figures.error = (e as Error).message;
  }
  // No CPU counter (a browser): unknown, not zero.
  figures.clientCpuMs = o.cpuMs ? o.cpuMs() - cpu0 : NaN;
  figures.lost = figures.sent - figures.received;
  if (figures.error === "") {
    if (figures.lost > 0) figures.error = `${figures.lost} of ${figures.sent} message(s) lost`;
    else if (figures.corrupted > 0) figures.error = `${figures.corrupted} reply(ies) did not match what was sent`;
    else if (figures.reordered > 0) figures.error = `${figures.reordered} reply(ies) arrived out of order`;
  }
  await closed(ws, CLOSE.normal);
  figures.server = await fetchServerStats(o.server, o.id);
  if (figures.error === "" && figures.server && figures.server.dropped > 0) {
    figures.error = `the server dropped ${figures.server.dropped} message(s) (send() returned 0)`;
  }
  return figures;
}

async function roundtrip(ws: WebSocket, codec: ClientCodec, o: SocketCaseOptions, f: SocketCaseFigures): Promise<void> {
  const n = o.messages.length;
  const now = o.clock.now;
  const oh = o.timerOverheadNs;
  const rtt = new Float64Array(n);
  const replies = new Replies(ws, o.clock, o.stallTimeoutMs, () => `${f.received} of ${n} replies`);
  const start = now();
  try {
    for (let i = 0; i < n; i++) {
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
      rtt[i] = (t3 - t0) * 1e6 - 3 * oh;
      if (!codec.matches(i, decoded)) f.corrupted++;
    }
  } finally {
    f.elapsedMs = now() - start;
    replies.dispose();
  }
  f.rttNs = rtt;
}

function stream(ws: WebSocket, codec: ClientCodec, o: SocketCaseOptions, f: SocketCaseFigures): Promise<void> {
  const n = o.messages.length;
  const now = o.clock.now;
  const oh = o.timerOverheadNs;
  const window = Math.max(1, Math.min(o.window, n));
  const inFlight = new InFlight(window);
  let next = 0;
  const batch: Encoded[] = new Array(window);
  const replies = new Replies(ws, o.clock, o.stallTimeoutMs, () => `${f.received} of ${n} replies (${inFlight.count} in flight)`);

  // Encodes a batch (timed as one interval), then sends it (untimed).
  const refill = (): void => {
    const k = Math.min(window - inFlight.count, n - next);
    if (k <= 0) return;
    const t0 = now();
    for (let j = 0; j < k; j++) batch[j] = codec.encode(next + j);
    f.serializeNs += (now() - t0) * 1e6 - oh;
    for (let j = 0; j < k; j++) {
      const encoded = batch[j]!;
      sendFrame(ws, encoded);
      f.bytesSent += byteLength(encoded);
      inFlight.push(next + j);
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


/** Messages sent and not yet answered, oldest first, as a ring of message indices. */
class InFlight {
  private readonly index: Int32Array;
  /** 1 where a later message's reply came before an older one's. */
  private readonly answered: Uint8Array;
  private head = 0;
  count = 0;

  constructor(private readonly size: number) {
    this.index = new Int32Array(size);
    this.answered = new Uint8Array(size);
  }

  push(message: number): void {
    this.index[(this.head + this.count) % this.size] = message;
    this.count++;
  }

  /**
   * Settles the slot of the message a reply `matches`: the oldest (in
   * order), a later one (reordered: its slot is answered early), or none
   * (corrupted: the oldest slot gives way, so the window keeps moving).
   */
  settle(matches: (message: number) => boolean): "in-order" | "reordered" | "corrupted" {
    if (this.count === 0) return "corrupted";
    if (matches(this.index[this.head]!)) {
      this.settleOldest();
      return "in-order";
    }
    for (let k = 1; k < this.count; k++) {
      const slot = (this.head + k) % this.size;
      if (this.answered[slot] === 0 && matches(this.index[slot]!)) {
        this.answered[slot] = 1;
        return "reordered";
      }
    }
    this.settleOldest();
    return "corrupted";
  }

  /** The oldest slot is answered; so are the next ones that were answered early. */
  private settleOldest(): void {
    do {
      this.answered[this.head] = 0;
      this.head = (this.head + 1) % this.size;
      this.count--;
    } while (this.count > 0 && this.answered[this.head] === 1);
  }
}
