/** The server's per-connection figures (served at /stats/ID) and where they are kept. */

import type { PayloadName } from "../messages.ts";
import { SLICE_FIELDS, type ServerConnectionStats, type ServerSlice } from "./contract.ts";

/** How many finished connections' stats are kept for /stats. */
const STATS_KEPT = 1000;

/** A connection's figures before its first message. */
export function newStats(id: string, codec: string, payload: PayloadName, timerOverheadNs: number): ServerConnectionStats {
  return {
    id,
    codec,
    payload,
    messages: 0,
    bytesIn: 0,
    bytesOut: 0,
    decodeNs: 0,
    encodeNs: 0,
    sendNs: 0,
    timerOverheadNs,
    backpressure: 0,
    dropped: 0,
    published: 0,
    publishBackpressure: 0,
    publishDropped: 0,
    cpuMs: 0,
    wakeups: 0,
    rssPeakBytes: 0,
    openMs: 0,
    closeCode: null,
    closeReason: "",
    error: "",
  };
}

/** Stats by connection id; past STATS_KEPT the oldest go first. */
export class StatsStore {
  private readonly byId = new Map<string, ServerConnectionStats>();

  keep(s: ServerConnectionStats): void {
    this.byId.set(s.id, s);
    if (this.byId.size > STATS_KEPT) this.byId.delete(this.byId.keys().next().value!);
  }

  get(id: string): ServerConnectionStats | undefined {
    return this.byId.get(id);
  }
}

/** What the connection's figures were at its last slice mark (all zero before the first). */
export type SliceStart = ServerSlice;

export function sliceStart(): SliceStart {
  return { messages: 0, decodeNs: 0, encodeNs: 0, sendNs: 0, cpuMs: 0, wakeups: 0 };
}

/** The figures since `start` (the last mark), which then moves up to now. */
export function takeSlice(stats: ServerConnectionStats, start: SliceStart): ServerSlice {
  const slice = sliceStart();
  for (const k of SLICE_FIELDS) {
    slice[k] = stats[k] - start[k];
    start[k] = stats[k];
  }
  return slice;
}
