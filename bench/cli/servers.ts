/**
 * The server the WebSocket modes talk to: the one `--url` names (checked
 * before use, with one message per kind of failure), or a fresh server
 * process of the bench's own, stopped when the work is done.
 */

import { SettingError } from "../harness/harness-errors.ts";
import { browserOf } from "../harness/settings.ts";
import type { BenchOptions } from "./options.ts";
import { pinApart, type Pinning } from "./processes/affinity.ts";
import { spawnServer, type ServerProcess } from "./processes/server-process.ts";
import { CliError } from "./cli-errors.ts";

/** Checks that a server the user named answers, with a message per kind of failure. */
async function probeServer(url: string, timeoutMs: number): Promise<void> {
  try {
    await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
  } catch (e) {
    const err = e as { code?: string; name?: string; message?: string; cause?: { code?: string } };
    const code = err.code ?? err.cause?.code ?? "";
    const host = new URL(url).host;
    if (/ConnectionRefused|ECONNREFUSED/i.test(code + (err.message ?? ""))) throw new CliError("UNREACHABLE", `connection refused by ${host}: is the server running? (bun run server)`);
    if (/ENOTFOUND|EAI_AGAIN|DNS|getaddrinfo/i.test(code + (err.message ?? ""))) throw new CliError("UNREACHABLE", `cannot resolve the host of ${url} (DNS lookup failed)`);
    if (err.name === "TimeoutError" || /timed out|timeout/i.test(err.message ?? "")) throw new CliError("UNREACHABLE", `${host} did not answer within ${timeoutMs} ms`);
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
  /** Every server process of the run, `url` first: the socket modes' rounds take turns with them (client/socket/rounds.ts). */
  urls: string[];
  label: string;
  /** Where the bench and the server ran (processes/affinity.ts), or why they were not pinned. */
  pinning: string;
  /** How our own server process ended, once it has; always undefined for --url. */
  exit(): string | undefined;
}

/**
 * Runs `work` against the server `--url` names, or against `processes` server processes of our
 * own: each compiles the codecs its own way, so the rounds take turns with them (as codec mode's
 * runs spread over --forks processes), and a ratio no longer rests on one process's luck.
 */
export async function useServer<T>(options: BenchOptions, work: (server: UsedServer) => Promise<T>, processes = 1): Promise<T> {
  if (options.url) {
    await probeServer(options.url, options.settings.stallTimeoutMs);
    return work({ url: options.url, urls: [options.url], label: options.url, pinning: "not pinned: the server is the user's (--url)", exit: () => undefined });
  }
  const args = [
    ...(options.settings.deflate ? ["--deflate"] : []),
    ...(options.csp !== "off" ? ["--csp", options.csp] : []),
    ...options.settings.userMessages.flatMap((f) => ["--messages", f.file]),
    ...(options.settings.userProto ? ["--proto", options.settings.userProto.file, "--proto-type", options.settings.userProto.type] : []),
    ...(options.settings.codecModules ?? []).flatMap((m) => ["--codec-module", m.file]),
  ];
  const spawned: ServerProcess[] = [];
  let exit: string | undefined;
  let pinning: Pinning = { label: "", release: () => {} };
  try {
    for (let i = 0; i < Math.max(1, processes); i++) {
      const server = await spawnServer(args);
      spawned.push(server);
      void server.exited.then((how) => (exit ??= how === "0" ? "exit code 0" : /^\d+$/.test(how) ? `exit code ${how}` : `killed by ${how}`));
    }
    // Several clients are worker threads meant to spread over the cores; a browser runs where it runs.
    const pin = options.noPin ? undefined : options.settings.clients > 1 ? "several clients (--clients) share the cores" : browserOf(options.client) ? "the browser runs the client" : "";
    pinning = pin === "" ? pinApart(spawned.map((s) => s.pid)) : { label: `not pinned: ${pin ?? "--no-pin"}`, release: () => {} };
    const label = spawned.length === 1 ? `spawned (pid ${spawned[0]!.pid}, ${spawned[0]!.url})` : `spawned, ${spawned.length} processes (pids ${spawned.map((s) => s.pid).join(", ")})`;
    return await work({ url: spawned[0]!.url, urls: spawned.map((s) => s.url), label, pinning: pinning.label, exit: () => exit });
  } finally {
    pinning.release();
    for (const s of spawned) await s.stop();
  }
}
