/**
 * Route mode end to end: members join rooms, routers send, the server
 * routes each message to exactly the members of its room, both ways, for
 * codecs of every key access; and the plan that spreads rooms over members.
 */
import { describe, expect, it } from "vitest";
import { BUILT_IN } from "../../../protocols/registry.ts";
import { performanceClock } from "../../../client/harness/clock.ts";
import { makeMessages } from "../../../client/harness/generator.ts";
import { RouteSession, routePlan, runRouteCase, type RouteOptions } from "../../../client/socket/route.ts";
import type { WebSocketClass } from "../../../client/socket/client-connection.ts";
import { ROUTING_KEYS, type BuiltInPayload } from "../../../protocols/messages.ts";
import { serverForFile } from "../../helpers/server.ts";

const WS = globalThis.WebSocket as unknown as WebSocketClass;
let ids = 0;

function options(url: string, codec: string, payload: BuiltInPayload, over: Partial<RouteOptions> = {}): RouteOptions {
  return {
    server: url,
    catalog: BUILT_IN,
    codec,
    payload,
    messages: makeMessages(payload, { count: 400, seed: 5, fixed: false }),
    subscribers: 8,
    publishers: 4,
    validate: false,
    window: 16,
    stallTimeoutMs: 5000,
    clock: performanceClock,
    timerOverheadNs: 40,
    WebSocket: WS,
    id: `route-test-${ids++}`,
    ...over,
  };
}

describe("routePlan", () => {
  const messages = makeMessages("market", { count: 200, seed: 2, fixed: false });

  it("gives every room a member and every member its rooms' messages from each router, in order", () => {
    for (const members of [1, 3, 8, 20]) {
      const plan = routePlan(messages, "symbol", members, 4);
      expect(plan.membersOf.every((m) => m.length >= 1)).toBe(true);
      let deliveries = 0;
      plan.expect.forEach((perRouter, m) =>
        perRouter.forEach((list, p) => {
          deliveries += list.length;
          for (let j = 0; j < list.length; j++) {
            expect(list[j]! % 4).toBe(p);
            if (j > 0) expect(list[j]!).toBeGreaterThan(list[j - 1]!);
            expect(plan.roomsOf[m]).toContain(plan.roomOf[list[j]!]);
          }
        }),
      );
      expect(deliveries).toBe(plan.deliveries);
      expect(plan.deliveries).toBe(messages.reduce((n, _, i) => n + plan.membersOf[plan.roomOf[i]!]!.length, 0));
    }
  });

  it("names rooms by the key's value, numbers in decimal", () => {
    const plan = routePlan(makeMessages("chat", { count: 50, seed: 1, fixed: false }), ROUTING_KEYS.chat, 2, 2);
    expect(plan.rooms.every((r) => /^\d+$/.test(r))).toBe(true);
  });

  it("refuses a message without a key", () => {
    expect(() => routePlan([{ symbol: "A" }, { other: 1 }], "symbol", 2, 2)).toThrow(/message #1 has no room/);
  });
});

describe("route mode on the server", () => {
  const server = serverForFile();

  for (const codec of ["custom-binary", "json", "protobuf", "flatbuffers", "msgpackr"]) {
    it(`${codec}: every message reaches exactly its room's members, forwarded and recoded`, async () => {
      const runs = await runRouteCase(options(server.url, codec, "market"));
      expect(runs.map((r) => r.way)).toEqual(["forward", "recode"]);
      for (const r of runs) {
        expect(r.figures.error).toBeUndefined();
        expect(r.figures.sent).toBe(400);
        expect(r.misrouted).toBe(0);
        expect(r.figures.corrupted).toBe(0);
        expect(r.expected).toBe(400);
        expect(r.figures.received).toBe(r.expected);
        expect(r.perMember.reduce((n, m) => n + m.received, 0)).toBe(r.expected);
        expect(r.server?.messages).toBe(400);
        expect(r.server!.cpuMs).toBeGreaterThan(0);
        if (r.way === "forward") expect(r.server!.encodeNs).toBe(0);
        else expect(r.server!.encodeNs).toBeGreaterThan(0);
      }
    });
  }

  it("routes a session slice by slice, each slice's messages only", async () => {
    const session = await RouteSession.open(options(server.url, "bebop", "chat"));
    const slices = [
      await session.slice("recode", 0, 150),
      await session.slice("forward", 150, 150),
      await session.slice("forward", 300, 500),
    ];
    await session.close(slices[2]);
    expect(slices.map((r) => [r.figures.error, r.figures.sent, r.server?.messages])).toEqual([
      [undefined, 150, 150],
      [undefined, 150, 150],
      [undefined, 100, 100],
    ]);
  });

  it("with fewer members than rooms, delivers chat to each room's one member; validated too", async () => {
    const [r] = await runRouteCase(options(server.url, "avro", "chat", { subscribers: 3, validate: true }), [
      "forward",
    ]);
    expect(r!.figures.error).toBeUndefined();
    expect(r!.rooms).toBeGreaterThan(3);
    expect(r!.figures.received).toBe(400);
  });

  it("with more members than rooms, every message reaches each member of its room", async () => {
    const [r] = await runRouteCase(
      options(server.url, "cbor", "market", {
        subscribers: 20,
        messages: makeMessages("market", { count: 100, seed: 7, fixed: false }),
      }),
      ["recode"],
    );
    expect(r!.figures.error).toBeUndefined();
    expect(r!.expected).toBeGreaterThan(100);
    expect(r!.figures.received).toBe(r!.expected);
  });

  it("fails the slice in progress, naming the member, when a member's connection closes", async () => {
    const session = await RouteSession.open(
      options(server.url, "json", "market", {
        messages: makeMessages("market", { count: 4000, seed: 8, fixed: false }),
      }),
    );
    const routing = session.slice("forward", 0, 4000);
    (session as unknown as { members: WebSocket[] }).members[2]!.close(4001, "gone");
    const r = await routing;
    expect(r.figures.error).toMatch(/member 2 was closed with 4001 \(gone\)/);
    const after = await session.slice("recode", 0, 10);
    expect(after.figures.error).toMatch(/member 2 was closed/);
    await session.close();
  });
});
