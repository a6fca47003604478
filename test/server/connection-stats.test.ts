/** A connection's slice figures: the totals since the last mark, the messages not interrupted, and what the scheduler took from the interrupted ones. */
import { describe, expect, it } from "vitest";
import {
  INTERRUPTION_FACTOR,
  INTERRUPTION_FLOOR_NS,
  type ServerConnectionStats,
  type ServerSlice,
} from "../../protocols/contract.ts";
import { newStats, SliceRecord } from "../../server/connection-stats.ts";
import type { SchedulerReading } from "../../server/stolen-time.ts";

/** Readings as the scheduler would give them, one per slice mark (the first when the record is made). */
function readings(...slices: { stolenNs: number; runnableNs: number }[]): SchedulerReading {
  const queue = [{ stolenNs: 0, runnableNs: 0 }, ...slices];
  return { since: () => queue.shift()! };
}

/** A slice of four 4 µs messages and one of 104 µs (100 µs over the median), 120 µs timed in all, marked. */
function oneSlowMessage(slice: SliceRecord, stats: ServerConnectionStats): ServerSlice {
  const times = [4000, 4000, 4000, 4000, 104_000];
  for (const ns of times) slice.add(ns);
  stats.messages += times.length;
  stats.decodeNs += 120_000;
  return slice.take(stats);
}

describe("SliceRecord", () => {
  it("gives each slice the totals since the last mark, then starts again", () => {
    const stats = newStats("a", "json", "small", 40);
    const slice = new SliceRecord();
    stats.messages = 3;
    stats.decodeNs = 300;
    stats.encodeNs = 150;
    stats.cpuMs = 2;
    for (const ns of [140, 150, 160]) slice.add(ns);
    expect(slice.take(stats)).toEqual({
      messages: 3,
      decodeNs: 300,
      encodeNs: 150,
      sendNs: 0,
      cpuMs: 2,
      wakeups: 0,
      kept: 3,
      keptNs: 450,
      schedulerNs: 0,
      pausedNs: 0,
    });
    stats.messages = 5;
    stats.decodeNs = 500;
    slice.add(100);
    slice.add(100);
    const second = slice.take(stats);
    expect(second.messages).toBe(2);
    expect(second.decodeNs).toBe(200);
    expect(second.cpuMs).toBe(0);
    expect(second.kept).toBe(2);
  });

  it("leaves out a message that took more than ten times the slice's median: an interruption, not the codec", () => {
    const stats = newStats("a", "json", "large", 40);
    const slice = new SliceRecord();
    // Median 4,100 ns: 41,001 is past ten times it.
    const times = [4000, 4100, 3900, 4200, 4000, 4100 * INTERRUPTION_FACTOR + 1, 600_000];
    for (const ns of times) slice.add(ns);
    stats.messages = times.length;
    const s = slice.take(stats);
    expect(s.kept).toBe(5);
    expect(s.keptNs).toBe(4000 + 4100 + 3900 + 4200 + 4000);
  });

  it("judges times around nothing (raw's, about 0 and sometimes below) against a floor, never all interrupted", () => {
    const stats = newStats("r", "raw", "small", 40);
    const slice = new SliceRecord();
    for (const ns of [-30, 0, 20, -10, 50, 15 * INTERRUPTION_FLOOR_NS]) slice.add(ns);
    stats.messages = 6;
    const s = slice.take(stats);
    expect(s.kept).toBe(5);
    expect(s.keptNs).toBe(30);
  });

  it("counts an interrupted message's time over the median as a pause the codec caused when the scheduler took nothing", () => {
    const stats = newStats("a", "json", "large", 40);
    const slice = new SliceRecord(readings({ stolenNs: 0, runnableNs: 1e6 }));
    const s = oneSlowMessage(slice, stats);
    expect(s.kept).toBe(4);
    expect(s.schedulerNs).toBe(0);
    expect(s.pausedNs).toBe(100_000);
  });

  it("takes off the scheduler's time in the share of the runnable time the timed calls fill, never more than the pauses", () => {
    const stats = newStats("a", "json", "large", 40);
    // 120 µs timed of 240 µs runnable: half of the 60 µs another process took fell on the timed calls.
    const slice = new SliceRecord(
      readings({ stolenNs: 60_000, runnableNs: 240_000 }, { stolenNs: 10e6, runnableNs: 240_000 }),
    );
    const first = oneSlowMessage(slice, stats);
    expect(first.schedulerNs).toBe(30_000);
    expect(first.pausedNs).toBe(70_000);
    // The scheduler took more than the slice's whole excess: all of it goes, nothing else.
    const second = oneSlowMessage(slice, stats);
    expect(second.schedulerNs).toBe(100_000);
    expect(second.pausedNs).toBe(0);
  });
});
