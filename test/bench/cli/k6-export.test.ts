/**
 * The exported k6 test as a user runs it: `bun run bench --export-k6`, a
 * real server process, and two k6 processes splitting one test with
 * execution segments, as two machines would; then `bun run report` merges
 * their outputs.
 */
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { hasRedisServer, startRedis } from "../../../bench/cli/processes/redis-server.ts";
import { spawnServer } from "../../../bench/cli/processes/server-process.ts";
import { k6Results } from "../../../bench/report/k6-rows.ts";
import { readResults } from "../../../bench/cli/read-results.ts";
import { sourcedCases } from "../../../bench/report/sources.ts";
import { k6Path, skipK6Tests } from "../../helpers/k6.ts";
import { benchCodecNames } from "../../../protocols/contract.ts";
import { BUILT_IN } from "../../../protocols/registry.ts";
import { runBenchCli, type BenchCli } from "../../helpers/bench-cli.ts";

const ROOT = path.resolve(import.meta.dirname, "../../..");
const tmp = mkdtempSync(path.join(tmpdir(), "bench-k6-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const bench = (...args: string[]): BenchCli => runBenchCli(args);

/** One k6 process to its end: its exit code and the tail of its output. */
function k6(args: string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(k6Path!, args, { cwd: tmp });
    let output = "";
    child.stdout.on("data", (d: Buffer) => (output += d.toString()));
    child.stderr.on("data", (d: Buffer) => (output += d.toString()));
    child.on("close", (code) => resolve({ code, output: output.slice(-3000) }));
  });
}

describe("bun run bench --export-k6", () => {
  it("writes the script, its config and every codec x payload's frames, each echoed canonically by its codec", () => {
    const dir = path.join(tmp, "all");
    const r = bench(
      "--export-k6",
      dir,
      "--codecs",
      "all",
      "--payloads",
      "all",
      "--k6-connections",
      "3",
      "--k6-messages",
      "40",
    );
    expect(r.code, r.stderr).toBe(0);
    const cases = benchCodecNames(BUILT_IN).length * 6;
    expect(r.stdout).toMatch(
      new RegExp(
        `^Wrote a k6 test to .*: ${cases} codec x payload cases, each 3 connection\\(s\\) x 40 messages at 100/s per connection\\.\n`,
      ),
    );
    const config = JSON.parse(readFileSync(path.join(dir, "config.json"), "utf8")) as {
      cases: { codec: string; payload: string; frames: number }[];
      connections: number;
    };
    expect(config.connections).toBe(3);
    expect(config.cases).toHaveLength(cases);
    // Each frame file holds exactly the frames' bytes: [u32 length][bytes], no more (never a view's larger buffer).
    for (const c of config.cases as unknown as { file: string; frames: number }[]) {
      const bytes = readFileSync(path.join(dir, "frames", c.file));
      let at = 0;
      for (let i = 0; i < c.frames; i++) at += 4 + bytes.readUInt32LE(at);
      expect(at, c.file).toBe(bytes.length);
    }
    for (const c of config.cases) expect(c.frames).toBe(40);
    expect(readFileSync(path.join(dir, "script.js"), "utf8")).toContain('from "k6/websockets"');
  });

  it("a --k6-* flag without --export-k6, or a bad value: one line, exit 2", () => {
    const alone = bench("--k6-rate", "10");
    expect(alone.code).toBe(2);
    expect(alone.stderr).toBe("bench: --k6-rate sets the load of an exported k6 test; add --export-k6 DIR\n");
    const bad = bench("--export-k6", path.join(tmp, "x"), "--k6-connections", "0");
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe("bench: --k6-connections must be an integer from 1 to 1000000, got '0'\n");
  });
});

