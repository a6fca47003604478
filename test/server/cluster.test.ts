/**
 * `bun run server --processes N` as a user starts it, against a real
 * redis-server: the processes say where each is, a publisher on one reaches
 * subscribers on every process with every byte unchanged and exactly once,
 * /stats finds a connection wherever it is, and the backplane going away
 * closes the pub/sub connections with 1014 while echo carries on. Without a
 * backplane, pub/sub across processes is refused by name.
 */
import { spawnSync } from "node:child_process";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { until } from "../helpers/until.ts";
import { spawnServer, type ServerProcess } from "../../bench/cli/processes/server-process.ts";
import { hasRedisServer, startRedis, type RedisProcess } from "../../bench/cli/processes/redis-server.ts";
import { openSocket, type WebSocketClass } from "../../client/socket/client-connection.ts";
import { ARTICLE_MESSAGES } from "../../protocols/messages.ts";
import { clusterProcess, reusePortRefusal } from "../../server/cluster.ts";
import { CLOSE, socketUrl } from "../../protocols/contract.ts";

const ROOT = path.resolve(import.meta.dirname, "../..");
const WS = globalThis.WebSocket as unknown as WebSocketClass;
const skip = !hasRedisServer() && process.env.CI !== "true";
if (skip) process.stderr.write("\n[cluster.test.ts] SKIPPED: no redis-server (apt-get install -y redis-server)\n\n");

let ids = 0;

interface Health {
  process?: { index: number; pid: number; of: number };
  processes?: { index: number; pid: number; url: string }[];
  backplane?: {
    state: string;
    error?: string;
    published: number;
    received: number;
    publishedBytes: number;
    receivedBytes: number;
  };
  pubsub?: string;
}

async function health(url: string): Promise<Health> {
  return (await (await fetch(`${url}/health`)).json()) as Health;
}

/** A socket of `role` on `url`, keeping what it receives and how it closed. */
async function connect(url: string, codec: string, role?: "publisher" | "subscriber", topic = "t") {
  const id = `c${ids++}-${Date.now()}`;
  const ws = await openSocket(WS, socketUrl(url, codec, "small", id, role ? { role, topic } : undefined), 5000);
  ws.binaryType = "arraybuffer";
  const got: (string | number[])[] = [];
  ws.onmessage = (ev) => got.push(typeof ev.data === "string" ? ev.data : [...new Uint8Array(ev.data as ArrayBuffer)]);
  const closed = new Promise<{ code: number; reason: string }>(
    (resolve) => (ws.onclose = (ev) => resolve({ code: ev.code, reason: ev.reason })),
  );
  return { ws, id, got, closed };
}

describe("where a cluster can run", () => {
  it("Bun balances a shared port on Linux only: elsewhere one line says so", () => {
    expect(reusePortRefusal("--processes", "linux")).toBeUndefined();
    expect(reusePortRefusal("--processes", "darwin")).toBe(
      "--processes needs SO_REUSEPORT's load balancing, which Bun has on Linux only (this is darwin); run one process per port instead",
    );
  });

  it("a process knows its place from the supervisor's environment, and a lone server has none", () => {
    expect(clusterProcess({ WSBENCH_CLUSTER_PROCESS: "1/3" })).toEqual({ index: 1, size: 3 });
    expect(clusterProcess({})).toBeUndefined();
  });

  it.each([
    [["--processes", "0"], /^server: --processes must be an integer from 1 to 64, got '0'\n$/],
    [
      ["--backplane", "nats://127.0.0.1:4222"],
      /^server: --backplane: a backplane URL starts with redis:\/\/ \(the only backplane supported\), got 'nats:\/\/127\.0\.0\.1:4222'\n$/,
    ],
    [
      ["--backplane", "redis://:secret@127.0.0.1:6379/2"],
      /^server: --backplane: a backplane URL is redis:\/\/HOST:PORT, without credentials or a database/,
    ],
    [["--backplane-channel", "a b"], /^server: --backplane-channel must be 1 to 64 letters, digits/],
  ])("bad flag %j: one line, exit 2", (args, pattern) => {
    const r = spawnSync(process.execPath, ["server.ts", ...args], { cwd: ROOT, encoding: "utf8", timeout: 30_000 });
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(pattern);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
  });

  it("a Redis nobody runs: the cluster does not start, and says why in its last line", async () => {
    const gone = await startRedis();
    await gone.stop();
    const r = spawnSync(process.execPath, ["server.ts", "--processes", "2", "--backplane", gone.url], {
      cwd: ROOT,
      encoding: "utf8",
      timeout: 30_000,
    });
    expect(r.status).toBe(1);
    expect(r.stderr.trim().split("\n").pop()).toMatch(
      /^server: process 0 exited \(1\) before it could start: server: cannot reach Redis at 127\.0\.0\.1:\d+/,
    );
  });
});

