/**
 * Stopping and failing halfway: Ctrl-C keeps every finished case in valid
 * files and exits 130; a server that dies or goes silent ends the case in
 * bounded time with one clear line, never a hang.
 */
import { BUILT_IN } from "../../../protocols/registry.ts";
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { performanceClock } from "../../../client/harness/clock.ts";
import { makeMessages } from "../../../client/harness/generator.ts";
import { coldRuns } from "../../../client/harness/cold-mode.ts";
import { parseCsv } from "../../helpers/csv.ts";
import { spawnServer } from "../../../bench/cli/processes/server-process.ts";
import type { WebSocketClass } from "../../../client/socket/client-connection.ts";
import { runSocketCase } from "../../../client/socket/runner.ts";
import { BROWSERS, skipBrowserTests } from "../../helpers/browsers.ts";

const ROOT = path.resolve(import.meta.dirname, "../../..");
const tmp = mkdtempSync(path.join(tmpdir(), "bench-interrupt-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function startBench(
  args: string[],
  how: { viaBunRun?: boolean; env?: Record<string, string> } = {},
): {
  done: Promise<{ code: number | null; stdout: string; stderr: string; ms: number }>;
  child: ReturnType<typeof spawn>;
  stderr(): string;
  exited(): boolean;
} {
  const started = Date.now();
  // A process group of its own, as a terminal gives a command: Ctrl-C goes to every process in it.
  const command = how.viaBunRun ? ["run", "bench", ...args] : ["bench/cli/bench.ts", ...args];
  const child = spawn(process.execPath, command, {
    cwd: ROOT,
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
    env: { ...process.env, ...how.env },
  });
  let stdout = "";
  let stderr = "";
  child.stdout!.on("data", (d: Buffer) => (stdout += d.toString()));
  child.stderr!.on("data", (d: Buffer) => (stderr += d.toString()));
  const done = new Promise<{ code: number | null; stdout: string; stderr: string; ms: number }>((resolve) =>
    child.once("exit", (code) => resolve({ code, stdout, stderr, ms: Date.now() - started })),
  );
  let exited = false;
  void done.then(() => (exited = true));
  return { done, child, stderr: () => stderr, exited: () => exited };
}

/** Waits for check(); a bench given as `watching` that ends first, or the timeout, fails with what it printed. */
async function until(
  check: () => boolean,
  timeoutMs: number,
  watching?: { stderr(): string; exited(): boolean },
): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (watching?.exited())
      throw new Error(`the bench ended before the awaited moment; it printed:\n${watching.stderr()}`);
    if (Date.now() > end)
      throw new Error(`timed out waiting${watching ? `; the bench printed:\n${watching.stderr()}` : ""}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The rows of the benchmark's timestamped CSV so far (the live file), header first. */
function liveRows(out: string): string[][] {
  const csv = (existsSync(out) ? readdirSync(out) : []).find((f) => /^\d{4}-.*\.csv$/.test(f));
  return csv === undefined ? [] : parseCsv(readFileSync(path.join(out, csv), "utf8"));
}

/** After a Ctrl-C: exit 130, files that agree, every row verified, the run marked interrupted. */
function expectInterrupted(r: { code: number | null; stdout: string; stderr: string }, out: string): string[][] {
  expect(r.code, r.stderr).toBe(130);
  expect(r.stderr).toContain("bench: stopping after the current round or case (Ctrl-C again to quit at once)");
  expect(r.stderr).toMatch(/bench: stopped by Ctrl-C; the \d+ case\(s\) that ran are in the files above/);
  expect(r.stderr).not.toMatch(/FAILED|server process exited|cannot be reached/);
  const rows = parseCsv(readFileSync(path.join(out, "latest.csv"), "utf8"));
  const header = rows[0]!;
  for (const row of rows.slice(1)) expect(row[header.indexOf("verified")], row.join(",")).toBe("true");
  const json = JSON.parse(readFileSync(path.join(out, "latest.json"), "utf8"));
  expect(json.settings.interrupted).toBe(true);
  expect(json.cases).toHaveLength(rows.length - 1);
  expect(existsSync(path.join(out, "report.html"))).toBe(true);
  return rows;
}

describe("Ctrl-C, sent to the whole process group as a terminal does", () => {
  it("codec mode stops at a round boundary; finished and partial cases are kept, none failed", async () => {
    const out = path.join(tmp, "sigint-codec");
    const bench = startBench([
      "--modes",
      "codec",
      "--iterations",
      "100000",
      "--runs",
      "5",
      "--warmup",
      "1000",
      "--out",
      out,
    ]);
    // Rounds are being timed (a progress line names a round; the first line, at once, names the check before them).
    await until(() => /\(run\)/.test(bench.stderr()), 120_000, bench);
    process.kill(-bench.child.pid!, "SIGINT");
    const rows = expectInterrupted(await bench.done, out);
    const header = rows[0]!;
    // Codec mode's processes each measure every payload: whatever they reached, every case kept its rounds.
    expect(rows.length - 1).toBeGreaterThanOrEqual(7);
    expect(rows.length - 1).toBeLessThanOrEqual(21);
    for (const row of rows.slice(1)) {
      expect(row[header.indexOf("flags")]).toContain("partial");
      expect(Number(row[header.indexOf("rounds")])).toBeGreaterThanOrEqual(1);
    }
  }, 180_000);

  it("cold mode ends the process in flight and runs no more; every case keeps the processes it finished, marked partial", async () => {
    const out = path.join(tmp, "sigint-cold");
    const bench = startBench([
      ...["--modes", "cold", "--codecs", "json,msgpackr,protobuf", "--payloads", "small"],
      ...["--runs", "100", "--out", out],
    ]);
    // Six processes finished: two repeats of the three codecs, whatever the order.
    await until(() => /cold \[[6-9]\/300\]|cold \[\d\d+\/300\]/.test(bench.stderr()), 120_000, bench);
    process.kill(-bench.child.pid!, "SIGINT");
    const rows = expectInterrupted(await bench.done, out);
    const header = rows[0]!;
    expect(
      rows
        .slice(1)
        .map((row) => row[header.indexOf("codec")])
        .sort(),
    ).toEqual(["json", "msgpackr", "protobuf"]);
    for (const row of rows.slice(1)) {
      expect(row[header.indexOf("flags")]).toContain("partial");
      expect(Number(row[header.indexOf("runs")])).toBeGreaterThanOrEqual(1);
      expect(Number(row[header.indexOf("runs")])).toBeLessThan(100);
      expect(Number(row[header.indexOf("cold_first_ns")])).toBeGreaterThan(0);
    }
  }, 180_000);

  it("in the WebSocket modes the server the bench started is not interrupted, and no case fails because of the stop", async () => {
    const out = path.join(tmp, "sigint-socket");
    const bench = startBench([
      "--codecs",
      "json,custom-binary,raw",
      "--iterations",
      "3000",
      "--runs",
      "3",
      "--warmup",
      "100",
      "--out",
      out,
    ]);
    // Wait until a WebSocket case has finished: the socket modes are under way.
    await until(() => liveRows(out).some((row) => row.includes("roundtrip") || row.includes("stream")), 120_000, bench);
    process.kill(-bench.child.pid!, "SIGINT");
    const rows = expectInterrupted(await bench.done, out);
    expect(rows.some((row) => row.includes("roundtrip"))).toBe(true);
  }, 180_000);
});

/** Processes still running whose environment holds `mark` (the bench and every process it started inherit it). */
/**
 * A codec module (its codec named stuck) that blocks its thread, without spinning, for a minute on
 * the medium message, saying so in a file first: a process running it cannot answer a stop.
 */
function stuckCodec(file: string): { module: string; blocked: string } {
  const module = path.join(tmp, `${file}.ts`);
  const blocked = path.join(tmp, `${file}-blocked`);
  writeFileSync(
    module,
    `import { writeFileSync } from "node:fs";
const block = () => (writeFileSync(${JSON.stringify(blocked)}, ""), Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 60_000));
export default { name: "stuck", description: "JSON that blocks on the medium message", frame: "text", standard: true, library: "",
  forPayload: (payload) => ({ encode: (m) => (payload === "medium" && block(), JSON.stringify(m)), decode: (t) => JSON.parse(t) }) };
`,
  );
  return { module, blocked };
}

/** Once `blocked` says the stuck codec holds its process, a Ctrl-C, then a second once the bench has said it is stopping; what the bench ended with. */
async function ctrlCTwice(
  bench: ReturnType<typeof startBench>,
  blocked: string,
): Promise<{ code: number | null; stdout: string; stderr: string; ms: number }> {
  await until(() => existsSync(blocked), 120_000, bench);
  process.kill(-bench.child.pid!, "SIGINT");
  await until(() => bench.stderr().includes("stopping after the current round or case"), 10_000);
  await new Promise((r) => setTimeout(r, 700));
  process.kill(-bench.child.pid!, "SIGINT");
  return bench.done;
}

function processesMarked(mark: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/environ`, "latin1").split("\0").includes(mark)) pids.push(Number(entry));
    } catch {
      // Gone, or not ours to read.
    }
  }
  return pids;
}

