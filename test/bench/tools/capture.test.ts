/** `bun run capture`: how often a run's figures land inside another run's 95% intervals. */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { Estimate } from "../../../client/harness/results.ts";
import { capture, type RunFigure } from "../../../bench/tools/capture.ts";

const ROOT = path.resolve(import.meta.dirname, "../../..");
const capturing = (...args: string[]) =>
  spawnSync(process.execPath, [path.join(ROOT, "bench/tools/capture.ts"), ...args], {
    cwd: ROOT,
    encoding: "utf8",
    timeout: 60_000,
  });

const figure = (key: string, value: number, half: number, mode = "codec"): RunFigure => ({
  key,
  mode,
  estimate: { value, low: value * (1 - half), high: value * (1 + half), rounds: 10 } satisfies Estimate,
});

describe("capture", () => {
  it("counts, for every ordered pair of runs, the figures inside the other run's interval, mode by mode", () => {
    const runs = [
      [figure("a", 1.0, 0.05), figure("b", 2.0, 0.01), figure("s", 0.5, 0.02, "stream")],
      [figure("a", 1.04, 0.05), figure("b", 2.2, 0.01), figure("s", 0.5, 0.02, "stream")],
      // A ratio one run lacks is left out of every pair.
      [figure("a", 0.98, 0.05), figure("b", 2.0, 0.02), figure("s", 0.5, 0.02, "stream"), figure("x", 9, 0.1)],
    ];
    const [codec, stream] = capture(runs);
    expect(codec!.mode).toBe("codec");
    expect(codec!.ratios).toBe(2);
    expect(codec!.pairs).toBe(2 * 3 * 2);
    // a: 1.00's ±5% holds 1.04 and 0.98, 1.04's holds 1.00, 0.98's holds 1.00; b: the two 2.0s hold each other, 2.2 none.
    expect(codec!.inside).toBe(4 + 2);
    expect(codec!.worstSpread).toBeCloseTo(1.1, 12);
    expect(codec!.worstKey).toBe("b");
    // Half-widths 1%, 1%, 2% and three of 5%: the median between the middle two.
    expect(codec!.medianHalfWidth).toBeCloseTo(0.035, 9);
    expect(codec!.widestHalfWidth).toBeCloseTo(0.05, 9);
    expect([stream!.mode, stream!.inside, stream!.pairs]).toEqual(["stream", 6, 6]);
  });

  it("reads results files, prints a line per mode and keeps the figures with --out; a bad argument is one line and exit 2", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "capture-"));
    try {
      const out = path.join(dir, "capture.json");
      const files = [1, 2, 3].map((i) => path.join(ROOT, `results/sample/bun-default-${i}.json.gz`));
      const r = capturing(...files, "--out", out);
      expect(r.status, r.stderr).toBe(0);
      expect(r.stdout).toMatch(/^Capture over 3 runs: /);
      expect(r.stdout).toMatch(/^codec +\d+ +\d+ +\d+ +\d+% +±[\d.]+% +±[\d.]+% +[\d.]+x /m);
      expect(r.stdout).toMatch(/^stream +\d+ /m);
      const kept = JSON.parse(readFileSync(out, "utf8")) as { runs: { figures: RunFigure[] }[]; modes: unknown[] };
      expect(kept.runs).toHaveLength(3);
      expect(kept.runs[0]!.figures.length).toBeGreaterThan(10);
      for (const bad of [
        ["--repeat", "1"],
        ["--nope"],
        [files[0]!],
        [files[0]!, files[1]!, "--", "--modes", "codec"],
      ]) {
        const refused = capturing(...bad);
        expect(refused.status, bad.join(" ")).toBe(2);
        expect(refused.stderr.trim().split("\n")).toHaveLength(1);
        expect(refused.stderr).toMatch(/^capture: /);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
