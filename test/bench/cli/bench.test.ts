/**
 * The CLI as a user runs it: a real `bun bench/cli/bench.ts` process.
 */
import { BUILT_IN } from "../../../protocols/registry.ts";
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { readFlags } from "../../../bench/cli/flags.ts";
import { BENCH_OPTIONS, benchFlag } from "../../../bench/cli/option-specs.ts";
import { resolveBenchOptions } from "../../../bench/cli/resolve-options.ts";
import { decodeHistogram } from "../../../client/harness/histogram.ts";
import { DEFAULTS, latencyStep, MODE_NAMES, SWEEP_RATES, SWEEP_STEP_S } from "../../../client/harness/settings.ts";
import type { BenchResults } from "../../../client/harness/results.ts";
import { parseCsv } from "../../helpers/csv.ts";
import { resultsFromFile } from "../../../bench/report/results-file.ts";
import { formatTable } from "../../../bench/report/table.ts";
import { benchCodecNames, defaultCodecNames } from "../../../protocols/contract.ts";
import { skipBrowserTests } from "../../helpers/browsers.ts";
import { runBenchCli, type BenchCli } from "../../helpers/bench-cli.ts";

const ROOT = path.resolve(import.meta.dirname, "../../..");
const tmp = mkdtempSync(path.join(tmpdir(), "bench-cli-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const bench = (...args: string[]): BenchCli => runBenchCli(args);

describe("bad flags: one line naming the problem and the valid values, exit 2", () => {
  it.each([
    // Every option, in --help's order.
    [["--bogus"], /^bench: unknown option '--bogus'; valid options: --modes, --codecs, --payloads, .*--help\n$/],
    // A near miss names the one it was meant to be.
    [["--quik"], /^bench: unknown option '--quik'; did you mean --quick\? \(--help lists every option\)\n$/],
    [
      ["--codecs", "json,msgpakr"],
      /^bench: --codecs: unknown value 'msgpakr'; did you mean msgpackr\? valid values: json, json-bytes, .*\n$/,
    ],
    [["--link", "wfi"], /^bench: --link: unknown profile 'wfi'; did you mean wifi\? valid forms: loopback, .*\n$/],
    [["--client", "chromium", "--csp", "lax"], /^bench: --csp: unknown value 'lax'; valid values: off, strict\n$/],
    [["--client", "firefox", "--csp", "off,strict"], /^bench: --csp takes one policy; valid values: off, strict\n$/],
    [
      ["--csp", "strict"],
      /^bench: --csp applies to the page, so to --client chromium or firefox only \(got --client bun\)\n$/,
    ],
    [
      ["--client", "chromium", "--csp", "strict", "--url", "ws://127.0.0.1:1"],
      /^bench: --csp sets the policy of a server the bench starts; with --url, start that server with bun run server --csp\n$/,
    ],
    [
      ["--codecs", "json,yaml"],
      /^bench: --codecs: unknown value 'yaml'; valid values: json, json-bytes, custom-binary, .* or all, default, text, schema, schemaless, zero-copy\n$/,
    ],
    [
      ["--payloads", "huge"],
      /^bench: --payloads: unknown value 'huge'; valid values: small, medium, large, chat, game-tick, market or all\n$/,
    ],
    [
      ["--modes", "telepathy"],
      /^bench: --modes: unknown value 'telepathy'; valid values: codec, roundtrip, stream, fanout, latency, route, cold, evolve or all\n$/,
    ],
    [
      ["--link", "5g"],
      /^bench: --link: unknown profile '5g'; valid forms: loopback, lan, wifi, 4g, slow-4g, 3g, intercontinental, or latency=40ms,jitter=10ms,down=10mbit,up=5mbit .*\n$/,
    ],
    [
      ["--link", "down=fast"],
      /^bench: --link: down=fast takes a rate from 8kbit to 10gbit, like 10mbit; valid forms: .*\n$/,
    ],
    [
      ["--link", "4g", "--modes", "codec"],
      /^bench: --link applies to the WebSocket modes; add roundtrip, stream, fanout, latency or route to --modes \(got --modes codec\)\n$/,
    ],
    [
      ["--link", "4g", "--url", "wss://127.0.0.1:1"],
      /^bench: --link with an https:\/\/ or wss:\/\/ --url: .* name its plain ws:\/\/ or http:\/\/ port\n$/,
    ],
    [["--runs", "0"], /^bench: --runs must be an integer from 1 to 1000, got '0'\n$/],
    [["--iterations", "1e5"], /^bench: --iterations must be an integer from 1 to 10000000, got '1e5'\n$/],
    [["--seed", "-1"], /^bench: --seed must be an integer from 0 to 4294967295, got '-1'\n$/],
    [["--iterations", "-5"], /^bench: --iterations must be an integer from 1 to 10000000, got '-5'\n$/],
    [
      ["--modes", "codec", "--codecs", "raw"],
      /^bench: --modes codec has no codec to run: raw runs in the WebSocket modes only; add a codec \(json, .*\) or choose --modes roundtrip, stream or fanout\n$/,
    ],
    [
      ["--out", "/etc/passwd"],
      /^bench: --out \/etc\/passwd: cannot create the directory \(a file, not a directory, is in the way\); name a directory you can write to\n$/,
    ],
    [
      ["--out", "/proc/forbidden"],
      /^bench: --out \/proc\/forbidden: cannot create the directory \(.*\); name a directory you can write to\n$/,
    ],
    [["--runs"], /^bench: option '--runs' needs a value; see --help\n$/],
    [["--precision", "0"], /^bench: --precision takes a percentage from 0\.1 to 100 \(3 for ±3%\) or off, got '0'\n$/],
    [
      ["--precision", "tight"],
      /^bench: --precision takes a percentage from 0\.1 to 100 \(3 for ±3%\) or off, got 'tight'\n$/,
    ],
    [
      ["--max-time", "soon"],
      /^bench: --max-time takes a duration from 1ms to 24h: 90s, 2m, 500ms or seconds, got 'soon'\n$/,
    ],
    [
      ["--max-time", "0s"],
      /^bench: --max-time takes a duration from 1ms to 24h: 90s, 2m, 500ms or seconds, got '0s'\n$/,
    ],
    [["--fixed=yes"], /^bench: option '--fixed' takes no value; see --help\n$/],
    [["--fanout", "3"], /^bench: --fanout sets the deliveries per message of --load; add --load PAYLOAD=RATE\n$/],
    [
      ["--load", "cursors=9000"],
      /^bench: --load: 'cursors' is not a payload of this run; valid values: small, medium, large\n$/,
    ],
    [
      ["--load", "small"],
      /^bench: --load takes PAYLOAD=RATE\[,PAYLOAD=RATE\.\.\.\], messages a second arriving at the server, like small=1000; got 'small'\n$/,
    ],
    [["--load", "small=10,small=20"], /^bench: --load names small twice\n$/],
    [["--load", "small=0"], /^bench: --load: small's rate must be an integer from 1 to 1000000, got '0'\n$/],
    [
      ["--load", "small=100", "--modes", "codec"],
      /^bench: --load is priced with the field figures of stream, roundtrip or latency mode; add one to --modes \(got --modes codec\)\n$/,
    ],
    [["--load", "small=100", "--client", "node"], /^bench: --load runs Bun's client \(got --client node\)\n$/],
    [["--load", "small=100", "--fanout", "0"], /^bench: --fanout must be an integer from 1 to 1000, got '0'\n$/],
    [
      ["--load", "small=100", "--url", "ws://127.0.0.1:9"],
      /^bench: --load drives the server the bench starts, on loopback, and reads its CPU; leave --url out\n$/,
    ],
    [["--load", "small=100", "--link-sweep"], /^bench: --link-sweep and --load are two different runs\n$/],
    [
      ["--load", "small=100", "--modes", "stream,fanout", "--backplane", "redis"],
      /^bench: --load reads one server process's CPU; a backplane's is not counted: leave --backplane out\n$/,
    ],
    [["extra"], /^bench: unexpected argument 'extra'/],
    [
      ["--modes", "latency", "--rate", "sweep,1000"],
      /^bench: --rate takes 'sweep' or messages per second N\[,N\.\.\.\] from 1 to 1000000, got 'sweep,1000'\n$/,
    ],
    [
      ["--modes", "latency", "--rate", "1e3"],
      /^bench: --rate takes 'sweep' or messages per second N\[,N\.\.\.\] from 1 to 1000000, got '1e3'\n$/,
    ],
    [
      ["--modes", "codec,stream", "--rate", "5000"],
      /^bench: --rate applies to latency mode only; add latency to --modes \(got --modes codec,stream\)\n$/,
    ],
    [
      ["--validate"],
      /^bench: --validate applies to route mode only; add route to --modes \(got --modes codec,roundtrip,stream\)\n$/,
    ],
    [
      ["--modes", "route,stream", "--client", "node", "--clients", "4"],
      /^bench: --clients above 1 needs --client bun \(got --client node\), except with --modes route, where they are its members\n$/,
    ],
    [
      ["--modes", "fanout", "--processes", "2"],
      /^bench: --modes fanout with --processes 2 needs --backplane redis \(or redis:\/\/HOST:PORT\): Bun's publish reaches only the process it runs in\n$/,
    ],
    [["--modes", "fanout", "--processes", "0"], /^bench: --processes must be an integer from 1 to 16, got '0'\n$/],
    [
      ["--modes", "fanout", "--backplane", "nats://127.0.0.1:4222"],
      /^bench: --backplane takes redis \(a redis-server the bench starts\) or redis:\/\/HOST:PORT: a backplane URL starts with redis:\/\/ \(the only backplane supported\), got 'nats:\/\/127\.0\.0\.1:4222'\n$/,
    ],
    [
      ["--modes", "stream", "--backplane", "redis"],
      /^bench: --backplane carries fanout and route mode; add one to --modes \(got --modes stream\)\n$/,
    ],
    [
      ["--modes", "fanout", "--processes", "2", "--backplane", "redis", "--url", "ws://127.0.0.1:1"],
      /^bench: --processes and --backplane shape the server the bench starts; with --url, start yours with bun run server --processes N --backplane URL\n$/,
    ],
  ])("%j", (args, pattern) => {
    const r = bench(...(args as string[]));
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(pattern);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    expect(r.stdout).toBe("");
  });
});

describe("--help of every command", () => {
  const run = (script: string, ...args: string[]) =>
    spawnSync(process.execPath, [script, ...args], { cwd: ROOT, encoding: "utf8", timeout: 60_000 });

  it("bun run report --help prints its usage; a bad flag is one line, exit 2", () => {
    const help = run("bench/cli/report.ts", "--help");
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(/^Usage: bun run report FILE\.\.\. \[--out FILE\]/);
    const bad = run("bench/cli/report.ts", "--bogus");
    expect(bad.status).toBe(2);
    expect(bad.stderr).toBe(
      "report: unknown option '--bogus'; valid options: --out, --fail-if-slower, --time-of, --help; usage: bun run report FILE... [--out report.html] [--fail-if-slower PCT [--time-of LIST]]\n",
    );
    expect(run("bench/cli/report.ts", "--fail-if-slowr", "10").stderr).toMatch(
      /^report: unknown option '--fail-if-slowr'; did you mean --fail-if-slower\? valid options: --out, /,
    );
    const unwritable = run(
      "bench/cli/report.ts",
      "results/sample/bun-quick.json.gz",
      "--out",
      "/proc/forbidden/report.html",
    );
    expect(unwritable.status).toBe(2);
    expect(unwritable.stderr).toMatch(
      /^report: --out \/proc\/forbidden\/report\.html: cannot write there \(.*\); name a file in a directory you can write to\n$/,
    );
  });

  it("bun run server --help prints its usage and exits", () => {
    const help = run("server.ts", "--help");
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(/^Usage: bun run server \[options\]/);
    for (const flag of [
      "--host",
      "--port",
      "--deflate",
      "--idle-timeout",
      "--allow-origin",
      "--max-connections",
      "--max-queued-bytes",
      "--max-total-queued-bytes",
      "--send-timeout",
      "--exit-with-stdin",
    ])
      expect(help.stdout).toContain(flag);
  });

  it.each([["bench/cli/bench.ts"], ["server.ts"], ["bench/cli/report.ts"]])(
    "%s --help: every line within 100 columns",
    (script) => {
      const help = run(script, "--help");
      expect(help.status).toBe(0);
      for (const line of help.stdout.split("\n")) expect([...line].length, line).toBeLessThanOrEqual(100);
    },
  );

  it("bench --help groups its options and shows each per-mode default once, in one table", () => {
    const help = run("bench/cli/bench.ts", "--help").stdout;
    const groups = [...help.matchAll(/^(\S[^:\n]*):$/gm)].map((m) => m[1]);
    expect(groups).toEqual(["What to run", "How much", "Where from (the server)", "Output", "Load export"]);
    const row = (label: string, r: Record<string, number>): RegExp =>
      new RegExp(`^ {2}${label.replace(/[-]/g, "\\-")} +${MODE_NAMES.map((m) => String(r[m])).join(" +")}$`, "m");
    expect(help).toMatch(row("--iterations", DEFAULTS.default.iterations));
    expect(help).toMatch(row("  --quick", DEFAULTS.quick.iterations));
    expect(help).toMatch(row("  in a browser", DEFAULTS.browser.warmup));
  });
});

describe("a real run", () => {
  it("--help lists every option and every codec", () => {
    const r = bench("--help");
    expect(r.code).toBe(0);
    for (const flag of [
      "--codecs",
      "--payloads",
      "--modes",
      "--iterations",
      "--runs",
      "--warmup",
      "--seed",
      "--fixed",
      "--quick",
      "--out",
      "--client",
      "--url",
      "--window",
      "--deflate",
      "--stall-timeout",
    ]) {
      expect(r.stdout).toContain(flag);
    }
    for (const name of benchCodecNames(BUILT_IN).filter((n) => n !== "raw")) expect(r.stdout).toContain(name);
  });

  it("prints the table and writes CSV, JSON and latest.* with a row per codec x payload", () => {
    const out = path.join(tmp, "run");
    const r = bench(
      "--modes",
      "codec",
      "--iterations",
      "300",
      "--runs",
      "2",
      "--warmup",
      "100",
      "--precision",
      "off",
      "--out",
      out,
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^small$/m);
    expect(r.stdout).toMatch(/^large$/m);
    expect(r.stdout).toContain("custom-binary");
    expect(r.stdout).toContain("msgpackr-records*");
    expect(r.stdout).toContain("non-standard");
    for (const f of ["latest.csv", "latest.json"]) expect(existsSync(path.join(out, f))).toBe(true);
    const stamped = /^Wrote (\S+)\.csv$/m.exec(r.stdout)![1]!;
    expect(readFileSync(`${stamped}.html`, "utf8")).toBe(readFileSync(path.join(out, "report.html"), "utf8"));
    expect(readFileSync(`${stamped}.csv`, "utf8")).toBe(readFileSync(path.join(out, "latest.csv"), "utf8"));
    expect(readFileSync(`${stamped}.json`, "utf8")).toBe(readFileSync(path.join(out, "latest.json"), "utf8"));
    // The default output fits a 100-column terminal; --wide is for every column.
    for (const line of r.stdout.split("\n")) expect([...line].length, line).toBeLessThanOrEqual(100);
    expect(r.stdout).toMatch(/^Verdict from this run/m);
    const rows = parseCsv(readFileSync(path.join(out, "latest.csv"), "utf8"));
    expect(rows).toHaveLength(defaultCodecNames(BUILT_IN).length * 3 - 2);
    // Compressed sizes for every codec and payload: in the table, and in the CSV beside the uncompressed bytes.
    expect(r.stdout).toMatch(/^small, compressed$/m);
    // zstd's empty call moves between runs by more than the figures beside it: --wide and the CSV hold it.
    expect(r.stdout).toMatch(/^codec +bytes +deflate +in stream +zstd +zstd time$/m);
    const col = (name: string): number => rows[0]!.indexOf(name);
    for (const row of rows.slice(1)) {
      for (const name of ["deflate_bytes", "deflate_context_bytes", "zstd_bytes", "zstd_ns", "zstd_empty_ns"])
        expect(Number(row[col(name)]), `${row[col("codec")]} ${name}`).toBeGreaterThan(0);
      // A kept context never makes a message larger than compressing it alone.
      expect(Number(row[col("deflate_context_bytes")])).toBeLessThanOrEqual(Number(row[col("deflate_bytes")]));
    }
    const json = JSON.parse(readFileSync(path.join(out, "latest.json"), "utf8"));
    expect(json.settings.iterations.codec).toBe(300);
    expect(json.environment.runtime).toBe("bun");
    expect(json.environment.timerResolutionNs).toBeGreaterThan(0);
    expect(json.environment.libraries.msgpackr).toMatch(/^\d+\.\d+\.\d+/);
    expect(json.order.codec).toHaveLength(3);
    expect(json.cases.every((c: { verified: boolean }) => c.verified)).toBe(true);
    expect(json.cases[0].runs).toBe(2);
    // The JSON keeps each case's rounds as a table, a row per round (bench/report/results-json.ts).
    expect(json.cases[0].raw.rows).toHaveLength(json.cases[0].rounds);
    expect(json.cases[0].rounds).toBeGreaterThanOrEqual(2);
  });

  it("takes the process as the unit of every interval: codec mode's fresh processes, and the server processes stream mode takes turns with", () => {
    const out = path.join(tmp, "processes");
    const r = bench(
      "--modes",
      "codec,stream",
      "--codecs",
      "json,custom-binary",
      "--payloads",
      "small",
      "--iterations",
      "3000",
      "--runs",
      "1",
      "--warmup",
      "500",
      "--precision",
      "off",
      "--forks",
      "3",
      "--out",
      out,
    );
    expect(r.code, r.stderr).toBe(0);
    const json = resultsFromFile(readFileSync(path.join(out, "latest.json"), "utf8"));
    for (const mode of ["codec", "stream"]) {
      const c = json.cases.find((x) => x.mode === mode && x.codec === "custom-binary")!;
      // Every round says which process timed it; the ratio's interval rests on the three.
      expect(new Set(c.raw.map((x) => x.process)), mode).toEqual(new Set([0, 1, 2]));
      expect(c.ratios!.vsJson!.processes, mode).toBe(3);
      expect(c.ratios!.vsJson!.rounds, mode).toBe(c.raw.length);
    }
  });

  it("accounts for its wall time, phase by phase, with every process's peak memory, in the footer, the JSON and the CSV", () => {
    const out = path.join(tmp, "account");
    const r = bench(
      "--modes",
      "codec,stream",
      "--payloads",
      "small",
      "--codecs",
      "json,custom-binary",
      "--iterations",
      "600",
      "--runs",
      "1",
      "--warmup",
      "100",
      "--out",
      out,
    );
    expect(r.code, r.stderr).toBe(0);
    const json = JSON.parse(readFileSync(path.join(out, "latest.json"), "utf8")) as BenchResults;
    const account = json.account!;
    // The file keeps each exactly.
    const sum = Object.values(account.phases).reduce((a, b) => a + b, 0);
    expect(Math.abs(sum - account.wallMs)).toBeLessThan(0.01);
    expect(account.wallMs).toBe(json.elapsedMs);
    for (const phase of ["timed", "warmup", "messages", "verify", "start", "compression"] as const)
      expect(account.phases[phase], phase).toBeGreaterThan(0);
    // The bench, codec mode's processes (--forks: 3 by default, and any for --precision) and the servers the socket modes take turns with.
    const names = account.peaks.map((p) => p.process);
    expect(names.filter((n) => n === "codec-mode process").length).toBeGreaterThanOrEqual(3);
    expect(names).toContain("bench");
    expect(names.filter((n) => n === "server")).toHaveLength(3);
    for (const p of account.peaks) expect(p.peakRssBytes).toBeGreaterThan(1e6);
    expect(r.stdout).toMatch(/^Time \d+\.\d s, %: timed \d+, warm-up \d+/m);
    expect(r.stdout).toMatch(
      /^Peak memory: bench \d+ MiB, codec-mode process \(\d+\) up to \d+ MiB, server \(3\) up to \d+ MiB$/m,
    );
    const rows = parseCsv(readFileSync(path.join(out, "latest.csv"), "utf8"));
    const header = rows[0]!;
    for (const row of rows.slice(1)) {
      expect(Number(row[header.indexOf("account_timed_ms")])).toBeCloseTo(account.phases.timed, 2);
      expect(Number(row[header.indexOf("account_other_ms")])).toBeCloseTo(account.phases.other, 2);
      expect(Number(row[header.indexOf("account_peak_rss_bytes")])).toBe(
        Math.max(...account.peaks.map((p) => p.peakRssBytes)),
      );
    }
  });

  it("--precision out of reach within --max-time: more rounds for it, then every ratio still wider marked †, in the table and the CSV read back", () => {
    const out = path.join(tmp, "precision");
    const r = bench(
      "--modes",
      "codec",
      "--payloads",
      "small",
      "--codecs",
      "json,custom-binary,msgpack",
      "--iterations",
      "3000",
      "--warmup",
      "100",
      "--precision",
      "0.1",
      "--max-time",
      "4s",
      "--out",
      out,
    );
    expect(r.code, r.stderr).toBe(0);
    const json = resultsFromFile(readFileSync(path.join(out, "latest.json"), "utf8"));
    expect(json.settings.precision).toBe(0.1);
    const cb = json.cases.find((c) => c.codec === "custom-binary")!;
    // More than the one run asked for: rounds for precision, in processes of their own.
    expect(cb.raw.some((x) => x.run >= 1)).toBe(true);
    expect(cb.ratios!.vsJson!.wide).toBe(true);
    expect(r.stdout).toMatch(/^custom-binary .* ±[\d.]+%†$/m);
    expect(r.stdout).toContain(
      "†: its interval is still wider than the ±0.1% asked (--precision); the time allowed ran out first",
    );
    expect(formatTable(json)).toContain("±0.1% asked");
  });

  it("--fixed sends the article's messages: JSON 33 / 117 / 329 bytes", () => {
    const out = path.join(tmp, "fixed");
    const r = bench(
      "--fixed",
      "--modes",
      "codec",
      "--codecs",
      "json,msgpack",
      "--iterations",
      "100",
      "--runs",
      "1",
      "--warmup",
      "10",
      "--out",
      out,
    );
    expect(r.code, r.stderr).toBe(0);
    const rows = parseCsv(readFileSync(path.join(out, "latest.csv"), "utf8"));
    const header = rows[0]!;
    const bytes = Object.fromEntries(
      rows
        .slice(1)
        .map((row) => [
          `${row[header.indexOf("codec")]} ${row[header.indexOf("payload")]}`,
          row[header.indexOf("bytes")],
        ]),
    );
    expect(bytes).toEqual({
      "json small": "33",
      "json medium": "117",
      "json large": "329",
      "msgpack small": "24",
      "msgpack medium": "102",
      "msgpack large": "277",
    });
  });
});

describe("WebSocket modes from the command line", () => {
  it("roundtrip and stream against a server the bench starts: every row verified, nothing lost", () => {
    const out = path.join(tmp, "socket");
    const r = bench(
      "--modes",
      "roundtrip,stream",
      "--payloads",
      "small",
      "--iterations",
      "300",
      "--runs",
      "1",
      "--warmup",
      "50",
      "--out",
      out,
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain("== roundtrip mode");
    expect(r.stdout).toContain("== stream mode");
    for (const line of r.stdout.split("\n")) expect([...line].length, line).toBeLessThanOrEqual(100);
    expect(r.stdout).toMatch(/^Socket \(stream, bun client\): raw /m);
    const rows = parseCsv(readFileSync(path.join(out, "latest.csv"), "utf8"));
    const header = rows[0]!;
    const at = (row: string[], col: string): string => row[header.indexOf(col)]!;
    expect(rows).toHaveLength(1 + 2 * defaultCodecNames(BUILT_IN).length);
    for (const row of rows.slice(1)) {
      expect(at(row, "client")).toBe("bun");
      expect(at(row, "verified")).toBe("true");
      expect(at(row, "lost")).toBe("0");
      expect(at(row, "sent")).toBe("300");
      expect(Number(at(row, "msgs_per_s"))).toBeGreaterThan(0);
    }
    const rt = rows.slice(1).find((row) => at(row, "mode") === "roundtrip" && at(row, "codec") === "json")!;
    expect(Number(at(rt, "rtt_p99_ns"))).toBeGreaterThanOrEqual(Number(at(rt, "rtt_p50_ns")));
    expect(at(rt, "wire_bytes")).toBe(String(33 + 2 + 4));
  });

  it("--deflate: the table says so, and the frames' size on the wire is counted on the socket (replies compressed by the server)", () => {
    const out = path.join(tmp, "deflate");
    const r = bench(
      "--modes",
      "roundtrip",
      "--codecs",
      "json,custom-binary",
      "--payloads",
      "large",
      "--iterations",
      "200",
      "--runs",
      "1",
      "--warmup",
      "20",
      "--deflate",
      "--out",
      out,
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^ {3}COMPRESSED \(permessage-deflate\)/m);
    expect(r.stdout).toMatch(/^codec +bytes +wire +reply wire /m);
    for (const line of r.stdout.split("\n")) expect([...line].length, line).toBeLessThanOrEqual(100);
    const rows = parseCsv(readFileSync(path.join(out, "latest.csv"), "utf8"));
    const header = rows[0]!;
    const at = (row: string[], col: string): string => row[header.indexOf(col)]!;
    const json = rows.slice(1).find((row) => at(row, "codec") === "json")!;
    expect(at(json, "deflate")).toBe("true");
    expect(at(json, "extensions")).toContain("permessage-deflate");
    // The server's replies go out compressed: JSON's 329 bytes of text take fewer on the wire than
    // the 333 of an uncompressed frame (4-byte header). Bun's client sends its frames uncompressed.
    expect(Number(at(json, "reply_wire_bytes"))).toBeLessThan(329 + 4);
    expect(Number(at(json, "reply_wire_bytes"))).toBeGreaterThan(50);
    expect(Number(at(json, "wire_bytes"))).toBeGreaterThan(0);
    expect(at(json, "wire_compressed_share")).toMatch(/^(0|1|0\.\d+)$/);
  });

  it("route mode: every delivery to exactly its room's members, forwarding and recoding side by side, in the table, the CSV and the verdict", () => {
    const out = path.join(tmp, "route");
    const r = bench(
      "--modes",
      "route",
      "--payloads",
      "market,chat",
      "--clients",
      "3",
      "--codecs",
      "json,custom-binary,protobuf,raw",
      "--iterations",
      "800",
      "--runs",
      "2",
      "--warmup",
      "100",
      "--validate",
      "--out",
      out,
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain("== route mode: the server as a router");
    expect(r.stdout).toMatch(/4 routers, 3 members; every message\s+validated on the way in/);
    expect(r.stdout).toMatch(/^codec +bytes +reads +routed\/s +cpu fwd +vs json +cpu rec +vs json +rec\/f$/m);
    expect(r.stdout).toMatch(/^custom-binary +\d+ +offset /m);
    expect(
      r.stdout.match(
        /^deliveries: all made \(\d[\d,]* each, every message to exactly its room's members\), none misrouted$/gm,
      ),
    ).toHaveLength(2);
    expect(r.stdout).toMatch(/^Routing, least server CPU per message vs json's: forwarding bytes /m);
    for (const line of r.stdout.split("\n")) expect([...line].length, line).toBeLessThanOrEqual(100);
    const rows = parseCsv(readFileSync(path.join(out, "latest.csv"), "utf8"));
    const header = rows[0]!;
    const at = (row: string[], col: string): string => row[header.indexOf(col)]!;
    // raw reads no key: it does not route.
    expect(
      rows
        .slice(1)
        .map((row) => `${at(row, "payload")} ${at(row, "codec")}`)
        .sort(),
    ).toEqual([
      "chat custom-binary",
      "chat json",
      "chat protobuf",
      "market custom-binary",
      "market json",
      "market protobuf",
    ]);
    for (const row of rows.slice(1)) {
      expect(at(row, "verified"), at(row, "error")).toBe("true");
      expect(at(row, "mode")).toBe("route");
      expect(at(row, "route_validate")).toBe("true");
      expect(at(row, "route_members")).toBe("3");
      expect(Number(at(row, "route_deliveries_expected"))).toBeGreaterThanOrEqual(2 * 2 * 800);
      expect(at(row, "route_delivered")).toBe(at(row, "route_deliveries_expected"));
      expect(at(row, "route_misrouted")).toBe("0");
      expect(Number(at(row, "route_cpu_ns"))).toBeGreaterThan(0);
      expect(Number(at(row, "route_recode_encode_ns"))).toBeGreaterThan(0);
      expect(at(row, "key_access")).toBe(
        at(row, "codec") === "json" ? "decode" : at(row, "codec") === "protobuf" ? "scan" : "offset",
      );
      if (at(row, "codec") !== "json") expect(Number(at(row, "route_cpu_vs_json"))).toBeGreaterThan(0);
    }
    // Read back, the JSON gives the same route block.
    const table = formatTable(resultsFromFile(readFileSync(path.join(out, "latest.json"), "utf8")));
    const block = (text: string): string =>
      text
        .slice(text.indexOf("\nchat\n"), text.lastIndexOf("none misrouted"))
        .replace(/±[\d.]+%/g, "±")
        .replace(/\d+\.\d+/g, "#");
    expect(block(table)).toBe(block(r.stdout));
  });

  it("a refused --url is one line and exit 2 before anything is measured", () => {
    const out = path.join(tmp, "refused");
    const started = Date.now();
    const r = bench(
      "--modes",
      "codec,stream",
      "--codecs",
      "json",
      "--payloads",
      "small",
      "--url",
      "ws://127.0.0.1:9",
      "--out",
      out,
    );
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      "bench: --url http://127.0.0.1:9: connection refused by 127.0.0.1:9: is the server running? (bun run server)\n",
    );
    expect(r.stdout).toBe("");
    // Codec mode (100,000 messages by default) did not run first.
    expect(existsSync(path.join(out, "latest.csv"))).toBe(false);
    expect(Date.now() - started).toBeLessThan(60_000);
  });

  it("a --url whose host does not resolve says so, exit 2", () => {
    const r = bench("--modes", "roundtrip", "--url", "ws://no-such-host.invalid:8080", "--out", path.join(tmp, "dns"));
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /^bench: --url http:\/\/no-such-host\.invalid:8080: cannot resolve the host of http:\/\/no-such-host\.invalid:8080/,
    );
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
  });

  it("rejects a bad --client and --url with exit 2", () => {
    const client = bench("--client", "deno");
    expect(client.code).toBe(2);
    expect(client.stderr).toBe("bench: --client: unknown value 'deno'; valid values: bun, node, chromium, firefox\n");
    const url = bench("--url", "ftp://x");
    expect(url.code).toBe(2);
    expect(url.stderr).toMatch(/^bench: --url must start with ws:\/\/, wss:\/\/, http:\/\/ or https:\/\//);
  });
});

const ENGINES = [
  { name: "chromium", label: "Chromium", env: "CHROMIUM_PATH", apt: "chromium", version: /^Chrome \d+/ },
  { name: "firefox", label: "Firefox", env: "FIREFOX_PATH", apt: "firefox-esr", version: /^Firefox \d+/ },
] as const;

describe.each(ENGINES)("--client $name", ({ name, label, env, apt, version }) => {
  it(`without ${label}: one line saying how to install it, exit 2`, () => {
    const r = spawnSync(
      process.execPath,
      ["bench/cli/bench.ts", "--client", name, "--out", path.join(tmp, `no-${name}`)],
      {
        cwd: ROOT,
        encoding: "utf8",
        env: { ...process.env, [env]: `/nonexistent/${name}` },
      },
    );
    expect(r.status).toBe(2);
    expect(r.stderr).toBe(
      `bench: no ${label} found: install Debian's package (apt-get install -y ${apt}) or set ${env} to a ${label} binary\n`,
    );
  });

  it.skipIf(skipBrowserTests("test/bench/cli/bench.test.ts", name))(
    "writes browser rows into the same files, every one verified, labelled with the browser",
    () => {
      const out = path.join(tmp, name);
      const r = bench(
        "--client",
        name,
        "--codecs",
        "json,custom-binary,raw",
        "--payloads",
        "small",
        "--iterations",
        "200",
        "--runs",
        "1",
        "--warmup",
        "20",
        "--forks",
        "2",
        "--out",
        out,
      );
      expect(r.code, r.stderr).toBe(0);
      const rows = parseCsv(readFileSync(path.join(out, "latest.csv"), "utf8"));
      const header = rows[0]!;
      const at = (row: string[], col: string): string => row[header.indexOf(col)]!;
      expect(rows).toHaveLength(1 + 2 + 3 * 2);
      // Codec mode ran in the page's two fresh workers, each the unit of its intervals.
      const results = resultsFromFile(readFileSync(path.join(out, "latest.json"), "utf8"));
      expect(results.settings.forks).toBe(2);
      for (const c of results.cases.filter((k) => k.mode === "codec"))
        expect([...new Set(c.raw.map((x) => x.process))].sort(), c.codec).toEqual([0, 1]);
      for (const row of rows.slice(1)) {
        expect(at(row, "client")).toBe("browser");
        expect(at(row, "runtime")).toBe("browser");
        expect(at(row, "runtime_version")).toMatch(version);
        expect(at(row, "verified")).toBe("true");
      }
      expect(readFileSync(path.join(out, "report.html"), "utf8")).toContain("chart-codec-small");
    },
  );

  it.skipIf(skipBrowserTests("test/bench/cli/bench.test.ts", name))(
    "route mode in the page: its members and routers, every delivery checked, in the CSV and report.html",
    () => {
      const out = path.join(tmp, `${name}-route`);
      const r = bench(
        "--client",
        name,
        "--modes",
        "route",
        "--codecs",
        "json,custom-binary",
        "--payloads",
        "market",
        "--clients",
        "3",
        "--iterations",
        "400",
        "--runs",
        "1",
        "--warmup",
        "40",
        "--validate",
        "--out",
        out,
      );
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toMatch(
        /^deliveries: all made \(800 each, every message to exactly its room's members\), none misrouted$/m,
      );
      const rows = parseCsv(readFileSync(path.join(out, "latest.csv"), "utf8"));
      const header = rows[0]!;
      const at = (row: string[], col: string): string => row[header.indexOf(col)]!;
      expect(rows).toHaveLength(1 + 2);
      for (const row of rows.slice(1)) {
        expect(at(row, "client")).toBe("browser");
        expect(at(row, "mode")).toBe("route");
        expect(at(row, "verified"), at(row, "error")).toBe("true");
        expect(at(row, "route_members")).toBe("3");
        expect(at(row, "route_validate")).toBe("true");
        expect(at(row, "route_delivered")).toBe("800");
      }
      expect(readFileSync(path.join(out, "report.html"), "utf8")).toContain("== route mode: the server");
    },
  );
});

describe("latency mode from the command line", () => {
  it("an open loop at --rate: every row verified with nothing lost, corrected and service percentiles, the rate achieved", () => {
    const out = path.join(tmp, "latency");
    const r = bench(
      "--modes",
      "latency",
      "--rate",
      "1000",
      "--codecs",
      "json,raw",
      "--payloads",
      "small",
      "--iterations",
      "300",
      "--runs",
      "1",
      "--warmup",
      "20",
      "--out",
      out,
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain("== latency mode");
    expect(r.stdout).toMatch(/; at most 64 in flight$/m);
    expect(r.stdout).toMatch(/^small at 1,000 msgs\/s$/m);
    expect(r.stdout).toMatch(/^codec +bytes +msgs\/s +p50 +p99 +svc p99 +late +vs json +cpu srv$/m);
    for (const line of r.stdout.split("\n")) expect([...line].length, line).toBeLessThanOrEqual(100);
    const rows = parseCsv(readFileSync(path.join(out, "latest.csv"), "utf8"));
    const header = rows[0]!;
    const at = (row: string[], col: string): string => row[header.indexOf(col)]!;
    expect(rows).toHaveLength(3);
    for (const row of rows.slice(1)) {
      expect(at(row, "mode")).toBe("latency");
      expect(at(row, "verified")).toBe("true");
      expect(at(row, "lost")).toBe("0");
      expect(at(row, "target_rate")).toBe("1000");
      // The schedule's rate, within what a shared machine allows.
      expect(Number(at(row, "achieved_rate"))).toBeGreaterThan(500);
      expect(Number(at(row, "achieved_rate"))).toBeLessThan(1100);
      expect(Number(at(row, "msgs_per_s"))).toBe(Number(at(row, "achieved_rate")));
      // Corrected latency is never below the service time: it adds how late the message went out.
      expect(Number(at(row, "latency_p50_ns"))).toBeGreaterThanOrEqual(Number(at(row, "service_p50_ns")) * 0.999);
      // Latency mode's percentiles have columns of their own; the round-trip columns are roundtrip mode's.
      expect(at(row, "rtt_p50_ns")).toBe("");
      expect(Number(at(row, "late_sends"))).toBeGreaterThanOrEqual(0);
      // CPU per message on both sides and the server's memory during the step (raw: the server decodes nothing, but still works).
      expect(Number(at(row, "client_cpu_ns_per_msg"))).toBeGreaterThan(0);
      expect(Number(at(row, "server_cpu_ns_per_msg"))).toBeGreaterThan(0);
      expect(Number(at(row, "server_rss_peak_bytes"))).toBeGreaterThan(10 * 1024 * 1024);
      // The client's time on messages, by the clock (on a loaded machine it holds time the process was descheduled, so it is no bound on CPU).
      expect(Number(at(row, "client_busy_ns_per_msg"))).toBeGreaterThan(0);
    }
    // Each case's histograms: in the JSON in HdrHistogram's encoding, and as .hgrm spectra.
    const results = JSON.parse(readFileSync(path.join(out, "latest.json"), "utf8")) as BenchResults;
    for (const c of results.cases) {
      const corrected = decodeHistogram(c.socket!.histograms!.correctedUs);
      expect(corrected.totalCount, c.codec).toBe(300);
      // The same samples: the histogram's median (nearest rank, to the microsecond) is near the table's
      // (interpolated between ranks); exact agreement to 0.1% is checked in test/client/harness/histogram.test.ts.
      expect(Math.abs(corrected.getValueAtPercentile(50) * 1000 - c.socket!.latency!.p50)).toBeLessThanOrEqual(
        c.socket!.latency!.p50 * 0.05 + 2000,
      );
      expect(corrected.maxValue * 1000).toBeGreaterThanOrEqual(c.socket!.latency!.max * 0.999 - 1000);
    }
    expect(r.stdout).toMatch(/^ {2}and 4 latency spectra \(\.hgrm\) in .*-hgrm$/m);
    const spectra = readdirSync(path.join(out, readdirSync(out).find((f) => f.endsWith("-hgrm"))!));
    expect(spectra.sort()).toEqual([
      "latency-bun-small-json-corrected.hgrm",
      "latency-bun-small-json-service.hgrm",
      "latency-bun-small-raw-corrected.hgrm",
      "latency-bun-small-raw-service.hgrm",
    ]);
  });

  it("several rates: a block per rate, each codec's knee named, and --rate sweep parses to the ladder", async () => {
    const out = path.join(tmp, "latency-rates");
    const r = bench(
      "--modes",
      "latency",
      "--rate",
      "1000,500",
      "--codecs",
      "json,custom-binary",
      "--payloads",
      "small",
      "--iterations",
      "200",
      "--runs",
      "1",
      "--warmup",
      "20",
      "--out",
      out,
    );
    expect(r.code, r.stderr).toBe(0);
    const blocks = [...r.stdout.matchAll(/^small at ([\d,]+) msgs\/s$/gm)].map((m) => m[1]);
    expect(blocks).toEqual(["500", "1,000"]);
    expect(r.stdout).toMatch(/^knee: the highest rate kept/m);
    expect(r.stdout).toMatch(
      /^small +(json|custom-binary) (none|[\d,]+\+?~?), (json|custom-binary) (none|[\d,]+\+?~?)$/m,
    );
    for (const line of r.stdout.split("\n")) expect([...line].length, line).toBeLessThanOrEqual(100);
    const rows = parseCsv(readFileSync(path.join(out, "latest.csv"), "utf8"));
    const header = rows[0]!;
    const at = (row: string[], col: string): string => row[header.indexOf(col)]!;
    // Each rate's ratio to JSON pairs with JSON at the same rate.
    for (const row of rows.slice(1)) if (at(row, "codec") === "json") expect(at(row, "total_vs_json")).toBe("1");
    expect(
      rows
        .slice(1)
        .map((row) => at(row, "target_rate"))
        .sort(),
    ).toEqual(["1000", "1000", "500", "500"]);
    // The knees in the JSON as their own field, the same as the table's.
    const results = JSON.parse(readFileSync(path.join(out, "latest.json"), "utf8")) as BenchResults;
    expect(results.knees?.map((k) => k.codec).sort()).toEqual(["custom-binary", "json"]);
    for (const k of results.knees!)
      expect(r.stdout).toMatch(new RegExp(`${k.codec} ${k.rate > 0 ? k.rate.toLocaleString("en-US") : "none"}`));
    const sweep = (
      await resolveBenchOptions(readFlags(["--modes", "latency", "--rate", "sweep"], BENCH_OPTIONS), benchFlag)
    ).settings;
    expect(sweep.rates).toEqual([...SWEEP_RATES]);
    expect(sweep.sweep).toBe(true);
    expect(latencyStep(sweep, 20_000).iterations.latency).toBe(20_000 * SWEEP_STEP_S);
  });

  it("a bad --rate is one line naming the range, exit 2", () => {
    const r = bench("--modes", "latency", "--rate", "0");
    expect(r.code).toBe(2);
    expect(r.stderr).toBe("bench: --rate must be an integer from 1 to 1000000, got '0'\n");
  });
});
