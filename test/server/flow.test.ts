/**
 * A client that stops reading costs the server no memory beyond its budget: attacked from raw
 * sockets that send large frames as fast as TCP lets them and never read a reply, the server
 * pauses them, closes them with 1008 "client is not reading", counts them, and serves a
 * well-behaved client throughout. Its memory is read from /health (RSS and heap) in its own process.
 */
import { BUILT_IN } from "../../protocols/registry.ts";
import net from "node:net";
import { describe, expect, it } from "vitest";
import { makeMessages } from "../../client/harness/generator.ts";
import { runSocketCase } from "../../client/socket/runner.ts";
import { socketUrl } from "../../protocols/contract.ts";
import { Inbox } from "../../server/inbox.ts";
import type { ServerOptions } from "../../server.ts";
import { serverForFile, withServer, type ServerHealth } from "../helpers/server.ts";
import { socketCaseOptions } from "../helpers/socket-case.ts";
import { keepPublishing } from "../helpers/publisher.ts";

const server = serverForFile({ ownProcess: true });
const health = server.health;

/** One masked binary frame carrying `payload`. */
function binaryFrame(payload: Uint8Array): Buffer {
  const n = payload.length;
  const head =
    n < 126
      ? [0x82, 0x80 | n]
      : n < 65536
        ? [0x82, 0x80 | 126, n >> 8, n & 255]
        : [0x82, 0x80 | 127, 0, 0, 0, 0, (n >>> 24) & 255, (n >> 16) & 255, (n >> 8) & 255, n & 255];
  const mask = [0x11, 0x22, 0x33, 0x44];
  const body = Buffer.from(payload.map((b, i) => b ^ mask[i & 3]!));
  return Buffer.concat([Buffer.from([...head, ...mask]), body]);
}

/**
 * Opens /ws as `id`, then writes `frame` as fast as TCP takes it and never reads (so it cannot
 * see the server's close either: the test asks the server). `stop()` ends it.
 */