describe.skipIf(skip)("bun run server --processes 2 --backplane redis://...", () => {
  let redis: RedisProcess;
  let server: ServerProcess;
  beforeAll(async () => {
    redis = await startRedis();
    server = await spawnServer(["--processes", "2", "--backplane", redis.url]);
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
    await redis?.stop();
  });

  it("the ready line lists every process's own URL; each one's /health names itself and the others", async () => {
    const processes = server.processes!;
    expect(processes).toHaveLength(2);
    for (const [i, p] of processes.entries()) {
      const h = await health(p.url);
      expect(h.process).toEqual({ index: i, pid: p.pid, of: 2 });
      expect(h.processes!.map((x) => x.url)).toEqual(processes.map((x) => x.url));
      expect(h.backplane!.state).toBe("up");
    }
    // The shared port answers from one of them, and says which.
    expect(processes.map((p) => p.pid)).toContain((await health(server.url)).process!.pid);
  });

  it("a publisher on process 0 reaches subscribers on both processes: every byte value unchanged, exactly once, in order", async () => {
    const [p0, p1] = server.processes!.map((p) => p.url) as [string, string];
    const topic = `bytes-${ids++}`;
    const far = await connect(p1, "raw", "subscriber", topic);
    const near = await connect(p0, "raw", "subscriber", topic);
    const publisher = await connect(p0, "raw", "publisher", topic);
    const frames = Array.from({ length: 256 }, (_, i) => [i, 0, 255, 13, 10, 0x80, 255 - i]);
    try {
      // A last frame after them: a second delivery of any, coming in order, would arrive before it.
      const last = [1, 2, 3];
      for (const f of [...frames, last]) publisher.ws.send(Uint8Array.from(f));
      const all = (got: unknown[]): boolean => got.some((g) => JSON.stringify(g) === JSON.stringify(last));
      await until(() => all(far.got) && all(near.got) && all(publisher.got), "every delivery");
      expect(far.got).toEqual([...frames, last]);
      expect(near.got).toEqual([...frames, last]);
      expect(publisher.got).toEqual([...frames, last]);
      const [h0, h1] = [await health(p0), await health(p1)];
      expect(h0.backplane!.published).toBeGreaterThanOrEqual(256);
      expect(h1.backplane!.received).toBe(h0.backplane!.received);
    } finally {
      for (const c of [far, near, publisher]) c.ws.close();
    }
  });

  it("a text frame (JSON) crosses as text, its UTF-8 intact", async () => {
    const [p0, p1] = server.processes!.map((p) => p.url) as [string, string];
    const topic = `text-${ids++}`;
    const far = await connect(p1, "json", "subscriber", topic);
    const publisher = await connect(p0, "json", "publisher", topic);
    const message = { ...ARTICLE_MESSAGES.small, text: "zoë 🚀 — 東京" };
    try {
      publisher.ws.send(JSON.stringify(message));
      await until(() => far.got.length === 1, "the delivery");
      expect(typeof far.got[0]).toBe("string");
      expect(JSON.parse(far.got[0] as string)).toEqual(message);
    } finally {
      far.ws.close();
      publisher.ws.close();
    }
  });

  it("/stats/ID of a connection on one process answers from the other", async () => {
    const [p0, p1] = server.processes!.map((p) => p.url) as [string, string];
    const sub = await connect(p1, "json", "subscriber", `stats-${ids++}`);
    try {
      const r = await fetch(`${p0}/stats/${encodeURIComponent(sub.id)}`);
      expect(r.status).toBe(200);
      expect(((await r.json()) as { id: string }).id).toBe(sub.id);
      expect((await fetch(`${p0}/stats/nobody-${ids++}`)).status).toBe(404);
    } finally {
      sub.ws.close();
    }
  });
});

describe.skipIf(skip)("the backplane going away", () => {
  it("closes every pub/sub connection with 1014 and the reason, refuses new ones alike, and echo carries on", async () => {
    const redis = await startRedis();
    const server = await spawnServer(["--processes", "2", "--backplane", redis.url]);
    try {
      const [p0, p1] = server.processes!.map((p) => p.url) as [string, string];
      const sub = await connect(p1, "json", "subscriber", "gone");
      const echo = await connect(p0, "json");
      await redis.stop();
      const closed = await sub.closed;
      expect(closed.code).toBe(CLOSE.backplaneLost);
      expect(closed.reason).toMatch(
        new RegExp(`^the backplane is gone \\(${redis.url.replace(/[./]/g, "\\$&")}\\): the connection to Redis`),
      );
      const h = await health(p0);
      expect(h.backplane!.state).toBe("lost");
      expect(h.pubsub).toMatch(/^the backplane is gone/);
      const late = await connect(p0, "json", "publisher", "gone");
      expect((await late.closed).code).toBe(CLOSE.backplaneLost);
      echo.ws.send(JSON.stringify(ARTICLE_MESSAGES.small));
      await until(() => echo.got.length === 1, "the echo");
      expect(JSON.parse(echo.got[0] as string)).toEqual(ARTICLE_MESSAGES.small);
      echo.ws.close();
    } finally {
      await server.stop();
      await redis.stop();
    }
  });
});

describe("bun run server --processes 2 without a backplane", () => {
  let server: ServerProcess;
  beforeAll(async () => {
    server = await spawnServer(["--processes", "2"]);
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
  });

  it("refuses pub/sub with 1008 naming --backplane (Bun's publish reaches one process), and echoes on the shared port", async () => {
    const sub = await connect(server.processes![1]!.url, "json", "subscriber", "alone");
    const closed = await sub.closed;
    expect(closed.code).toBe(CLOSE.policy);
    expect(closed.reason).toBe(
      "fanout and route across 2 processes need --backplane redis://HOST:PORT (Bun's publish reaches one process)",
    );
    const echo = await connect(server.url, "json");
    echo.ws.send(JSON.stringify(ARTICLE_MESSAGES.small));
    await until(() => echo.got.length === 1, "the echo");
    echo.ws.close();
  });
});
