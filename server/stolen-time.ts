/**
 * Time the operating system's scheduler took from the server's main thread
 * and gave to another process: the part of a slow message the codec did not
 * cause. A message whose decode + encode took ten times its slice's median
 * was interrupted, by a collection (the codec's allocations caused it: the
 * server pays it, so it counts) or by the scheduler (another process ran: it
 * does not count). This tells the two apart, slice by slice, from what Linux
 * keeps for the thread:
 *
 * - /proc/thread-self/schedstat: the main thread's CPU time and the time it
 *   waited runnable for a CPU (its run delay), ns;
 * - getrusage (process.cpuUsage): the CPU time of every thread of the process.
 *
 * While the main thread waits runnable, whoever runs instead is either one of
 * the server's own threads (a collector or compiler thread: the codec's cost,
 * and counted in the process's CPU) or another process. So the time other
 * processes took from the main thread over a slice is at least its run delay
 * less the CPU its own other threads used: a lower bound.
 *
 * A preemption lands on whatever the thread is running when it comes, so the
 * share of that time that fell inside the timed decode and encode calls is,
 * expected, their share of the thread's runnable time (CPU + run delay) over
 * the slice. The slice's record (connection-stats.ts) takes that much off its
 * interrupted messages, never more than their time over the median. A reading
 * costs about 3 µs (a file read and a system call): one per slice mark, none
 * per message.
 *
 * Where the file cannot be read (not Linux), there is no reading, and nothing
 * is taken off: every interruption counts.
 */

import { closeSync, openSync, readSync } from "node:fs";

const SCHEDSTAT = "/proc/thread-self/schedstat";

/** What the scheduler took from a thread and how long it was runnable, since the last reading, ns. */
export interface SchedulerReading {
  since(): { stolenNs: number; runnableNs: number };
}

export class StolenTime implements SchedulerReading {
  private readonly buf = new Uint8Array(128);
  private threadCpuNs = 0;
  private runDelayNs = 0;
  private processCpuNs = 0;

  private constructor(private readonly fd: number) {
    this.since();
  }

  /** Opens the calling thread's counters (call it on the thread that handles messages); undefined where the system has none. */
  static open(): StolenTime | undefined {
    let fd: number;
    try {
      fd = openSync(SCHEDSTAT, "r");
    } catch {
      return undefined;
    }
    try {
      const probe = new StolenTime(fd);
      return Number.isFinite(probe.runDelayNs) ? probe : (closeSync(fd), undefined);
    } catch {
      closeSync(fd);
      return undefined;
    }
  }

  /**
   * Since the last call: the time other processes took from this thread (a lower bound, at
   * least 0), and the time it was runnable (its CPU time and run delay), ns.
   */
  since(): { stolenNs: number; runnableNs: number } {
    const n = readSync(this.fd, this.buf, 0, this.buf.length, 0);
    const [cpu, delay] = parseSchedstat(this.buf, n);
    const usage = process.cpuUsage();
    const processCpu = (usage.user + usage.system) * 1000;
    const threadCpu = cpu - this.threadCpuNs;
    const ownOthers = processCpu - this.processCpuNs - threadCpu;
    const waited = delay - this.runDelayNs;
    this.threadCpuNs = cpu;
    this.runDelayNs = delay;
    this.processCpuNs = processCpu;
    return { stolenNs: Math.max(0, waited - Math.max(0, ownOthers)), runnableNs: threadCpu + waited };
  }
}

/** The first two numbers of a schedstat line ("cpu_ns run_delay_ns timeslices"), NaN where missing. */
export function parseSchedstat(buf: Uint8Array, length: number): [number, number] {
  const out = [Number.NaN, Number.NaN] as [number, number];
  let field = 0;
  let value = 0;
  let digits = 0;
  for (let i = 0; i <= length && field < 2; i++) {
    const c = i < length ? buf[i]! : 32;
    if (c >= 48 && c <= 57) {
      value = value * 10 + (c - 48);
      digits++;
    } else if (digits > 0) {
      out[field++] = value;
      value = 0;
      digits = 0;
    }
  }
  return out;
}
