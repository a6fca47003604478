/**
 * `fanout` mode: one publisher, N subscribers, through Bun's pub/sub. The
 * server decodes each published message, encodes it again and publishes it
 * to the topic; every subscriber decodes every message and checks it
 * against what was sent, in order. The publisher hears its own messages
 * too, which gives it a bounded window (flow control) without a separate
 * acknowledgement.
 */

import type { ClientFigures } from "../../bench/harness/results.ts";
import { CLOSE, socketUrl } from "../../protocols/socket/contract.ts";
import { byteLength, clientCodec, emptyFigures, fetchServerStats, openSocket, sendFrame, type MessageData, type SocketCaseFigures, type SocketCaseOptions } from "./runner.ts";

/** A socket case's options (its mode is fanout), and how many subscribers. */
export type FanoutOptions = Omit<SocketCaseOptions, "mode"> & { subscribers: number };

export interface FanoutFigures {
  /** sent: published messages; received, lost, corrupted, reordered: summed over subscribers. */
  figures: SocketCaseFigures;
  perSubscriber: ClientFigures[];
  publishBackpressure: number;
  publishDropped: number;
}

export async function runFanoutCase(o: FanoutOptions): Promise<FanoutFigures> {
  const n = o.messages.length;
  const now = o.clock.now;
  const codec = clientCodec(o.codec, o.payload, o.messages);
  const topic = `t-${o.id}`;
  const figures: SocketCaseFigures = emptyFigures();
  const got = new Int32Array(o.subscribers);
  const done = new Float64Array(o.subscribers);
  const sockets: WebSocket[] = [];
  let publisher: WebSocket | undefined;
  const cpu0 = o.cpuMs?.() ?? NaN;
  try {
    for (let k = 0; k < o.subscribers; k++) {
      sockets.push(await openSocket(o.WebSocket, socketUrl(o.server, o.codec, o.payload, `${o.id}-s${k}`, { role: "subscriber", topic }), o.stallTimeoutMs));
    }
    // Subscribed means the server has the connection (it subscribes on open).
    for (let k = 0; k < o.subscribers; k++) {
      if (!(await fetchServerStats(o.server, `${o.id}-s${k}`))) throw new Error(`subscriber ${k} is not known to the server`);
    }
    publisher = await openSocket(o.WebSocket, socketUrl(o.server, o.codec, o.payload, `${o.id}-p`, { role: "publisher", topic }), o.stallTimeoutMs);
    figures.extensions = publisher.extensions ?? "";
    const pub = publisher;
    const window = Math.max(1, Math.min(o.window, n));
    await new Promise<void>((resolve, reject) => {
      let acked = 0;
      let next = 0;
      let last = now();
      let finished = false;
      const start = now();
      const finish = (e?: Error): void => {
        if (finished) return;
        finished = true;
        clearInterval(watchdog);
        figures.elapsedMs = now() - start;
        if (e) reject(e);
        else resolve();
      };
      const complete = (): boolean => acked >= n && got.every((g) => g >= n);
      const refill = (): void => {
        const k = Math.min(window - (next - acked), n - next);
        if (k <= 0) return;
        const t0 = now();
        const batch = Array.from({ length: k }, (_, j) => codec.encode(next + j));
        figures.serializeNs += (now() - t0) * 1e6 - o.timerOverheadNs;
        for (const e of batch) {
          sendFrame(pub, e);
          figures.bytesSent += byteLength(e);
        }
        next += k;
        figures.sent += k;
      };
      pub.onmessage = () => {
        last = now();
        acked++;
        if (complete()) finish();
        else if (next - acked <= window >> 1) refill();
      };
      sockets.forEach((ws, k) => {
        ws.onmessage = (ev: MessageEvent) => {
          last = now();
          const i = got[k]!;
          const t0 = now();
          const decoded = codec.decode(ev.data as MessageData);
          figures.deserializeNs += (now() - t0) * 1e6 - o.timerOverheadNs;
          figures.bytesReceived += byteLength(ev.data as MessageData);
          if (i >= n || !codec.matches(i, decoded)) figures.corrupted++;
          got[k] = i + 1;
          if (got[k] === n) done[k] = now() - start;
          if (complete()) finish();
        };
        ws.onclose = (ev: CloseEvent) => finish(new Error(`subscriber ${k} closed with ${ev.code}${ev.reason ? ` (${ev.reason})` : ""}`));
      });
      pub.onclose = (ev: CloseEvent) => finish(new Error(`the publisher was closed with ${ev.code}${ev.reason ? ` (${ev.reason})` : ""}`));
      const watchdog = setInterval(() => {
        if (now() - last > o.stallTimeoutMs) finish(new Error(`stalled: nothing for ${o.stallTimeoutMs} ms after ${acked} of ${n} published`));
      }, Math.max(50, Math.min(1000, o.stallTimeoutMs / 4)));
      refill();
    });
  } catch (e) {
    figures.error = (e as Error).message;
  } finally {
    for (const ws of [...sockets, ...(publisher ? [publisher] : [])]) {
      ws.onclose = null;
      ws.close(CLOSE.normal);
    }
  }
  figures.clientCpuMs = o.cpuMs ? o.cpuMs() - cpu0 : NaN;
  figures.received = got.reduce((a, b) => a + b, 0);
  figures.lost = Math.max(0, figures.sent * o.subscribers - figures.received);
  const stats = publisher ? await fetchServerStats(o.server, `${o.id}-p`) : undefined;
  figures.server = stats;
  if (figures.error === "") {
    if (figures.lost > 0) figures.error = `${figures.lost} of ${figures.sent * o.subscribers} deliveries lost`;
    else if (figures.corrupted > 0) figures.error = `${figures.corrupted} deliveries did not match what was published`;
    else if (stats && stats.publishDropped > 0) figures.error = `publish() dropped ${stats.publishDropped} message(s)`;
  }
  const perSubscriber = Array.from(got, (g, k) => ({
    sent: figures.sent,
    received: g,
    lost: Math.max(0, figures.sent - g),
    msgsPerS: done[k]! > 0 ? (g / done[k]!) * 1000 : NaN,
  }));
  return { figures, perSubscriber, publishBackpressure: stats?.publishBackpressure ?? 0, publishDropped: stats?.publishDropped ?? 0 };
}