describe.skipIf(skipK6Tests("test/bench/cli/k6-export.test.ts"))(
  "k6 against bun run server, split over two processes",
  () => {
    it("together the two segments send exactly the configured total, every echo matches, and the merged report counts each message once", async () => {
      const dir = path.join(tmp, "split");
      const r = bench(
        "--export-k6",
        dir,
        "--codecs",
        "all",
        "--payloads",
        "small,chat",
        "--k6-connections",
        "4",
        "--k6-messages",
        "50",
        "--k6-rate",
        "200",
        "--k6-ramp",
        "0",
        "--k6-stall",
        "5",
      );
      expect(r.code, r.stderr).toBe(0);
      // `bun run server` as its own process, as a user runs it beside k6: started directly, not with test/helpers/server.ts.
      const server = await spawnServer();
      try {
        const version = spawnSync(k6Path!, ["version"], { encoding: "utf8" }).stdout.trim();
        const segment = (seg: string, out: string) =>
          k6([
            "run",
            "--quiet",
            "--execution-segment",
            seg,
            "--execution-segment-sequence",
            "0,1/2,1",
            "--out",
            `json=${out}`,
            "-e",
            `SERVER=${server.url}`,
            "-e",
            `K6_VERSION=${version}`,
            path.join(dir, "script.js"),
          ]);
        const [a, b] = await Promise.all([segment("0:1/2", "a.json"), segment("1/2:1", "b.json")]);
        expect(a.code, a.output).toBe(0);
        expect(b.code, b.output).toBe(0);
        const one = k6Results([readFileSync(path.join(tmp, "a.json"), "utf8")]);
        const both = k6Results([
          readFileSync(path.join(tmp, "a.json"), "utf8"),
          readFileSync(path.join(tmp, "b.json"), "utf8"),
        ]);
        const cases = benchCodecNames(BUILT_IN).length * 2; // every socket codec x 2 payloads
        expect(both.counts).toHaveLength(cases);
        for (const c of both.counts) {
          expect(c, `${c.codec} ${c.payload}`).toMatchObject({
            sent: 200,
            received: 200,
            lost: 0,
            checksPassed: 200,
            checksFailed: 0,
          });
        }
        for (const c of one.counts) expect(c.sent, `${c.codec} ${c.payload}`).toBe(100);
        for (const { source, case: c } of sourcedCases(both.results)) {
          expect(c.socket!.received).toBe(200);
          expect(source).toMatch(/^k6 v\d+\.\d+\.\d+/);
          expect(c.socket!.latency!.p99).toBeGreaterThanOrEqual(c.socket!.latency!.p50);
        }
        // The k6 rows join a Bun client's run in one report.
        const bun = path.join(ROOT, "results/sample/bun-every-codec.json.gz");
        const report = spawnSync(
          process.execPath,
          [
            "bench/cli/report.ts",
            path.join(tmp, "a.json"),
            path.join(tmp, "b.json"),
            bun,
            "--out",
            path.join(tmp, "k6.html"),
          ],
          { cwd: ROOT, encoding: "utf8" },
        );
        expect(report.status, report.stderr).toBe(0);
        const bunRows = readResults(bun).cases.length;
        expect(report.stdout).toContain(`Wrote ${path.join(tmp, "k6.html")} (${bunRows + cases} rows).`);
        const html = readFileSync(path.join(tmp, "k6.html"), "utf8");
        expect(html).toMatch(
          /<table class="cases" data-mode="latency">[\s\S]*<td>k6 v[^<]*<\/td><td>chat( at [\d,]+\/s)?<\/td><td>custom-binary<\/td>/,
        );
        expect(report.stdout).toContain(
          "k6 (2 file(s), merged): sent / received / lost, checks passed / failed; p50 / p99 from due and from send (1 ms clock)",
        );
        expect(report.stdout).toMatch(
          /^  chat custom-binary: 200 \/ 200 \/ 0, checks 200 \/ 0; [\d.]+ ms \/ [\d.]+ ms and [\d.]+ ms \/ [\d.]+ ms$/m,
        );
      } finally {
        await server.stop();
      }
    });
  },
);

