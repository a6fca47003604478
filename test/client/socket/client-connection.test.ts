/** The connection around a case, against the real server on port 0 and tiny test servers. */
import { beforeAll, describe, expect, it, vi } from "vitest";
import {
  byteLength,
  closed,
  fetchServerStats,
  openSocket,
  processCpuMs,
  requestServerGc,
  sendFrame,
  warmUpServer,
  type WebSocketClass,
} from "../../../client/socket/client-connection.ts";
import { CLOSE, socketUrl } from "../../../protocols/contract.ts";
import { serverForFile } from "../../helpers/server.ts";

const WS = globalThis.WebSocket as unknown as WebSocketClass;

/** A port nothing listens on: one Bun.serve had, and gave back. */
async function refusedPort(): Promise<number> {
  const s = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("") });
  const port = s.port!;
  await s.stop(true);
  return port;
}

const server = serverForFile();
let deadPort: number;
beforeAll(async () => {
  deadPort = await refusedPort();
});

describe("byteLength", () => {
  it("counts UTF-8 bytes of a string, not UTF-16 units", () => {
    expect(byteLength("")).toBe(0);
    expect(byteLength("abc")).toBe(3);
    expect(byteLength("é")).toBe(2);
    expect(byteLength("€")).toBe(3);
    expect(byteLength("😀")).toBe(4);
    expect("😀".length).toBe(2);
  });

  it("agrees with TextEncoder, lone surrogates included", () => {
    for (const s of ['{"text":"Hello World!","num":123}', "naïve 中文 🚀🎉 ok", "\ud800", "a\udc00b", "\ud83d\ud83d"]) {
      expect(byteLength(s), JSON.stringify(s)).toBe(new TextEncoder().encode(s).length);
    }
  });

  it("is byteLength for buffers and views, offsets respected", () => {
    expect(byteLength(new ArrayBuffer(7))).toBe(7);
    expect(byteLength(new Uint8Array(5))).toBe(5);
    const big = new ArrayBuffer(64);
    expect(byteLength(new Uint8Array(big, 10, 20))).toBe(20);
    expect(byteLength(new DataView(big, 60))).toBe(4);
    expect(byteLength(new Float64Array(3))).toBe(24);
  });
});

describe("sendFrame", () => {
  it("passes a string or bytes to send() as they are", () => {
    const sent: unknown[] = [];
    const ws = { send: (d: unknown) => sent.push(d) } as unknown as WebSocket;
    const bytes = new Uint8Array([1, 2]);
    sendFrame(ws, "text");
    sendFrame(ws, bytes);
    expect(sent[0]).toBe("text");
    expect(sent[1]).toBe(bytes);
  });
});

describe("openSocket", () => {
  it("opens a socket to the server, set to deliver binary frames as ArrayBuffers", async () => {
    const ws = await openSocket(WS, socketUrl(server.url, "json", "small", "open-ok"), 5000);
    expect(ws.readyState).toBe(1);
    expect(ws.binaryType).toBe("arraybuffer");
    await closed(ws, CLOSE.normal);
    expect(ws.readyState).toBe(3);
  });

  it("rejects with a message naming the URL when the port refuses", async () => {
    const url = socketUrl(`http://127.0.0.1:${deadPort}`, "json", "small", "refused");
    await expect(openSocket(WS, url, 5000)).rejects.toThrow(`cannot connect to ${url}`);
  });

  it("rejects naming the URL when the server refuses the upgrade", async () => {
    const url = `${server.url.replace(/^http/, "ws")}/ws?codec=yaml&payload=small`;
    await expect(openSocket(WS, url, 5000)).rejects.toThrow(`cannot connect to ${url}`);
  });

  it("gives up after the timeout when nothing answers the handshake", async () => {
    const silent = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
    try {
      const url = `ws://127.0.0.1:${silent.port}/ws`;
      const t0 = performance.now();
      await expect(openSocket(WS, url, 300)).rejects.toThrow(`cannot connect to ${url}: no answer within 300 ms`);
      expect(performance.now() - t0).toBeGreaterThanOrEqual(250);
    } finally {
      silent.stop(true);
    }
  });
});

