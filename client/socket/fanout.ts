/**
 * `fanout` mode: one publisher, N subscribers, through Bun's pub/sub. The
 * server decodes each published message, encodes it again and publishes it
 * to the topic; every subscriber decodes every message and checks it
 * against what was sent, in order. The publisher hears its own messages
 * too, which gives it a bounded window (flow control) without a separate
 * acknowledgement.
 *
 * Against a cluster (`cluster`: each process's own URL) the publisher is on
 * the first process and subscriber k on process (k + 1) mod N, so every
 * run crosses the backplane the same way. Each delivery's time from its
 * message's send is kept (the case's rtt figures in this mode), and every
 * process's CPU and the backplane's traffic are read before and after the
 * publishing (cluster-figures.ts).
 */

import type { ClientFigures } from "../harness/socket-results.ts";
import { CLOSE, socketUrl } from "../../protocols/contract.ts";
import { clientCodec, type ClientCodec, type MessageData } from "./client-codec.ts";
import { byteLength, closedLine, fetchServerStats, openSocket, sendFrame } from "./client-connection.ts";
import { Watchdog } from "./reply-queue.ts";
import {
  emptyFigures,
  processesOf,
  processFor,
  shortTopic,
  viaLink,
  type SocketCaseFigures,
  type SocketCaseOptions,
} from "./socket-case.ts";
import { ClientError } from "../client-errors.ts";
import { clusterRun, readCluster } from "./cluster-figures.ts";

/** A socket case's options (its mode is fanout), and how many subscribers. */
export type FanoutOptions = Omit<SocketCaseOptions, "mode"> & { subscribers: number };

/** Where subscriber k connects (the publisher is -1, so on the first process; subscriber 0 on the next). */
const placeOf = (o: FanoutOptions, k: number): string => processFor(o, k + 1);

export interface FanoutFigures {
  /** sent: published messages; received, lost, corrupted, reordered: summed over subscribers. */
  figures: SocketCaseFigures;
  perSubscriber: ClientFigures[];
}

/** Per-subscriber progress: messages received, and when the last one came (ms after the start); when each message was sent, and each delivery's time since (ns). */
interface Deliveries {
  got: Int32Array;
  doneMs: Float64Array;
  sentAt: Float64Array;
  latencyNs: Float64Array;
}

/** Opens the subscribers, waits until the server knows each one, then opens the publisher. */
async function openFanout(o: FanoutOptions, topic: string, sockets: WebSocket[]): Promise<WebSocket> {
  for (let k = 0; k < o.subscribers; k++) {
    sockets.push(
      await openSocket(
        o.WebSocket,
        socketUrl(viaLink(o, placeOf(o, k)), o.codec, o.payload, `${o.id}-s${k}`, { role: "subscriber", topic }),
        o.stallTimeoutMs,
      ),
    );
  }
  // Subscribed means the server has the connection (it subscribes on open), and has not closed it.
  for (let k = 0; k < o.subscribers; k++) {
    const stats = await fetchServerStats(placeOf(o, k), `${o.id}-s${k}`);
    if (!stats) throw new ClientError("PROTOCOL", `subscriber ${k} is not known to the server`);
    if (stats.error !== undefined)
      throw new ClientError("CLOSED", `subscriber ${k} was closed by the server: ${stats.error}`);
  }
  return openSocket(
    o.WebSocket,
    socketUrl(viaLink(o, placeOf(o, -1)), o.codec, o.payload, `${o.id}-p`, { role: "publisher", topic }),
    o.stallTimeoutMs,
  );
}

/**
 * Publishes every message within the window (the publisher's own echoes
 * are its acknowledgements) until every subscriber has every message.
 */
