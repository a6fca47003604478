/**
 * Driving a user's load at a real server process: every codec's windows carry the rates asked,
 * each message reaches fan-out sockets, the server's CPU is read over each window, and a codec
 * whose drive fails says why without taking the others' windows with it.
 */
import { describe, expect, it } from "vitest";
import { BUILT_IN, CodecCatalog } from "../../../protocols/registry.ts";
import { performanceClock } from "../../../client/harness/clock.ts";
import { makeMessages } from "../../../client/harness/generator.ts";
import type { PayloadName } from "../../../protocols/messages.ts";
import { driveLoad, type LoadDriveContext } from "../../../client/socket/load-drive.ts";
import { processCpuMs, type WebSocketClass } from "../../../client/socket/client-connection.ts";
import type { Progress } from "../../../client/harness/progress.ts";
import { serverForFile } from "../../helpers/server.ts";

const WS = globalThis.WebSocket as unknown as WebSocketClass;

describe("driving a load", () => {
  const server = serverForFile({ ownProcess: true });
  const context = (over: Partial<LoadDriveContext> = {}): LoadDriveContext => ({
    servers: [server.url],
    catalog: BUILT_IN,
    WebSocket: WS,
    clock: performanceClock,
    stallTimeoutMs: 10_000,
    messagesOf: (payload: PayloadName) => makeMessages(payload, { count: 200, seed: 5, fixed: false }),
    seed: 1,
    rounds: 2,
    warmMs: 100,
    windowMs: 400,
    ...over,
  });

  it("sends each payload at its rate, every message to fan-out sockets (a window counts once all arrived), and reads the server's CPU", async () => {
    const progress: Progress[] = [];
    const m = await driveLoad(
      {
        rates: [
          { payload: "small", rate: 400 },
          { payload: "large", rate: 100 },
        ],
        fanout: 3,
      },
      ["raw", "json", "custom-binary"],
      context({ onProgress: (e) => progress.push(e), cpuMs: processCpuMs }),
    );
    expect(m.drives.map((d) => d.codec)).toEqual(["raw", "json", "custom-binary"]);
    for (const d of m.drives) {
      expect(d.error).toBeUndefined();
      expect(d.rounds.map((r) => r.round)).toEqual([0, 1]);
      for (const r of d.rounds) {
        expect(r.cores).toBeGreaterThan(0);
        // The open loop keeps its schedule on a busy machine too: within a tick's messages of 500 a second.
        expect(r.sentPerS).toBeGreaterThan(400);
        expect(r.sentPerS).toBeLessThan(600);
        expect(r.clientCores).toBeGreaterThan(0);
      }
    }
    expect(progress).toHaveLength(6);
    expect(progress[0]).toMatchObject({ mode: "load", payload: "small=400+large=100", runs: 2, total: 6 });
  });

  it("a codec the server refuses fails with its reason; the other codecs' windows stand", async () => {
    const m = await driveLoad(
      { rates: [{ payload: "small", rate: 200 }], fanout: 2 },
      ["json", "no-such-codec"],
      context({
        rounds: 1,
        // The server knows no such codec; the client's own catalog must, to encode.
        catalog: CodecCatalog.of([{ ...BUILT_IN.get("json")!, name: "no-such-codec" }]),
      }),
    );
    const json = m.drives.find((d) => d.codec === "json")!;
    const bad = m.drives.find((d) => d.codec === "no-such-codec")!;
    expect(json.error).toBeUndefined();
    expect(json.rounds).toHaveLength(1);
    expect(bad.rounds).toHaveLength(0);
    expect(bad.error).toMatch(/^round 1: cannot connect to ws:\/\/.*codec=no-such-codec/);
  });

  it("stops between windows when asked, keeping what it measured", async () => {
    let windows = 0;
    const m = await driveLoad({ rates: [{ payload: "small", rate: 200 }], fanout: 1 }, ["raw", "json"], {
      ...context(),
      onProgress: () => windows++,
      shouldStop: () => windows >= 1,
    });
    expect(m.drives.reduce((n, d) => n + d.rounds.length, 0)).toBe(1);
  });
});
