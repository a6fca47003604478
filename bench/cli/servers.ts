/**
 * The server the WebSocket modes talk to: the one `--url` names (checked
 * before use, with one message per kind of failure), or a fresh server
 * process of the bench's own, stopped when the work is done.
 */

import { SettingError } from "../harness/settings.ts";
import type { BenchOptions } from "./options.ts";
import { spawnServer } from "./processes/server.ts";

/** Checks that a server the user named answers, with a message per kind of failure. */
async function probeServer(url: string, timeoutMs: number): Promise<void> {
  try {
    await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
  } catch (e) {
    const err = e as { code?: string; name?: string; message?: string; cause?: { code?: string } };
    const code = err.code ?? err.cause?.code ?? "";
    const host = new URL(url).host;
    if (/ConnectionRefused|ECONNREFUSED/i.test(code + (err.message ?? ""))) throw new Error(`connection refused by ${host}: is the server running? (bun run server)`);
    if (/ENOTFOUND|EAI_AGAIN|DNS|getaddrinfo/i.test(code + (err.message ?? ""))) throw new Error(`cannot resolve the host of ${url} (DNS lookup failed)`);
    if (err.name === "TimeoutError" || /timed out|timeout/i.test(err.message ?? "")) throw new Error(`${host} did not answer within ${timeoutMs} ms`);
    throw new Error(`cannot reach ${url}: ${err.message ?? String(e)}`);
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
  label: string;
  /** How our own server process ended, once it has; always undefined for --url. */
  exit(): string | undefined;
}

/** Runs `work` against the server `--url` names, or against a server process of our own. */
export async function useServer<T>(options: BenchOptions, work: (server: UsedServer) => Promise<T>): Promise<T> {
  if (options.url) {
    await probeServer(options.url, options.settings.stallTimeoutMs);
    return work({ url: options.url, label: options.url, exit: () => undefined });
  }
  const spawned = await spawnServer([...(options.settings.deflate ? ["--deflate"] : []), ...options.settings.userMessages.flatMap((f) => ["--messages", f.file]), ...(options.settings.userProto ? ["--proto", options.settings.userProto.file, "--proto-type", options.settings.userProto.type] : []),
    ...(options.settings.codecModules ?? []).flatMap((m) => ["--codec-module", m.file]),
  ]);
  let exit: string | undefined;
  void spawned.exited.then((how) => (exit = how === "0" ? "exit code 0" : /^\d+$/.test(how) ? `exit code ${how}` : `killed by ${how}`));
  try {
    return await work({ url: spawned.url, label: `spawned (pid ${spawned.pid}, ${spawned.url})`, exit: () => exit });
  } finally {
    await spawned.stop();
  }
}
