/**
 * A local redis-server for the bench (Debian's package): started on a free
 * loopback port with nothing saved to disk, ready once it answers PING,
 * stopped at the end. Where a user names their own Redis, none is started.
 */

import { spawnSync } from "node:child_process";
import { spawnTethered } from "./tethered.ts";
import { freePort } from "./free-port.ts";
import { CliError } from "../cli-errors.ts";

const NO_REDIS = "no redis-server found: install Debian's package (apt-get install -y redis-server)";

/** What to do when there is none here, naming the option that asked for it (`--backplane`). */
export function noRedisMessage(option: string): string {
  return `${NO_REDIS} or name a running one with ${option} redis://HOST:PORT`;
}

/** True when `redis-server` runs here. */
export function hasRedisServer(): boolean {
  return spawnSync("redis-server", ["--version"], { stdio: "ignore" }).status === 0;
}

export interface RedisProcess {
  url: string;
  /** Stops it and waits for it to exit. */
  stop(): Promise<void>;
}

/** Starts redis-server on a free loopback port; resolves once it accepts a connection. */
export async function startRedis(timeoutMs = 10_000): Promise<RedisProcess> {
  if (!hasRedisServer()) throw new CliError("REDIS", NO_REDIS);
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
  const redis = spawnTethered("redis-server", args);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (redis.ended())
      throw new CliError(
        "REDIS",
        `redis-server exited at start (${redis.child.exitCode}): ${redis.log().trim().split("\n").slice(-3).join(" ") || "no message"}`,
      );
    try {
      const socket = await Bun.connect({ hostname: "127.0.0.1", port, socket: { data() {} } });
      socket.end();
      break;
    } catch {
      if (Date.now() > deadline) {
        await redis.stop();
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
    // Closing its stdin stops redis-server; the shell waiting for it exits with it.
    stop: () => redis.stop(),
  };
}