function neverReads(
  id: string,
  frame: Buffer,
  url = server.url,
  codec = "custom-binary",
): { frames: () => number; stop: () => void } {
  const { port, hostname } = new URL(url);
  let frames = 0;
  let done = false;
  const socket = net.connect(Number(port), hostname, () => {
    socket.write(
      `GET /ws?codec=${codec}&payload=large&id=${id} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
        "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n",
    );
    // At most 256 frames a turn, so this process keeps serving the other clients and the checks.
    const pump = (): void => {
      for (let k = 0; k < 256; k++) {
        if (done || socket.destroyed) return;
        frames++;
        if (!socket.write(frame)) return;
      }
      setImmediate(pump);
    };
    socket.on("drain", pump);
    pump();
  });
  // Never read: the kernel's buffers fill and so do the server's, unless it stops reading too.
  socket.pause();
  socket.on("error", () => undefined);
  return {
    frames: () => frames,
    stop: () => {
      done = true;
      socket.destroy();
    },
  };
}

interface ConnectionStats {
  closeCode: number | null;
  closeReason: string;
  backpressure: number;
  /** Why the server refused the connection, set as it closes it (absent while it has not). */
  error?: string;
}
const statsOf = async (id: string): Promise<ConnectionStats | undefined> => {
  const res = await fetch(`${server.url}/stats/${id}`);
  return res.status === 200 ? ((await res.json()) as ConnectionStats) : undefined;
};

describe("a client that never reads", () => {
  it("is paused and closed with 1008 within the send timeout, the heap stays flat, and a well-behaved client loses nothing", {
    timeout: 60_000,
  }, async () => {
    const before = await health();
    const codec = BUILT_IN.get("custom-binary")!.forPayload("large");
    const messages = makeMessages("large", { count: 200, seed: 7, fixed: false });
    // One valid large message per frame: every frame asks for a reply.
    const one = codec.encode(messages[0]!) as Uint8Array;
    const frame = binaryFrame(one);
    let peakHeap = before.heapUsedBytes;
    let peakRss = before.rssBytes;
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        const h = await health();
        peakHeap = Math.max(peakHeap, h.heapUsedBytes);
        peakRss = Math.max(peakRss, h.rssBytes);
        await new Promise((r) => setTimeout(r, 250));
      }
    })();
    const ids = ["never-reads-1", "never-reads-2"];
    const attackers = ids.map((id) => neverReads(id, frame));
    const started = performance.now();
    // Meanwhile, a well-behaved client round-trips every message.
    const good = await runSocketCase(
      socketCaseOptions({
        server: server.url,
        codec: "custom-binary",
        payload: "large",
        mode: "roundtrip",
        messages,
        id: "behaves",
      }),
    );
    expect(good.error).toBeUndefined();
    expect(good.received).toBe(messages.length);
    expect(good.lost + good.corrupted).toBe(0);
    // The attackers keep writing for up to 20 s; the server closes them by its send timeout (10 s).
    let closed: (ConnectionStats | undefined)[] = [];
    while (performance.now() - started < 20_000) {
      closed = await Promise.all(ids.map(statsOf));
      if (closed.every((c) => c?.closeCode !== null && c?.closeCode !== undefined)) break;
      await new Promise((r) => setTimeout(r, 250));
    }
    const closedAfterS = (performance.now() - started) / 1000;
    for (const a of attackers) a.stop();
    sampling = false;
    await sampler;
    for (const [i, stats] of closed.entries()) {
      expect(stats?.closeCode, ids[i]).toBe(1008);
      expect(stats?.closeReason, ids[i]).toMatch(/^client is not reading: /);
      expect(stats?.backpressure, ids[i]).toBeGreaterThan(0);
    }
    const after = await health();
    expect(after.refused.notReading - before.refused.notReading).toBe(2);
    expect(after.connections).toBe(0);
    // Bounded by the budgets, not by how long the clients kept writing.
    expect(peakHeap - before.heapUsedBytes).toBeLessThan(256 * 1024 * 1024);
    expect(peakRss - before.rssBytes).toBeLessThan(256 * 1024 * 1024);
    console.log(
      `never-reading clients: server heap ${(before.heapUsedBytes / 2 ** 20).toFixed(1)} -> peak ${(peakHeap / 2 ** 20).toFixed(1)} MiB, RSS ${(before.rssBytes / 2 ** 20).toFixed(0)} -> peak ${(peakRss / 2 ** 20).toFixed(0)} MiB; closed after ${closedAfterS.toFixed(1)} s; frames written ${attackers.map((a) => a.frames()).join(", ")}`,
    );
    // Still serving afterwards.
    expect((await fetch(`${server.url}/info`)).status).toBe(200);
  });
});

describe("the budgets for what waits", () => {
  /**
   * A server in this process with `limits`; a raw client that never reads sends small frames, a
   * thousand to a write; resolves with the close. Only messages Bun had read before it paused the
   * socket can reach the inbox ("Messages already read from the socket are still delivered",
   * ServerWebSocket.pause in bun-types): those after the one whose reply blocked it, in the same
   * read. How many there are is up to TCP; with 64-byte frames a read holds hundreds, but a
   * blocking frame at the end of its read leaves none. Then the connection is blocked with its
   * inbox within budget, the budget untested: the attack starts again on a new connection.
   */
  async function attack(
    limits: Partial<ServerOptions>,
  ): Promise<{ code: number | null; reason: string; refused: Partial<ServerHealth["refused"]>; attempts: number }> {
    const frames = Buffer.concat(Array.from({ length: 1024 }, () => binaryFrame(new Uint8Array(64).fill(7))));
    return withServer({ sendTimeoutS: 600, ...limits }, async (local) => {
      for (let attempt = 1; attempt <= 8; attempt++) {
        const id = `budget-${attempt}`;
        const attacker = neverReads(id, frames, local.url, "raw");
        try {
          // Until the server closes it, or blocks it with nothing past the budget: conditions, bounded at 30 s for a loaded machine.
          for (let i = 0; i < 600; i++) {
            const res = await fetch(`${local.url}/stats/${id}`);
            const stats = res.status === 200 ? ((await res.json()) as ConnectionStats) : undefined;
            if (stats?.closeCode) {
              const { refused } = await local.health();
              return { code: stats.closeCode, reason: stats.closeReason, refused, attempts: attempt };
            }
            // Blocked (a reply queued), and no close on its way (a refusal names its reason at once): the read that blocked it held no more.
            if (stats && stats.backpressure > 0 && !stats.error) break;
            await new Promise((r) => setTimeout(r, 50));
          }
        } finally {
          attacker.stop();
        }
      }
      return { code: null, reason: "", refused: {}, attempts: 8 };
    });
  }

  it("messages read before the pause past --max-queued-bytes: closed with 1008", async () => {
    const r = await attack({ maxQueuedBytes: 1024 });
    expect(r.code).toBe(1008);
    expect(r.reason).toMatch(
      /^client is not reading: \d+ bytes of its messages wait for replies it does not read \(--max-queued-bytes 1024\)$/,
    );
    expect(r.refused.notReading).toBe(1);
  });

  it("past --max-total-queued-bytes across connections: closed with 1013", async () => {
    const r = await attack({ maxTotalQueuedBytes: 1024 });
    expect(r.code).toBe(1013);
    expect(r.reason).toMatch(/^server busy: /);
    expect(r.refused.serverQueueFull).toBe(1);
  });
});

describe("Inbox", () => {
  it("is first in, first out, counts its bytes, and stays O(1) over a long run", () => {
    const inbox = new Inbox();
    for (let i = 0; i < 100_000; i++) {
      inbox.push(new Uint8Array(3));
      if (i % 2 === 1) expect(inbox.shift()!.bytes).toBe(3);
    }
    expect(inbox.size).toBe(50_000);
    expect(inbox.bytes).toBe(150_000);
    inbox.push("ab");
    let last: unknown;
    while (inbox.size > 0) last = inbox.shift()!.message;
    expect(last).toBe("ab");
    expect(inbox.bytes).toBe(0);
    expect(inbox.shift()).toBeUndefined();
  });
});

describe("a fanout subscriber that never reads", () => {
  it("is closed with 1008 before it misses messages unannounced, and the publisher carries on", {
    timeout: 60_000,
  }, async () => {
    const { port, hostname } = new URL(server.url);
    const topic = "never-reads";
    const socket = net.connect(Number(port), hostname, () =>
      socket.write(
        `GET /ws?codec=custom-binary&payload=large&role=subscriber&topic=${topic}&id=sub-never HTTP/1.1\r\nHost: ${hostname}:${port}\r\n` +
          "Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n",
      ),
    );
    socket.pause();
    socket.on("error", () => undefined);
    // Wait for the subscriber to be registered before publishing.
    while ((await fetch(`${server.url}/stats/sub-never`)).status !== 200) await new Promise((r) => setTimeout(r, 20));
    const codec = BUILT_IN.get("custom-binary")!.forPayload("large");
    const message = codec.encode(makeMessages("large", { count: 1, seed: 3, fixed: false })[0]!) as Uint8Array;
    const pub = new WebSocket(
      `${socketUrl(server.url, "custom-binary", "large", "pub-never")}&role=publisher&topic=${topic}`,
    );
    pub.binaryType = "arraybuffer";
    await new Promise((resolve, reject) => {
      pub.onopen = resolve;
      pub.onerror = reject;
    });
    const flood = keepPublishing(pub, message);
    const started = performance.now();
    let stats: ConnectionStats | undefined;
    while (performance.now() - started < 20_000) {
      stats = await statsOf("sub-never");
      if (stats?.closeCode) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    // The publisher is still served after the subscriber is gone: it keeps hearing its messages.
    const heardBefore = flood.heard();
    for (let i = 0; i < 500 && flood.heard() <= heardBefore; i++) await new Promise((r) => setTimeout(r, 20));
    socket.destroy();
    expect(stats?.closeCode).toBe(1008);
    expect(stats?.closeReason).toMatch(/^subscriber is not reading: \d+ bytes wait to be sent to it/);
    expect(flood.heard()).toBeGreaterThan(heardBefore);
    pub.close();
  });
});

/** A masked frame with the given first byte (FIN, opcode) and payload. */
function rawFrame(first: number, payload: Uint8Array): Buffer {
  const n = payload.length;
  const head =
    n < 126
      ? [first, 0x80 | n]
      : n < 65536
        ? [first, 0x80 | 126, n >> 8, n & 255]
        : [first, 0x80 | 127, 0, 0, 0, 0, (n >>> 24) & 255, (n >> 16) & 255, (n >> 8) & 255, n & 255];
  const mask = [1, 2, 3, 4];
  return Buffer.concat([Buffer.from([...head, ...mask]), Buffer.from(payload.map((b, i) => b ^ mask[i & 3]!))]);
}

/** A raw upgraded socket to /ws as `id` (custom-binary, large unless `query` says otherwise), never reading unless asked. */
async function rawSocket(id: string, query = "codec=custom-binary&payload=large"): Promise<net.Socket> {
  const { port, hostname } = new URL(server.url);
  const socket = net.connect(Number(port), hostname);
  await new Promise<void>((resolve) => socket.once("connect", () => resolve()));
  socket.write(
    `GET /ws?${query}&id=${id} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n`,
  );
  socket.on("error", () => undefined);
  while ((await fetch(`${server.url}/stats/${id}`)).status !== 200) await new Promise((r) => setTimeout(r, 20));
  return socket;
}

/** Collects what the server sends on `socket`; `closeCode()` is the code of its close frame, once one came. */
function listen(socket: net.Socket): { closeCode: () => number | undefined } {
  let data = Buffer.alloc(0);
  socket.on("data", (d: Buffer) => (data = Buffer.concat([data, d])));
  return {
    closeCode: () => {
      let at = data.indexOf("\r\n\r\n");
      if (at < 0) return undefined;
      at += 4;
      // Server frames are not masked.
      while (at + 2 <= data.length) {
        const opcode = data[at]! & 0x0f;
        let length = data[at + 1]! & 0x7f;
        let head = 2;
        if (length === 126) {
          length = data.readUInt16BE(at + 2);
          head = 4;
        } else if (length === 127) {
          length = Number(data.readBigUInt64BE(at + 2));
          head = 10;
        }
        if (opcode === 8 && at + head + 2 <= data.length) return data.readUInt16BE(at + head);
        at += head + length;
      }
      return undefined;
    },
  };
}

async function untilClosed(heard: { closeCode: () => number | undefined }): Promise<number | undefined> {
  for (let i = 0; i < 250 && heard.closeCode() === undefined; i++) await new Promise((r) => setTimeout(r, 20));
  return heard.closeCode();
}

describe("frames no client should send (Bun answers these itself; the server's stats record 1006)", () => {
  it("a fragmented message that never ends is cut off at the frame limit with 1009, memory flat", {
    timeout: 30_000,
  }, async () => {
    const before = await health();
    const socket = await rawSocket("fragments");
    const heard = listen(socket);
    const chunk = new Uint8Array(60 * 1024).fill(9);
    socket.write(rawFrame(0x02, chunk)); // binary, not final
    // Continuations, never final: 1 MiB (the frame limit) is passed after 18.
    for (let i = 0; i < 40 && heard.closeCode() === undefined && !socket.destroyed; i++) {
      socket.write(rawFrame(0x00, chunk));
      await new Promise((r) => setTimeout(r, 5));
    }
    expect(await untilClosed(heard)).toBe(1009);
    socket.destroy();
    const after = await health();
    expect(after.heapUsedBytes - before.heapUsedBytes).toBeLessThan(64 * 1024 * 1024);
    expect(after.rssBytes - before.rssBytes).toBeLessThan(64 * 1024 * 1024);
  });

  it("10 s of pings from a client that never reads its pongs: RSS flat, and the server still answers", {
    timeout: 30_000,
  }, async () => {
    const before = await health();
    const socket = await rawSocket("pings");
    socket.pause();
    const ping = rawFrame(0x89, new Uint8Array(125).fill(1));
    const started = performance.now();
    let peakRss = before.rssBytes;
    while (performance.now() - started < 10_000 && !socket.destroyed) {
      for (let k = 0; k < 256 && socket.write(ping); k++);
      peakRss = Math.max(peakRss, (await health()).rssBytes);
      await new Promise((r) => setImmediate(r));
    }
    socket.destroy();
    expect(peakRss - before.rssBytes).toBeLessThan(128 * 1024 * 1024);
    expect((await fetch(`${server.url}/info`)).status).toBe(200);
  });

  it("a text frame that is not UTF-8 is closed with 1007", async () => {
    const socket = await rawSocket("bad-utf8", "codec=json&payload=small");
    const heard = listen(socket);
    socket.write(rawFrame(0x81, new Uint8Array([0x7b, 0xc3, 0x28, 0x7d])));
    expect(await untilClosed(heard)).toBe(1007);
    socket.destroy();
    expect((await fetch(`${server.url}/info`)).status).toBe(200);
  });
});
