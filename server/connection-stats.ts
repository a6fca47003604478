/** The server's per-connection figures (served at /stats/ID) and where they are kept. */

import type { PayloadName } from "../protocols/messages.ts";
import {
  INTERRUPTION_FACTOR,
  INTERRUPTION_FLOOR_NS,
  type ServerConnectionStats,
  type ServerSlice,
} from "../protocols/contract.ts";
import type { SchedulerReading } from "./stolen-time.ts";

/** How many finished connections' stats are kept for /stats. */
const STATS_KEPT = 1000;

/** A connection's figures before its first message. */
export function newStats(
  id: string,
  codec: string,
  payload: PayloadName,
  timerOverheadNs: number,
): ServerConnectionStats {
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
    unrouted: 0,
    cpuMs: 0,
    wakeups: 0,
    rssPeakBytes: 0,
    openMs: 0,
    closeCode: null,
    closeReason: "",
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

/** The running totals a slice is the difference of. */
const TOTALS = [
  "messages",
  "decodeNs",
  "encodeNs",
  "sendNs",
  "cpuMs",
  "wakeups",
] as const satisfies readonly (keyof ServerConnectionStats & keyof ServerSlice)[];

/** Messages of one slice whose times are kept; a connection that never marks a slice stops recording there. */
const SLICE_TIMES_MAX = 1 << 20;

/**
 * One connection's slice in progress: where its totals stood at the last mark, and every
 * message's decode + encode time since. At the mark, a message past INTERRUPTION_FACTOR times
 * the slice's median was interrupted; of the interrupted messages' time over the median, the
 * share the scheduler took for other processes (stolen-time.ts: what it took over the slice, in
 * the proportion of the slice's runnable time the timed calls fill) is taken off, never more than
 * all of it; the rest is pauses the codec caused (collections, mostly), and counts.
 */
export class SliceRecord {
  private readonly start: Pick<ServerSlice, (typeof TOTALS)[number]> = {
    messages: 0,
    decodeNs: 0,
    encodeNs: 0,
    sendNs: 0,
    cpuMs: 0,
    wakeups: 0,
  };
  private times = new Float64Array(256);
  private count = 0;

  /** `stolen`: the server's reading of what the scheduler took (absent: nothing is taken off). */
  constructor(private readonly stolen?: SchedulerReading) {
    stolen?.since();
  }

  /** One message's decode + encode, ns. */
  add(ns: number): void {
    if (this.count === this.times.length) {
      if (this.count >= SLICE_TIMES_MAX) return;
      const grown = new Float64Array(this.count * 2);
      grown.set(this.times);
      this.times = grown;
    }
    this.times[this.count++] = ns;
  }

  /** The figures since the last mark, which moves up to now. */
  take(stats: ServerConnectionStats): ServerSlice {
    const totals = { ...this.start };
    for (const k of TOTALS) {
      totals[k] = stats[k] - this.start[k];
      this.start[k] = stats[k];
    }
    const times = this.times.subarray(0, this.count).sort();
    const median = times.length > 0 ? times[times.length >> 1]! : 0;
    const limit = INTERRUPTION_FACTOR * Math.max(INTERRUPTION_FLOOR_NS, median);
    let kept = 0;
    let keptNs = 0;
    for (let i = 0; i < times.length && times[i]! <= limit; i++, kept++) keptNs += times[i]!;
    let excessNs = 0;
    for (let i = kept; i < times.length; i++) excessNs += times[i]! - median;
    const timedNs = totals.decodeNs + totals.encodeNs;
    const taken = this.stolen?.since();
    const schedulerNs =
      taken && taken.runnableNs > 0
        ? Math.min(excessNs, taken.stolenNs * Math.min(1, Math.max(0, timedNs) / taken.runnableNs))
        : 0;
    this.count = 0;
    return { ...totals, kept, keptNs, schedulerNs, pausedNs: excessNs - schedulerNs };
  }
}
