/** One socket-mode context for every client: what the factory fills in, and a cluster's processes reaching the modes that place connections on them. */
import { describe, expect, it } from "vitest";
import { socketModeContext, warmedKey } from "../../../client/socket/mode-context.ts";
import { performanceClock, calibrateClock } from "../../../client/harness/clock.ts";
import { requestServerGc, type WebSocketClass } from "../../../client/socket/client-connection.ts";
import { processesOf } from "../../../client/socket/socket-case.ts";
import { BUILT_IN } from "../../../protocols/registry.ts";

const client = {
  kind: "node" as const,
  library: "ws 8 on Node 20",
  WebSocket: globalThis.WebSocket as unknown as WebSocketClass,
};
const run = { catalog: BUILT_IN, calibration: calibrateClock(performanceClock), hooks: { shouldStop: () => false } };

describe("socketModeContext", () => {
  it("fills what every client shares: the clock, the server's collection, the hooks", () => {
    const ctx = socketModeContext(client, { server: "http://127.0.0.1:1" }, run);
    expect(ctx.clock).toBe(performanceClock);
    expect(ctx.serverGc).toBe(requestServerGc);
    expect(ctx.shouldStop).toBe(run.hooks.shouldStop);
    expect([ctx.client, ctx.clientLibrary, ctx.server]).toEqual(["node", "ws 8 on Node 20", "http://127.0.0.1:1"]);
    expect(ctx.cluster).toBeUndefined();
    expect(ctx.cpuMs).toBeUndefined();
  });

  it("gives route and fanout a cluster's own processes, so they place connections on each and read every one's CPU", () => {
    const urls = ["http://127.0.0.1:2", "http://127.0.0.1:3"];
    const ctx = socketModeContext(
      client,
      { server: "http://127.0.0.1:1", serverForks: ["http://127.0.0.1:1"], cluster: { urls, backplane: "redis" } },
      { ...run, warmedInProcess: new Map([[warmedKey("small", "json"), 10]]) },
    );
    expect(ctx.cluster).toEqual(urls);
    expect(ctx.backplane).toBe("redis");
    expect(processesOf({ server: ctx.server, cluster: ctx.cluster })).toEqual(urls);
    expect(ctx.warmedInProcess?.get("small json")).toBe(10);
  });
});
