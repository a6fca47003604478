/**
 * The server's CPU time, charged to the connection that was busy. A client
 * may keep several connections open and send on one at a time (the socket
 * modes' rounds do), so "CPU while the connection was open" would charge
 * every codec for all of them. Instead the process's CPU since the last
 * charge goes to the connection that last received a message, read when
 * another connection takes over (at most once a millisecond, so many
 * connections busy at once cost no clock read per message), when a
 * connection closes, and before a requested garbage collection (charged
 * to no one). With several connections busy at once their figures share
 * the process's CPU and add up to it.
 *
 * Beside the CPU, the times the process went to sleep waiting for work and
 * woke again (its voluntary context switches, from the same getrusage call):
 * a server that wakes for every message pays the wake-up on every message,
 * one that finds several messages waiting pays it once for all of them.
 *
 * The process's resident memory is sampled beside it: whenever a charge is
 * made and every RSS_SAMPLE_MS while a connection is busy (a timer that runs
 * only then), and each sample raises the busy connection's peak. A rate step
 * of latency mode is a connection, so its peak is the server's RSS during
 * that step.
 */

import type { ServerConnectionStats } from "../protocols/contract.ts";

/** Fewest milliseconds between two charges when connections take turns quickly. */
const MIN_CHARGE_MS = 1;
/** How often resident memory is sampled while a connection is busy (a sample costs ~5 µs). */
export const RSS_SAMPLE_MS = 20;

export class CpuMeter {
  private owner: ServerConnectionStats | undefined;
  private mark = usage();
  private markedAt: number;
  private sampler: ReturnType<typeof setInterval> | undefined;

  constructor(private readonly now: () => number) {
    this.markedAt = now();
  }

  /** A message arrived on the connection `stats` belongs to. */
  busy(stats: ServerConnectionStats): void {
    if (stats === this.owner) return;
    const charged = this.owner === undefined || this.now() - this.markedAt >= MIN_CHARGE_MS;
    if (charged) this.charge();
    this.owner = stats;
    // As often as charges, never once per message: a sample is a system call.
    if (charged) this.sampleRss();
    if (this.sampler === undefined) {
      this.sampler = setInterval(() => this.sampleRss(), RSS_SAMPLE_MS);
      (this.sampler as { unref?: () => void }).unref?.();
    }
  }

  /** The connection is closing, or ends a slice: it gets what it is owed and owns nothing more. */
  release(stats: ServerConnectionStats): void {
    if (stats !== this.owner) return;
    this.charge();
    this.owner = undefined;
    this.stopSampling();
  }

  /** Runs `work` (a garbage collection) charged to no connection. */
  unowned(work: () => void): void {
    this.charge();
    this.owner = undefined;
    this.stopSampling();
    work();
    this.charge();
  }

  /** The CPU since the last charge goes to the owner (or to no one). */
  private charge(): void {
    const now = usage();
    this.markedAt = this.now();
    if (this.owner) {
      this.owner.cpuMs += (now.cpuUs - this.mark.cpuUs) / 1000;
      this.owner.wakeups += now.wakeups - this.mark.wakeups;
    }
    this.mark = now;
    this.sampleRss();
  }

  /** The process's resident memory now raises the busy connection's peak. */
  private sampleRss(): void {
    if (this.owner === undefined) return;
    const rss = process.memoryUsage.rss();
    if (rss > this.owner.rssPeakBytes) this.owner.rssPeakBytes = rss;
  }

  private stopSampling(): void {
    clearInterval(this.sampler);
    this.sampler = undefined;
  }
}

/** The process's CPU time so far (user + system, µs) and its voluntary context switches: one getrusage call. */
function usage(): { cpuUs: number; wakeups: number } {
  const r = process.resourceUsage();
  return { cpuUs: r.userCPUTime + r.systemCPUTime, wakeups: r.voluntaryContextSwitches };
}
