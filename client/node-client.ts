/**
 * The Node.js client: the same socket runner, on the npm `ws` package,
 * under the real Node (under Bun, `import "ws"` would give Bun's built-in
 * replacement). The bench bundles this file for Node, starts it and writes
 * the job (settings and server) to its standard input as one JSON line; it
 * answers on stdout with JSON lines: {"type":"progress",...}, then
 * {"type":"result","result":...} or {"type":"error","message":...}.
 */

import WebSocket from "ws";
import { calibrateClock, performanceClock } from "../bench/harness/clock.ts";
import type { Settings } from "../bench/harness/settings.ts";
import { parseLine, stringifyLine } from "./json-lines.ts";
import { processCpuMs, requestServerGc, type WebSocketClass } from "./socket/connection.ts";
import { runSocketModes } from "./socket/modes.ts";

/** What the bench sends: the run's settings, the server, and the library versions it found. */
export interface NodeClientJob {
  settings: Settings;
  server: string;
  wsVersion: string;
  libraryVersions: Record<string, string>;
  /** Server processes the rounds take turns with, `server` first (SocketModeContext.servers). */
  servers?: string[];
  /** false: no slice marks (a pass whose frames are counted); SocketModeContext.sliceFigures. */
  sliceFigures?: boolean;
}

function emit(value: unknown): void {
  process.stdout.write(stringifyLine(value) + "\n");
}

async function readJob(): Promise<NodeClientJob> {
  let text = "";
  for await (const chunk of process.stdin) text += String(chunk);
  return parseLine(text) as NodeClientJob;
}

async function main(): Promise<void> {
  const job = await readJob();
  let stopRequested = false;
  process.on("SIGINT", () => {
    stopRequested = true;
  });
  const calibration = calibrateClock(performanceClock);
  const result = await runSocketModes(job.settings, {
    server: job.server,
    clock: performanceClock,
    calibration,
    WebSocket: WebSocket as unknown as WebSocketClass,
    client: "node",
    clientLibrary: `ws ${job.wsVersion} on Node ${process.version}`,
    libraryVersion: (name) => job.libraryVersions[name] ?? "",
    gc: (globalThis as { gc?: () => void }).gc,
    serverGc: requestServerGc,
    servers: job.servers,
    cpuMs: processCpuMs,
    sliceFigures: job.sliceFigures,
    onProgress: (event) => emit({ type: "progress", event }),
    shouldStop: () => stopRequested,
  });
  emit({ type: "result", result, calibration, node: process.version });
}

main().catch((e: unknown) => {
  emit({ type: "error", message: e instanceof Error ? e.message : String(e) });
  process.exitCode = 1;
});
