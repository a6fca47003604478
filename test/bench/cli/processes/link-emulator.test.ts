/**
 * The link emulator (Toxiproxy) in front of a real server (port 0): what a
 * profile turns into, a round trip that takes the link's time, and the
 * faults a link brings: frames cut into segments of a few bytes (every
 * message still verified, in every socket mode with Bun's client, and in
 * every mode they run with the Node client, Chromium and Firefox), a
 * connection reset mid-stream (the case fails naming it, the server serves
 * the next), a link gone silent (the case fails after its stall timeout
 * instead of hanging), a fanout subscriber behind a slow link (closed by the
 * server's budget, memory bounded); and the whole bench meeting a reset
 * mid-run (the case fails naming it, finished cases kept, exit 1).
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeMessages } from "../../../../client/harness/generator.ts";
import { parseLink } from "../../../../client/harness/link.ts";
import type { SocketMode } from "../../../../client/harness/settings.ts";
import { runSocketModes } from "../../../../client/socket/modes.ts";
import { runSocketCase } from "../../../../client/socket/runner.ts";
import type { PayloadName } from "../../../../protocols/messages.ts";
import {
  findToxiproxy,
  linkToxics,
  startLink,
  type LinkEmulator,
  type Toxic,
} from "../../../../bench/cli/processes/link-emulator.ts";
import { serverForFile } from "../../../helpers/server.ts";
import { until } from "../../../helpers/until.ts";
import { keepPublishing } from "../../../helpers/publisher.ts";
import { runBenchCli } from "../../../helpers/bench-cli.ts";
import { parseCsv } from "../../../helpers/csv.ts";
import { resultsFromFile } from "../../../../bench/report/results-file.ts";
import { BUILT_IN } from "../../../../protocols/registry.ts";
import { socketUrl } from "../../../../protocols/contract.ts";
import { testSettings } from "../../../helpers/settings.ts";
import { BROWSERS, skipBrowserTests } from "../../../helpers/browsers.ts";
import { runBrowserClient } from "../../../../bench/cli/processes/browser.ts";
import { findBrowser } from "../../../../bench/cli/processes/browser-driver.ts";
import { bunModeContext, socketCaseOptions } from "../../../helpers/socket-case.ts";

const skip = findToxiproxy() === undefined && process.env.CI !== "true";
if (skip)
  process.stderr.write(
    "\n[link-emulator.test.ts] SKIPPED: no toxiproxy-server (see docs/links.md for the go install line)\n\n",
  );

describe("a profile as the emulator's toxics", () => {
  it("gives each way half the round trip (the odd ms down), then its bandwidth, in whole ms and kB/s", () => {
    expect(linkToxics(parseLink("latency=61ms,jitter=5ms,down=10mbit,up=500kbit"))).toEqual([
      { name: "downstream-latency", type: "latency", stream: "downstream", attributes: { latency: 31, jitter: 3 } },
      { name: "downstream-bandwidth", type: "bandwidth", stream: "downstream", attributes: { rate: 1250 } },
      { name: "upstream-latency", type: "latency", stream: "upstream", attributes: { latency: 30, jitter: 2 } },
      { name: "upstream-bandwidth", type: "bandwidth", stream: "upstream", attributes: { rate: 63 } },
    ]);
    expect(linkToxics(parseLink("down=8kbit"))).toEqual([
      { name: "downstream-bandwidth", type: "bandwidth", stream: "downstream", attributes: { rate: 1 } },
    ]);
  });
});

describe.skipIf(skip)("over a real link", () => {
  const bench = serverForFile();
  let link: LinkEmulator;
  let ids = 0;
  beforeAll(async () => {
    link = await startLink(parseLink("latency=40ms"), [bench.url]);
  });
  afterAll(async () => {
    await link?.stop();
  });

  const run = (
    mode: SocketMode,
    payload: PayloadName,
    count: number,
    over: { stallTimeoutMs?: number; id?: string } = {},
  ) =>
    runSocketCase(
      socketCaseOptions({
        server: bench.url,
        linkVia: link.via,
        codec: "json",
        payload,
        mode,
        messages: makeMessages(payload, { count, seed: 7, fixed: false }),
        window: mode === "roundtrip" ? 1 : 16,
        id: `link-${mode}-${ids++}`,
        ...over,
      }),
    );

  /**
   * A run of `count` messages with `fault` put on the link (the way back) once the server has
   * answered some of them, and taken off when the run has ended.
   */
  const faultMidRun = async (
    fault: { name: string; type: Toxic["type"]; attributes: Toxic["attributes"] },
    mode: SocketMode,
    payload: PayloadName,
    count: number,
    over: { stallTimeoutMs?: number } = {},
  ) => {
    const id = `link-fault-${ids++}`;
    const running = run(mode, payload, count, { ...over, id });
    const deadline = Date.now() + 20_000;
    for (;;) {
      const res = await fetch(`${bench.url}/stats/${id}`);
      if (res.ok && ((await res.json()) as { messages: number }).messages > 0) break;
      if (Date.now() > deadline) throw new Error(`the server answered none of ${id}'s messages within 20 s`);
      await new Promise((r) => setTimeout(r, 20));
    }
    await link.addToxic(bench.url, { ...fault, stream: "downstream" });
    try {
      return await running;
    } finally {
      await link.removeToxic(bench.url, fault.name);
    }
  };

  it("puts a proxy of its own in front of each server, on loopback", () => {
    expect(Object.keys(link.via)).toEqual([bench.url]);
    expect(link.via[bench.url]).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(link.via[bench.url]).not.toBe(bench.url);
  });

  it("a round trip takes the link's round trip, and not much more", async () => {
    const f = await run("roundtrip", "small", 10);
    expect(f.error).toBeUndefined();
    expect(f.received).toBe(10);
    const ms = [...f.rttNs!].map((ns) => ns / 1e6);
    expect(Math.min(...ms)).toBeGreaterThanOrEqual(39);
    // A round trip of 40 ms on loopback: anything near 10x would mean the link was not what was set.
    expect(ms.sort((a, b) => a - b)[5]!).toBeLessThan(400);
  });

  it("a message takes the link's delay plus its bytes at the link's rate", async () => {
    // 400 kbit/s each way: a large JSON frame (about 335 bytes) takes 6.7 ms each way, on top of 20 ms.
    const slow = await startLink(parseLink("latency=20ms,down=400kbit,up=400kbit"), [bench.url]);
    try {
      const f = await runSocketCase(
        socketCaseOptions({
          server: bench.url,
          linkVia: slow.via,
          codec: "json",
          payload: "large",
          mode: "roundtrip",
          messages: makeMessages("large", { count: 10, seed: 7, fixed: false }),
          id: `link-sum-${ids++}`,
        }),
      );
      expect(f.error).toBeUndefined();
      const bytesMs = (2 * 8 * (f.bytesSent / f.sent)) / 400;
      const sorted = [...f.rttNs!].map((ns) => ns / 1e6).sort((a, b) => a - b);
      expect(sorted[0]!).toBeGreaterThanOrEqual(20 + 0.9 * bytesMs);
    } finally {
      await slow.stop();
    }
  });

  it("frames cut into segments of 1 to 15 bytes, with pauses between them: every message verified, in every socket mode", async () => {
    const slicer = { type: "slicer" as const, attributes: { average_size: 8, size_variation: 7, delay: 50 } };
    await link.addToxic(bench.url, { ...slicer, name: "slice-up", stream: "upstream" });
    await link.addToxic(bench.url, { ...slicer, name: "slice-down", stream: "downstream" });
    try {
      const s = testSettings({
        codecs: ["json", "msgpackr"],
        payloads: ["medium"],
        modes: ["roundtrip", "stream", "fanout", "latency", "route"],
        runs: 1,
        window: 8,
        rates: [200],
        clients: 2,
        members: 3,
        iterations: { roundtrip: 20, stream: 60, fanout: 30, latency: 40, route: 40 },
        warmup: { roundtrip: 10, stream: 10, fanout: 10, latency: 10, route: 10 },
      });
      const result = await runSocketModes(s, bunModeContext(bench.url, { linkVia: link.via }));
      expect(result.cases.map((c) => c.mode).sort()).toEqual(
        ["fanout", "latency", "roundtrip", "route", "stream"].flatMap((m) => [m, m]),
      );
      for (const c of result.cases) {
        expect(c.error, `${c.mode} ${c.codec}`).toBe("");
        expect(c.verified, `${c.mode} ${c.codec}`).toBe(true);
        if (c.socket) {
          expect(c.socket.lost, `${c.mode} ${c.codec}`).toBe(0);
          expect(c.socket.corrupted, `${c.mode} ${c.codec}`).toBe(0);
        }
      }
    } finally {
      await link.removeToxic(bench.url, "slice-up");
      await link.removeToxic(bench.url, "slice-down");
    }
  });

  it("a connection reset mid-stream fails that case with a line naming the reset; the server serves the next", async () => {
    // The server's side of the link resets the connection at the next bytes it carries back.
    const failed = await faultMidRun(
      { name: "reset", type: "reset_peer", attributes: { timeout: 0 } },
      "stream",
      "large",
      100_000,
    );
    expect(failed.error).toMatch(/^the connection was cut off without a close frame \(1006: a connection reset/);
    expect(failed.received).toBeGreaterThan(0);
    expect(failed.received).toBeLessThan(100_000);
    const next = await run("stream", "small", 50);
    expect(next.error).toBeUndefined();
    expect(next.received).toBe(50);
  });

  it("a link gone silent mid-run fails the case after its stall timeout instead of hanging", async () => {
    const started = performance.now();
    // 200 round trips of 40 ms: the link goes silent (drops every byte, never closes) while they run.
    const silent = await faultMidRun(
      { name: "silent", type: "timeout", attributes: { timeout: 0 } },
      "roundtrip",
      "small",
      200,
      {
        stallTimeoutMs: 1500,
      },
    );
    expect(silent.error).toMatch(/^stalled: no reply for 1500 ms after \d+ of 200/);
    expect(silent.received).toBeGreaterThan(0);
    expect(performance.now() - started).toBeGreaterThanOrEqual(1500);
    expect(performance.now() - started).toBeLessThan(60_000);
  });

  it("a link silent from the start fails the connection after the stall timeout", async () => {
    await link.addToxic(bench.url, {
      name: "silent",
      type: "timeout",
      stream: "downstream",
      attributes: { timeout: 0 },
    });
    let silent: Awaited<ReturnType<typeof run>>;
    try {
      silent = await run("roundtrip", "small", 20, { stallTimeoutMs: 1500 });
    } finally {
      await link.removeToxic(bench.url, "silent");
    }
    expect(silent.error).toMatch(/^cannot connect to ws:\/\/127\.0\.0\.1:\d+\/ws.*: .*1500 ms/);
  });
});

