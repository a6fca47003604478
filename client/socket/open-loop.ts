/**
 * Latency mode's loop: an open loop. Messages go out on a fixed schedule (message k at
 * start + k / rate) whether or not replies have come back, with at most `window` in flight, so a
 * slow reply delays the messages behind it only as much as it would delay a real application's.
 * Each reply's latency is taken two ways: from when its message was due (corrected: what a user
 * of a service sending at that rate sees, stalls included) and from when it actually went out
 * (service time: what a closed loop measures). A message that went out more than one interval
 * (at least 1 ms) after it was due is late, and counted: the window was full, or the client could
 * not keep up. Every reply is checked as in stream mode.
 *
 * Timers fire in milliseconds, so the loop sleeps until about a millisecond (in a browser, five)
 * before the next message is due and then yields to the event loop (where replies arrive) until it is.
 */

import type { Encoded } from "../../protocols/codec.ts";
import type { ClientCodec } from "./client-codec.ts";
import { byteLength, sendFrame } from "./client-connection.ts";
import { InFlight } from "./in-flight.ts";
import { Replies } from "./reply-queue.ts";
import type { SocketCaseFigures, SocketCaseOptions } from "./socket-case.ts";

/**
 * A turn of the event loop: replies are handled, then the loop goes on. Browsers have no
 * setImmediate, and clamp a chain of setTimeout(0) to 4 ms, so there a MessageChannel message
 * takes the turn.
 */
function turnYielder(): (f: () => void) => void {
  if (typeof setImmediate === "function") return (f) => void setImmediate(f);
  if (typeof MessageChannel !== "function") return (f) => void setTimeout(f, 0);
  const channel = new MessageChannel();
  let waiting: (() => void)[] = [];
  channel.port1.onmessage = () => {
    const run = waiting;
    waiting = [];
    for (const f of run) f();
  };
  return (f) => {
    waiting.push(f);
    if (waiting.length === 1) channel.port2.postMessage(0);
  };
}
const yieldTurn = turnYielder();
/** How long before a send the loop stops sleeping on a timer and takes turns until it is due: browsers clamp timers set from timers to 4 ms. */
const TIMER_MARGIN_MS = typeof setImmediate === "function" ? 1 : 5;

/** Checks a reply against the messages in flight; the index of the message it answers, or -1. */
function settle(inFlight: InFlight, codec: ClientCodec, decoded: unknown, f: SocketCaseFigures): number {
  let answered = -1;
  const settled = inFlight.settle((i) => {
    const ok = codec.matches(i, decoded);
    if (ok) answered = i;
    return ok;
  });
  if (settled === "reordered") f.reordered++;
  else if (settled === "corrupted") f.corrupted++;
  return answered;
}

/**
 * The span `sentAt.length` messages were sent over at the pace the client kept: n times the slope
 * of a least-squares line through the send times (ms per message). The achieved rate is n over
 * it. A client that falls behind steepens the whole line; one late message, at the end or
 * anywhere, moves it little (lateness is counted on its own, as late sends), where the last
 * send's time alone would have put a quarter-second step 4% short for a 10 ms hiccup at its end.
 */
export function fittedSpanMs(sentAt: Float64Array, intervalMs: number): number {
  const n = sentAt.length;
  if (n < 2) return intervalMs * n;
  const meanK = (n - 1) / 2;
  let meanT = 0;
  for (let k = 0; k < n; k++) meanT += sentAt[k]!;
  meanT /= n;
  let num = 0;
  let den = 0;
  for (let k = 0; k < n; k++) {
    num += (k - meanK) * (sentAt[k]! - meanT);
    den += (k - meanK) * (k - meanK);
  }
  return n * (num / den);
}

export function openLoop(
  ws: WebSocket,
  codec: ClientCodec,
  o: SocketCaseOptions,
  range: { start: number; count: number },
  f: SocketCaseFigures,
): Promise<void> {
  const { start: first, count: n } = range;
  const now = o.clock.now;
  const oh = o.timerOverheadNs;
  if (n === 0) return Promise.resolve();
  const intervalMs = 1000 / (o.rate ?? 1000);
  const lateMs = Math.max(1, intervalMs);
  const window = Math.max(1, Math.min(o.window, n));
  const inFlight = new InFlight(window);
  const due = new Float64Array(n);
  const sentAt = new Float64Array(n);
  const corrected = new Float64Array(n);
  const service = new Float64Array(n);
  let next = 0;
  let done = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const replies = new Replies(
    ws,
    o.clock,
    o.stallTimeoutMs,
    () => `${f.received} of ${n} replies (${inFlight.count} in flight, ${next} sent)`,
  );

  return new Promise<void>((resolve, reject) => {
    const startMs = now();
    const finish = (e?: Error): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      f.elapsedMs = now() - startMs;
      replies.dispose();
      if (e) reject(e);
      else resolve();
    };

    /** Sends every message that is due, as far as the window allows; then waits for the next. */
    const pump = (): void => {
      timer = undefined;
      if (done) return;
      while (next < n && inFlight.count < window && startMs + next * intervalMs <= now()) send(next++);
      if (next >= n || inFlight.count >= window) return; // the next reply calls pump again
      const wait = startMs + next * intervalMs - now();
      if (wait > TIMER_MARGIN_MS + 1) timer = setTimeout(pump, wait - TIMER_MARGIN_MS);
      else yieldTurn(pump);
    };

    const send = (k: number): void => {
      const t0 = now();
      const encoded: Encoded = codec.encode(first + k);
      const t1 = now();
      f.serializeNs += (t1 - t0) * 1e6 - oh;
      due[k] = startMs + k * intervalMs;
      sentAt[k] = t1;
      if (t1 - due[k]! > lateMs) f.late++;
      sendFrame(ws, encoded);
      f.bytesSent += byteLength(encoded);
      f.sent++;
      inFlight.push(first + k);
      f.busyNs += (now() - t0) * 1e6;
    };

    replies.onMessage((data) => {
      const arrived = now();
      const t0 = now();
      const decoded = codec.decode(data);
      f.deserializeNs += (now() - t0) * 1e6 - oh;
      f.received++;
      f.bytesReceived += byteLength(data);
      const answered = settle(inFlight, codec, decoded, f) - first;
      if (answered >= 0) {
        corrected[answered] = (arrived - due[answered]!) * 1e6;
        service[answered] = (arrived - sentAt[answered]!) * 1e6;
      }
      f.busyNs += (now() - arrived) * 1e6;
      if (f.received >= n) {
        f.sendingMs = fittedSpanMs(sentAt, intervalMs);
        f.rttNs = corrected;
        f.serviceNs = service;
        finish();
      } else if (timer === undefined && next < n) pump();
    }, finish);
    pump();
  });
}
