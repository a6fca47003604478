/**
 * `--clients N`: one case over N concurrent connections, spread over worker
 * threads (one per core), started together. Figures come back per client;
 * `mergeFigures` sums them into one case figure, with the wall time from
 * the first start to the last reply.
 */

import type { PayloadName } from "../../protocols/messages.ts";
import type { ClientFigures } from "../harness/socket-results.ts";
import type { Settings, SocketMode } from "../harness/settings.ts";
import type { ServerConnectionStats } from "../../protocols/contract.ts";
import type { SocketCaseFigures } from "./socket-case.ts";
import { ClientError } from "../client-errors.ts";

/** One case for a worker: which case, the run settings it needs, and its share of the connections. */
export interface ClientJob
  extends Pick<
    Settings,
    | "seed"
    | "fixed"
    | "userMessages"
    | "userProto"
    | "codecModules"
    | "allowLossy"
    | "equal"
    | "window"
    | "stallTimeoutMs"
  > {
  /** Latency mode: messages per second per connection. */
  rate: number;
  server: string;
  /** --link: the address of the link in front of the server (SocketCaseOptions.linkVia). */
  linkVia?: Readonly<Record<string, string>>;
  codec: string;
  payload: PayloadName;
  mode: SocketMode;
  timerOverheadNs: number;
  /** Each connection: its index among the clients, its id, and how many messages it sends. */
  connections: { index: number; id: string; count: number }[];
}

export class ClientWorkers {
  private readonly workers: Worker[];

  constructor(count: number) {
    this.workers = Array.from({ length: count }, () => new Worker(new URL("./worker.ts", import.meta.url).href));
  }

  /**
   * Runs one case over `clients` connections that share its `total`
   * messages (the first `total % clients` send one more), so a case moves
   * the same number of messages whatever the client count.
   */
  async run(
    base: Omit<ClientJob, "connections">,
    clients: number,
    total: number,
    idPrefix: string,
  ): Promise<SocketCaseFigures[]> {
    const shares: ClientJob["connections"][] = this.workers.map(() => []);
    const each = Math.floor(total / clients);
    for (let i = 0; i < clients; i++) {
      const count = each + (i < total % clients ? 1 : 0);
      if (count > 0) shares[i % this.workers.length]!.push({ index: i, id: `${idPrefix}-c${i}`, count });
    }
    const parts = await Promise.all(
      this.workers.map(
        (w, k) =>
          new Promise<SocketCaseFigures[]>((resolve, reject) => {
            if (shares[k]!.length === 0) return resolve([]);
            w.onmessage = (ev: MessageEvent<SocketCaseFigures[]>) => resolve(ev.data);
            w.onerror = (ev) => reject(new ClientError("WORKER", `client worker failed: ${ev.message}`));
            w.postMessage({ ...base, connections: shares[k]! } satisfies ClientJob);
          }),
      ),
    );
    return parts.flat();
  }

  terminate(): void {
    for (const w of this.workers) w.terminate();
  }
}

/** One figure for the case: counts and times summed, wall time given, the first error kept. */
export function mergeFigures(
  all: SocketCaseFigures[],
  wallMs: number,
): { merged: SocketCaseFigures; perClient: ClientFigures[] } {
  const sum = (pick: (f: SocketCaseFigures) => number): number => all.reduce((acc, f) => acc + pick(f), 0);
  const rtt = joined(all.map((f) => f.rttNs));
  const serverSum = (pick: (x: ServerConnectionStats) => number): number =>
    all.reduce((n, f) => n + (f.server ? pick(f.server) : 0), 0);
  const failed = all.find((f) => f.error !== undefined);
  const merged: SocketCaseFigures = {
    sent: sum((f) => f.sent),
    received: sum((f) => f.received),
    lost: sum((f) => f.lost),
    reordered: sum((f) => f.reordered),
    corrupted: sum((f) => f.corrupted),
    elapsedMs: wallMs,
    serializeNs: sum((f) => f.serializeNs),
    deserializeNs: sum((f) => f.deserializeNs),
    rttNs: rtt,
    serviceNs: joined(all.map((f) => f.serviceNs)),
    late: sum((f) => f.late),
    // The clients send at the same time: the rate is achieved over the longest span.
    sendingMs: Math.max(0, ...all.map((f) => f.sendingMs)),
    busyNs: sum((f) => f.busyNs),
    bytesSent: sum((f) => f.bytesSent),
    bytesReceived: sum((f) => f.bytesReceived),
    extensions: all[0]?.extensions ?? "",
    // Worker threads share the process's CPU counter: the largest reading covers them all.
    clientCpuMs: Math.max(...all.map((f) => f.clientCpuMs)),
    server: all[0]?.server && {
      ...all[0].server,
      messages: serverSum((x) => x.messages),
      decodeNs: serverSum((x) => x.decodeNs),
      encodeNs: serverSum((x) => x.encodeNs),
      backpressure: serverSum((x) => x.backpressure),
      dropped: serverSum((x) => x.dropped),
      // The server charges its CPU to whichever connection is busy: together they hold all of it.
      cpuMs: serverSum((x) => x.cpuMs),
      // One server process: its highest sample while any of them was busy.
      rssPeakBytes: Math.max(0, ...all.map((f) => f.server?.rssPeakBytes ?? 0)),
    },
    ...(failed ? { error: `client ${all.indexOf(failed)}: ${failed.error}` } : {}),
  };
  const perClient = all.map((f) => ({
    sent: f.sent,
    received: f.received,
    lost: f.lost,
    msgsPerS: f.elapsedMs > 0 ? (f.received / f.elapsedMs) * 1000 : NaN,
  }));
  return { merged, perClient };
}

/** Every client's samples in one array (undefined when none has any). */
function joined(parts: (Float64Array | undefined)[]): Float64Array | undefined {
  const some = parts.filter((x): x is Float64Array => x !== undefined);
  if (some.length === 0) return undefined;
  const out = new Float64Array(some.reduce((n, r) => n + r.length, 0));
  let at = 0;
  for (const r of some) {
    out.set(r, at);
    at += r.length;
  }
  return out;
}
