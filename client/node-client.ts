/**
 * The Node.js client: the same socket runner, on the npm `ws` package,
 * under the real Node (under Bun, `import "ws"` would give Bun's built-in
 * replacement). The bench bundles this file for Node and starts it with one
 * argument, the options as JSON; it answers on stdout with JSON lines:
 * {"type":"progress",...}, then {"type":"result","result":...} or
 * {"type":"error","message":...}.
 */

import WebSocket from "ws";
import { performanceClock, calibrateClock } from "../bench/harness/clock.ts";
import { stringifyLine } from "./json-lines.ts";
import { runSocketModes, type SocketModeOptions } from "./socket/modes.ts";
import type { WebSocketClass } from "./socket/runner.ts";

/** What the bench sends: everything but the parts only this process can supply. */
export type NodeClientJob = Omit<
  SocketModeOptions,
  "clock" | "calibration" | "WebSocket" | "client" | "clientLibrary" | "gc" | "serverGc" | "cpuMs" | "onProgress" | "shouldStop" | "onCaseDone" | "libraryVersion"
> & {
  wsVersion: string;
  libraryVersions: Record<string, string>;
};

function emit(value: unknown): void {
  process.stdout.write(stringifyLine(value) + "\n");
}

async function main(): Promise<void> {
  const job = JSON.parse(process.argv[2] ?? "{}") as NodeClientJob;
  let stopRequested = false;
  process.on("SIGINT", () => {
    stopRequested = true;
  });
  const calibration = calibrateClock(performanceClock);
  const gc = (globalThis as { gc?: () => void }).gc;
  const result = await runSocketModes({
    ...job,
    clock: performanceClock,
    calibration,
    WebSocket: WebSocket as unknown as WebSocketClass,
    client: "node",
    clientLibrary: `ws ${job.wsVersion} on Node ${process.version}`,
    libraryVersion: (name) => job.libraryVersions[name] ?? "",
    gc,
    serverGc: async () => {
      await fetch(new URL("/gc", job.server), { method: "POST" }).catch(() => undefined);
    },
    cpuMs: () => {
      const c = process.cpuUsage();
      return (c.user + c.system) / 1000;
    },
    onProgress: (event) => emit({ type: "progress", event }),
    shouldStop: () => stopRequested,
  });
  emit({ type: "result", result, calibration, node: process.version });
}

main().catch((e: unknown) => {
  emit({ type: "error", message: e instanceof Error ? e.message : String(e) });
  process.exitCode = 1;
});
