/**
 * Writes a benchmark's files: <out>/<timestamp>.csv and .json, copies as
 * latest.csv and latest.json, and report.html (charts, offline). Every file is written to a temporary name and
 * renamed into place, so a reader never sees half a file.
 */

import { provenanceLine } from "../report/provenance-line.ts";
import { codeProvenance } from "./provenance.ts";
import { appendFileSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import type { BenchResults, CaseResult } from "../../client/harness/results.ts";
import { csvHeader, csvRows, toCsv } from "../report/csv.ts";
import { toJson } from "../report/results-json.ts";
import { reportHtml } from "../report/html.ts";
import { sourcedCases } from "../report/sources.ts";
import { benchmarkSummary } from "../report/summary.ts";
import { decodeHistogram, percentileSpectrum } from "../../client/harness/histogram.ts";
import { calibrationChecks } from "../../client/harness/field.ts";
import { caseRatios } from "../../client/harness/ratios.ts";
import { SettingError } from "../../client/harness/harness-errors.ts";
import { inPhase, type TimeLedger } from "../../client/harness/time-account.ts";

export interface WrittenFiles {
  csv: string;
  json: string;
  latestCsv: string;
  latestJson: string;
  report: string;
  latestReport: string;
  /** latency mode: one percentile spectrum per case and measure, in `<stamp>-hgrm/`. */
  hgrm: string[];
}

/**
 * chart.js's standalone build, inlined into every report so it works offline. Found as Node.js
 * finds the package (its main file's folder), so it is found in a clone and where the package
 * was installed into a user's project, whose node_modules holds chart.js beside it.
 */
export function chartJsSource(): string {
  const dist = path.dirname(createRequire(import.meta.url).resolve("chart.js"));
  return readFileSync(path.join(dist, "chart.umd.min.js"), "utf8");
}

/** 2026-11-21T23:40:05.123Z -> 2026-11-21T23-40-05Z (safe on every file system). */
function fileStamp(isoTimestamp: string): string {
  return isoTimestamp.replace(/\.\d+Z$/, "Z").replaceAll(":", "-");
}

/**
 * Makes sure results can be written to `outDir` before anything is
 * measured: creates it, writes and removes a probe file. A directory that
 * cannot be made or written is a bad --out, reported in one line naming `option`.
 */
export function prepareOutDir(outDir: string, option: string): void {
  const why = (e: unknown): string => {
    const err = e as { code?: string; message?: string };
    return err.code === "EACCES" || err.code === "EPERM" || err.code === "EROFS"
      ? "permission denied"
      : err.code === "ENOTDIR" || err.code === "EEXIST"
        ? "a file, not a directory, is in the way"
        : err.code === "ENOENT"
          ? "the file system does not allow it there"
          : (err.code ?? err.message ?? String(e));
  };
  try {
    mkdirSync(outDir, { recursive: true });
  } catch (e) {
    throw new SettingError(
      `${option} ${outDir}: cannot create the directory (${why(e)}); name a directory you can write to`,
    );
  }
  const probe = path.join(outDir, `.write-test.${process.pid}`);
  try {
    writeFileSync(probe, "");
    rmSync(probe, { force: true });
  } catch (e) {
    throw new SettingError(`${option} ${outDir}: cannot write there (${why(e)}); name a directory you can write to`);
  }
}

export function writeAtomic(file: string, content: string): void {
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, content, "utf8");
  renameSync(tmp, file);
}

/**
 * The run's CSV while it runs: the header at once, then one row per case
 * the moment the case finishes, each appended in one write, so a crash or a
 * kill leaves every finished case on disk in a file that still parses.
 * Each row's ratios are those of the cases finished with it; `writeResults`
 * replaces the file at the end with the complete one (ratios to json need
 * json's own case, which may finish later).
 */
export class LiveCsv {
  /** The file, or undefined when the run writes no files (the API's `out: false`): then it only holds the cases. */
  readonly file: string | undefined;
  /** Every case added so far. */
  readonly finished: CaseResult[] = [];
  private readonly base: Omit<BenchResults, "cases">;

  /** `ledger`: where its writing counts, as files. */
  constructor(
    outDir: string | undefined,
    base: Omit<BenchResults, "cases">,
    private readonly ledger?: TimeLedger,
  ) {
    this.base = { ...base, provenance: codeProvenance() };
    if (outDir === undefined) return;
    const file = path.join(outDir, `${fileStamp(base.timestamp)}.csv`);
    this.file = file;
    inPhase(ledger, "files", () => {
      mkdirSync(outDir, { recursive: true });
      writeFileSync(file, csvHeader(), "utf8");
    });
  }

  add(c: CaseResult): void {
    this.finished.push(c);
    const file = this.file;
    if (file === undefined) return;
    const row = { ...c, ratios: caseRatios(c, this.finished) };
    inPhase(this.ledger, "files", () =>
      appendFileSync(
        file,
        csvRows({ ...this.base, cases: this.finished, calibration: calibrationChecks(this.finished) }, [row]),
        "utf8",
      ),
    );
  }
}

export function writeResults(results: BenchResults, outDir: string): WrittenFiles {
  mkdirSync(outDir, { recursive: true });
  const stamp = fileStamp(results.timestamp);
  const csv = toCsv(results);
  const json = toJson(results);
  const files: WrittenFiles = {
    csv: path.join(outDir, `${stamp}.csv`),
    json: path.join(outDir, `${stamp}.json`),
    latestCsv: path.join(outDir, "latest.csv"),
    latestJson: path.join(outDir, "latest.json"),
    report: path.join(outDir, `${stamp}.html`),
    latestReport: path.join(outDir, "report.html"),
    hgrm: [],
  };
  writeAtomic(files.csv, csv);
  writeAtomic(files.json, json);
  writeAtomic(files.latestCsv, csv);
  writeAtomic(files.latestJson, json);
  const html = reportHtml(sourcedCases(results), chartJsSource(), {
    subtitle: `Run of ${results.timestamp}; ${describeRun(results)} ${provenanceLine(results.provenance)}.`,
    summary: benchmarkSummary(results),
  });
  writeAtomic(files.report, html);
  writeAtomic(files.latestReport, html);
  files.hgrm = writeSpectra(results, path.join(outDir, `${stamp}-hgrm`));
  return files;
}

/** Each latency-mode case's histograms as HdrHistogram percentile spectra (`.hgrm`, µs), for its plotters. */
function writeSpectra(results: BenchResults, dir: string): string[] {
  const written: string[] = [];
  for (const c of results.cases) {
    const h = c.socket?.histograms;
    if (!h || !c.verified) continue;
    mkdirSync(dir, { recursive: true });
    for (const [measure, encoded] of [
      ["corrected", h.correctedUs],
      ["service", h.serviceUs],
    ] as const) {
      const file = path.join(dir, `${c.mode}-${c.client}-${c.payload}-${c.codec}-${measure}.hgrm`);
      writeAtomic(file, percentileSpectrum(decodeHistogram(encoded)));
      written.push(file);
    }
  }
  return written;
}

function describeRun(results: BenchResults): string {
  const env = results.environment;
  return `${env.runtime} ${env.runtimeVersion}, ${env.os}, ${env.cpu} x${env.cores}; ${results.settings.fixed ? "the article's exact messages" : "varied messages"}, seed ${results.settings.seed}.`;
}
