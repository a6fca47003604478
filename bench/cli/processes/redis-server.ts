/**
 * A local redis-server for the bench (Debian's package): started on a free
 * loopback port with nothing saved to disk, ready once it answers PING,
 * stopped at the end. Where a user names their own Redis, none is started.
 */

import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { createServer } from "node:net";
import { CliError } from "../cli-errors.ts";

export const NO_REDIS_MESSAGE =
  "no redis-server found: install Debian's package (apt-get install -y redis-server) or name a running one with --backplane redis://HOST:PORT";

/** True when `redis-server` runs here. */
export function hasRedisServer(): boolean {
  return spawnSync("redis-server", ["--version"], { stdio: "ignore" }).status === 0;
}

/** A port the kernel says is free now, on loopback. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

export interface RedisProcess {
  url: string;
  /** Stops it and waits for it to exit. */
  stop(): Promise<void>;
}

/** Starts redis-server on a free loopback port; resolves once it accepts a connection. */
export async function startRedis(timeoutMs = 10_000): Promise<RedisProcess> {
  if (!hasRedisServer()) throw new CliError("REDIS", NO_REDIS_MESSAGE);
  const port = await freePort();
  const args = [
    "--port",
    String(port),
    "--bind",
    "127.0.0.1",
    "--save",
    "",
    "--appendonly",
    "no",
    "--protected-mode",
    "yes",
  ];
  // A process group of its own, so a terminal's Ctrl-C (which lets the case in flight finish)
  // does not stop it under that case; and it goes when our end of its stdin closes, however the
  // bench ended (redis-server has no such option: a shell waits on the pipe for it).
  const child: ChildProcess = spawn(
    "sh",
    [
      "-c",
      'exec 3<&0; redis-server "$@" </dev/null & r=$!; (read _ <&3; kill "$r" 2>/dev/null) & wait "$r"',
      "redis-server",
      ...args,
    ],
    {
      stdio: ["pipe", "pipe", "pipe"],
      detached: true,
    },
  );
  // redis-server logs to stdout, a refused setting included: the last of it names why a start failed.
  let log = "";
  const keep = (d: Buffer): void => void (log = (log + d.toString()).slice(-2000));
  child.stdout!.on("data", keep);
  child.stderr!.on("data", keep);
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null)
      throw new CliError(
        "REDIS",
        `redis-server exited at start (${child.exitCode}): ${log.trim().split("\n").slice(-3).join(" ") || "no message"}`,
      );
    try {
      const socket = await Bun.connect({ hostname: "127.0.0.1", port, socket: { data() {} } });
      socket.end();
      break;
    } catch {
      if (Date.now() > deadline) {
        child.stdin!.end();
        throw new CliError(
          "REDIS",
          `redis-server did not accept connections on port ${port} within ${timeoutMs / 1000} s`,
        );
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  return {
    url: `redis://127.0.0.1:${port}`,
    async stop() {
      // Closing its stdin stops redis-server; the shell waiting for it exits with it.
      if (child.exitCode === null && child.signalCode === null) child.stdin!.end();
      await exited;
    },
  };
}
