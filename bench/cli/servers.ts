/**
 * The server the WebSocket modes talk to: the one `--url` names (checked
 * before use, with one message per kind of failure), or a fresh server
 * process of the bench's own, stopped when the work is done.
 */

import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { browserOf, type UserMessagesFile } from "../../client/harness/settings.ts";
import { probeServer, type BenchOptions } from "./resolve-options.ts";
import { pinApart, type Pinning } from "./processes/affinity.ts";
import { spawnServer, type ServerProcess } from "./processes/server-process.ts";
import { startRedis, type RedisProcess } from "./processes/redis-server.ts";
import { peakRssOfPid } from "./processes/peak-memory.ts";
import { startLink } from "./processes/link-emulator.ts";
import type { TimeLedger } from "../../client/harness/time-account.ts";

/** A server to work against: its base URL, a label for the results, and how it ended if it did. */
export interface UsedServer {
  url: string;
  /** Every server process of the benchmark, `url` first: the socket modes' rounds take turns with them (client/socket/rounds.ts). */
  urls: string[];
  label: string;
  /** Where the bench and the server ran (processes/affinity.ts), or why they were not pinned. */
  pinning: string;
  /** The server is a cluster (--processes, --backplane): each process's own URL, and the backplane's. */
  cluster?: { urls: string[]; backplane?: string };
  /** How our own server process ended, once it has; always undefined for --url. */
  exit(): string | undefined;
  /** --link: the address of the link in front of each server URL above, for the clients' WebSockets. */
  linkVia?: Readonly<Record<string, string>>;
}

/**
 * Runs `work` with `server`'s URLs behind the link `options` names (bench/cli/processes/link-emulator.ts),
 * or as they are over loopback. The emulator's start and stop count as `start` in `ledger`.
 */
async function overLink<T>(
  options: BenchOptions,
  server: UsedServer,
  work: (server: UsedServer) => Promise<T>,
  ledger?: TimeLedger,
): Promise<T> {
  const link = options.settings.link;
  if (!link) return work(server);
  let started = performance.now();
  const emulator = await startLink(link, [...server.urls, ...(server.cluster?.urls ?? [])]);
  ledger?.add("start", performance.now() - started);
  try {
    return await work({ ...server, linkVia: emulator.via });
  } finally {
    started = performance.now();
    await emulator.stop();
    ledger?.add("start", performance.now() - started);
  }
}

/**
 * Runs `work` against the server `--url` names, or against `processes` server processes of our
 * own: each compiles the codecs its own way, so the rounds take turns with them (as codec mode's
 * runs spread over --forks processes), and a ratio no longer rests on one process's luck.
 * Starting and stopping them count as `start` in `ledger`, which also gets each one's peak memory.
 */
export async function useServer<T>(
  options: BenchOptions,
  work: (server: UsedServer) => Promise<T>,
  processes = 1,
  ledger?: TimeLedger,
): Promise<T> {
  if (options.url) {
    await probeServer(options.url, options.settings.stallTimeoutMs);
    const given: UsedServer = {
      url: options.url,
      urls: [options.url],
      label: options.url,
      pinning: "not pinned: the server is the user's (--url)",
      exit: () => undefined,
    };
    return overLink(options, given, work, ledger);
  }
  // Messages given inline (compare()) have no file, and the server reads files: one is written for each, removed at the end.
  let inline: string | undefined;
  const messagesFile = (f: UserMessagesFile): string => {
    if (f.file !== undefined) return path.resolve(f.file);
    inline ??= mkdtempSync(path.join(tmpdir(), "ws-serialization-bench-"));
    writeFileSync(path.join(inline, `${f.name}.json`), f.text);
    return path.join(inline, `${f.name}.json`);
  };
  const spawned: ServerProcess[] = [];
  let exit: string | undefined;
  let pinning: Pinning = { label: "", release: () => {} };
  // --backplane redis: a redis-server of the benchmark's own, stopped after the servers.
  let redis: RedisProcess | undefined;
  let started = performance.now();
  try {
    const args = [
      ...(options.settings.deflate ? ["--deflate"] : []),
      ...(options.csp !== "off" ? ["--csp", options.csp] : []),
      // The server runs in the bench's own folder: the user's files go to it as absolute paths, resolved
      // against the folder the user started the bench in (an installed package's folder is not theirs).
      ...options.settings.userMessages.flatMap((f) => ["--messages", `${f.name}=${messagesFile(f)}`]),
      ...(options.settings.userProto
        ? ["--proto", path.resolve(options.settings.userProto.file), "--proto-type", options.settings.userProto.type]
        : []),
      ...(options.settings.codecModules ?? []).flatMap((m) => ["--codec-module", m.file]),
      ...(options.processes > 1 ? ["--processes", String(options.processes)] : []),
    ];
    if (options.backplane === "redis") redis = await startRedis();
    const backplane = redis?.url ?? options.backplane;
    for (let i = 0; i < Math.max(1, processes); i++) {
      // Each server its own channels: servers taking turns never hear each other's messages.
      const server = await spawnServer([
        ...args,
        ...(backplane ? ["--backplane", backplane, "--backplane-channel", `wsb${process.pid}-${i}:`] : []),
      ]);
      spawned.push(server);
      void server.exited.then(
        (how) => (exit ??= how === "0" ? "exit code 0" : /^\d+$/.test(how) ? `exit code ${how}` : `killed by ${how}`),
      );
    }
    ledger?.add("start", performance.now() - started);
    // Several clients are worker threads meant to spread over the cores; a browser runs where it runs.
    const pin = options.noPin
      ? undefined
      : options.settings.clients > 1
        ? "several clients (--clients) share the cores"
        : browserOf(options.client)
          ? "the browser runs the client"
          : options.processes > 1
            ? "the server's processes share the cores"
            : "";
    pinning =
      pin === ""
        ? pinApart(spawned.map((s) => s.pid))
        : { label: `not pinned: ${pin ?? "--no-pin"}`, release: () => {} };
    const first = spawned[0]!;
    const label = first.processes
      ? `spawned, a cluster of ${first.processes.length} processes on ${first.url} (pids ${first.processes.map((p) => p.pid).join(", ")})${backplane ? `, joined by Redis at ${backplane}` : ""}`
      : spawned.length === 1
        ? `spawned (pid ${first.pid}, ${first.url})${backplane ? `, publishing through Redis at ${backplane}` : ""}`
        : `spawned, ${spawned.length} processes (pids ${spawned.map((s) => s.pid).join(", ")})`;
    const cluster =
      first.processes || backplane
        ? { urls: first.processes?.map((p) => p.url) ?? [first.url], ...(backplane ? { backplane } : {}) }
        : undefined;
    const used: UsedServer = {
      url: first.url,
      urls: spawned.map((s) => s.url),
      label,
      pinning: pinning.label,
      ...(cluster ? { cluster } : {}),
      exit: () => exit,
    };
    return await overLink(options, used, work, ledger);
  } finally {
    pinning.release();
    started = performance.now();
    for (const s of spawned) {
      for (const p of s.processes ?? [{ pid: s.pid }]) ledger?.addPeak("server", peakRssOfPid(p.pid));
      await s.stop();
    }
    await redis?.stop();
    if (inline !== undefined) rmSync(inline, { recursive: true, force: true });
    ledger?.add("start", performance.now() - started);
  }
}
