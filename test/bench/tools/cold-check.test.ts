/** The cold check: cold mode's first messages beside a plain script's, in fresh processes per codec. */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../../..");
const tmp = mkdtempSync(path.join(tmpdir(), "cold-check-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const run = (script: string, args: string[]) =>
  spawnSync(process.execPath, [script, ...args], { cwd: ROOT, encoding: "utf8", timeout: 120_000 });

describe("cold-check", () => {
  it("sets the script's first message and mean beside cold mode's interval for every codec of the run, and counts those inside", () => {
    const out = path.join(tmp, "results");
    const bench = run("bench/cli/bench.ts", [
      ...["--modes", "cold", "--codecs", "json,msgpackr,protobuf", "--payloads", "small"],
      ...["--runs", "3", "--iterations", "100", "--out", out],
    ]);
    expect(bench.status, bench.stderr).toBe(0);
    const r = run("bench/tools/cold-check.ts", ["--from", path.join(out, "latest.json")]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(
      /^cold mode against a plain script \(bench\/tools\/cold-plain\.ts\) on small, 100 messages, each codec in 3 fresh/,
    );
    for (const codec of ["json", "msgpackr", "protobuf"])
      expect(r.stdout).toMatch(
        new RegExp(`^${codec} +\\S.* (inside|(above|below) by \\d+%) .* (inside|(above|below) by \\d+%) `, "m"),
      );
    expect(r.stdout).toMatch(/^\d of 6 figures inside cold mode's interval$/m);
  }, 120_000);

  it("says what is wrong in one line: a bad flag (exit 2), a run without cold mode (exit 1)", () => {
    const flag = run("bench/tools/cold-check.ts", ["--runs", "1"]);
    expect(flag.status).toBe(2);
    expect(flag.stderr).toMatch(
      /^cold-check: --runs must be an integer from 2 to 1000, got '1'; usage: bun run cold-check/,
    );
    const out = path.join(tmp, "codec");
    const bench = run("bench/cli/bench.ts", [
      ...["--modes", "codec", "--codecs", "json", "--payloads", "small", "--iterations", "500", "--warmup", "100"],
      ...["--out", out],
    ]);
    expect(bench.status, bench.stderr).toBe(0);
    const none = run("bench/tools/cold-check.ts", ["--from", path.join(out, "latest.json")]);
    expect(none.status).toBe(1);
    expect(none.stderr.trim().split("\n")).toHaveLength(1);
    expect(none.stderr).toMatch(/has no verified cold-mode rows; run bun run bench --modes cold first/);
  }, 120_000);
});
