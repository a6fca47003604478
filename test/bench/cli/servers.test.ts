/**
 * The bench against a cluster of its own, as a user runs it: `--processes 2
 * --backplane redis` starts a redis-server and two server processes, fanout
 * delivers every message to every subscriber on both exactly once and
 * reports the whole server side's figures; a Redis that goes away mid-run
 * fails the cases it takes, names them, keeps the finished ones and ends
 * with exit 1, without hanging. And `--link`: every client's sockets cross the
 * link emulator the bench starts, the table, CSV and JSON name the link, and
 * without --iterations a run fits the link's time budget.
 */
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { BenchResults } from "../../../client/harness/results.ts";
import { parseCsv } from "../../../bench/report/csv-read.ts";
import { hasRedisServer, startRedis } from "../../../bench/cli/processes/redis-server.ts";
import { findToxiproxy } from "../../../bench/cli/processes/link-emulator.ts";
import { resultsFromFile } from "../../../bench/report/results-file.ts";
import { LINK_MIN_MESSAGES } from "../../../client/harness/link.ts";
import { skipBrowserTests } from "../../helpers/browsers.ts";
import { runBenchCli, type BenchCli } from "../../helpers/bench-cli.ts";

const ROOT = path.resolve(import.meta.dirname, "../../..");
const tmp = mkdtempSync(path.join(tmpdir(), "bench-cluster-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const skip = !hasRedisServer() && process.env.CI !== "true";
if (skip) process.stderr.write("\n[servers.test.ts] SKIPPED: no redis-server (apt-get install -y redis-server)\n\n");

/** True while something accepts connections on host:port. */
function listening(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, host);
    socket.once("connect", () => (socket.destroy(), resolve(true)));
    socket.once("error", () => resolve(false));
  });
}

