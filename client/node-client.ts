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
import { processCpuMs, type WebSocketClass } from "./socket/client-connection.ts";
import { socketModeContext } from "./socket/mode-context.ts";
import { runSocketModes } from "./socket/modes.ts";

/** What the bench sends: the run's plan, the server, and the library versions it found. */
export interface NodeClientJob {
  plan: PlanSpec;
  server: string;
  wsVersion: string;
  libraryVersions: Record<string, string>;
  /** Server forks the rounds take turns with, `server` first (SocketModeContext.serverForks). */
  serverForks?: string[];
  /** false: no slice marks (a run whose frames are counted); SocketModeContext.sliceFigures. */
  sliceFigures?: boolean;
  /** The server is a cluster: its processes' own URLs and what joins them (fanout and route place their connections on them, and read every process's CPU). */
  cluster?: { urls: readonly string[]; backplane?: string };
  /** --link: the address of the link in front of each server URL (SocketTarget.linkVia). */
  linkVia?: Readonly<Record<string, string>>;
}

serveAsChild<NodeClientJob>("Node client", async (job, side) => {
  const plan = await side.ledger.timeAsync("start", () => loadPlan(job.plan));
  const client = {
    kind: "node" as const,
    library: `ws ${job.wsVersion} on Node ${process.version}`,
    WebSocket: WebSocket as unknown as WebSocketClass,
    cpuMs: processCpuMs,
  };
  const target = {
    server: job.server,
    ...(job.serverForks ? { serverForks: job.serverForks } : {}),
    ...(job.cluster ? { cluster: job.cluster } : {}),
    ...(job.linkVia ? { linkVia: job.linkVia } : {}),
  };
  const hooks = {
    libraryVersion: (name: string) => job.libraryVersions[name] ?? "",
    gc: (globalThis as { gc?: () => void }).gc,
    onProgress: side.progress,
    onCaseDone: side.caseDone,
    shouldStop: side.shouldStop,
    ledger: side.ledger,
  };
  const sliceFigures = job.sliceFigures !== undefined ? { sliceFigures: job.sliceFigures } : {};
  return runSocketModes(
    plan.settings,
    socketModeContext(client, target, {
      catalog: plan.catalog,
      calibration: calibrateClock(performanceClock),
      hooks,
      ...sliceFigures,
    }),
  );
});