describe("Ctrl-C as a user gives it", () => {
  it("`bun run bench` hands the terminal's Ctrl-C on as a second SIGINT: it is still one Ctrl-C, a stop after the round", async () => {
    const out = path.join(tmp, "sigint-bun-run");
    // Short runs, very many of them: the check before the first round is quick even on a busy machine, and the rounds
    // outlast the wait on a fast one. In a log a progress line comes at most every 5 s: the second one says the case
    // is warming up or timing rounds, whichever the moment is.
    const bench = startBench(
      [
        "--modes",
        "codec",
        "--codecs",
        "json,custom-binary",
        "--iterations",
        "20000",
        "--runs",
        "400",
        "--warmup",
        "1000",
        "--out",
        out,
      ],
      { viaBunRun: true },
    );
    await until(() => /\((warmup|run)\)/.test(bench.stderr()), 150_000, bench);
    process.kill(-bench.child.pid!, "SIGINT");
    const r = await bench.done;
    expect(r.stderr).not.toContain("quit by a second Ctrl-C");
    expect(r.stderr).toContain("bench: stopping after the current round or case");
    expect(existsSync(path.join(out, "latest.json")), r.stderr).toBe(true);
    expect(JSON.parse(readFileSync(path.join(out, "latest.json"), "utf8")).settings.interrupted).toBe(true);
  }, 240_000);

  it.skipIf(process.platform !== "linux")(
    "a second Ctrl-C while a codec-mode process cannot stop: what it finished is written, and it is ended with the bench",
    async () => {
      const out = path.join(tmp, "sigint-twice");
      const { module, blocked } = stuckCodec("stuck");
      const mark = `BENCH_TEST_MARK=${process.pid}-${Date.now()}`;
      const bench = startBench(
        [
          "--modes",
          "codec",
          "--codec-module",
          module,
          "--codecs",
          "json,stuck",
          "--payloads",
          "small,medium",
          "--iterations",
          "2000",
          "--runs",
          "2",
          "--forks",
          "2",
          "--out",
          out,
        ],
        { env: { BENCH_TEST_MARK: mark.split("=")[1]! } },
      );
      const r = await ctrlCTwice(bench, blocked);
      expect(r.code, r.stderr).toBe(130);
      expect(r.stderr).toMatch(/bench: quit by a second Ctrl-C; the 2 case\(s\) finished are in the files above/);
      const json = JSON.parse(readFileSync(path.join(out, "latest.json"), "utf8")) as {
        settings: { interrupted: boolean };
        cases: { codec: string; payload: string; verified: boolean; flags: string[] }[];
      };
      expect(json.settings.interrupted).toBe(true);
      expect(json.cases.map((c) => `${c.codec} ${c.payload}`).sort()).toEqual(["json small", "stuck small"]);
      for (const c of json.cases) expect(c.verified && c.flags.includes("partial")).toBe(true);
      expect(parseCsv(readFileSync(path.join(out, "latest.csv"), "utf8"))).toHaveLength(3);
      // The codec-mode process went with the bench: nothing carrying the run's mark is left.
      await until(() => processesMarked(mark).length === 0, 10_000);
    },
    180_000,
  );
});

