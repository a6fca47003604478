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
import type { Message, PayloadName } from "../../protocols/messages.ts";
import { sameMessage } from "../../bench/harness/verify.ts";
import { createCustomBinary } from "../../custom-binary/index.ts";
import type { Encoded, Frame, PayloadCodec } from "../../protocols/codec.ts";
import { getCodec } from "../../protocols/registry.ts";
import { CLOSE, RAW_CODEC_NAME, STATS_PATH, frameOf, socketUrl, type ServerConnectionStats } from "../../protocols/socket/contract.ts";

export type SocketMode = "roundtrip" | "stream" | "fanout";

/** The standard WebSocket constructor (globalThis.WebSocket, or npm `ws`). */
export type WebSocketClass = new (url: string) => WebSocket;

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
  /** Client serialize / deserialize time summed over all messages, ns (0 for raw). */
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

/** What a message event's data is under binaryType "arraybuffer" (or a Node Buffer view). */
export type MessageData = string | ArrayBuffer | ArrayBufferView;

/** Bytes of a binary message, respecting byteOffset when a runtime hands over a view. */
export function toBytes(data: ArrayBuffer | ArrayBufferView): Uint8Array {
  if (data instanceof ArrayBuffer) return new Uint8Array(data);
  return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
}

/**
 * The encoder/decoder a client uses for a socket codec. `raw` sends each
 * message's custom-binary bytes, prepared before timing, and checks that the
 * echo is byte-identical.
 */
export interface ClientCodec {
  frame: Frame;
  /** Prepares message i for sending (timed as serialization). */
  encode(i: number): Encoded;
  /** Decodes a reply (timed as deserialization). */
  decode(data: MessageData): unknown;
  /** True when a decoded reply equals message i. */
  matches(i: number, decoded: unknown): boolean;
}

export function clientCodec(codec: string, payload: PayloadName, messages: readonly Message[]): ClientCodec {
  if (codec === RAW_CODEC_NAME) {
    const cb = createCustomBinary();
    const prepared = messages.map((m) => cb.encode(m));
    return {
      frame: "binary",
      encode: (i) => prepared[i]!,
      decode: (data) => (typeof data === "string" ? data : toBytes(data)),
      matches: (i, decoded) => sameBytes(prepared[i]!, decoded),
    };
  }
  const c = getCodec(codec);
  if (!c) throw new Error(`unknown codec '${codec}'`);
  const pc: PayloadCodec = c.forPayload(payload);
  return {
    frame: c.frame,
    encode: (i) => pc.encode(messages[i]!),
    decode: (data) => pc.decode(typeof data === "string" ? data : toBytes(data)),
    matches: (i, decoded) => sameMessage(messages[i]!, decoded),
  };
}

function sameBytes(a: Uint8Array, b: unknown): boolean {
  if (!(b instanceof Uint8Array) || a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** A string goes as a text frame, bytes as a binary frame. */
export function sendFrame(ws: WebSocket, data: Encoded): void {
  ws.send(data as string | ArrayBufferView<ArrayBuffer>);
}

export function byteLength(data: MessageData | Encoded): number {
  if (typeof data === "string") return utf8Bytes.encode(data).length;
  return data.byteLength;
}
const utf8Bytes = new TextEncoder();

/** Opens a socket; rejects with a clear message when the server cannot be reached. */
export function openSocket(WebSocketImpl: WebSocketClass, url: string, timeoutMs: number): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    let ws: WebSocket;
    try {
      ws = new WebSocketImpl(url);
    } catch (e) {
      reject(new Error(`cannot connect to ${url}: ${(e as Error).message}`));
      return;
    }
    ws.binaryType = "arraybuffer";
    const timer = setTimeout(() => {
      ws.close();
      reject(new Error(`cannot connect to ${url}: no answer within ${timeoutMs} ms`));
    }, timeoutMs);
    ws.onopen = () => {
      clearTimeout(timer);
      resolve(ws);
    };
    ws.onerror = (ev) => {
      clearTimeout(timer);
      const detail = (ev as { message?: string; error?: { message?: string } }).message ?? (ev as { error?: { message?: string } }).error?.message;
      reject(new Error(`cannot connect to ${url}${detail ? `: ${detail}` : " (connection refused or closed)"}`));
    };
    ws.onclose = (ev) => {
      clearTimeout(timer);
      reject(new Error(`cannot connect to ${url}: closed with ${ev.code}${ev.reason ? ` (${ev.reason})` : ""}`));
    };
  });
}

/** Resolves when the socket has closed (or at once if it already has). */
function closed(ws: WebSocket, code: number): Promise<void> {
  if (ws.readyState === 3) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, 2000);
    ws.onclose = () => {
      clearTimeout(timer);
      resolve();
    };
    if (ws.readyState !== 2) ws.close(code);
  });
}

