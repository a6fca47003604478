/**
 * The Redis backplane against a real redis-server (Debian's, started on a
 * free port): every byte value crosses unchanged, messages arrive in order,
 * and Redis going away ends the backplane with a clear reason and rejects
 * what was still waiting, without hanging.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { until } from "../helpers/until.ts";
import { hasRedisServer, startRedis, type RedisProcess } from "../../bench/cli/processes/redis-server.ts";
import { encodeCommand, RedisBackplane, RespReader, type RespValue } from "../../server/redis-backplane.ts";

const skip = !hasRedisServer() && process.env.CI !== "true";
if (skip)
  process.stderr.write("\n[redis-backplane.test.ts] SKIPPED: no redis-server (apt-get install -y redis-server)\n\n");

describe("RESP", () => {
  it("reads replies split anywhere, bulk strings as bytes", () => {
    const all = new TextEncoder().encode(
      "+OK\r\n:42\r\n$3\r\n\x00\r\n\r\n*3\r\n$7\r\nmessage\r\n$1\r\nc\r\n$-1\r\n-ERR no\r\n",
    );
    for (let cut = 0; cut <= all.length; cut++) {
      const r = new RespReader();
      const got: RespValue[] = [];
      r.push(all.subarray(0, cut));
      for (let v = r.next(); v; v = r.next()) got.push(v.value);
      r.push(all.subarray(cut));
      for (let v = r.next(); v; v = r.next()) got.push(v.value);
      expect(got.length, `cut at ${cut}`).toBe(5);
      expect(got[0]).toBe("OK");
      expect(got[1]).toBe(42);
      expect([...(got[2] as Uint8Array)]).toEqual([0, 13, 10]);
      expect((got[3] as RespValue[])[2]).toBe(null);
      expect((got[4] as Error).message).toBe("ERR no");
    }
  });

  it("writes a command as bulk strings of the exact bytes", () => {
    const head = [...new TextEncoder().encode("*3\r\n$7\r\nPUBLISH\r\n$2\r\nch\r\n$2\r\n")];
    expect([...encodeCommand(["PUBLISH", "ch", new Uint8Array([0, 255])])]).toEqual([...head, 0, 255, 13, 10]);
  });
});

describe.skipIf(skip)("RedisBackplane against redis-server", () => {
  let redis: RedisProcess;
  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(async () => {
    await redis?.stop();
  });

  it("carries every byte value unchanged, and 20,000 messages in order", async () => {
    const got: Uint8Array[] = [];
    const subscriber = await RedisBackplane.connect(redis.url, (channel, payload) => {
      if (channel === "bytes") got.push(payload);
    });
    const publisher = await RedisBackplane.connect(redis.url, () => {});
    try {
      await subscriber.subscribe(["bytes"]);
      const every = Uint8Array.from({ length: 256 }, (_, i) => i);
      expect(await publisher.publish("bytes", every)).toBe(1);
      const frames = Array.from({ length: 20_000 }, (_, i) =>
        Uint8Array.of(i & 0xff, (i >> 8) & 0xff, 0x0d, 0x0a, 0x00, 0x80),
      );
      await Promise.all(frames.map((f) => publisher.publish("bytes", f)));
      await until(() => got.length === 1 + frames.length, "every message");
      expect([...got[0]!]).toEqual([...every]);
      for (let i = 0; i < frames.length; i++) expect([...got[i + 1]!], `message ${i}`).toEqual([...frames[i]!]);
    } finally {
      subscriber.close();
      publisher.close();
    }
  });

  it("a pattern hears channels made after it, with each channel's name, and traffic counts the wire bytes", async () => {
    const got: [string, number[]][] = [];
    const subscriber = await RedisBackplane.connect(redis.url, (channel, payload) => got.push([channel, [...payload]]));
    const publisher = await RedisBackplane.connect(redis.url, () => {});
    try {
      await subscriber.psubscribe(["pat:*"]);
      const before = publisher.traffic().publishedBytes;
      expect(await publisher.publish("pat:a", Uint8Array.of(1))).toBe(1);
      expect(await publisher.publish("other", Uint8Array.of(2))).toBe(0);
      expect(await publisher.publish("pat:b:c", Uint8Array.of(0, 255))).toBe(1);
      await until(() => got.length === 2, "both pattern messages");
      expect(got).toEqual([
        ["pat:a", [1]],
        ["pat:b:c", [0, 255]],
      ]);
      // Three PUBLISH commands, each *3 $7 PUBLISH $len channel $len payload.
      const command = (ch: string, n: number): number => encodeCommand(["PUBLISH", ch, new Uint8Array(n)]).length;
      expect(publisher.traffic().publishedBytes - before).toBe(
        command("pat:a", 1) + command("other", 1) + command("pat:b:c", 2),
      );
      expect(subscriber.traffic().receivedBytes).toBeGreaterThan(0);
    } finally {
      subscriber.close();
      publisher.close();
    }
  });

  it("a Redis that goes away ends the backplane with the reason and rejects what was waiting", async () => {
    const own = await startRedis();
    const b = await RedisBackplane.connect(own.url, () => {});
    await b.subscribe(["x"]);
    await own.stop();
    const why = await b.closed;
    expect(why.message).toMatch(/^the connection to Redis at 127\.0\.0\.1:\d+ (closed|failed)/);
    await expect(b.publish("x", new Uint8Array([1]))).rejects.toThrow(why.message);
  });

  it("a URL that is not redis://: one clear error", async () => {
    await expect(RedisBackplane.connect("nats://127.0.0.1:4222", () => {})).rejects.toThrow(
      "a backplane URL starts with redis:// (the only backplane supported), got 'nats://127.0.0.1:4222'",
    );
  });

  it("a Redis nobody runs: one clear error", async () => {
    const gone = await startRedis();
    const url = gone.url;
    await gone.stop();
    await expect(RedisBackplane.connect(url, () => {})).rejects.toThrow(/^cannot reach Redis at 127\.0\.0\.1:\d+/);
  });
});
