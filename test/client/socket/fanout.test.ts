/**
 * Fanout through Bun's pub/sub: every subscriber gets every message in
 * order; roles and topics are checked.
 */
import { BUILT_IN } from "../../../protocols/registry.ts";
import { describe, expect, it } from "vitest";
import { performanceClock } from "../../../client/harness/clock.ts";
import { makeMessages } from "../../../client/harness/generator.ts";
import { runFanoutCase } from "../../../client/socket/fanout.ts";
import { openSocket, type WebSocketClass } from "../../../client/socket/client-connection.ts";
import { CLOSE, socketUrl } from "../../../protocols/contract.ts";
import { serverForEachTest } from "../../helpers/server.ts";

const WS = globalThis.WebSocket as unknown as WebSocketClass;

describe("fanout on the server", () => {
  const server = serverForEachTest();

  it("delivers every message to every subscriber in order", async () => {
    const r = await runFanoutCase({
      server: server.url,
      catalog: BUILT_IN,
      codec: "custom-binary",
      payload: "large",
      messages: makeMessages("large", { count: 300, seed: 3, fixed: false }),
      subscribers: 5,
      window: 16,
      stallTimeoutMs: 5000,
      clock: performanceClock,
      timerOverheadNs: 40,
      WebSocket: WS,
      id: "fanout-test",
    });
    expect(r.figures.error).toBeUndefined();
    expect(r.figures.received).toBe(1500);
    expect(r.perSubscriber.map((s) => s.received)).toEqual([300, 300, 300, 300, 300]);
    expect(r.figures.server?.publishDropped).toBe(0);
    expect(r.figures.server?.published).toBe(300);
  });

  it("needs a valid role and topic, and closes a subscriber that sends with 1008", async () => {
    expect((await fetch(`${server.url}/ws?codec=json&payload=small&role=admin`)).status).toBe(400);
    const noTopic = await fetch(`${server.url}/ws?codec=json&payload=small&role=subscriber`, {
      headers: { upgrade: "websocket" },
    });
    expect(noTopic.status).toBe(400);
    expect(await noTopic.text()).toContain("needs a topic");
    const ws = await openSocket(
      WS,
      socketUrl(server.url, "json", "small", "talker", { role: "subscriber", topic: "t1" }),
      5000,
    );
    const closed = await new Promise<{ code: number; reason: string }>((resolve) => {
      ws.onclose = (ev) => resolve({ code: ev.code, reason: ev.reason });
      ws.send('{"text":"a","num":1}');
    });
    expect(closed).toEqual({ code: CLOSE.policy, reason: "subscribers receive only; publish with role=publisher" });
  });
});