/** The server's figures for a connection (fetched after it closed). */
export async function fetchServerStats(server: string, id: string): Promise<ServerConnectionStats | undefined> {
  try {
    const res = await fetch(new URL(STATS_PATH + encodeURIComponent(id), server));
    return res.ok ? ((await res.json()) as ServerConnectionStats) : undefined;
  } catch {
    return undefined;
  }
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

/**
 * Delivers replies in order, either one at a time (`next`, for roundtrip) or
 * to a handler (`onMessage`, for stream), and fails the loop when the socket
 * closes, errors, or stays silent for the stall timeout.
 */
class Replies {
  private queue: MessageData[] = [];
  private waiting: ((data: MessageData) => void) | undefined;
  private handler: ((data: MessageData) => void) | undefined;
  private fail: ((e: Error) => void) | undefined;
  private failure: Error | undefined;
  private lastActivity: number;
  private readonly watchdog: ReturnType<typeof setInterval>;

  constructor(ws: WebSocket, o: SocketCaseOptions, progress: () => string) {
    this.lastActivity = o.clock.now();
    ws.onmessage = (ev: MessageEvent) => {
      this.lastActivity = o.clock.now();
      const data = ev.data as MessageData;
      if (this.handler) this.handler(data);
      else if (this.waiting) {
        const w = this.waiting;
        this.waiting = undefined;
        w(data);
      } else this.queue.push(data);
    };
    ws.onclose = (ev: CloseEvent) =>
      this.abort(new Error(`the server closed the connection with ${ev.code}${ev.reason ? ` (${ev.reason})` : ""} after ${progress()}`));
    ws.onerror = () => this.abort(new Error(`connection error after ${progress()}`));
    this.watchdog = setInterval(
      () => {
        if (o.clock.now() - this.lastActivity > o.stallTimeoutMs) this.abort(new Error(`stalled: no reply for ${o.stallTimeoutMs} ms after ${progress()}`));
      },
      Math.max(50, Math.min(1000, o.stallTimeoutMs / 4)),
    );
  }

  /** Stream mode: every reply goes to `handler`; `onFail` hears of a failure. */
  onMessage(handler: (data: MessageData) => void, onFail: (e: Error) => void): void {
    this.fail = onFail;
    this.handler = handler;
    for (const data of this.queue.splice(0)) handler(data);
  }

  /** Roundtrip mode: the next reply. */
  next(): Promise<MessageData> {
    if (this.failure) return Promise.reject(this.failure);
    const queued = this.queue.shift();
    if (queued !== undefined) return Promise.resolve(queued);
    return new Promise((resolve, reject) => {
      this.waiting = resolve;
      this.fail = reject;
    });
  }

  private abort(e: Error): void {
    if (this.failure) return;
    this.failure = e;
    this.handler = undefined;
    this.waiting = undefined;
    clearInterval(this.watchdog);
    this.fail?.(e);
  }

  /** The loop is done: later events (the closing handshake) are not failures. */
  dispose(): void {
    clearInterval(this.watchdog);
    this.failure ??= new Error("finished");
    this.handler = undefined;
    this.waiting = undefined;
  }
}

async function roundtrip(ws: WebSocket, codec: ClientCodec, o: SocketCaseOptions, f: SocketCaseFigures): Promise<void> {
  const n = o.messages.length;
  const now = o.clock.now;
  const oh = o.timerOverheadNs;
  const rtt = new Float64Array(n);
  const replies = new Replies(ws, o, () => `${f.received} of ${n} replies`);
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
  // Sent but not yet answered, oldest first, as a ring of message indices.
  const inFlight = new Int32Array(window);
  let head = 0;
  let inFlightCount = 0;
  let next = 0;
  const batch: Encoded[] = new Array(window);
  const replies = new Replies(ws, o, () => `${f.received} of ${n} replies (${inFlightCount} in flight)`);

  // Encodes a batch (timed as one interval), then sends it (untimed).
  const refill = (): void => {
    const k = Math.min(window - inFlightCount, n - next);
    if (k <= 0) return;
    const t0 = now();
    for (let j = 0; j < k; j++) batch[j] = codec.encode(next + j);
    f.serializeNs += (now() - t0) * 1e6 - oh;
    for (let j = 0; j < k; j++) {
      const encoded = batch[j]!;
      sendFrame(ws, encoded);
      f.bytesSent += byteLength(encoded);
      inFlight[(head + inFlightCount) % window] = next + j;
      inFlightCount++;
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
      if (inFlightCount === 0) {
        f.corrupted++;
      } else if (codec.matches(inFlight[head]!, decoded)) {
        head = (head + 1) % window;
        inFlightCount--;
      } else {
        // Not the oldest message: a later one (reordered) or none of them (corrupted).
        let found = -1;
        for (let k = 1; k < inFlightCount; k++) {
          if (codec.matches(inFlight[(head + k) % window]!, decoded)) {
            found = k;
            break;
          }
        }
        if (found === -1) f.corrupted++;
        else f.reordered++;
        // Either way the oldest slot is settled, so the window keeps moving.
        head = (head + 1) % window;
        inFlightCount--;
      }
      if (f.received >= n) finish();
      // Refill in halves so serialization is timed over batches, not single calls.
      else if (inFlightCount <= window >> 1) refill();
    }, finish);
    refill();
  });
}