describe.skipIf(skipK6Tests("test/bench/cli/k6-export.test.ts"))(
  "k6 as routers against bun run server (--export-k6 with --modes route)",
  () => {
    it("every frame reaches the member of its room, unchanged and in order, for every codec that reads a key; the rows say routed", async () => {
      const dir = path.join(tmp, "route");
      const r = bench(
        "--export-k6",
        dir,
        "--modes",
        "route",
        "--validate",
        "--codecs",
        "json,custom-binary,protobuf,flatbuffers,raw",
        "--payloads",
        "market,chat",
        "--k6-connections",
        "3",
        "--k6-messages",
        "60",
        "--k6-rate",
        "300",
        "--k6-ramp",
        "0",
        "--k6-stall",
        "5",
      );
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toMatch(
        /^Wrote a k6 test to .*: 8 codec x payload cases, each 3 router\(s\), with two members of their rooms, x 60 messages at 300\/s per connection\.$/m,
      );
      const config = JSON.parse(readFileSync(path.join(dir, "config.json"), "utf8")) as {
        test: string;
        validate: boolean;
        cases: { codec: string; rooms: string[]; roomOf: number[]; frames: number }[];
      };
      expect(config.test).toBe("route");
      expect(config.validate).toBe(true);
      // raw reads no key: it does not route.
      expect(config.cases.map((c) => c.codec)).not.toContain("raw");
      for (const c of config.cases) {
        expect(c.roomOf).toHaveLength(c.frames);
        expect(Math.max(...c.roomOf)).toBe(c.rooms.length - 1);
      }
      const server = await spawnServer();
      try {
        const out = path.join(tmp, "route.json");
        const run = await k6([
          "run",
          "--quiet",
          "--out",
          `json=${out}`,
          "-e",
          `SERVER=${server.url}`,
          path.join(dir, "script.js"),
        ]);
        expect(run.code, run.output).toBe(0);
        const { counts, results } = k6Results([readFileSync(out, "utf8")]);
        expect(counts).toHaveLength(8);
        // Per case: 3 routers x 60 frames, each delivered once; the checks: 2 joins and 60 deliveries per router.
        for (const c of counts)
          expect(c, `${c.codec} ${c.payload}`).toMatchObject({
            sent: 180,
            received: 180,
            lost: 0,
            checksPassed: 3 * (2 + 60),
            checksFailed: 0,
          });
        for (const c of results.cases) expect(c.flags).toContain("routed");
      } finally {
        await server.stop();
      }
    });
  },
);

describe.skipIf(skipK6Tests("test/bench/cli/k6-export.test.ts") || (!hasRedisServer() && process.env.CI !== "true"))(
  "k6 as routers against a cluster (bun run server --processes 2 --backplane)",
  () => {
    it("connections the kernel spreads over both processes still deliver every frame to its room once", async () => {
      const dir = path.join(tmp, "route-cluster");
      const r = bench(
        "--export-k6",
        dir,
        "--modes",
        "route",
        "--codecs",
        "json,custom-binary",
        "--payloads",
        "market",
        "--k6-connections",
        "4",
        "--k6-messages",
        "60",
        "--k6-rate",
        "300",
        "--k6-ramp",
        "0",
        "--k6-stall",
        "5",
      );
      expect(r.code, r.stderr).toBe(0);
      const redis = await startRedis();
      const server = await spawnServer(["--processes", "2", "--backplane", redis.url]);
      try {
        const out = path.join(tmp, "route-cluster.json");
        const run = await k6([
          "run",
          "--quiet",
          "--out",
          `json=${out}`,
          "-e",
          `SERVER=${server.url}`,
          path.join(dir, "script.js"),
        ]);
        expect(run.code, run.output).toBe(0);
        const { counts } = k6Results([readFileSync(out, "utf8")]);
        expect(counts).toHaveLength(2);
        for (const c of counts)
          expect(c, `${c.codec} ${c.payload}`).toMatchObject({ sent: 240, received: 240, lost: 0, checksFailed: 0 });
        // Every routed frame crossed the backplane once, and each process heard every one.
        let published = 0;
        for (const p of server.processes!) {
          const health = (await (await fetch(`${p.url}/health`)).json()) as {
            backplane: { published: number; received: number };
          };
          published += health.backplane.published;
          expect(health.backplane.received).toBe(480);
        }
        expect(published).toBe(480);
      } finally {
        await server.stop();
        await redis.stop();
      }
    });
  },
);
