/**
 * The Node.js client: the same socket runner, on the npm `ws` package,
 * under the real Node (under Bun, `import "ws"` would give Bun's built-in
 * replacement). The bench bundles this file for Node, starts it and writes
 * the job (settings and server) to its standard input; it answers in the
 * child protocol (client/child-protocol.ts): progress, each finished case,
 * then the result.
 */

import WebSocket from "ws";
import { calibrateClock, performanceClock } from "./harness/clock.ts";
import { loadPlan, type PlanSpec } from "./harness/plan.ts";
import { serveAsChild } from "./child-protocol.ts";
import { processCpuMs, requestServerGc, type WebSocketClass } from "./socket/client-connection.ts";
import { runSocketModes } from "./socket/modes.ts";

/** What the bench sends: the run's plan, the server, and the library versions it found. */
export interface NodeClientJob {
  plan: PlanSpec;
  server: string;
  wsVersion: string;
  libraryVersions: Record<string, string>;
  /** Server processes the rounds take turns with, `server` first (SocketModeContext.servers). */
  servers?: string[];
  /** false: no slice marks (a run whose frames are counted); SocketModeContext.sliceFigures. */
  sliceFigures?: boolean;
}

serveAsChild<NodeClientJob>("Node client", async (job, side) => {
  const plan = await side.ledger.timeAsync("start", () => loadPlan(job.plan));
  return runSocketModes(plan.settings, {
    server: job.server,
    clock: performanceClock,
    calibration: calibrateClock(performanceClock),
    WebSocket: WebSocket as unknown as WebSocketClass,
    client: "node",
    clientLibrary: `ws ${job.wsVersion} on Node ${process.version}`,
    libraryVersion: (name) => job.libraryVersions[name] ?? "",
    gc: (globalThis as { gc?: () => void }).gc,
    serverGc: requestServerGc,
    servers: job.servers,
    cpuMs: processCpuMs,
    sliceFigures: job.sliceFigures,
    onProgress: side.progress,
    onCaseDone: side.caseDone,
    shouldStop: side.shouldStop,
    ledger: side.ledger,
    catalog: plan.catalog,
  });
});
