import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { rowsFromFile } from "../../../bench/report/rows.ts";

const ROOT = path.resolve(import.meta.dirname, "../../..");
const sample = (name: string): string => readFileSync(path.join(ROOT, "results/sample", name), "utf8");

describe("results files as chart rows", () => {
  it("a version 1 CSV (before csv_version) and the JSON of the same run give the same rows", () => {
    const fromCsv = rowsFromFile(sample("epyc-default-1.csv"));
    const fromJson = rowsFromFile(sample("epyc-default-1.json"));
    expect(fromCsv.length).toBeGreaterThan(40);
    expect(fromCsv.map((r) => `${r.mode} ${r.payload} ${r.codec}`)).toEqual(fromJson.map((r) => `${r.mode} ${r.payload} ${r.codec}`));
    for (const [i, r] of fromCsv.entries()) {
      const j = fromJson[i]!;
      // The old file's median column, read under its new name, and the JSON's median agree (CSV keeps 3 decimals).
      expect(r.totalMedianNs).toBeCloseTo(j.totalMedianNs, 2);
      expect(r.totalNs).toBeCloseTo(j.totalNs, 2);
      if (Number.isFinite(j.vsJson)) expect(r.vsJson).toBeCloseTo(j.vsJson, 2);
    }
  });
});
