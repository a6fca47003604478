/**
 * Starts `server.ts` as its own process (server and client must not share a
 * CPU budget or a heap), on a free port, and waits for its ready line.
 */

import { spawn } from "node:child_process";
import path from "node:path";
import { ROOT } from "../paths.ts";
import { CliError } from "../cli-errors.ts";
import { exitOf, stopChild } from "../../../server/process-exit.ts";

export interface ServerProcess {
  url: string;
  pid: number;
  /** A cluster (--processes N): each process's own URL and pid. */
  processes?: { url: string; pid: number }[];
  /** SIGTERM, then SIGKILL if it has not exited within 5 s. */
  stop(): Promise<void>;
  /** Resolves when the process exits, with its code (or signal). */
  exited: Promise<string>;
}

export function spawnServer(args: readonly string[] = [], readyTimeoutMs = 15_000): Promise<ServerProcess> {
  // A process group of its own: a terminal's Ctrl-C reaches the whole group,
  // and the server must not stop under a case in flight; the bench stops it.
  // It also stops when the bench's end of its stdin closes, however the bench ended.
  const child = spawn(process.execPath, [path.join(ROOT, "server.ts"), "--port", "0", "--exit-with-stdin", ...args], {
    cwd: ROOT,
    stdio: ["pipe", "pipe", "pipe"],
    detached: true,
  });
  let stderr = "";
  child.stderr!.on("data", (d: Buffer) => (stderr += d.toString()));
  const exited = exitOf(child);
  return new Promise((resolve, reject) => {
    let buffered = "";
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(
        new CliError(
          "SERVER_START",
          `the server did not start within ${readyTimeoutMs} ms${stderr ? `: ${stderr.trim()}` : ""}`,
        ),
      );
    }, readyTimeoutMs);
    const onData = (d: Buffer): void => {
      buffered += d.toString();
      const newline = buffered.indexOf("\n");
      if (newline === -1) return;
      child.stdout!.off("data", onData);
      clearTimeout(timer);
      try {
        const ready = JSON.parse(buffered.slice(0, newline)) as {
          event: string;
          url: string;
          processes?: { url: string; pid: number }[];
        };
        if (ready.event !== "ready")
          throw new CliError("SERVER_START", `unexpected first line: ${buffered.slice(0, newline)}`);
        child.stdout!.resume();
        resolve({
          url: ready.url,
          pid: child.pid!,
          ...(ready.processes ? { processes: ready.processes } : {}),
          stop: () => stopChild(child, exited),
          exited,
        });
      } catch (e) {
        child.kill("SIGKILL");
        reject(e);
      }
    };
    child.stdout!.on("data", onData);
    void exited.then((how) => {
      clearTimeout(timer);
      reject(
        new CliError(
          "SERVER_START",
          `the server exited (${how}) before it was ready${stderr ? `: ${stderr.trim()}` : ""}`,
        ),
      );
    });
  });
}