describe.skipIf(skip)("bun run bench --modes fanout --processes 2 --backplane redis", () => {
  it("delivers every message to every subscriber on both processes exactly once, with the cluster's figures in table, CSV and JSON, and stops its Redis", async () => {
    const out = path.join(tmp, "fanout");
    const args = ["--modes", "fanout", "--processes", "2", "--backplane", "redis", "--clients", "8"];
    const r = spawnSync(
      process.execPath,
      [
        "bench/cli/bench.ts",
        ...args,
        "--codecs",
        "json,custom-binary,protobuf",
        "--payloads",
        "small,large",
        "--iterations",
        "400",
        "--warmup",
        "50",
        "--runs",
        "2",
        "--out",
        out,
      ],
      { cwd: ROOT, encoding: "utf8", timeout: 300_000, env: { ...process.env, NO_COLOR: "1" } },
    );
    expect(r.stderr).not.toMatch(/FAILED/);
    expect(r.status).toBe(0);
    const results = JSON.parse(readFileSync(path.join(out, "latest.json"), "utf8")) as BenchResults;
    expect(results.settings.processes).toBe(2);
    expect(results.settings.backplane).toMatch(/^redis:\/\/127\.0\.0\.1:\d+$/);
    expect(results.settings.server).toMatch(
      /^spawned, a cluster of 2 processes on http:\/\/127\.0\.0\.1:\d+ \(pids \d+, \d+\), joined by Redis at redis:\/\//,
    );
    expect(results.cases).toHaveLength(6);
    for (const c of results.cases) {
      const s = c.socket!;
      expect(c.verified, `${c.codec} ${c.payload}: ${c.error}`).toBe(true);
      // 400 messages x 2 runs, each to all 8 subscribers: once each, none lost, none out of order or changed.
      expect([s.sent, s.received, s.lost, s.corrupted]).toEqual([800, 6400, 0, 0]);
      expect(s.cluster!.processes).toBe(2);
      expect(s.cluster!.backplane).toBe("redis");
      expect(s.cluster!.cpuNsPerDelivery.median).toBeGreaterThan(0);
      // Every message crosses the backplane once in and once to each process: more than its own bytes, three times.
      expect(s.cluster!.backplaneBytesPerMsg.median).toBeGreaterThan(3 * c.bytes);
      expect(s.rtt!.p50).toBeGreaterThan(0);
      expect(s.rtt!.samples).toBe(6400);
    }
    const rows = parseCsv(readFileSync(path.join(out, "latest.csv"), "utf8"));
    const head = rows[0]!;
    for (const row of rows.slice(1)) {
      expect(row[head.indexOf("server_processes")]).toBe("2");
      expect(row[head.indexOf("backplane")]).toBe("redis");
      expect(Number(row[head.indexOf("cluster_cpu_ns_per_delivery")])).toBeGreaterThan(0);
      expect(Number(row[head.indexOf("backplane_bytes_per_msg")])).toBeGreaterThan(Number(row[head.indexOf("bytes")]));
    }
    expect(r.stdout).toMatch(/deliveries\/s +vs json +p50 +p99 +cpu\/dlv +bp B\/msg/);
    expect(r.stdout).toMatch(/fanout: 2 server processes joined by redis/);
    // The Redis the bench started is gone with it.
    const port = Number(/redis:\/\/127\.0\.0\.1:(\d+)/.exec(results.settings.backplane!)![1]);
    expect(await listening("127.0.0.1", port)).toBe(false);
  }, 300_000);

  it("a Redis stopped mid-run: the cases it takes fail, named; the finished ones are kept; exit 1; nothing hangs", async () => {
    const redis = await startRedis();
    const out = path.join(tmp, "gone");
    const child = spawn(
      process.execPath,
      [
        "bench/cli/bench.ts",
        "--modes",
        "fanout",
        "--processes",
        "2",
        "--backplane",
        redis.url,
        "--clients",
        "4",
        "--codecs",
        "json,custom-binary,msgpackr",
        "--payloads",
        "small,medium",
        "--iterations",
        "20000",
        "--warmup",
        "100",
        "--runs",
        "2",
        "--out",
        out,
      ],
      { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, NO_COLOR: "1" } },
    );
    let stderr = "";
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.stdout.resume();
    const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
    try {
      // Once the live CSV holds a finished case, the backplane goes.
      const deadline = Date.now() + 180_000;
      const finishedRows = (): number => {
        const csv = readdirSync(out, { withFileTypes: true }).find(
          (f) => f.isFile() && f.name.endsWith(".csv") && f.name !== "latest.csv",
        );
        return csv ? readFileSync(path.join(out, csv.name), "utf8").trim().split("\n").length - 1 : 0;
      };
      while (Date.now() < deadline) {
        try {
          if (finishedRows() >= 1) break;
        } catch {
          // The directory is not there yet.
        }
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      await redis.stop();
      const code = await Promise.race([
        exited,
        new Promise<"hung">((resolve) => setTimeout(() => resolve("hung"), 120_000)),
      ]);
      expect(code).toBe(1);
    } finally {
      child.kill("SIGKILL");
      await redis.stop();
    }
    const results = JSON.parse(readFileSync(path.join(out, "latest.json"), "utf8")) as BenchResults;
    const kept = results.cases.filter((c) => c.verified);
    const failed = results.cases.filter((c) => !c.verified);
    expect(kept.length).toBeGreaterThanOrEqual(1);
    expect(failed.length).toBeGreaterThanOrEqual(1);
    for (const c of kept) expect(c.socket!.lost).toBe(0);
    for (const c of failed) {
      expect(c.error).toMatch(/the backplane is gone \(redis:\/\/127\.0\.0\.1:\d+\)/);
      expect(stderr).toContain(`bench: FAILED fanout bun ${c.codec} ${c.payload}: `);
    }
  }, 300_000);
});

const noLink = findToxiproxy() === undefined && process.env.CI !== "true";
if (noLink)
  process.stderr.write("\n[servers.test.ts] SKIPPED the --link tests: no toxiproxy-server (docs/links.md)\n\n");

