/**
 * Runs the WebSocket modes in a Node.js process with the npm `ws` client:
 * bundles client/node-client.ts for Node (libraries stay external, loaded
 * from node_modules), starts `node` on it and relays its JSON lines.
 */

import { spawn, spawnSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import path from "node:path";
import { parseLine } from "../../../client/json-lines.ts";
import type { NodeClientJob } from "../../../client/node-client.ts";
import type { SocketModeResult, SocketProgress } from "../../../client/socket/modes.ts";
import { ROOT } from "../paths.ts";

/** Inside the project, so Node resolves the external libraries from its node_modules. */
const BUILD_DIR = path.join(ROOT, ".bench-tmp");

/** The Node.js version on PATH, or undefined when there is none. */
export function nodeVersion(): string | undefined {
  const r = spawnSync("node", ["--version"], { encoding: "utf8" });
  return r.status === 0 ? r.stdout.trim() : undefined;
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

export async function runNodeClient(job: NodeClientJob, onProgress: (e: SocketProgress) => void, shouldStop: () => boolean = () => false): Promise<SocketModeResult> {
  const entry = await buildNodeClient();
  // --expose-gc: the client collects its garbage before each run, as the Bun client does.
  const child = spawn("node", ["--expose-gc", entry, JSON.stringify(job)], { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
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
      const msg = parseLine(line) as { type: string; event?: SocketProgress; result?: SocketModeResult; message?: string };
      if (msg.type === "progress") onProgress(msg.event!);
      else if (msg.type === "result") result = msg.result;
      else if (msg.type === "error") failure = msg.message;
    }
  });
  // Ctrl-C reaches the client as SIGINT: it stops after its current case and reports.
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
