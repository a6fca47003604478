/**
 * A results CSV read back is the results it was written from, as far as a CSV keeps them: the
 * same figures and ratios, the same knees and calibration, and the same CSV when written again.
 */
import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { CaseRatios } from "../../../client/harness/results.ts";
import { toCsv } from "../../../bench/report/csv.ts";
import { CSV_VERSION } from "../../../bench/report/csv-columns.ts";
import { parseCsv, resultsFromCsv } from "../../../bench/report/csv-read.ts";
import { resultsFromFile } from "../../../bench/report/results-file.ts";
import { sourcedCases } from "../../../bench/report/sources.ts";

const ROOT = path.resolve(import.meta.dirname, "../../..");
const SAMPLES = path.join(ROOT, "results/sample");
/** Files in every older format, kept to test their readers (test/fixtures/results/README.md). */
const FIXTURES = path.join(ROOT, "test/fixtures/results");
const sample = (name: string): string => readFileSync(path.join(SAMPLES, name), "utf8");
const fixture = (name: string): string => readFileSync(path.join(FIXTURES, name), "utf8");

/** Every ratio of a case as [name, value, low, high], for comparing two reads of it. */
function ratioFigures(r: CaseRatios | undefined): [string, number, number, number][] {
  return Object.entries(r ?? {})
    .filter(([, v]) => typeof v === "object" && v !== undefined)
    .map(([k, v]) => [k, "ratio" in v ? v.ratio : v.value, v.low, v.high]);
}

