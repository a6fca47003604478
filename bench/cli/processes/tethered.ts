/**
 * A helper process the bench starts and must not outlive it (redis-server, the
 * link emulator): in a process group of its own, so a terminal's Ctrl-C (which
 * lets the case in flight finish) does not stop it under that case, and gone
 * when our end of its stdin closes, however the bench ended (neither program
 * has such an option: a shell waits on the pipe for it).
 */

import { spawn, type ChildProcess } from "node:child_process";

export interface TetheredProcess {
  child: ChildProcess;
  /** The last of what it wrote (stdout and stderr): why a start failed. */
  log(): string;
  /** True once it has exited. */
  ended(): boolean;
  /** Stops it (closes its stdin) and waits for it to exit. */
  stop(): Promise<void>;
}

/** Starts `command args` tethered to this process's life. */
export function spawnTethered(command: string, args: readonly string[], env?: NodeJS.ProcessEnv): TetheredProcess {
  const child = spawn(
    "sh",
    ["-c", 'exec 3<&0; "$0" "$@" </dev/null & r=$!; (read _ <&3; kill "$r" 2>/dev/null) & wait "$r"', command, ...args],
    { stdio: ["pipe", "pipe", "pipe"], detached: true, ...(env ? { env } : {}) },
  );
  let log = "";
  const keep = (d: Buffer): void => void (log = (log + d.toString()).slice(-2000));
  child.stdout!.on("data", keep);
  child.stderr!.on("data", keep);
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const ended = (): boolean => child.exitCode !== null || child.signalCode !== null;
  return {
    child,
    log: () => log,
    ended,
    async stop() {
      if (!ended()) child.stdin!.end();
      await exited;
    },
  };
}