describe.skipIf(skip)("a fanout backed up by a slow link", () => {
  // Its own process, so its memory in /health is the server's alone.
  const server = serverForFile({ ownProcess: true });

  it("the subscriber behind it is closed with 1008 within the per-connection budget; the server's memory stays bounded and the publisher carries on", {
    timeout: 90_000,
  }, async () => {
    // A subscriber that reads everything, on a link that carries 64 kbit/s to it.
    const link = await startLink(parseLink("down=64kbit"), [server.url]);
    const topic = "slow-link";
    const codec = BUILT_IN.get("custom-binary")!.forPayload("large");
    const message = codec.encode(makeMessages("large", { count: 1, seed: 3, fixed: false })[0]!) as Uint8Array;
    const open = (url: string): Promise<WebSocket> =>
      new Promise((resolve, reject) => {
        const ws = new WebSocket(url);
        ws.binaryType = "arraybuffer";
        ws.onopen = () => resolve(ws);
        ws.onerror = () => reject(new Error(`cannot open ${url}`));
      });
    try {
      const sub = await open(
        `${socketUrl(link.via[server.url]!, "custom-binary", "large", "sub-slow")}&role=subscriber&topic=${topic}`,
      );
      const pub = await open(
        `${socketUrl(server.url, "custom-binary", "large", "pub-slow")}&role=publisher&topic=${topic}`,
      );
      const flood = keepPublishing(pub, message);
      // The server's memory, sampled while the link backs up, until the server has closed the
      // subscriber (its close frame waits behind the backlog on the link: the server says so first).
      let peakRss = 0;
      let closed: { closeCode?: number | null; closeReason?: string } = {};
      const deadline = Date.now() + 60_000;
      while (typeof closed.closeCode !== "number" && Date.now() < deadline) {
        peakRss = Math.max(peakRss, (await server.health()).rssBytes);
        const res = await fetch(`${server.url}/stats/sub-slow`);
        if (res.ok) closed = (await res.json()) as typeof closed;
        await new Promise((r) => setTimeout(r, 50));
      }
      const heardBefore = flood.heard();
      await until(
        () => flood.heard() > heardBefore,
        "the publisher to hear its messages after the subscriber was closed",
        10_000,
      );
      pub.close();
      sub.close();
      // 1008: the server's budget for one connection, not a cut link, ended the subscriber.
      expect(closed.closeCode, `sent ${flood.sent()}, heard ${flood.heard()}`).toBe(1008);
      expect(closed.closeReason).toMatch(/^subscriber is not reading: \d+ bytes wait to be sent to it/);
      // Bounded: what waits for one connection is capped (Bun's backpressure limit), whatever the link.
      expect(peakRss).toBeLessThan(400 * 1024 * 1024);
      expect((await server.health()).ok).toBe(true);
    } finally {
      await link.stop();
    }
  });
});

