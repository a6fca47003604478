/**
 * The link `--link` names, emulated by Toxiproxy (Shopify's TCP proxy): the
 * bench starts `toxiproxy-server` on a free loopback port, puts one proxy in
 * front of each server process, gives each direction its delay and then its
 * bandwidth, hands the clients the proxies' addresses for their WebSockets,
 * and stops it at the end. The bench's own requests to the server (warm-up,
 * collection, figures) go straight to it: they are not what is measured, and
 * a warm-up's megabytes over a 3g link would take minutes.
 *
 * What it models and what it does not (docs/links.md): it delays and paces
 * the bytes of a TCP stream; it drops no packet, so TCP's loss recovery never
 * runs, and its queue is the sockets' buffers, not a router's.
 */

import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { homedir } from "node:os";
import path from "node:path";
import type { LinkProfile } from "../../../client/harness/settings.ts";
import { CliError } from "../cli-errors.ts";
import { freePort } from "./free-port.ts";
import { spawnTethered, type TetheredProcess } from "./tethered.ts";

/** The Toxiproxy release `.ci/run` builds, and how a user gets it (a Go toolchain builds it in half a minute). */
const TOXIPROXY_INSTALL =
  "GOBIN=/tmp/toxiproxy go install github.com/Shopify/toxiproxy/v2/cmd/server@v2.12.0 && mv /tmp/toxiproxy/server ~/go/bin/toxiproxy-server";

/** What to do when there is none here: the one line names what needs it (the option, as the caller spells it: `--link`). */
export function noToxiproxyMessage(what: string): string {
  return `${what} needs toxiproxy-server (Toxiproxy, the link emulator), on PATH or in ~/go/bin: ${TOXIPROXY_INSTALL}`;
}

/** Where toxiproxy-server was found, once looked for (undefined: not yet looked). */
let found: { binary: string | undefined } | undefined;

/** Where toxiproxy-server is: on PATH, or where `go install` puts it; undefined when it is nowhere. Looked for once per process. */
export function findToxiproxy(): string | undefined {
  found ??= { binary: lookForToxiproxy() };
  return found.binary;
}

function lookForToxiproxy(): string | undefined {
  const gopath = process.env.GOPATH?.split(path.delimiter)[0] ?? path.join(homedir(), "go");
  for (const candidate of ["toxiproxy-server", path.join(gopath, "bin", "toxiproxy-server")]) {
    if (candidate.includes(path.sep) && !existsSync(candidate)) continue;
    if (spawnSync(candidate, ["-version"], { stdio: "ignore" }).status === 0) return candidate;
  }
  return undefined;
}

/** A toxic as Toxiproxy's API takes it. */
export interface Toxic {
  name: string;
  type: "latency" | "bandwidth" | "slicer" | "reset_peer" | "timeout" | "limit_data";
  /** upstream: client to server; downstream: server to client. */
  stream: "upstream" | "downstream";
  attributes: Record<string, number>;
}

/**
 * The toxics of a link, each direction its delay first and its bandwidth after. Toxiproxy's delay
 * counts from when the proxy read a chunk, so after the pacing it would absorb the pacing's time
 * (a 2 ms frame on a 60 ms link would arrive after 60 ms, not 62); in this order a message takes
 * the delay plus its bytes at the rate, and a stream is paced at the rate. Toxiproxy counts delays
 * in whole ms and rates in whole kB/s (8 kbit/s): an odd round trip gives the odd ms to the way down.
 */
export function linkToxics(link: LinkProfile): Toxic[] {
  const ways = [
    {
      stream: "downstream" as const,
      kbps: link.downKbps,
      delay: Math.ceil(link.rttMs / 2),
      jitter: Math.ceil(link.jitterMs / 2),
    },
    {
      stream: "upstream" as const,
      kbps: link.upKbps,
      delay: Math.floor(link.rttMs / 2),
      jitter: Math.floor(link.jitterMs / 2),
    },
  ];
  const toxics: Toxic[] = [];
  for (const w of ways) {
    if (w.delay > 0 || w.jitter > 0)
      toxics.push({
        name: `${w.stream}-latency`,
        type: "latency",
        stream: w.stream,
        attributes: { latency: w.delay, jitter: w.jitter },
      });
    if (w.kbps > 0)
      toxics.push({
        name: `${w.stream}-bandwidth`,
        type: "bandwidth",
        stream: w.stream,
        attributes: { rate: Math.max(1, Math.round(w.kbps / 8)) },
      });
  }
  return toxics;
}

