/**
 * One WebSocket case against the real server (port 0), and against tiny
 * test servers that misbehave on purpose: silent, closing, swapping or
 * answering with the wrong message.
 */
import { BUILT_IN } from "../../../protocols/registry.ts";
import type { Server, ServerWebSocket } from "bun";
import { afterEach, describe, expect, it } from "vitest";
import { performanceClock } from "../../../client/harness/clock.ts";
import { makeMessages } from "../../../client/harness/generator.ts";
import type { SocketMode } from "../../../client/harness/settings.ts";
import { processCpuMs, type WebSocketClass } from "../../../client/socket/client-connection.ts";
import type { SocketCaseOptions } from "../../../client/socket/socket-case.ts";
import { runSocketCase } from "../../../client/socket/runner.ts";
import type { PayloadName } from "../../../protocols/messages.ts";
import { serverForFile } from "../../helpers/server.ts";

const WS = globalThis.WebSocket as unknown as WebSocketClass;
let ids = 0;

const bench = serverForFile();

/** Test servers started by a test; stopped after it. */
const testServers: Server<unknown>[] = [];
afterEach(async () => {
  await Promise.all(testServers.splice(0).map((s) => s.stop(true)));
});

type Handler = (ws: ServerWebSocket<unknown>, message: string | Buffer) => void;

/** A WebSocket server on port 0 that accepts any upgrade and hands every message to `onMessage`; its http base URL. */
function testServer(onMessage: Handler): string {
  const s = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch: (req, srv) =>
      srv.upgrade(req, { data: undefined }) ? undefined : new Response("not here", { status: 404 }),
    websocket: { message: onMessage },
  });
  testServers.push(s);
  return `http://127.0.0.1:${s.port}`;
}

function run(o: {
  codec: string;
  payload?: PayloadName;
  mode: SocketMode;
  count: number;
  window?: number;
  server?: string;
  stallTimeoutMs?: number;
  cpuMs?: () => number;
}) {
  const payload = o.payload ?? "small";
  const options: SocketCaseOptions = {
    server: o.server ?? bench.url,
    catalog: BUILT_IN,
    codec: o.codec,
    payload,
    mode: o.mode,
    messages: makeMessages(payload, { count: o.count, seed: 21, fixed: false }),
    window: o.window ?? 16,
    stallTimeoutMs: o.stallTimeoutMs ?? 10_000,
    clock: performanceClock,
    timerOverheadNs: 40,
    WebSocket: WS,
    id: `runner-test-${ids++}`,
    cpuMs: o.cpuMs,
  };
  return runSocketCase(options);
}

describe("runSocketCase: roundtrip", () => {
  for (const codec of ["json", "custom-binary"]) {
    it(`${codec}: every message comes back, one round-trip time each`, async () => {
      const f = await run({ codec, mode: "roundtrip", count: 60 });
      expect(f.error).toBeUndefined();
      expect([f.sent, f.received, f.lost, f.reordered, f.corrupted]).toEqual([60, 60, 0, 0, 0]);
      expect(f.rttNs).toBeInstanceOf(Float64Array);
      expect(f.rttNs!.length).toBe(60);
      expect(Array.from(f.rttNs!).every((ns) => ns > 0)).toBe(true);
      expect(f.elapsedMs).toBeGreaterThan(0);
      expect(f.serializeNs).toBeGreaterThan(0);
      expect(f.deserializeNs).toBeGreaterThan(0);
      expect(f.extensions).toBe("");
    });
  }

  it("counts payload bytes both ways (a small JSON message is 33 bytes)", async () => {
    const f = await run({ codec: "json", mode: "roundtrip", count: 20 });
    expect(f.bytesSent).toBe(20 * 33);
    expect(f.bytesReceived).toBe(20 * 33);
  });

  it("brings back the server's figures for its connection", async () => {
    const f = await run({ codec: "msgpack", payload: "medium", mode: "roundtrip", count: 25 });
    expect(f.server).toBeDefined();
    expect(f.server!.messages).toBe(25);
    expect(f.server!.codec).toBe("msgpack");
    expect(f.server!.payload).toBe("medium");
    expect(f.server!.dropped).toBe(0);
    expect(f.server!.bytesIn).toBe(f.bytesSent);
  });

  it("measures the client's CPU time when given a counter, and leaves it unknown without one", async () => {
    const withCpu = await run({ codec: "json", mode: "roundtrip", count: 10, cpuMs: processCpuMs });
    expect(withCpu.clientCpuMs).toBeGreaterThanOrEqual(0);
    const without = await run({ codec: "json", mode: "roundtrip", count: 10 });
    expect(without.clientCpuMs).toBeNaN();
  });

  it("counts replies that are not the message sent as corrupted, and fails the case", async () => {
    const server = testServer((ws) => ws.send('{"text":"Hello World!","num":123}'));
    const f = await run({ codec: "json", mode: "roundtrip", count: 5, server });
    expect([f.sent, f.received, f.lost, f.corrupted]).toEqual([5, 5, 0, 5]);
    expect(f.error).toBe("5 reply(ies) did not match what was sent");
  });
});