describe("closed", () => {
  it("resolves at once for a socket that has already closed", async () => {
    const ws = { readyState: 3, close: vi.fn() } as unknown as WebSocket;
    await closed(ws, CLOSE.normal);
    expect(ws.close).not.toHaveBeenCalled();
  });

  it("closes with the code given, which the server records", async () => {
    const ws = await openSocket(WS, socketUrl(server.url, "json", "small", "close-4000"), 5000);
    await closed(ws, 4000);
    expect(ws.readyState).toBe(3);
    await vi.waitFor(async () => expect((await fetchServerStats(server.url, "close-4000"))?.closeCode).toBe(4000), {
      timeout: 5000,
      interval: 20,
    });
  });
});

describe("fetchServerStats", () => {
  it("returns undefined for an id the server never saw", async () => {
    expect(await fetchServerStats(server.url, "no-such-connection")).toBeUndefined();
  });

  it("returns undefined when the server cannot be reached", async () => {
    expect(await fetchServerStats(`http://127.0.0.1:${deadPort}`, "x")).toBeUndefined();
  });

  it("returns the server's figures for a connection, by its id (encoded in the URL)", async () => {
    const id = "stats test/1";
    const ws = await openSocket(WS, socketUrl(server.url, "json", "small", id), 5000);
    const reply = await new Promise<unknown>((resolve) => {
      ws.onmessage = (ev) => resolve(ev.data);
      ws.send('{"text":"Hello World!","num":123}');
    });
    expect(reply).toBe('{"text":"Hello World!","num":123}');
    await closed(ws, CLOSE.normal);
    await vi.waitFor(async () => expect((await fetchServerStats(server.url, id))?.closeCode).toBe(CLOSE.normal), {
      timeout: 5000,
      interval: 20,
    });
    const stats = await fetchServerStats(server.url, id);
    expect(stats).toMatchObject({ id, codec: "json", payload: "small", messages: 1, bytesIn: 33, dropped: 0 });
  });
});

describe("requestServerGc", () => {
  it("posts to /gc", async () => {
    const seen: string[] = [];
    const recorder = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      fetch: (req) => {
        seen.push(`${req.method} ${new URL(req.url).pathname}`);
        return new Response(null, { status: 204 });
      },
    });
    try {
      await requestServerGc(`http://127.0.0.1:${recorder.port}`);
      expect(seen).toEqual(["POST /gc"]);
    } finally {
      await recorder.stop(true);
    }
  });

  it("resolves against the real server", async () => {
    await expect(requestServerGc(server.url)).resolves.toBeUndefined();
  });

  it("resolves even when the server cannot be reached", async () => {
    await expect(requestServerGc(`http://127.0.0.1:${deadPort}`)).resolves.toBeUndefined();
  });
});

describe("warmUpServer", () => {
  it("has the real server run the codec over the frames it sends", async () => {
    await expect(
      warmUpServer(server.url, "json", "small", [JSON.stringify({ a: 1 }), JSON.stringify({ b: [2] })], 500),
    ).resolves.toBeUndefined();
  });

  it("throws the server's one line when it refuses: a frame its codec cannot decode", async () => {
    await expect(warmUpServer(server.url, "json", "small", ["{"], 10)).rejects.toMatchObject({
      code: "PROTOCOL",
      message: expect.stringMatching(/^the server refused the warm-up \(400\): json: /),
    });
  });

  it("throws CONNECT when the server cannot be reached", async () => {
    await expect(warmUpServer(`http://127.0.0.1:${deadPort}`, "json", "small", ["{}"], 10)).rejects.toMatchObject({
      code: "CONNECT",
    });
  });
});

describe("processCpuMs", () => {
  it("never goes down, and moves while the process works", () => {
    const first = processCpuMs();
    expect(Number.isFinite(first)).toBe(true);
    expect(first).toBeGreaterThan(0);
    let last = first;
    let x = 0;
    // Spin (bounded) until the counter moves; it must not go back meanwhile.
    const deadline = performance.now() + 5000;
    while (last === first && performance.now() < deadline) {
      for (let i = 0; i < 100_000; i++) x += Math.sqrt(i);
      const now = processCpuMs();
      expect(now).toBeGreaterThanOrEqual(last);
      last = now;
    }
    expect(x).toBeGreaterThan(0);
    expect(last).toBeGreaterThan(first);
  });
});
