/**
 * The most memory another process of the benchmark has held: its resident set's
 * high-water mark, as Linux keeps it (VmHWM in /proc/PID/status). Read
 * before the bench stops the process; elsewhere than Linux, or once the
 * process is gone, there is no such figure.
 */

import { readFileSync } from "node:fs";

/** A running process's peak resident memory, bytes; undefined where /proc does not tell it. */
export function peakRssOfPid(pid: number): number | undefined {
  try {
    const kb = /^VmHWM:\s*(\d+)\s*kB/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
    return kb === undefined ? undefined : Number(kb) * 1024;
  } catch {
    return undefined;
  }
}
