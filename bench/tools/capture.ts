/**
 * `bun run capture [--repeat K] [--out FILE] [-- bench flags]` or `bun run capture FILE FILE...`:
 * whether the intervals a run prints hold in the next run. It runs `bun run bench` K times back
 * to back with the flags given (or reads results files already made), and for every ratio to
 * JSON, every ordered pair of runs (i, j): does run j's figure land inside run i's 95% interval?
 * Two independent estimates with equal error land inside each other's 95% intervals about 83%
 * of the time (Cumming & Maillardet 2006, "capture percentage"); far fewer says the intervals
 * promise more precision than the runs deliver. Per mode it prints that share, the median and
 * the widest half-width, and the worst spread (largest figure over smallest across the runs);
 * `--out` keeps every run's figures and the summary as JSON (docs/methodology.md quotes one).
 */

import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { BenchResults, CaseRatios, Estimate } from "../../client/harness/results.ts";
import { SettingError } from "../../client/harness/harness-errors.ts";
import { parseInteger } from "../../client/harness/settings.ts";
import { halfWidth } from "../../client/harness/ratios.ts";
import { percentileSorted } from "../../client/harness/statistics.ts";
import { CliError } from "../cli/cli-errors.ts";
import { ROOT } from "../cli/paths.ts";
import { readResults } from "../cli/read-results.ts";
import { pad } from "../report/format.ts";

const USAGE = "usage: bun run capture [--repeat K] [--out FILE] [-- bench flags] | bun run capture FILE FILE...";

/** The ratios to JSON whose intervals are checked, by their name in the results. */
const FIGURES: readonly (keyof CaseRatios)[] = [
  "vsJson",
  "echoVsJson",
  "readOneVsJson",
  "validatedVsJson",
  "fieldVsJson",
];

/** One ratio of one run: which case and figure, and the estimate. */
export interface RunFigure {
  key: string;
  mode: string;
  estimate: Estimate;
}

/** A mode's capture over the runs. */
export interface ModeCapture {
  mode: string;
  /** Ratios each run has (every run has them all). */
  ratios: number;
  /** Ordered pairs of runs times ratios: run j's figure against run i's interval. */
  pairs: number;
  inside: number;
  /** Half-widths as fractions of the figure (the wider side), over every run's ratios. */
  medianHalfWidth: number;
  widestHalfWidth: number;
  /** The largest figure over the smallest across the runs, the worst ratio's, and which. */
  worstSpread: number;
  worstKey: string;
}

/** Every ratio to JSON with an interval a run has: `payload codec figure` keys, per mode. */
export function runFigures(results: BenchResults): RunFigure[] {
  const out: RunFigure[] = [];
  for (const c of results.cases) {
    if (!c.verified || c.codec === "json" || !c.ratios) continue;
    for (const f of FIGURES) {
      const e = c.ratios[f] as Estimate | undefined;
      if (e && e.rounds >= 2 && Number.isFinite(e.low) && Number.isFinite(e.high))
        out.push({ key: `${c.client} ${c.payload} ${c.codec} ${f}`, mode: c.mode, estimate: e });
    }
  }
  return out;
}

/** The capture of each mode over runs' figures: only ratios every run has count. */
export function capture(runs: readonly RunFigure[][]): ModeCapture[] {
  const modes = [...new Set(runs.flatMap((r) => r.map((f) => f.mode)))];
  return modes.map((mode) => {
    const byRun = runs.map((r) => new Map(r.filter((f) => f.mode === mode).map((f) => [f.key, f.estimate])));
    const keys = [...byRun[0]!.keys()].filter((k) => byRun.every((m) => m.has(k)));
    let pairs = 0;
    let inside = 0;
    let worstSpread = 1;
    let worstKey = "";
    const widths: number[] = [];
    for (const key of keys) {
      const es = byRun.map((m) => m.get(key)!);
      for (const [i, a] of es.entries()) {
        widths.push(halfWidth(a)!);
        for (const [j, b] of es.entries()) {
          if (i === j) continue;
          pairs++;
          if (a.low <= b.value && b.value <= a.high) inside++;
        }
      }
      const values = es.map((e) => e.value);
      const spread = Math.max(...values) / Math.min(...values);
      if (spread > worstSpread) [worstSpread, worstKey] = [spread, key];
    }
    widths.sort((a, b) => a - b);
    return {
      mode,
      ratios: keys.length,
      pairs,
      inside,
      medianHalfWidth: percentileSorted(widths, 50),
      widestHalfWidth: widths.length > 0 ? widths[widths.length - 1]! : NaN,
      worstSpread,
      worstKey,
    };
  });
}

