/**
 * Runs the WebSocket modes in a Node.js process with the npm `ws` client:
 * bundles client/node-client.ts for Node (libraries stay external, loaded
 * from node_modules), starts `node` on it and relays its JSON lines.
 */

import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync } from "node:fs";
import path from "node:path";
import type { NodeClientJob } from "../../../client/node-client.ts";
import type { SocketModeResult } from "../../../client/socket/modes.ts";
import type { Progress } from "../../../client/harness/progress.ts";
import { inPhaseAsync, type TimeLedger } from "../../../client/harness/time-account.ts";
import type { CaseResult } from "../../../client/harness/results.ts";
import { ROOT } from "../paths.ts";
import { runReportingChild } from "./reporting-child.ts";
import { CliError } from "../cli-errors.ts";

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
  if (!build.success)
    throw new CliError("BUILD", `could not bundle the Node client: ${build.logs.map(String).join("; ")}`);
  return path.join(BUILD_DIR, "node-client.mjs");
}

export async function runNodeClient(
  job: NodeClientJob,
  onProgress: (e: Progress) => void,
  shouldStop: () => boolean = () => false,
  onCase?: (c: CaseResult) => void,
  ledger?: TimeLedger,
): Promise<SocketModeResult> {
  const entry = await inPhaseAsync(ledger, "start", buildNodeClient);
  const node = findNode();
  if (!node) throw new CliError("NO_NODE", "no Node.js on PATH");
  // --expose-gc: the client collects its garbage before each run, as the Bun client does.
  return runReportingChild<SocketModeResult>({
    name: "the Node client",
    command: node,
    args: ["--expose-gc", entry],
    job: { json: job },
    onProgress,
    onCase,
    shouldStop,
    ledger,
  });
}
