/**
 * bench/api/compare-api.d.ts, the types a user's TypeScript reads: what `npm run api-types`
 * makes from the API today, in one file that imports nothing and holds the public types alone.
 */
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { API_TYPES } from "../../../bench/tools/api-types.ts";

const ROOT = path.resolve(import.meta.dirname, "../../..");

describe("npm run api-types", () => {
  it("--check finds the committed types to be what the API declares", () => {
    const r = spawnSync(process.execPath, ["bench/tools/api-types.ts", "--check"], {
      cwd: ROOT,
      encoding: "utf8",
      timeout: 240_000,
    });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toBe("api-types: bench/api/compare-api.d.ts is up to date\n");
  }, 300_000);

  it("the types stand alone: no import, no reference, and the API's names exported", () => {
    const text = readFileSync(API_TYPES, "utf8");
    expect(text).not.toMatch(/^\s*import\b|\bimport\(|\/\/\/ <reference/m);
    for (const name of [
      "function compare",
      "interface CompareOptions",
      "interface CompareResult",
      "interface PayloadAnswer",
      "type CsvRecord",
      "interface Codec",
      "class SettingError",
    ])
      expect(text).toMatch(new RegExp(`^export (declare )?${name}\\b`, "m"));
  });

  it("are the public types alone: the results and settings the benchmark keeps inside stay out, in 300 lines at most", () => {
    const text = readFileSync(API_TYPES, "utf8");
    expect(text.split("\n").length).toBeLessThanOrEqual(300);
    for (const internal of ["BenchResults", "CaseResult", "Settings", "Environment", "TimeAccount"])
      expect(text).not.toMatch(new RegExp(`\\b${internal}\\b`));
  });
});