function publishAll(
  pub: WebSocket,
  subscribers: WebSocket[],
  codec: ClientCodec,
  o: FanoutOptions,
  figures: SocketCaseFigures,
  d: Deliveries,
): Promise<void> {
  const n = o.messages.length;
  const now = o.clock.now;
  const window = Math.max(1, Math.min(o.window, n));
  return new Promise<void>((resolve, reject) => {
    let acked = 0;
    let next = 0;
    let finished = false;
    const start = now();
    const watchdog = new Watchdog(o.clock, o.stallTimeoutMs, () =>
      finish(
        new ClientError("STALLED", `stalled: nothing for ${o.stallTimeoutMs} ms after ${acked} of ${n} published`),
      ),
    );
    const finish = (e?: Error): void => {
      if (finished) return;
      finished = true;
      watchdog.stop();
      figures.elapsedMs = now() - start;
      if (e) reject(e);
      else resolve();
    };
    const complete = (): boolean => acked >= n && d.got.every((g) => g >= n);
    const refill = (): void => {
      const k = Math.min(window - (next - acked), n - next);
      if (k <= 0) return;
      const t0 = now();
      const batch = Array.from({ length: k }, (_, j) => codec.encode(next + j));
      figures.serializeNs += (now() - t0) * 1e6 - o.timerOverheadNs;
      for (let j = 0; j < k; j++) {
        const e = batch[j]!;
        d.sentAt[next + j] = now();
        sendFrame(pub, e);
        figures.bytesSent += byteLength(e);
      }
      next += k;
      figures.sent += k;
    };
    pub.onmessage = () => {
      watchdog.touch();
      acked++;
      if (complete()) finish();
      else if (next - acked <= window >> 1) refill();
    };
    subscribers.forEach((ws, k) => {
      ws.onmessage = (ev: MessageEvent) => {
        watchdog.touch();
        const i = d.got[k]!;
        const t0 = now();
        if (i < n) d.latencyNs[k * n + i] = (t0 - d.sentAt[i]!) * 1e6;
        const decoded = codec.decode(ev.data as MessageData);
        figures.deserializeNs += (now() - t0) * 1e6 - o.timerOverheadNs;
        figures.bytesReceived += byteLength(ev.data as MessageData);
        if (i >= n || !codec.matches(i, decoded)) figures.corrupted++;
        d.got[k] = i + 1;
        if (d.got[k] === n) d.doneMs[k] = now() - start;
        if (complete()) finish();
      };
      // Says how many it missed: what was published so far, less what it received.
      ws.onclose = (ev: CloseEvent) =>
        finish(
          new ClientError(
            "CLOSED",
            `${closedLine(ev, `subscriber ${k} closed`, `subscriber ${k}`)}, having received ${d.got[k]} of ${next} published (missed ${next - d.got[k]!})`,
          ),
        );
    });
    pub.onclose = (ev: CloseEvent) =>
      finish(new ClientError("CLOSED", closedLine(ev, "the publisher was closed", "the publisher")));
    refill();
  });
}

/** Deliveries counted, losses and drops turned into the case's error. */
function account(figures: SocketCaseFigures, subscribers: number, d: Deliveries): ClientFigures[] {
  figures.received = d.got.reduce((a, b) => a + b, 0);
  figures.lost = Math.max(0, figures.sent * subscribers - figures.received);
  const stats = figures.server;
  if (figures.error === undefined) {
    if (figures.lost > 0) figures.error = `${figures.lost} of ${figures.sent * subscribers} deliveries lost`;
    else if (figures.corrupted > 0) figures.error = `${figures.corrupted} deliveries did not match what was published`;
    else if (stats && stats.publishDropped > 0) figures.error = `publish() dropped ${stats.publishDropped} message(s)`;
  }
  return Array.from(d.got, (g, k) => ({
    sent: figures.sent,
    received: g,
    lost: Math.max(0, figures.sent - g),
    msgsPerS: d.doneMs[k]! > 0 ? (g / d.doneMs[k]!) * 1000 : NaN,
  }));
}

export async function runFanoutCase(o: FanoutOptions): Promise<FanoutFigures> {
  const codec = clientCodec(o.catalog, o.codec, o.payload, o.messages, o.ownRoundTrip);
  const figures: SocketCaseFigures = emptyFigures();
  const n = o.messages.length;
  const deliveries: Deliveries = {
    got: new Int32Array(o.subscribers),
    doneMs: new Float64Array(o.subscribers),
    sentAt: new Float64Array(n),
    latencyNs: new Float64Array(n * o.subscribers),
  };
  const sockets: WebSocket[] = [];
  let publisher: WebSocket | undefined;
  const cpu0 = o.cpuMs?.() ?? NaN;
  const processes = processesOf(o);
  try {
    publisher = await openFanout(o, shortTopic("t", o.id), sockets);
    figures.extensions = publisher.extensions ?? "";
    // A socket closed while the processes are read fails the run by its reason, not by a stall.
    let early: string | undefined;
    sockets.forEach(
      (ws, k) =>
        (ws.onclose = (ev) =>
          (early ??= `${closedLine(ev, `subscriber ${k} closed`, `subscriber ${k}`)} before publishing began`)),
    );
    publisher.onclose = (ev) =>
      (early ??= `${closedLine(ev, "the publisher was closed", "the publisher")} before publishing began`);
    const before = await readCluster(processes);
    if (early !== undefined) throw new ClientError("CLOSED", early);
    await publishAll(publisher, sockets, codec, o, figures, deliveries);
    figures.cluster = clusterRun(before, await readCluster(processes), processes.length);
    figures.rttNs = deliveries.latencyNs;
  } catch (e) {
    figures.error = (e as Error).message;
  } finally {
    for (const ws of [...sockets, ...(publisher ? [publisher] : [])]) {
      ws.onclose = null;
      ws.close(CLOSE.normal);
    }
  }
  figures.clientCpuMs = o.cpuMs ? o.cpuMs() - cpu0 : NaN;
  figures.server = publisher ? await fetchServerStats(placeOf(o, -1), `${o.id}-p`) : undefined;
  return { figures, perSubscriber: account(figures, o.subscribers, deliveries) };
}
