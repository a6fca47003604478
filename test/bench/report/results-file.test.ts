/**
 * Results files read back, CSV or JSON: the same results either way, with the ratios a run's
 * results carry, read from the file where it has them and worked out from its rounds where not.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { withRatios } from "../../../client/harness/ratios.ts";
import type { BenchResults } from "../../../client/harness/results.ts";
import { JSON_VERSION, toJson } from "../../../bench/report/results-json.ts";
import { hasRounds, resultsFromFile } from "../../../bench/report/results-file.ts";

const ROOT = path.resolve(import.meta.dirname, "../../..");
const sample = (name: string): string => readFileSync(path.join(ROOT, "results/sample", name), "utf8");
/** Files in older formats, kept to test their readers (test/fixtures/results/README.md). */
const fixture = (name: string): string => readFileSync(path.join(ROOT, "test/fixtures/results", name), "utf8");

describe("results files", () => {
  const fromCsv = resultsFromFile(sample("epyc-default-1.csv"));
  const fromJson = resultsFromFile(sample("epyc-default-1.json"));

  it("the CSV and the JSON of the same run give the same cases, figures and ratios", () => {
    expect(fromCsv.cases.length).toBeGreaterThan(40);
    expect(fromCsv.cases.map((c) => `${c.mode} ${c.payload} ${c.codec}`)).toEqual(
      fromJson.cases.map((c) => `${c.mode} ${c.payload} ${c.codec}`),
    );
    for (const [i, c] of fromCsv.cases.entries()) {
      const j = fromJson.cases[i]!;
      // The JSON keeps 7 significant digits, the CSV 3 decimals: they agree to a part in a million, or to the CSV's last digit.
      const close = (a: number, b: number) =>
        expect(Math.abs(a - b), `${c.mode} ${c.payload} ${c.codec}`).toBeLessThanOrEqual(
          Math.max(1e-6 * Math.abs(b), 0.0005),
        );
      close(c.total.median, j.total.median);
      close(c.total.mean, j.total.mean);
      if (j.ratios?.vsJson) close(c.ratios!.vsJson!.ratio, j.ratios.vsJson.ratio);
      if (j.ratios?.fieldVsJson) close(c.ratios!.fieldVsJson!.high, j.ratios.fieldVsJson.high);
    }
    expect(fromCsv.settings.seed).toBe(fromJson.settings.seed);
    expect(fromCsv.environment.cpu).toBe(fromJson.environment.cpu);
  });

  it("a JSON written before results carried ratios gets them from its rounds, as a benchmark's results do", () => {
    const plain = JSON.parse(fixture("json-v1-codec-fixed.json")) as BenchResults;
    expect(plain.cases.every((c) => c.ratios === undefined)).toBe(true);
    const read = resultsFromFile(fixture("json-v1-codec-fixed.json"));
    expect(read.cases.map((c) => c.ratios)).toEqual(
      withRatios(read.cases.map((c) => ({ ...c, ratios: undefined }))).cases.map((c) => c.ratios),
    );
    expect(read.cases.find((c) => c.codec === "custom-binary")!.ratios!.vsJson!.rounds).toBeGreaterThan(1);
  });

  it("a JSON that carries its ratios is read as it is, not worked out again", () => {
    const text = toJson(resultsFromFile(fixture("json-v1-codec-fixed.json")));
    const read = resultsFromFile(text);
    const i = read.cases.findIndex((c) => c.codec === "custom-binary");
    expect(read.cases[i]!.ratios!.vsJson!.ratio).toBeGreaterThan(0);
    const edited = JSON.parse(text) as BenchResults;
    edited.cases[i]!.ratios!.vsJson!.ratio = 42;
    expect(resultsFromFile(JSON.stringify(edited)).cases[i]!.ratios!.vsJson!.ratio).toBe(42);
  });

  it("the JSON the bench writes keeps every round and the codec order as tables, read back whole", () => {
    const text = toJson(fromJson);
    expect(text).toMatch(
      new RegExp(`^\\{\\n  "format": "ws-serialization-bench/${JSON_VERSION}",\\n  "provenance": \\{`),
    );
    expect(text).toMatch(/"raw": \{"columns": \["run","round","position",/);
    const again = resultsFromFile(text);
    expect(again.order).toEqual(fromJson.order);
    for (const [i, c] of fromJson.cases.entries()) {
      const back = again.cases[i]!.raw;
      expect(back.length).toBe(c.raw.length);
      // Nested figures (a round's server side) come back nested; every figure to 5 significant digits.
      for (const [k, r] of c.raw.entries()) {
        expect(Object.keys(back[k]!).sort()).toEqual(Object.keys(r).sort());
        expect(back[k]!.totalNs).toBeCloseTo(
          r.totalNs,
          Math.max(0, 4 - Math.floor(Math.log10(Math.abs(r.totalNs) || 1))),
        );
        if (r.server)
          expect(back[k]!.server!.cpuNs).toBeCloseTo(
            r.server.cpuNs,
            Math.max(0, 4 - Math.floor(Math.log10(Math.abs(r.server.cpuNs) || 1))),
          );
      }
    }
    // Every case's rounds in one table: the committed run's 69 cases and their codec order in 2.4 MB, not 7.7.
    expect(text.length).toBeLessThan(2.6e6);
  });

  it("a JSON of format 1 (rounds as objects, order as names) reads as it did", () => {
    const text = fixture("json-v1-codec-fixed.json");
    expect(text).toContain('"format": "ws-serialization-bench/1"');
    const read = resultsFromFile(text);
    expect(read.cases[0]!.raw[0]).toMatchObject({ run: 0, position: 0 });
    expect(read.order.codec![0]![0]).toContain("json");
  });

  it("the committed samples a clone carries stay under 5 MB", () => {
    const size = (dir: string): number =>
      readdirSync(dir, { withFileTypes: true }).reduce(
        (n, e) => n + (e.isDirectory() ? size(path.join(dir, e.name)) : statSync(path.join(dir, e.name)).size),
        0,
      );
    expect(size(path.join(ROOT, "results/sample"))).toBeLessThan(5_000_000);
  });

  it("a JSON holds each case's rounds, a CSV does not", () => {
    expect(hasRounds(fromJson)).toBe(true);
    expect(hasRounds(fromCsv)).toBe(false);
  });

  it("refuses a JSON that is not results", () => {
    expect(() => resultsFromFile('{"name": "package"}')).toThrow("not a results JSON: no cases");
  });
});
