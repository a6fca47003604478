/**
 * The cross-check: codec mode's ratios beside a plain loop's, one codec and
 * payload per process.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { readResults } from "../../../bench/cli/read-results.ts";
import { toJson } from "../../../bench/report/results-json.ts";

const ROOT = path.resolve(import.meta.dirname, "../../..");
const tmp = mkdtempSync(path.join(tmpdir(), "crosscheck-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const run = (script: string, args: string[]) =>
  spawnSync(process.execPath, [script, ...args], { cwd: ROOT, encoding: "utf8", timeout: 120_000 });

describe("crosscheck", () => {
  it("prints codec mode's ratio and interval beside the plain loop's and the field's for every codec and payload, from the run's JSON, and refuses its CSV", () => {
    const out = path.join(tmp, "results");
    const bench = run("bench/cli/bench.ts", [
      "--modes",
      "codec,stream",
      "--codecs",
      "json,custom-binary,msgpack",
      "--payloads",
      "small,large",
      "--iterations",
      "2000",
      "--warmup",
      "200",
      "--runs",
      "1",
      "--out",
      out,
    ]);
    expect(bench.status, bench.stderr).toBe(0);
    const csv = run("bench/tools/crosscheck.ts", ["--from", path.join(out, "latest.csv")]);
    expect(csv.status).toBe(1);
    expect(csv.stderr).toBe(
      "crosscheck: a results CSV is an export for spreadsheets and is not read back; give the .json the run wrote beside it\n",
    );
    {
      const r = run("bench/tools/crosscheck.ts", [
        "--from",
        path.join(out, "latest.json"),
        "--iterations",
        "2000",
        "--repetitions",
        "2",
        "--forks",
        "2",
      ]);
      expect(r.status, r.stderr).toBe(0);
      for (const payload of ["small", "large"]) {
        for (const codec of ["custom-binary", "msgpack"]) {
          // codec mode [interval], plain loop, difference, processes apart, field rt (none: no roundtrip mode), field stream
          expect(r.stdout).toMatch(
            new RegExp(
              `^${payload} +${codec} +\\d+\\.\\d\\d \\[\\d+\\.\\d\\d-\\d+\\.\\d\\d\\] +\\d+\\.\\d\\d +[+-]\\d+\\.\\d%( !)? +\\d+\\.\\d\\dx +- +\\d+\\.\\d\\d( +(yes \\(stream\\)|no))?$`,
              "m",
            ),
          );
        }
      }
      expect(r.stdout).toContain("median of 2 processes");
      expect(r.stdout).toMatch(
        /Every ratio agrees within 10%\.|\d+ ratio\(s\) differ by more than 10% \(marked !\); the field explains \d+ of them/,
      );
    }
  }, 240_000);

  it("says so when the file has no codec-mode rows", () => {
    const quick = readResults(path.join(ROOT, "results/sample/bun-quick.json.gz"));
    const file = path.join(tmp, "stream-only.json");
    writeFileSync(file, toJson({ ...quick, cases: quick.cases.filter((c) => c.mode === "stream") }));
    const r = run("bench/tools/crosscheck.ts", ["--from", file]);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/^crosscheck: .*stream-only\.json has no verified codec-mode rows/);
  });

  it("refuses a bad flag with one line and exit 2", () => {
    const r = run("bench/tools/crosscheck.ts", ["--iterations", "0"]);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(
      /^crosscheck: --iterations must be an integer from 1 to 10000000, got '0'; usage: bun run crosscheck/,
    );
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
  });
});
