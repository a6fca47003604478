import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { rowsFromFile } from "../../../bench/report/rows.ts";

const ROOT = path.resolve(import.meta.dirname, "../../..");
const sample = (name: string): string => readFileSync(path.join(ROOT, "results/sample", name), "utf8");

describe("results files as chart rows", () => {
  it("the CSV and the JSON of the same run give the same rows", () => {
    const fromCsv = rowsFromFile(sample("epyc-default-1.csv"));
    const fromJson = rowsFromFile(sample("epyc-default-1.json"));
    expect(fromCsv.length).toBeGreaterThan(40);
    expect(fromCsv.map((r) => `${r.mode} ${r.payload} ${r.codec}`)).toEqual(fromJson.map((r) => `${r.mode} ${r.payload} ${r.codec}`));
    for (const [i, r] of fromCsv.entries()) {
      const j = fromJson[i]!;
      // The JSON keeps 7 significant digits, the CSV 3 decimals: they agree to a part in a million, or to the CSV's last digit.
      const close = (a: number, b: number) => expect(Math.abs(a - b), `${r.mode} ${r.payload} ${r.codec}`).toBeLessThanOrEqual(Math.max(1e-6 * Math.abs(b), 0.0005));
      close(r.totalMedianNs, j.totalMedianNs);
      close(r.totalNs, j.totalNs);
      if (Number.isFinite(j.vsJson)) close(r.vsJson, j.vsJson);
    }
  });
});