describe("runSocketCase: stream", () => {
  it("streams more messages than the window and loses none", async () => {
    const f = await run({ codec: "custom-binary", payload: "large", mode: "stream", count: 2000, window: 32 });
    expect(f.error).toBeUndefined();
    expect([f.sent, f.received, f.lost, f.reordered, f.corrupted]).toEqual([2000, 2000, 0, 0, 0]);
    expect(f.rttNs).toBeUndefined();
    expect(f.server?.messages).toBe(2000);
  });

  it("keeps exactly `window` messages in flight, never more", async () => {
    const window = 8;
    let received = 0;
    let replied = 0;
    let maxInFlight = 0;
    const held: (string | Buffer)[] = [];
    // Answers nothing until a whole window has arrived (a client sending fewer would stall), then everything at once.
    const server = testServer((ws, message) => {
      received++;
      maxInFlight = Math.max(maxInFlight, received - replied);
      held.push(message);
      if (received < window) return;
      for (const m of held.splice(0)) {
        ws.send(m);
        replied++;
      }
    });
    const f = await run({ codec: "json", mode: "stream", count: 100, window, server, stallTimeoutMs: 5000 });
    expect(f.error).toBeUndefined();
    expect(f.received).toBe(100);
    expect(maxInFlight).toBe(window);
  });

  it("counts a reply that overtook an older one as reordered", async () => {
    let waiting: string | Buffer | undefined;
    // Swaps each pair: the second message's reply goes first.
    const server = testServer((ws, message) => {
      if (waiting === undefined) {
        waiting = message;
        return;
      }
      ws.send(message);
      ws.send(waiting);
      waiting = undefined;
    });
    const f = await run({ codec: "json", mode: "stream", count: 20, window: 4, server, stallTimeoutMs: 5000 });
    expect([f.sent, f.received, f.lost]).toEqual([20, 20, 0]);
    // Each swapped pair is one reply early, not a wrong reply as well.
    expect([f.reordered, f.corrupted]).toEqual([10, 0]);
    expect(f.error).toBe("10 reply(ies) arrived out of order");
  });

  it("raw: the echo comes back byte for byte, and the server counts every message", async () => {
    const f = await run({ codec: "raw", payload: "medium", mode: "stream", count: 300, window: 16 });
    expect(f.error).toBeUndefined();
    expect([f.sent, f.received, f.corrupted]).toEqual([300, 300, 0]);
    expect(f.bytesReceived).toBe(f.bytesSent);
    expect(f.server?.messages).toBe(300);
  });
});

describe("runSocketCase: raw in roundtrip mode", () => {
  it("times every echo", async () => {
    const f = await run({ codec: "raw", payload: "large", mode: "roundtrip", count: 40 });
    expect(f.error).toBeUndefined();
    expect(f.received).toBe(40);
    expect(f.rttNs!.length).toBe(40);
    expect(f.server?.messages).toBe(40);
  });
});

describe("runSocketCase: failures come back in `error`", () => {
  it("names an unknown codec without connecting", async () => {
    const f = await run({ codec: "yaml", mode: "roundtrip", count: 3 });
    expect(f.error).toBe("unknown codec 'yaml'");
    expect(f.sent).toBe(0);
  });

  it("reports a refused connection", async () => {
    const s = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("") });
    const port = s.port!;
    await s.stop(true);
    const f = await run({
      codec: "json",
      mode: "roundtrip",
      count: 3,
      server: `http://127.0.0.1:${port}`,
      stallTimeoutMs: 5000,
    });
    expect(f.error?.startsWith("cannot connect to ")).toBe(true);
    expect(f.error).toContain(`127.0.0.1:${port}`);
    expect(f.sent).toBe(0);
    expect(f.server).toBeUndefined();
  });

  for (const mode of ["roundtrip", "stream"] as const) {
    it(`${mode}: ends as stalled, about the stall timeout after the server went silent`, async () => {
      const server = testServer(() => undefined);
      const t0 = performance.now();
      const f = await run({ codec: "json", mode, count: 10, window: 4, server, stallTimeoutMs: 300 });
      const wallMs = performance.now() - t0;
      expect(f.error).toMatch(/stalled: no reply for \d+ ms/);
      expect(f.error).toContain("no reply for 300 ms after 0 of 10 replies");
      if (mode === "stream") expect(f.error).toContain("(4 in flight)");
      expect(f.sent).toBe(mode === "stream" ? 4 : 1);
      expect(f.received).toBe(0);
      expect(f.lost).toBe(f.sent);
      // The watchdog checks every 75 ms here: it fires past 300 ms, not seconds later.
      expect(f.elapsedMs).toBeGreaterThanOrEqual(300);
      expect(f.elapsedMs).toBeLessThan(1500);
      expect(wallMs).toBeLessThan(5000);
    });
  }

  it("reports the server closing the connection mid-case with its code and reason", async () => {
    const server = testServer((ws) => ws.close(4001, "going away for a test"));
    const f = await run({ codec: "json", mode: "roundtrip", count: 5, server, stallTimeoutMs: 5000 });
    expect(f.error).toBe("the server closed the connection with 4001 (going away for a test) after 0 of 5 replies");
    expect(f.lost).toBe(1);
  });
});
