/**
 * Runs the WebSocket modes in a Node.js process with the npm `ws` client:
 * bundles client/node-client.ts for Node (libraries stay external, loaded
 * from node_modules), starts `node` on it and relays its JSON lines.
 */

import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync } from "node:fs";
import path from "node:path";
import { parseLine } from "../../../client/json-lines.ts";
import type { NodeClientJob } from "../../../client/node-client.ts";
import type { SocketModeResult } from "../../../client/socket/modes.ts";
import type { Progress } from "../../harness/progress.ts";
import { ROOT } from "../paths.ts";

/** Inside the project, so Node resolves the external libraries from its node_modules. */
const BUILD_DIR = path.join(ROOT, ".bench-tmp");

let realNode: string | null | undefined;

/**
 * The first `node` on PATH that is Node.js itself. Under `bun --bun` (the
 * test command, for one) Bun puts a `node` of its own first on PATH, which
 * is Bun again; the Node client must run on the real thing.
 */
export function findNode(): string | undefined {
  if (realNode === undefined) {
    realNode = null;
    for (const dir of (process.env.PATH ?? "").split(path.delimiter)) {
      const candidate = path.join(dir, "node");
      if (dir === "" || !existsSync(candidate)) continue;
      const r = spawnSync(candidate, ["-p", "process.versions.bun ? '' : process.version"], { encoding: "utf8" });
      if (r.status === 0 && r.stdout.startsWith("v")) {
        realNode = candidate;
        break;
      }
    }
  }
  return realNode ?? undefined;
}

/** The version of Node.js on PATH, or undefined when there is none. */
export function nodeVersion(): string | undefined {
  const node = findNode();
  return node && spawnSync(node, ["--version"], { encoding: "utf8" }).stdout.trim();
}

async function buildNodeClient(): Promise<string> {
  mkdirSync(BUILD_DIR, { recursive: true });
  const build = await Bun.build({
    entrypoints: [path.join(ROOT, "client/node-client.ts")],
    outdir: BUILD_DIR,
    target: "node",
    format: "esm",
    packages: "external",
    naming: "node-client.mjs",
  });
  if (!build.success) throw new Error(`could not bundle the Node client: ${build.logs.map(String).join("; ")}`);
  return path.join(BUILD_DIR, "node-client.mjs");
}

export async function runNodeClient(job: NodeClientJob, onProgress: (e: Progress) => void, shouldStop: () => boolean = () => false): Promise<SocketModeResult> {
  const entry = await buildNodeClient();
  // --expose-gc: the client collects its garbage before each run, as the Bun client does.
  const node = findNode();
  if (!node) throw new Error("no Node.js on PATH");
  // Its own process group: a terminal's Ctrl-C reaches the bench, which asks the client to stop after its case.
  const child = spawn(node, ["--expose-gc", entry], { cwd: ROOT, stdio: ["pipe", "pipe", "pipe"], detached: true });
  child.stdin.end(JSON.stringify(job) + "\n");
  let stderr = "";
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  let buffered = "";
  let result: SocketModeResult | undefined;
  let failure: string | undefined;
  child.stdout.on("data", (d: Buffer) => {
    buffered += d.toString();
    let newline: number;
    while ((newline = buffered.indexOf("\n")) !== -1) {
      const line = buffered.slice(0, newline);
      buffered = buffered.slice(newline + 1);
      const msg = parseLine(line) as { type: string; event?: Progress; result?: SocketModeResult; message?: string };
      if (msg.type === "progress") onProgress(msg.event!);
      else if (msg.type === "result") result = msg.result;
      else if (msg.type === "error") failure = msg.message;
    }
  });
  // Ctrl-C: the client hears SIGINT from us, stops after its current case and reports.
  const watch = setInterval(() => {
    if (shouldStop()) {
      child.kill("SIGINT");
      clearInterval(watch);
    }
  }, 200);
  const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
  clearInterval(watch);
  if (result) return result;
  throw new Error(`the Node client failed${failure ? `: ${failure}` : ` (exit ${code})`}${stderr ? `: ${stderr.trim().split("\n").slice(-3).join(" | ")}` : ""}`);
}