describe.skipIf(skip)("frames sliced into a few bytes, with the Node client and in the browsers", () => {
  // Its own process: the bench runs to its end while this test waits for it.
  const server = serverForFile({ ownProcess: true });
  let link: LinkEmulator;
  beforeAll(async () => {
    // No delay and no limit: only the slicer, 1 to 15 bytes a segment, both ways.
    link = await startLink(parseLink("loopback"), [server.url]);
    const slicer = { type: "slicer" as const, attributes: { average_size: 8, size_variation: 7, delay: 10 } };
    await link.addToxic(server.url, { ...slicer, name: "slice-up", stream: "upstream" });
    await link.addToxic(server.url, { ...slicer, name: "slice-down", stream: "downstream" });
  });
  afterAll(async () => {
    await link?.stop();
  });

  // Every mode the Node client and the page run (fanout needs Bun's client).
  const modes = ["roundtrip", "stream", "latency", "route"] as const;

  it("--client node: every message verified, nothing lost, in every mode it runs", () => {
    const out = mkdtempSync(path.join(tmpdir(), "bench-sliced-node-"));
    try {
      // The whole server through the slicer (--url names the link): the warm-up and every socket.
      const r = runBenchCli(
        [
          "--client",
          "node",
          "--url",
          link.via[server.url]!,
          "--modes",
          modes.join(","),
          "--codecs",
          "json,msgpackr",
          "--payloads",
          "medium",
          "--iterations",
          "60",
          "--warmup",
          "10",
          "--runs",
          "1",
          "--rate",
          "200",
          "--out",
          out,
        ],
        240_000,
      );
      expect(r.code, r.stderr).toBe(0);
      const [header, ...rows] = parseCsv(readFileSync(path.join(out, "latest.csv"), "utf8"));
      const at = (row: string[], col: string): string => row[header!.indexOf(col)]!;
      expect(new Set(rows.map((row) => at(row, "mode")))).toEqual(new Set(modes));
      for (const row of rows) {
        expect(at(row, "verified"), `${at(row, "mode")} ${at(row, "codec")}`).toBe("true");
        if (at(row, "mode") !== "route") expect(at(row, "lost"), `${at(row, "mode")} ${at(row, "codec")}`).toBe("0");
      }
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });

  // The page loads straight from the server, as with --link (a megabyte of script in 8-byte
  // segments would outlast the browser's navigation timeout); its WebSockets cross the slicer.
  for (const browser of BROWSERS)
    it.skipIf(skipBrowserTests("link-emulator.test.ts", browser))(
      `--client ${browser}: every message verified, nothing lost, in every mode the page runs`,
      async () => {
        const settings = testSettings({
          codecs: ["json", "msgpackr"],
          payloads: ["medium"],
          modes: [...modes],
          runs: 1,
          rates: [200],
          iterations: { roundtrip: 60, stream: 60, latency: 60, route: 60 },
          warmup: { roundtrip: 10, stream: 10, latency: 10, route: 10 },
        });
        const { results, failures } = await runBrowserClient(
          browser,
          findBrowser(browser)!,
          { settings, server: server.url, linkVia: link.via[server.url]! },
          () => {},
        );
        expect(failures).toEqual([]);
        expect(new Set(results.cases.map((c) => c.mode))).toEqual(new Set(modes));
        for (const c of results.cases) {
          // The user agent names the engine (headless Chromium's says HeadlessChrome).
          expect(c.clientLibrary).toMatch(browser === "chromium" ? /Chrome\// : /Firefox\//);
          expect(c.verified, `${c.mode} ${c.codec}: ${c.error}`).toBe(true);
          if (c.mode !== "route") expect(c.socket!.lost, `${c.mode} ${c.codec}`).toBe(0);
        }
      },
      180_000,
    );
});

describe.skipIf(skip)("a connection reset mid-run, as a user of the bench meets it", () => {
  // Its own process: the bench runs while this test watches its files.
  const server = serverForFile({ ownProcess: true });

  it("the case it takes fails naming the reset, the finished cases stay in the files, the server carries on, exit 1", async () => {
    const link = await startLink(parseLink("loopback"), [server.url]);
    const out = mkdtempSync(path.join(tmpdir(), "bench-reset-"));
    const child = spawn(
      process.execPath,
      [
        "bench/cli/bench.ts",
        "--url",
        link.via[server.url]!,
        "--modes",
        "stream",
        "--codecs",
        "json,custom-binary,msgpackr",
        "--payloads",
        "small,large",
        "--iterations",
        "100000",
        "--warmup",
        "100",
        "--runs",
        "1",
        "--out",
        out,
      ],
      {
        cwd: path.resolve(import.meta.dirname, "../../../.."),
        stdio: ["ignore", "pipe", "pipe"],
        env: { ...process.env, NO_COLOR: "1" },
      },
    );
    let stderr = "";
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.stdout.resume();
    const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
    try {
      // Once the small message's cases are done and the large one's rounds run, every connection through the link is reset.
      await until(
        () => /stream \[\d+\/6\] run 1\/1 large round \d+/.test(stderr),
        "the large message's rounds",
        180_000,
      );
      await link.addToxic(server.url, {
        name: "reset",
        type: "reset_peer",
        stream: "downstream",
        attributes: { timeout: 0 },
      });
      const code = await Promise.race([
        exited,
        new Promise<"hung">((resolve) => setTimeout(() => resolve("hung"), 120_000)),
      ]);
      expect(code, stderr).toBe(1);
      const results = resultsFromFile(readFileSync(path.join(out, "latest.json"), "utf8"));
      const kept = results.cases.filter((c) => c.verified);
      const failed = results.cases.filter((c) => !c.verified);
      // The small message's three cases, finished before the reset.
      expect(kept.map((c) => c.payload)).toEqual(["small", "small", "small"]);
      for (const c of kept) expect(c.socket!.lost).toBe(0);
      // The case in flight names the reset; any after it could not connect through the link.
      expect(failed.length).toBeGreaterThanOrEqual(1);
      expect(failed[0]!.error).toMatch(/the connection was cut off without a close frame \(1006: a connection reset/);
      expect(stderr).toMatch(
        /bench: FAILED stream bun \S+ large: (run 1: )?the connection was cut off without a close frame/,
      );
      // The server itself, reached directly, carries on.
      expect((await server.health()).ok).toBe(true);
    } finally {
      child.kill("SIGKILL");
      await link.stop();
      rmSync(out, { recursive: true, force: true });
    }
  }, 300_000);
});
