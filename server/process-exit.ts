/**
 * How a child process ends, and how to end one: the cluster supervisor
 * stops its server processes this way, and the bench its server.
 */

import type { ChildProcess } from "node:child_process";

/** How a child ended: "0", an exit code, or a signal's name. */
export function exitOf(child: ChildProcess): Promise<string> {
  return new Promise((resolve) => child.once("exit", (code, signal) => resolve(signal ?? String(code))));
}

/** SIGTERM, then SIGKILL if it has not exited within 5 s; resolves once it has exited. */
export async function stopChild(child: ChildProcess, exited: Promise<string>): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill("SIGTERM");
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<string>((resolve) => (timer = setTimeout(() => resolve("timeout"), 5000)));
  const how = await Promise.race([exited, timeout]);
  // A pending timer would keep the bench alive for the rest of the 5 s.
  clearTimeout(timer);
  if (how === "timeout") {
    child.kill("SIGKILL");
    await exited;
  }
}