describe("a second Ctrl-C in cold mode", () => {
  it.skipIf(process.platform !== "linux")(
    "while a cold-mode process cannot stop: the processes finished before it are written, and it is ended with the bench",
    async () => {
      const out = path.join(tmp, "sigint-twice-cold");
      const { module, blocked } = stuckCodec("stuck-cold");
      // A seed whose first repeat runs some processes before stuck's on medium: those cases are what the files must hold.
      const settings = { codecs: ["json", "stuck"], payloads: ["small", "medium"], excluded: [], runs: { cold: 3 } };
      const seed = [1, 2, 3, 4, 5, 6, 7, 8].find((n) => {
        const first = coldRuns({ ...settings, seed: n } as never).slice(0, 4);
        return first.findIndex((r) => r.codec === "stuck" && r.payload === "medium") >= 2;
      })!;
      const before = coldRuns({ ...settings, seed } as never);
      const finished = before
        .slice(
          0,
          before.findIndex((r) => r.codec === "stuck" && r.payload === "medium"),
        )
        .map((r) => `${r.codec} ${r.payload}`)
        .sort();
      const mark = `BENCH_TEST_MARK=${process.pid}-${Date.now()}-cold`;
      const bench = startBench(
        [
          ...["--modes", "cold", "--codec-module", module, "--codecs", "json,stuck", "--payloads", "small,medium"],
          ...["--iterations", "200", "--runs", "3", "--seed", String(seed), "--out", out],
        ],
        { env: { BENCH_TEST_MARK: mark.split("=")[1]! } },
      );
      const r = await ctrlCTwice(bench, blocked);
      expect(r.code, r.stderr).toBe(130);
      expect(r.stderr).toMatch(/bench: quit by a second Ctrl-C/);
      const json = JSON.parse(readFileSync(path.join(out, "latest.json"), "utf8")) as {
        settings: { interrupted: boolean };
        cases: { mode: string; codec: string; payload: string; verified: boolean; flags: string[]; runs: number }[];
      };
      expect(json.settings.interrupted).toBe(true);
      expect(json.cases.map((c) => `${c.codec} ${c.payload}`).sort()).toEqual(finished);
      for (const c of json.cases) {
        expect(c.mode).toBe("cold");
        expect(c.verified && c.flags.includes("partial") && c.runs === 1).toBe(true);
      }
      // The blocked process went with the bench: nothing carrying the run's mark is left.
      await until(() => processesMarked(mark).length === 0, 10_000);
    },
    180_000,
  );
});