describe("a results CSV read back", () => {
  // One run's results as the bench assembles them: codec, roundtrip and stream mode, field figures.
  const results = resultsFromFile(sample("epyc-default-1.json"));
  const csv = toCsv(results);
  const back = resultsFromCsv(csv);

  it("holds the cases it was written from, with their figures and their ratios to the CSV's 3 decimals", () => {
    expect(back.cases.map((c) => `${c.client} ${c.mode} ${c.payload} ${c.codec} ${c.verified}`)).toEqual(
      results.cases.map((c) => `${c.client} ${c.mode} ${c.payload} ${c.codec} ${c.verified}`),
    );
    const close = (a: number, b: number, what: string): void => {
      if (Number.isNaN(b)) expect(a, what).toBeNaN();
      else expect(Math.abs(a - b), what).toBeLessThanOrEqual(0.0005 + 1e-9 * Math.abs(b));
    };
    for (const [i, c] of back.cases.entries()) {
      const was = results.cases[i]!;
      const where = `${c.mode} ${c.payload} ${c.codec}`;
      close(c.total.mean, was.total.mean, `${where} total`);
      close(c.total.ci95, was.total.ci95, `${where} ci95`);
      close(c.msgsPerS, was.msgsPerS, `${where} msgs/s`);
      close(c.socket?.rtt?.p99 ?? NaN, was.socket?.rtt?.p99 ?? NaN, `${where} p99`);
      const ratios = ratioFigures(was.ratios);
      expect(
        ratioFigures(c.ratios).map(([k]) => k),
        where,
      ).toEqual(ratios.map(([k]) => k));
      for (const [j, [k, ...figures]] of ratioFigures(c.ratios).entries()) {
        // The CSV keeps raw's ratio without its interval.
        const kept = k === "vsRaw" ? figures.slice(0, 1) : figures;
        kept.forEach((v, n) => close(v, ratios[j]![n + 1] as number, `${where} ${k}`));
      }
      expect(c.ratios?.vsJson?.overlap, where).toBe(was.ratios?.vsJson?.overlap);
    }
    expect(back.cases.some((c) => c.ratios?.fieldVsJson !== undefined && c.ratios.field?.corrected)).toBe(true);
  });

  it("names the same machine and sources, and writes the same CSV again, byte for byte", () => {
    expect(back.environment.cpu).toBe(results.environment.cpu);
    expect(sourcedCases(back).map((r) => r.source)).toEqual(sourcedCases(results).map((r) => r.source));
    expect(toCsv(back)).toBe(csv);
  });

  it("every committed CSV, samples and a file of each older version, gives back every column it has that this version still writes (under its name now); a latency row's rtt_* as latency_*", () => {
    let latencyRows = 0;
    const files = [
      ...readdirSync(SAMPLES)
        .filter((f) => f.endsWith(".csv"))
        .map((f) => path.join(SAMPLES, f)),
      ...readdirSync(FIXTURES)
        .filter((f) => f.endsWith(".csv"))
        .map((f) => path.join(FIXTURES, f)),
    ];
    const versions = new Set<string>();
    for (const file of files) {
      const name = path.basename(file);
      const text = readFileSync(file, "utf8");
      const [header, ...rows] = parseCsv(text).filter((r) => r.length > 1);
      const version = rows[0]![header!.indexOf("csv_version")] ?? "1";
      versions.add(version);
      const [again, ...written] = parseCsv(toCsv(resultsFromFile(text)));
      expect(written.length, name).toBe(rows.length);
      const mode = header!.indexOf("mode");
      latencyRows += rows.filter((row) => row[mode] === "latency").length;
      for (const [j, column] of header!.entries()) {
        if (column === "csv_version") continue;
        rows.forEach((row, i) => {
          // Version 4 renamed the median (*_round_median_ns: *_ns) and the mean's half-width (*_ci95_ns: *_mean_ci95_ns).
          // Version 5 named the time account's columns account_* (run_* before; run_total_ms stays).
          const renamed = column
            .replace(/^(serialize|deserialize|total)_round_median_ns$/, "$1_ns")
            .replace(/^(serialize|deserialize|total)_ci95_ns$/, "$1_mean_ci95_ns")
            .replace(/^run_(?!total_ms$)/, "account_");
          // Before version 3 a latency row held its percentiles in rtt_*.
          const as =
            Number(version) < 3 && row[mode] === "latency" && renamed.startsWith("rtt_")
              ? renamed.replace(/^rtt_/, "latency_")
              : renamed;
          const k = again!.indexOf(as);
          if (k >= 0) expect(written[i]![k], `${name} ${column}`).toBe(row[j]);
        });
      }
    }
    expect(latencyRows).toBeGreaterThan(10);
    expect([...versions].sort()).toEqual(["1", "2", "3", "4", "5", String(CSV_VERSION)]);
  });

  it("writes latency mode's percentiles in latency_* and leaves rtt_* to round trips", () => {
    const [header, ...rows] = parseCsv(toCsv(resultsFromFile(fixture("v2-latency.csv")))).filter((r) => r.length > 1);
    const at = (row: string[], column: string): string => row[header!.indexOf(column)]!;
    expect(at(rows[0]!, "csv_version")).toBe(String(CSV_VERSION));
    for (const row of rows.filter((r) => at(r, "mode") === "latency" && at(r, "verified") === "true")) {
      expect(Number(at(row, "latency_p99_ns"))).toBeGreaterThan(0);
      expect(at(row, "rtt_p99_ns")).toBe("");
    }
  });

  it("reads the run's knees and the calibration from the rows that carry them", () => {
    const sweep = resultsFromFile(sample("epyc-sweep-1.csv"));
    expect(sweep.knees!.length).toBeGreaterThan(10);
    expect(sweep.knees!.every((k) => k.client === "bun" && k.rate > 0)).toBe(true);
    const calibrated = resultsFromFile(sample("epyc-calibrate.csv"));
    expect(calibrated.calibration!.map((c) => c.mode).sort()).toEqual([
      "roundtrip",
      "roundtrip",
      "roundtrip",
      "stream",
      "stream",
      "stream",
    ]);
    for (const check of calibrated.calibration!) {
      expect(check.known.value).toBeGreaterThan(1000);
      expect(check.knownByTimers!.low).toBeLessThanOrEqual(check.knownByTimers!.value);
      expect(check.twinByTimers!.value).toBeGreaterThan(0);
    }
  });

  it("reads version 1's names: a round's median, a run's total", () => {
    const header = parseCsv(fixture("v1-all-modes-varied.csv"))[0]!;
    expect(header).toContain("total_median_ns");
    const c = resultsFromFile(fixture("v1-all-modes-varied.csv")).cases[0]!;
    expect(c.total.median).toBeGreaterThan(0);
    expect(c.totalMs.mean).toBeGreaterThan(0);
    expect(c.serializeBatches.batch).toBeGreaterThan(0);
  });

  it("refuses a CSV that is not the benchmark's", () => {
    expect(() => resultsFromCsv("a,b\n1,2\n")).toThrow("not a results CSV: no codec and mode columns");
  });
});