const benchRun = (...args: string[]): BenchCli => runBenchCli(args, 240_000);

/** The rows of `out`'s latest.csv, each as column -> cell. */
function rowsOf(out: string): Record<string, string>[] {
  const [header, ...rows] = parseCsv(readFileSync(path.join(out, "latest.csv"), "utf8"));
  return rows.map((row) => Object.fromEntries(header!.map((h, i) => [h, row[i]!])));
}

const LINK = "latency=30ms,down=5mbit,up=2mbit";

describe.skipIf(noLink)("bun run bench --link: the clients through the link emulator", () => {
  it.each([
    ["bun", ["--modes", "roundtrip,stream"]],
    ["node", ["--modes", "roundtrip,stream", "--iterations", "60"]],
  ])("--client %s: every case over the link, named in the table, the CSV and the JSON", (client, extra) => {
    const out = path.join(tmp, client);
    const r = benchRun(
      "--client",
      client,
      "--codecs",
      "json,custom-binary",
      "--payloads",
      "small",
      "--runs",
      "1",
      "--link",
      LINK,
      "--out",
      out,
      ...extra,
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain("over a link, custom: 30 ms round trip, 5 Mbit/s down, 2 Mbit/s up");
    // The table's link columns, and report.html's link column.
    expect(r.stdout).toMatch(/ on wire /);
    expect(r.stdout).toMatch(/ held by /);
    const html = readFileSync(path.join(out, "report.html"), "utf8");
    expect(html).toContain("<th>link</th>");
    expect(html).toMatch(/<td>custom: on wire [\d.]+ [µm]?s<\/td>/);
    expect(html).toMatch(/<td>custom: held by (up|down|window) \d+%|<td>custom: held by cpu/);
    const rows = rowsOf(out);
    expect(rows).toHaveLength(2 * 2);
    for (const row of rows) {
      expect(row.verified).toBe("true");
      expect(row.lost).toBe("0");
      expect([row.link, row.link_rtt_ms, row.link_down_kbps, row.link_up_kbps]).toEqual([
        "custom",
        "30",
        "5000",
        "2000",
      ]);
      if (row.mode === "roundtrip") {
        // The round trips crossed the link: their median is at least its 30 ms.
        expect(Number(row.rtt_p50_ns)).toBeGreaterThanOrEqual(30e6);
        // Without --iterations a run fits the link's time: 2 s of 30 ms round trips is fewer than the floor.
        expect(row.sent).toBe(client === "bun" ? String(LINK_MIN_MESSAGES) : "60");
      }
    }
    const json = resultsFromFile(readFileSync(path.join(out, "latest.json"), "utf8"));
    expect(json.settings.link).toMatchObject({ name: "custom", rttMs: 30, downKbps: 5000, upKbps: 2000 });
    // The CSV read back says the same.
    const csv = resultsFromFile(readFileSync(path.join(out, "latest.csv"), "utf8"));
    expect(csv.settings.link).toMatchObject({ name: "custom", rttMs: 30, downKbps: 5000, upKbps: 2000 });
  });

  it.skipIf(skipBrowserTests("servers.test.ts"))(
    "--client chromium: the page loads from the server, its WebSockets cross the link",
    () => {
      const out = path.join(tmp, "chromium");
      const r = benchRun(
        "--client",
        "chromium",
        "--modes",
        "roundtrip",
        "--codecs",
        "json",
        "--payloads",
        "small",
        "--iterations",
        "40",
        "--runs",
        "1",
        "--link",
        LINK,
        "--out",
        out,
      );
      expect(r.code, r.stderr).toBe(0);
      const [row] = rowsOf(out);
      expect(row!.verified).toBe("true");
      expect(row!.link).toBe("custom");
      expect(Number(row!.rtt_p50_ns)).toBeGreaterThanOrEqual(30e6);
    },
  );
});