/** A running link: the address in front of each server, and the emulator behind them. */
export interface LinkEmulator {
  /** Each server URL the link was put in front of, and the URL of its side of the link. */
  via: Record<string, string>;
  /** The emulator's own HTTP API, http://127.0.0.1:PORT. */
  api: string;
  /** Adds a toxic to the link in front of `server` (a fault: a slicer, a reset, silence). */
  addToxic(server: string, toxic: Toxic): Promise<void>;
  /** Takes a toxic off again. */
  removeToxic(server: string, name: string): Promise<void>;
  /** Stops the emulator and waits for it to exit. */
  stop(): Promise<void>;
}

/** One call to the emulator's API; a refusal is a CliError naming what it said. */
async function call(api: string, method: string, route: string, body?: unknown): Promise<unknown> {
  const res = await fetch(api + route, {
    method,
    ...(body !== undefined ? { body: JSON.stringify(body), headers: { "content-type": "application/json" } } : {}),
  });
  const text = await res.text();
  if (!res.ok)
    throw new CliError("LINK", `the link emulator refused ${method} ${route} (${res.status}): ${text.trim()}`);
  return text === "" ? undefined : JSON.parse(text);
}

/** Starts toxiproxy-server on a free loopback port; resolves once its API answers. */
async function startEmulator(binary: string, timeoutMs: number): Promise<{ api: string; process: TetheredProcess }> {
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    const api = `http://127.0.0.1:${port}`;
    const process_ = spawnTethered(binary, ["-host", "127.0.0.1", "-port", String(port)], {
      ...process.env,
      LOG_LEVEL: "warn",
    });
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      if (process_.ended()) break;
      try {
        await call(api, "GET", "/version");
        return { api, process: process_ };
      } catch {
        if (Date.now() > deadline) {
          await process_.stop();
          throw new CliError("LINK", `toxiproxy-server did not answer on port ${port} within ${timeoutMs / 1000} s`);
        }
        await new Promise((r) => setTimeout(r, 25));
      }
    }
    // It exited at start: another process took the port between our probe and its bind; try once more.
    if (attempt >= 3)
      throw new CliError(
        "LINK",
        `toxiproxy-server exited at start: ${process_.log().trim().split("\n").slice(-3).join(" ") || "no message"}`,
      );
  }
}

/**
 * Starts the emulator with `link` in front of each of `servers` (http://host:port); resolves
 * once every proxy listens. The caller stops it.
 */
export async function startLink(
  link: LinkProfile,
  servers: readonly string[],
  timeoutMs = 10_000,
): Promise<LinkEmulator> {
  const binary = findToxiproxy();
  if (!binary) throw new CliError("LINK", noToxiproxyMessage("an emulated link"));
  const { api, process: emulator } = await startEmulator(binary, timeoutMs);
  const names = new Map<string, string>();
  const via: Record<string, string> = {};
  try {
    for (const server of new Set(servers)) {
      const url = new URL(server);
      const name = `link${names.size}`;
      const upstream = `${url.hostname === "localhost" ? "127.0.0.1" : url.hostname}:${url.port || (url.protocol === "https:" ? 443 : 80)}`;
      const proxy = (await call(api, "POST", "/proxies", {
        name,
        listen: "127.0.0.1:0",
        upstream,
        enabled: true,
      })) as { listen: string };
      for (const toxic of linkToxics(link))
        await call(api, "POST", `/proxies/${name}/toxics`, { ...toxic, toxicity: 1 });
      names.set(server, name);
      via[server] = `${url.protocol}//${proxy.listen}`;
    }
  } catch (e) {
    await emulator.stop();
    throw e;
  }
  const proxyOf = (server: string): string => {
    const name = names.get(server);
    if (!name) throw new CliError("LINK", `no link in front of ${server}`);
    return name;
  };
  return {
    via,
    api,
    async addToxic(server, toxic) {
      await call(api, "POST", `/proxies/${proxyOf(server)}/toxics`, { ...toxic, toxicity: 1 });
    },
    async removeToxic(server, name) {
      await call(api, "DELETE", `/proxies/${proxyOf(server)}/toxics/${name}`);
    },
    stop: () => emulator.stop(),
  };
}
