import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  changeText,
  caseChanges,
  changeLines,
  meanChange,
  benchmarkLabels,
  slowerCases,
  slowdown,
  type CaseChange,
} from "../../../bench/report/changes.ts";
import type { CaseResult, Estimate } from "../../../client/harness/results.ts";
import { caseOf } from "../../helpers/cases.ts";
import { readResults } from "../../../bench/cli/read-results.ts";
import { toJson } from "../../../bench/report/results-json.ts";
import { sourcedCases } from "../../../bench/report/sources.ts";

const ROOT = path.resolve(import.meta.dirname, "../../..");
const sample = (name: string): string => path.join(ROOT, "results/sample", name);
const tmp = mkdtempSync(path.join(tmpdir(), "bench-compare-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** A run's verified cases. */
const casesOf = (file: string): CaseResult[] => readResults(sample(file)).cases.filter((c) => c.verified);

/** A run's cases with every total scaled by `factor` (and its interval with it). */
function scaled(cases: readonly CaseResult[], factor: number, codec?: string): CaseResult[] {
  return cases.map((c) =>
    codec && c.codec !== codec
      ? c
      : { ...c, total: { ...c.total, mean: c.total.mean * factor, ci95: c.total.ci95 * factor } },
  );
}

describe("comparing two runs", () => {
  it("a run against itself: no change, every interval holds 0", () => {
    const rows = casesOf("bun-default-1.json.gz");
    const same = caseChanges(rows, rows);
    expect(same.length).toBe(rows.length);
    for (const c of same) {
      expect(c.total.value).toBe(1);
      if (c.a.rounds >= 2) expect(c.total.verdict).toBe("same");
      expect(c.vsJsonMoved === "same" || c.vsJsonMoved === "").toBe(true);
    }
  });

  it("follows the figures: B twice as slow is slower, twice as fast is faster, in time and against JSON when only one codec moved", () => {
    const rows = casesOf("bun-default-1.json.gz").filter((c) => c.mode === "codec");
    const slower = caseChanges(rows, scaled(rows, 2));
    expect(slower.every((c) => c.total.verdict === "slower")).toBe(true);
    const faster = caseChanges(rows, scaled(rows, 0.5));
    expect(faster.every((c) => c.total.verdict === "faster")).toBe(true);
    expect(changeText(faster[0]!.total)).toMatch(/^-50\.0% \[-\d+\.\d, -\d+\.\d\]$/);
    // Only custom-binary moved: its ratio to JSON moved with it (the ratio is B's own, so shift it too),
    // far enough for B's interval to clear A's (a codec-mode interval can be ±25% wide).
    const b = scaled(rows, 0.4, "custom-binary").map((c) => {
      const r = c.ratios!.vsJson!;
      return c.codec === "custom-binary"
        ? {
            ...c,
            ratios: { ...c.ratios, vsJson: { ...r, value: r.value * 0.4, low: r.low * 0.4, high: r.high * 0.4 } },
          }
        : c;
    });
    const moved = caseChanges(rows, b);
    expect(moved.filter((c) => c.vsJsonMoved === "faster").map((c) => c.codec)).toEqual([
      "custom-binary",
      "custom-binary",
      "custom-binary",
    ]);
    expect(moved.filter((c) => c.codec === "json").every((c) => c.total.verdict === "same")).toBe(true);
  });

  it("has no interval without two rounds on each side, and says so by leaving the verdict empty", () => {
    expect(meanChange(100, 5, 1, 120, 5, 10)).toEqual({ value: 1.2, low: NaN, high: NaN, verdict: "" });
    expect(meanChange(100, NaN, 5, 120, 5, 5).verdict).toBe("");
    const tight = meanChange(100, 1, 10, 105, 1, 10);
    expect(tight.verdict).toBe("slower");
    expect(tight.low).toBeLessThan(1.05);
    expect(tight.high).toBeGreaterThan(1.05);
    expect(meanChange(100, 20, 5, 105, 20, 5).verdict).toBe("same");
  });

  it("labels runs by what ran them and when, and by file name only when two would read the same", () => {
    const one = sourcedCases(readResults(sample("bun-default-1.json.gz")));
    const two = sourcedCases(readResults(sample("bun-default-2.json.gz")));
    const [a, b] = benchmarkLabels([
      { rows: one, file: "latest.json" },
      { rows: two, file: "latest.json" },
    ]);
    expect(a).toMatch(/^bun 1\.4\.4, \d{4}-\d\d-\d\d \d\d:\d\d$/);
    expect(b).not.toBe(a);
    const [c, d] = benchmarkLabels([
      { rows: one, file: "x.json" },
      { rows: one, file: "y.csv" },
    ]);
    expect(c).toMatch(/\(x\.json\)$/);
    expect(d).toMatch(/\(y\.csv\)$/);
  });

  it("bun run report A B prints the comparison in 100 columns and puts it in report.html", () => {
    const out = path.join(tmp, "ab.html");
    const r = spawnSync(
      process.execPath,
      ["bench/cli/report.ts", sample("bun-default-1.json.gz"), sample("bun-default-2.json.gz"), "--out", out],
      { cwd: ROOT, encoding: "utf8" },
    );
    expect(r.status, r.stderr).toBe(0);
    const lines = r.stdout.trimEnd().split("\n");
    // What code made each file, first.
    expect(lines[0]).toMatch(
      /^bun-default-1\.json\.gz: \d{4}-\d\d-\d\d \d\d:\d\d, made by commit [0-9a-f]{10}, bench [\d.]+, json \d+$/,
    );
    expect(lines[1]).toMatch(
      /^bun-default-2\.json\.gz: \d{4}-\d\d-\d\d \d\d:\d\d, made by commit [0-9a-f]{10}, bench [\d.]+, json \d+$/,
    );
    expect(lines[2]).toMatch(/^A: bun 1\.4\.4, \d{4}-\d\d-\d\d /);
    expect(lines[3]).toMatch(/^B: bun 1\.4\.4, \d{4}-\d\d-\d\d /);
    expect(lines.find((l) => /^codec +large +custom-binary /.test(l))).toMatch(
      /[+-]\d+\.\d% \[[+-]\d+\.\d, [+-]\d+\.\d\] (faster|slower|same) +\d\.\d\d → \d\.\d\d/,
    );
    for (const l of lines) expect([...l].length, l).toBeLessThanOrEqual(100);
    const html = readFileSync(out, "utf8");
    expect(html).toContain("<h2>B against A</h2>");
    expect(html).toMatch(
      /<tr><td>codec<\/td><td>large<\/td><td>custom-binary<\/td><td>[\d.]+ µs<\/td><td>[\d.]+ µs<\/td><td>[+-]\d+\.\d% \[/,
    );
    // The charts name each run by its runtime and time, not by a bare file name.
    expect(html).not.toMatch(/"label":"[^"]*bun-default-2\.json/);
  });

  it("changeLines stays within 100 columns with long labels", () => {
    const rows = casesOf("bun-default-1.json.gz");
    const lines = changeLines(caseChanges(rows, scaled(rows, 1.01)), [
      "bun 1.4.4 + node client + Chrome 156, 2026-11-22 23:52 (a-very-long-file-name-for-a-results-file.json)",
      "b",
    ]);
    for (const l of lines) expect([...l].length, l).toBeLessThanOrEqual(100);
  });
});

describe("bun run report A B --fail-if-slower PCT: a gate for CI", () => {
  const report = (...args: string[]) =>
    spawnSync(process.execPath, ["bench/cli/report.ts", ...args, "--out", path.join(tmp, "gate.html")], {
      cwd: ROOT,
      encoding: "utf8",
    });
  /** bun-default-1's results with `codec`'s `mode` `payload` case changed by `change`, written as a JSON named `name`. */
  function doctored(
    name: string,
    codec: string,
    mode: string,
    payload: string,
    change: (c: CaseResult) => void,
  ): string {
    const results = readResults(sample("bun-default-1.json.gz"));
    for (const c of results.cases) if (c.codec === codec && c.mode === mode && c.payload === payload) change(c);
    const file = path.join(tmp, name);
    writeFileSync(file, toJson(results));
    return file;
  }

  it("a run against itself passes; two committed back-to-back runs pass or fail at 5% as the gate's own cases say", () => {
    const self = report(sample("bun-default-1.json.gz"), sample("bun-default-1.json.gz"), "--fail-if-slower", "5");
    expect(self.status, self.stderr).toBe(0);
    expect(self.stdout).toMatch(/^gate passed: none of \d+ case\(s\) is slower by more than 5% beyond its interval$/m);
    const cases = (name: string) => readResults(sample(name)).cases;
    const slower = slowerCases(caseChanges(cases("bun-default-1.json.gz"), cases("bun-default-3.json.gz")), 5);
    const apart = report(sample("bun-default-1.json.gz"), sample("bun-default-3.json.gz"), "--fail-if-slower", "5");
    expect(apart.status, apart.stdout).toBe(slower.length === 0 ? 0 : 1);
    for (const line of slower) expect(apart.stdout).toContain(line);
  });

  it("a doctored copy fails, naming the case and how its ratio to JSON moved", () => {
    const slower = doctored("slower.json", "custom-binary", "codec", "large", (c) => {
      const r = c.ratios!.vsJson!;
      c.ratios!.vsJson = { ...r, value: r.value * 1.5, low: r.low * 1.5, high: r.high * 1.5 };
    });
    const r = report(sample("bun-default-1.json.gz"), slower, "--fail-if-slower", "10");
    expect(r.status).toBe(1);
    expect(r.stdout).toMatch(
      /^gate FAILED: 1 case\(s\) slower by more than 10% beyond their intervals:\n  codec large custom-binary: ratio to json [\d.]+ \[[\d.]+, [\d.]+\] -> [\d.]+ \[[\d.]+, [\d.]+\], \+50\.0% \[\+[\d.]+, \+[\d.]+\]$/m,
    );
    // Beyond the interval but within the percentage: passes.
    expect(report(sample("bun-default-1.json.gz"), slower, "--fail-if-slower", "60").status).toBe(0);
  });

  it("fails only where the whole interval of the slowdown lies beyond the threshold", () => {
    const a: Estimate = { value: 1, low: 0.99, high: 1.01, rounds: 20, processes: 5 };
    const sure: Estimate = { value: 1.25, low: 1.25 / 1.03, high: 1.25 * 1.03, rounds: 20, processes: 5 };
    const unsure: Estimate = { value: 1.25, low: 1.25 / 1.2, high: 1.25 * 1.2, rounds: 20, processes: 5 };
    const d = slowdown(a, sure)!;
    expect(d.value).toBeCloseTo(1.25, 12);
    expect(d.low).toBeCloseTo(1.25 * Math.exp(-Math.hypot(Math.log(1 / 0.99), Math.log(1.03))), 12);
    expect(d.low).toBeGreaterThan(1.1);
    // A slowdown of 1.25 that its intervals cannot tell from 1.02 does not fail a 10% gate.
    expect(slowdown(a, unsure)!.low).toBeLessThan(1.1);
    const changeOf = (b: Estimate) => {
      const c = caseOf("custom-binary", [100, 100, 100]);
      return {
        mode: "codec",
        payload: "small",
        codec: "custom-binary",
        a: { ...c, ratios: { vsJson: a } },
        b: { ...c, ratios: { vsJson: b } },
      } as unknown as CaseChange;
    };
    expect(slowerCases([changeOf(sure)], 10)).toHaveLength(1);
    expect(slowerCases([changeOf(unsure)], 10)).toEqual([]);
  });

  it("--time-of json gates JSON's own time too; without it JSON's time is not judged", () => {
    const slower = doctored("json-slower.json", "json", "stream", "small", (c) => {
      c.total = { ...c.total, mean: c.total.mean * 1.4 };
    });
    expect(report(sample("bun-default-1.json.gz"), slower, "--fail-if-slower", "10").status).toBe(0);
    const r = report(sample("bun-default-1.json.gz"), slower, "--fail-if-slower", "10", "--time-of", "json");
    expect(r.status).toBe(1);
    expect(r.stdout).toMatch(/^  stream small json: mean time per message [\d.]+ µs -> [\d.]+ µs, \+40\.0% \[/m);
  });

  it.each([
    [["--fail-if-slower", "ten"], "report: --fail-if-slower takes a percentage from 0 to 1000, got 'ten'\n"],
    [
      ["--time-of", "json"],
      "report: --time-of names codecs whose time --fail-if-slower gates; add --fail-if-slower PCT\n",
    ],
  ])("a bad flag %j: one line, exit 2", (flags, line) => {
    const r = report(sample("bun-default-1.json.gz"), sample("bun-default-2.json.gz"), ...flags);
    expect(r.status).toBe(2);
    expect(r.stderr).toBe(line);
  });

  it("one file is not a comparison: one line, exit 2", () => {
    const r = report(sample("bun-default-1.json.gz"), "--fail-if-slower", "5");
    expect(r.status).toBe(2);
    expect(r.stderr).toBe(
      "report: --fail-if-slower compares two runs: name the base file and the new one (got 1 file)\n",
    );
  });
});