describe.each(BROWSERS)("SIGTERM during --client %s", (browser) => {
  it.skipIf(skipBrowserTests("run.test.ts", browser) || process.platform !== "linux")(
    "writes every case the page had finished, and the browser goes with the bench",
    async () => {
      const out = path.join(tmp, `sigterm-${browser}`);
      const mark = `BENCH_TEST_MARK=${process.pid}-${browser}-${Date.now()}`;
      const bench = startBench(
        [
          "--client",
          browser,
          "--modes",
          "codec,roundtrip",
          "--codecs",
          "json,custom-binary",
          "--payloads",
          "small,medium,large",
          "--iterations",
          "3000",
          "--runs",
          "3",
          "--out",
          out,
        ],
        { env: { BENCH_TEST_MARK: mark.split("=")[1]! } },
      );
      // The page streams each case as it finishes it: wait for the first in the live CSV.
      await until(() => liveRows(out).length >= 2, 150_000, bench);
      process.kill(bench.child.pid!, "SIGTERM");
      const r = await bench.done;
      expect(r.code, r.stderr).toBe(143);
      expect(r.stderr).toMatch(/bench: quit by SIGTERM; the \d+ case\(s\) the page finished are in the files above/);
      const json = JSON.parse(readFileSync(path.join(out, "latest.json"), "utf8")) as {
        settings: { interrupted: boolean; client: string };
        cases: { client: string; verified: boolean }[];
      };
      expect(json.settings.interrupted).toBe(true);
      expect(json.cases.length).toBeGreaterThanOrEqual(1);
      for (const c of json.cases) expect(c.client === "browser" && c.verified).toBe(true);
      expect(parseCsv(readFileSync(path.join(out, "latest.csv"), "utf8"))).toHaveLength(json.cases.length + 1);
      // The browser and the server the bench started went with it: nothing carrying the run's mark is left.
      await until(() => processesMarked(mark).length === 0, 15_000);
    },
    240_000,
  );
});

