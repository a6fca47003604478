/**
 * The router's answers (server/router.ts): a room nobody joined,
 * a routing key that cannot be read, a malformed message under validate=1,
 * a member that sends something other than a join request, and the URLs it
 * refuses. Each time nothing routed before, and nothing another router
 * sends, is lost.
 */
import { describe, expect, it } from "vitest";
import { BUILT_IN } from "../../protocols/registry.ts";
import { makeMessages } from "../../client/harness/generator.ts";
import { openSocket, type WebSocketClass } from "../../client/socket/client-connection.ts";
import { CLOSE, socketUrl, type RouteWay } from "../../protocols/contract.ts";
import type { MarketMessage } from "../../protocols/message-sets.ts";
import { serverForFile } from "../helpers/server.ts";

const WS = globalThis.WebSocket as unknown as WebSocketClass;
let ids = 0;

/** A member of `rooms`, with what it has received (decoded) and how it closed. */
async function member(url: string, codec: string, topic: string, rooms: string[]) {
  const ws = await openSocket(WS, socketUrl(url, codec, "market", `member-${ids++}`, { role: "member", topic }), 5000);
  ws.binaryType = "arraybuffer";
  const got: unknown[] = [];
  const pc = BUILT_IN.get(codec)!.forPayload("market");
  await new Promise<void>((resolve) => {
    ws.onmessage = (ev) => {
      expect(JSON.parse(ev.data as string)).toEqual({ joined: rooms.length });
      ws.onmessage = (e) =>
        got.push(pc.decode(typeof e.data === "string" ? e.data : new Uint8Array(e.data as ArrayBuffer)));
      resolve();
    };
    ws.send(JSON.stringify({ join: rooms }));
  });
  return { ws, got };
}

async function router(url: string, codec: string, topic: string, way: RouteWay, validate = false) {
  const id = `router-${ids++}`;
  const ws = await openSocket(WS, socketUrl(url, codec, "market", id, { role: "router", topic, way, validate }), 5000);
  const closed = new Promise<{ code: number; reason: string }>(
    (resolve) => (ws.onclose = (ev) => resolve({ code: ev.code, reason: ev.reason })),
  );
  return { ws, id, closed };
}

/** Waits until `check` holds (the messages are on their way), for at most 5 s. */
async function until(check: () => boolean): Promise<void> {
  const t0 = Date.now();
  while (!check()) {
    if (Date.now() - t0 > 5000) throw new Error("timed out waiting for deliveries");
    await new Promise((r) => setTimeout(r, 5));
  }
}

const base = makeMessages("market", { count: 4, seed: 9, fixed: false }) as MarketMessage[];
const inRoom = (symbol: string, k: number): MarketMessage => ({ ...base[k % base.length]!, symbol });

describe("the router's answers", () => {
  const server = serverForFile();
  const stats = async (id: string) =>
    (await (await fetch(`${server.url}/stats/${id}`)).json()) as {
      published: number;
      unrouted: number;
      messages: number;
      publishDropped: number;
    };

  for (const way of ["forward", "recode"] as const) {
    it(`${way}: a room nobody joined is counted unrouted and the router carries on; an unreadable key closes it with 1007, and nothing else is lost`, async () => {
      const topic = `answers-${way}`;
      const cb = BUILT_IN.get("custom-binary")!.forPayload("market");
      const a = await member(server.url, "custom-binary", topic, ["AAPL"]);
      const b = await member(server.url, "custom-binary", topic, ["MSFT", "EUR/USD"]);
      const r1 = await router(server.url, "custom-binary", topic, way);
      const sent = [inRoom("AAPL", 0), inRoom("NOBODY", 1), inRoom("MSFT", 2), inRoom("EUR/USD", 3), inRoom("AAPL", 1)];
      for (const m of sent) r1.ws.send(cb.encode(m) as Uint8Array);
      // The frame cut off in the middle of the symbol's bytes: the key cannot be read.
      const damaged = cb.encode(inRoom("AAPL", 2)) as Uint8Array;
      const symbolAt = Buffer.from(damaged).indexOf("AAPL");
      expect(symbolAt).toBeGreaterThan(0);
      r1.ws.send(damaged.subarray(0, symbolAt + 2));
      const closed = await r1.closed;
      expect(closed.code).toBe(CLOSE.invalidPayload);
      expect(closed.reason).toContain("routing key 'symbol' unreadable");
      const r2 = await router(server.url, "custom-binary", topic, way);
      r2.ws.send(cb.encode(inRoom("AAPL", 3)) as Uint8Array);
      await until(() => a.got.length === 3 && b.got.length === 2);
      expect(a.got).toEqual([sent[0], sent[4], inRoom("AAPL", 3)]);
      expect(b.got).toEqual([sent[2], sent[3]]);
      const s1 = await stats(r1.id);
      expect(s1).toMatchObject({ messages: 5, published: 4, unrouted: 1, publishDropped: 0 });
      for (const ws of [a.ws, b.ws, r2.ws]) ws.close();
    });
  }

  it("validate=1 refuses a malformed message with 1007; without it the forwarding router reads only the key and passes it on", async () => {
    const topic = "answers-validate";
    const m = await member(server.url, "json", topic, ["AAPL"]);
    const bad = JSON.stringify({ ...inRoom("AAPL", 0), price: "free" });
    const plain = await router(server.url, "json", topic, "forward");
    plain.ws.send(bad);
    await until(() => m.got.length === 1);
    expect((m.got[0] as { price: unknown }).price).toBe("free");
    const checked = await router(server.url, "json", topic, "forward", true);
    checked.ws.send(JSON.stringify(inRoom("AAPL", 1)));
    checked.ws.send(bad);
    const closed = await checked.closed;
    expect(closed.code).toBe(CLOSE.invalidPayload);
    expect(closed.reason).toMatch(/routing key 'symbol' unreadable: .*price/);
    await until(() => m.got.length === 2);
    expect(m.got[1]).toEqual(inRoom("AAPL", 1));
    m.ws.close();
    plain.ws.close();
  });

  it("closes a member that sends anything but a join request with 1008", async () => {
    const ws = await openSocket(
      WS,
      socketUrl(server.url, "json", "market", `talker-${ids++}`, { role: "member", topic: "answers-talk" }),
      5000,
    );
    const closed = await new Promise<{ code: number; reason: string }>((resolve) => {
      ws.onclose = (ev) => resolve({ code: ev.code, reason: ev.reason });
      ws.send(JSON.stringify(inRoom("AAPL", 0)));
    });
    expect(closed.code).toBe(CLOSE.policy);
    expect(closed.reason).toContain("members send only join requests");
  });

  it("refuses a router without a way, with raw, or on a payload without a routing key", async () => {
    const upgrade = { headers: { upgrade: "websocket" } };
    const noWay = await fetch(`${server.url}/ws?codec=json&payload=market&role=router&topic=t`, upgrade);
    expect(noWay.status).toBe(400);
    expect(await noWay.text()).toContain("unknown way ''; a router takes way=forward or way=recode");
    const raw = await fetch(`${server.url}/ws?codec=raw&payload=market&role=router&topic=t&way=forward`, upgrade);
    expect(await raw.text()).toContain("raw decodes nothing");
    const badValidate = await fetch(
      `${server.url}/ws?codec=json&payload=market&role=router&topic=t&way=forward&validate=yes`,
      upgrade,
    );
    expect(await badValidate.text()).toContain("validate takes 0 or 1, got 'yes'");
  });
});
