/**
 * The server the WebSocket modes talk to: the one `--url` names (checked
 * before use, with one message per kind of failure), or a fresh server
 * process of the bench's own, stopped when the work is done.
 */

import path from "node:path";
import { SettingError } from "../../client/harness/harness-errors.ts";
import { browserOf } from "../../client/harness/settings.ts";
import type { BenchOptions } from "./options.ts";
import { pinApart, type Pinning } from "./processes/affinity.ts";
import { spawnServer, type ServerProcess } from "./processes/server-process.ts";
import { CliError } from "./cli-errors.ts";
import { startRedis, type RedisProcess } from "./processes/redis-server.ts";
import { peakRssOfPid } from "./processes/peak-memory.ts";
import { startLink } from "./processes/link-emulator.ts";
import type { TimeLedger } from "../../client/harness/time-account.ts";

/** Checks that a server the user named answers, with a message per kind of failure. */
async function probeServer(url: string, timeoutMs: number): Promise<void> {
  try {
    await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
  } catch (e) {
    const err = e as { code?: string; name?: string; message?: string; cause?: { code?: string } };
    const code = err.code ?? err.cause?.code ?? "";
    const host = new URL(url).host;
    if (/ConnectionRefused|ECONNREFUSED/i.test(code + (err.message ?? "")))
      throw new CliError("UNREACHABLE", `connection refused by ${host}: is the server running? (bun run server)`);
    if (/ENOTFOUND|EAI_AGAIN|DNS|getaddrinfo/i.test(code + (err.message ?? "")))
      throw new CliError("UNREACHABLE", `cannot resolve the host of ${url} (DNS lookup failed)`);
    if (err.name === "TimeoutError" || /timed out|timeout/i.test(err.message ?? ""))
      throw new CliError("UNREACHABLE", `${host} did not answer within ${timeoutMs} ms`);
    throw new CliError("UNREACHABLE", `cannot reach ${url}: ${err.message ?? String(e)}`);
  }
}

/** How long `checkUrl` waits for the server --url names. */
const URL_CHECK_TIMEOUT_MS = 5000;

/** Checks, before anything is measured, that the server --url names answers: a bad --url, in one line. */
export async function checkUrl(url: string): Promise<void> {
  try {
    await probeServer(url, URL_CHECK_TIMEOUT_MS);
  } catch (e) {
    throw new SettingError(`--url ${url}: ${(e as Error).message}`);
  }
}

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
  const args = [
    ...(options.settings.deflate ? ["--deflate"] : []),
    ...(options.csp !== "off" ? ["--csp", options.csp] : []),
    // The server runs in the bench's own folder: the user's files go to it as absolute paths, resolved
    // against the folder the user started the bench in (an installed package's folder is not theirs).
    ...options.settings.userMessages.flatMap((f) => ["--messages", `${f.name}=${path.resolve(f.file)}`]),
    ...(options.settings.userProto
      ? ["--proto", path.resolve(options.settings.userProto.file), "--proto-type", options.settings.userProto.type]
      : []),
    ...(options.settings.codecModules ?? []).flatMap((m) => ["--codec-module", m.file]),
    ...(options.processes > 1 ? ["--processes", String(options.processes)] : []),
  ];
  const spawned: ServerProcess[] = [];
  let exit: string | undefined;
  let pinning: Pinning = { label: "", release: () => {} };
  // --backplane redis: a redis-server of the benchmark's own, stopped after the servers.
  let redis: RedisProcess | undefined;
  let started = performance.now();
  try {
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
    ledger?.add("start", performance.now() - started);
  }
}
