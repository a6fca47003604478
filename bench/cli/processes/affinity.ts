/**
 * Keeps the client and the server on cores of their own while the
 * WebSocket modes run: the bench's process (and the clients it starts) on
 * the first core, the server on the last. Unpinned, the scheduler moves
 * either process between the cores from one message to the next, and a
 * server that idles between messages (roundtrip mode) wakes on a core whose
 * caches the client has just filled: three back-to-back roundtrip runs here
 * put custom-binary's field ratio to json on the small message at 0.51,
 * 0.56 and 0.59 unpinned, 0.56, 0.55 and 0.56 pinned.
 *
 * Linux only, through util-linux's `taskset`, which every Debian system
 * has; anywhere else the run goes on unpinned and its results say why.
 */

import { spawnSync } from "node:child_process";
import { availableParallelism } from "node:os";

/** Where the bench and the server run, or why they were not pinned. */
export interface Pinning {
  /** What the results record: "bench on CPU 0, server on CPU 1", or "not pinned: ...". */
  label: string;
  /** Gives the bench back every core it had. */
  release(): void;
}

/** The cores a process may run on, as taskset lists them ("0-1"), or undefined. */
function affinityOf(pid: number): string | undefined {
  const r = spawnSync("taskset", ["-c", "-p", String(pid)], { encoding: "utf8" });
  return r.status === 0 ? /:\s*(\S+)\s*$/.exec(r.stdout.trim())?.[1] : undefined;
}

/** Sets every thread of `pid` on `cpus` ("0", "0-1"); an error line, or undefined. */
function setAffinity(pid: number, cpus: string): string | undefined {
  const r = spawnSync("taskset", ["-a", "-c", "-p", cpus, String(pid)], { encoding: "utf8" });
  if (r.error) return `taskset: ${r.error.message}`;
  return r.status === 0 ? undefined : `taskset exited ${r.status}: ${(r.stderr || r.stdout).trim()}`;
}

/** The servers on the last core (they take turns, never busy at once), this process on the first; "not pinned" where that cannot be done. */
export function pinApart(serverPids: readonly number[]): Pinning {
  const unpinned = (why: string): Pinning => ({ label: `not pinned: ${why}`, release: () => {} });
  if (process.platform !== "linux") return unpinned(`${process.platform} has no taskset`);
  const cores = availableParallelism();
  if (cores < 2) return unpinned("one core");
  const own = affinityOf(process.pid);
  if (own === undefined) return unpinned("taskset is not available (util-linux)");
  const server = String(cores - 1);
  for (const pid of serverPids) {
    const failed = setAffinity(pid, server);
    if (failed !== undefined) return unpinned(failed);
  }
  const failed = setAffinity(process.pid, "0");
  if (failed !== undefined) return unpinned(failed);
  return {
    label: `bench on CPU 0, server${serverPids.length > 1 ? "s" : ""} on CPU ${server}`,
    release: () => void setAffinity(process.pid, own),
  };
}
