/**
 * `bun run server --processes N`: N server processes on one port. The
 * first process takes the port (or a free one), the others join it with
 * `reusePort`, and Linux spreads new connections over them (SO_REUSEPORT
 * hashes each connection's addresses). Each process also listens on a port
 * of its own, which reaches it alone: /health lists them, /stats/ID asks
 * them in turn, and a client that must place its connections (the bench's
 * fanout: the publisher on one process, subscribers on each) uses them.
 *
 * This process, the supervisor, starts them, tells each the others' URLs
 * (one JSON line on its standard input, acknowledged with one on its
 * standard output), and stops them all when it stops; a process that ends
 * on its own takes the cluster down with a line saying which. Bun's
 * `publish` reaches only its own process: fanout and route across
 * processes need --backplane (server/backplane-relay.ts).
 */

import { spawn, type ChildProcess } from "node:child_process";
import type { ClusterPeer } from "./context.ts";
import { exitOf, stopChild } from "./process-exit.ts";

/** Set in a process the supervisor starts: "INDEX/SIZE". */
const PROCESS_ENV = "WSBENCH_CLUSTER_PROCESS";

/** Which process of the cluster this is, when the supervisor started it. */
export function clusterProcess(env: NodeJS.ProcessEnv): { index: number; size: number } | undefined {
  const m = /^(\d+)\/(\d+)$/.exec(env[PROCESS_ENV] ?? "");
  return m ? { index: Number(m[1]), size: Number(m[2]) } : undefined;
}

/** Why N processes cannot share a port here, or undefined where they can: Bun's reusePort balances connections on Linux only. */
export function reusePortRefusal(option: string, platform: string = process.platform): string | undefined {
  return platform === "linux"
    ? undefined
    : `${option} needs SO_REUSEPORT's load balancing, which Bun has on Linux only (this is ${platform}); run one process per port instead`;
}

/** What a process prints once it listens: the shared URL and its own. */
interface ProcessReady {
  event: "ready";
  url: string;
  direct: string;
  pid: number;
}

interface Started {
  index: number;
  child: ChildProcess;
  ready: ProcessReady;
  exited: Promise<string>;
}

export interface Cluster {
  /** The shared port's URL. */
  url: string;
  processes: ClusterPeer[];
  /** Resolves when a process ends on its own: which, and how. */
  lost: Promise<string>;
  /** Stops every process (SIGTERM, SIGKILL after 5 s). */
  stop(): Promise<void>;
}

/** The next line `child` prints on stdout, parsed; rejects when it exits first or after `ms`. */
function nextLine<T>(
  child: ChildProcess,
  exited: Promise<string>,
  what: string,
  stderr: () => string,
  ms: number,
): Promise<T> {
  return new Promise((resolve, reject) => {
    let buffered = "";
    const timer = setTimeout(() => fail(`did not ${what} within ${ms} ms`), ms);
    const fail = (why: string): void => {
      clearTimeout(timer);
      child.stdout!.off("data", onData);
      const said = stderr().trim().split("\n").pop();
      reject(new Error(`${why}${said ? `: ${said}` : ""}`));
    };
    const onData = (d: Buffer): void => {
      buffered += d.toString();
      const newline = buffered.indexOf("\n");
      if (newline === -1) return;
      clearTimeout(timer);
      child.stdout!.off("data", onData);
      try {
        resolve(JSON.parse(buffered.slice(0, newline)) as T);
      } catch {
        reject(new Error(`printed something that is not JSON: ${buffered.slice(0, newline)}`));
      }
    };
    child.stdout!.on("data", onData);
    void exited.then((how) => fail(`exited (${how}) before it could ${what}`));
  });
}

/** Where the supervisor's processes get their environment, and where their standard error goes (the supervisor's own, each line marked). */
export interface ClusterIo {
  env: NodeJS.ProcessEnv;
  stderr(text: string): void;
}

/** Starts process `index` of `size` on `port` and waits for its ready line. */
async function startProcess(
  script: string,
  args: readonly string[],
  index: number,
  size: number,
  port: number,
  timeoutMs: number,
  io: ClusterIo,
): Promise<Started> {
  const child = spawn(process.execPath, [script, ...args, "--port", String(port), "--exit-with-stdin"], {
    stdio: ["pipe", "pipe", "pipe"],
    env: { ...io.env, [PROCESS_ENV]: `${index}/${size}` },
  });
  let stderr = "";
  child.stderr!.on("data", (d: Buffer) => {
    stderr += d.toString();
    io.stderr(d.toString().replace(/^(?=.)/gm, `[process ${index}] `));
  });
  const exited = exitOf(child);
  try {
    const ready = await nextLine<ProcessReady>(child, exited, "start", () => stderr, timeoutMs);
    if (ready.event !== "ready") throw new Error(`printed ${JSON.stringify(ready)} where its ready line was due`);
    return { index, child, ready, exited };
  } catch (e) {
    child.kill("SIGKILL");
    throw new Error(`process ${index} ${(e as Error).message}`);
  }
}

/**
 * Starts `size` processes of `script` with `args` on `port` (0: a free one, which the first
 * takes and the rest join), tells each the others' URLs, and resolves once all have them.
 */
export async function startCluster(
  script: string,
  args: readonly string[],
  size: number,
  port: number,
  io: ClusterIo,
  timeoutMs = 30_000,
): Promise<Cluster> {
  const started: Started[] = [];
  let stopping = false;
  const stop = async (): Promise<void> => {
    stopping = true;
    await Promise.all(started.map((p) => stopChild(p.child, p.exited)));
  };
  try {
    for (let index = 0; index < size; index++) {
      const shared = index === 0 ? port : Number(new URL(started[0]!.ready.url).port);
      started.push(await startProcess(script, args, index, size, shared, timeoutMs, io));
    }
    const processes: ClusterPeer[] = started.map((p) => ({ index: p.index, pid: p.ready.pid, url: p.ready.direct }));
    for (const p of started) {
      const acked = nextLine<{ event: string }>(p.child, p.exited, "take the cluster's URLs", () => "", timeoutMs);
      p.child.stdin!.write(JSON.stringify({ peers: processes }) + "\n");
      await acked;
      p.child.stdout!.resume();
    }
    // Only a process that ends unasked: the cluster stopping resolves nothing.
    const lost = Promise.race(started.map((p) => p.exited.then((how) => ({ index: p.index, how })))).then(
      ({ index, how }) => {
        if (stopping) return new Promise<string>(() => {});
        void stop();
        return `process ${index} (pid ${started[index]!.ready.pid}) exited (${how})`;
      },
    );
    return { url: started[0]!.ready.url, processes, lost, stop };
  } catch (e) {
    await stop();
    throw e;
  }
}
