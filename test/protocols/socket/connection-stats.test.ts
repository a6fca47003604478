/** A connection's slice figures: the totals since the last mark, and the messages not interrupted. */
import { describe, expect, it } from "vitest";
import { INTERRUPTION_FACTOR, INTERRUPTION_FLOOR_NS } from "../../../protocols/socket/contract.ts";
import { newStats, SliceRecord } from "../../../protocols/socket/connection-stats.ts";

describe("SliceRecord", () => {
  it("gives each slice the totals since the last mark, then starts again", () => {
    const stats = newStats("a", "json", "small", 40);
    const slice = new SliceRecord();
    stats.messages = 3;
    stats.decodeNs = 300;
    stats.encodeNs = 150;
    stats.cpuMs = 2;
    for (const ns of [140, 150, 160]) slice.add(ns);
    expect(slice.take(stats)).toEqual({ messages: 3, decodeNs: 300, encodeNs: 150, sendNs: 0, cpuMs: 2, wakeups: 0, kept: 3, keptNs: 450 });
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
});
