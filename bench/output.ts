/**
 * Writes a run's files: <out>/<timestamp>.csv and .json, and copies as
 * latest.csv and latest.json. Every file is written to a temporary name and
 * renamed into place, so a reader never sees half a file.
 */

import { mkdirSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { BenchResults } from "./results.ts";
import { toCsv } from "./report/csv.ts";
import { toJson } from "./report/json.ts";

export interface WrittenFiles {
  csv: string;
  json: string;
  latestCsv: string;
  latestJson: string;
}

/** 2026-11-21T23:40:05.123Z -> 2026-11-21T23-40-05Z (safe on every file system). */
export function fileStamp(isoTimestamp: string): string {
  return isoTimestamp.replace(/\.\d+Z$/, "Z").replaceAll(":", "-");
}

export function writeAtomic(file: string, content: string): void {
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, content, "utf8");
  renameSync(tmp, file);
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
  };
  writeAtomic(files.csv, csv);
  writeAtomic(files.json, json);
  writeAtomic(files.latestCsv, csv);
  writeAtomic(files.latestJson, json);
  return files;
}
