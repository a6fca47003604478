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
 */

import type { ServerConnectionStats } from "./contract.ts";

/** Fewest milliseconds between two charges when connections take turns quickly. */
const MIN_CHARGE_MS = 1;

export class CpuMeter {
  private owner: ServerConnectionStats | undefined;
  private mark = process.cpuUsage();
  private markedAt: number;

  constructor(private readonly now: () => number) {
    this.markedAt = now();
  }

  /** A message arrived on the connection `stats` belongs to. */
  busy(stats: ServerConnectionStats): void {
    if (stats === this.owner) return;
    if (this.owner === undefined || this.now() - this.markedAt >= MIN_CHARGE_MS) this.charge();
    this.owner = stats;
  }

  /** The connection is closing: it gets what it is owed and owns nothing more. */
  closing(stats: ServerConnectionStats): void {
    if (stats !== this.owner) return;
    this.charge();
    this.owner = undefined;
  }

  /** Runs `work` (a garbage collection) charged to no connection. */
  unowned(work: () => void): void {
    this.charge();
    this.owner = undefined;
    work();
    this.charge();
  }

  /** The CPU since the last charge goes to the owner (or to no one). */
  private charge(): void {
    const used = process.cpuUsage(this.mark);
    this.mark = process.cpuUsage();
    this.markedAt = this.now();
    if (this.owner) this.owner.cpuMs += (used.user + used.system) / 1000;
  }
}