const pct = (x: number, digits = 0): string => `${(100 * x).toFixed(digits)}%`;

/** The capture table, a line per mode. */
export function captureLines(modes: readonly ModeCapture[], runs: number): string[] {
  const head = ["mode", "ratios", "pairs", "inside", "capture", "median ±", "widest ±", "worst spread"];
  const widths = [10, 7, 6, 7, 8, 9, 9, 0];
  const row = (cells: string[]): string => cells.map((c, i) => (widths[i] ? pad(c, widths[i]!) : c)).join(" ");
  return [
    `Capture over ${runs} runs: how often run j's figure lands inside run i's 95% interval (honest: about 83%)`,
    row(head),
    ...modes.map((m) =>
      row([
        m.mode,
        String(m.ratios),
        String(m.pairs),
        String(m.inside),
        m.pairs > 0 ? pct(m.inside / m.pairs) : "-",
        `±${pct(m.medianHalfWidth, 1)}`,
        `±${pct(m.widestHalfWidth, 1)}`,
        `${m.worstSpread.toFixed(3)}x ${m.worstKey}`,
      ]),
    ),
  ];
}

/** `bun run bench` with `flags`, K times back to back, each into a folder of its own; the results of each. */
function repeatBench(repeat: number, flags: readonly string[]): BenchResults[] {
  const out = mkdtempSync(path.join(tmpdir(), "capture-"));
  try {
    return Array.from({ length: repeat }, (_, i) => {
      process.stderr.write(`capture: run ${i + 1} of ${repeat}: bun run bench ${flags.join(" ")}\n`);
      const dir = path.join(out, String(i));
      const r = spawnSync(process.execPath, [path.join(ROOT, "bench/cli/bench.ts"), ...flags, "--out", dir], {
        cwd: ROOT,
        stdio: ["ignore", "ignore", "inherit"],
      });
      if (r.status !== 0) throw new CliError("TOOL", `bun run bench failed (exit ${r.status}) on run ${i + 1}`);
      return readResults(path.join(dir, "latest.json"));
    });
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

function main(argv: readonly string[]): void {
  const dash = argv.indexOf("--");
  const own = dash < 0 ? [...argv] : argv.slice(0, dash);
  const flags = dash < 0 ? [] : argv.slice(dash + 1);
  let repeat: number | undefined;
  let outFile: string | undefined;
  const files: string[] = [];
  for (let i = 0; i < own.length; i++) {
    const a = own[i]!;
    if (a === "--repeat") repeat = parseInteger("--repeat", own[++i] ?? "", 2, 50);
    else if (a === "--out") {
      outFile = own[++i];
      if (!outFile) throw new SettingError("--out takes a file");
    } else if (a.startsWith("-")) throw new SettingError(`unknown option '${a}'; ${USAGE}`);
    else files.push(a);
  }
  if (files.length > 0 && (repeat !== undefined || flags.length > 0))
    throw new SettingError(`give results files or --repeat with bench flags, not both; ${USAGE}`);
  if (files.length === 1) throw new SettingError(`capture needs two or more results files; ${USAGE}`);
  const results = files.length > 0 ? files.map(readResults) : repeatBench(repeat ?? 5, flags);
  const figures = results.map(runFigures);
  const modes = capture(figures);
  for (const line of captureLines(modes, results.length)) console.log(line);
  if (outFile) {
    const runs = results.map((r, i) => ({
      provenance: r.provenance,
      machine: r.environment.cpu,
      figures: figures[i]!,
    }));
    // What made the runs (the first's: they ran back to back from one checkout), as a results file says it.
    const { provenance, timestamp } = results[0]!;
    writeFileSync(outFile, `${JSON.stringify({ provenance, timestamp, flags, runs, modes }, null, 1)}\n`);
  }
}

if (import.meta.main) {
  try {
    main(process.argv.slice(2));
  } catch (e) {
    if (e instanceof SettingError || e instanceof CliError) {
      console.error(`capture: ${e.message}`);
      process.exit(2);
    }
    throw e;
  }
}