describe("a server that dies or goes silent", () => {
  it("killing the server mid-stream ends the case with a clear line in bounded time, and the files keep what finished", async () => {
    // Its own process, killed by pid mid-run: started directly, not with test/helpers/server.ts.
    const server = await spawnServer();
    const out = path.join(tmp, "killed");
    const bench = startBench([
      "--modes",
      "stream",
      "--codecs",
      "json,custom-binary",
      "--payloads",
      "small,medium",
      "--iterations",
      "2000000",
      "--runs",
      "1",
      "--warmup",
      "0",
      "--stall-timeout",
      "3",
      "--url",
      server.url,
      "--out",
      out,
    ]);
    // Kill it once both codecs' connections are open: the rounds start on them at once.
    let flowing = false;
    const watch = setInterval(() => {
      void fetch(`${server.url}/health`)
        .then((res) => res.json() as Promise<{ connections: number }>)
        .then((h) => (flowing ||= h.connections >= 2))
        .catch(() => undefined);
    }, 50);
    await until(() => flowing, 60_000).finally(() => clearInterval(watch));
    process.kill(server.pid, "SIGKILL");
    const r = await bench.done;
    expect(r.code).toBe(1);
    expect(r.ms).toBeLessThan(30_000);
    expect(r.stderr).toMatch(
      /bench: FAILED stream bun (json|custom-binary) small: run 1: (the server closed the connection|the connection was cut off|connection error|stalled)/,
    );
    expect(r.stderr).toMatch(
      /bench: WebSocket modes stopped, the server cannot be reached: stream .* medium: .*cannot connect to/,
    );
    const rows = parseCsv(readFileSync(path.join(out, "latest.csv"), "utf8"));
    expect(rows[0]).toContain("verified");
  }, 120_000);

  it("a server that stops answering ends the case after the stall timeout", async () => {
    const silent = Bun.serve({
      port: 0,
      hostname: "127.0.0.1",
      fetch(req, srv) {
        return srv.upgrade(req) ? undefined : new Response("no", { status: 400 });
      },
      websocket: { message() {} },
    });
    try {
      const started = performance.now();
      const f = await runSocketCase({
        server: `http://127.0.0.1:${silent.port}`,
        catalog: BUILT_IN,
        codec: "json",
        payload: "small",
        mode: "stream",
        messages: makeMessages("small", { count: 100, seed: 1, fixed: false }),
        window: 8,
        stallTimeoutMs: 600,
        clock: performanceClock,
        timerOverheadNs: 0,
        WebSocket: globalThis.WebSocket as unknown as WebSocketClass,
        id: "silent",
      });
      expect(f.error).toBe("stalled: no reply for 600 ms after 0 of 100 replies (8 in flight)");
      expect(performance.now() - started).toBeLessThan(3000);
      expect(f.lost).toBe(8);
    } finally {
      await silent.stop(true);
    }
  });
});
