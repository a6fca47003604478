/** The server's CPU goes to the connection that was busy, none to a requested collection. */
import { describe, expect, it } from "vitest";
import { CpuMeter, RSS_SAMPLE_MS } from "../../server/cpu.ts";
import { newStats } from "../../server/connection-stats.ts";

/** Spins until this process has used at least `ms` more CPU (a condition, not a duration: a loaded machine only makes it slower). */
function burn(ms: number): void {
  const start = process.cpuUsage();
  for (;;) {
    const used = process.cpuUsage(start);
    if ((used.user + used.system) / 1000 >= ms) return;
  }
}

describe("CpuMeter", () => {
  it("charges the time since the last switch to the connection that was busy", () => {
    const meter = new CpuMeter(() => performance.now());
    const a = newStats("a", "json", "small", 0);
    const b = newStats("b", "json", "small", 0);
    meter.busy(a);
    burn(20);
    meter.busy(b);
    expect(a.cpuMs).toBeGreaterThanOrEqual(20);
    expect(b.cpuMs).toBe(0);
    burn(10);
    meter.release(b);
    expect(b.cpuMs).toBeGreaterThanOrEqual(10);
    // a is not charged for b's turn.
    expect(a.cpuMs).toBeLessThan(20 + 10);
  });

  it("a connection that closes owns nothing afterwards", () => {
    const meter = new CpuMeter(() => performance.now());
    const a = newStats("a", "json", "small", 0);
    const b = newStats("b", "json", "small", 0);
    meter.busy(a);
    meter.release(a);
    const charged = a.cpuMs;
    burn(10);
    meter.busy(b);
    expect(a.cpuMs).toBe(charged);
  });

  it("a collection run through `unowned` is charged to no connection", () => {
    const meter = new CpuMeter(() => performance.now());
    const a = newStats("a", "json", "small", 0);
    meter.busy(a);
    meter.unowned(() => burn(30));
    const before = a.cpuMs;
    meter.release(a);
    expect(a.cpuMs).toBe(before);
    expect(before).toBeLessThan(30);
  });

  it("connections taking turns within a millisecond share the CPU without a reading per message", () => {
    let t = 0;
    const meter = new CpuMeter(() => t);
    const a = newStats("a", "json", "small", 0);
    const b = newStats("b", "json", "small", 0);
    meter.busy(a);
    burn(5);
    // Less than a millisecond later by this clock: no charge yet.
    t = 0.5;
    meter.busy(b);
    expect(a.cpuMs).toBe(0);
    t = 2;
    meter.busy(a);
    // b owned it when the charge came: it holds the CPU of both turns.
    expect(b.cpuMs).toBeGreaterThanOrEqual(5);
  });

  it("a busy connection keeps the highest resident memory sampled while it was busy, and no sample after it closes", async () => {
    const meter = new CpuMeter(() => performance.now());
    const a = newStats("a", "json", "small", 0);
    meter.busy(a);
    const first = a.rssPeakBytes;
    expect(first).toBeGreaterThan(0);
    // 64 MiB written page by page: resident at once; the timer's samples must see it.
    const ballast = Buffer.alloc(64 * 1024 * 1024, 1);
    while (a.rssPeakBytes < first + 48 * 1024 * 1024) await new Promise((r) => setTimeout(r, RSS_SAMPLE_MS));
    meter.release(a);
    const peak = a.rssPeakBytes;
    const more = Buffer.alloc(64 * 1024 * 1024, 2);
    await new Promise((r) => setTimeout(r, RSS_SAMPLE_MS * 5));
    expect(a.rssPeakBytes).toBe(peak);
    expect(ballast[0]! + more[0]!).toBe(3);
  });
});
