/**
 * The committed samples as the figures read them: a file under results/sample/ that the list
 * names (sample-list.ts), as text or as results, each read once.
 */

import { readFileSync } from "node:fs";
import path from "node:path";
import type { BenchResults, CaseResult } from "../../../client/harness/results.ts";
import { resultsFromFile } from "../../report/results-file.ts";
import { ROOT } from "../../cli/paths.ts";
import { HISTORY, SAMPLES } from "../sample-list.ts";

/** Every file the list names, under results/sample/. */
const LISTED = new Set([...SAMPLES.flatMap((s) => Object.keys(s.files)), ...HISTORY.map((h) => h.file)]);

const texts = new Map<string, string>();
const results = new Map<string, BenchResults>();

/** A listed sample's text; throws, naming the file, for one the list does not name. */
export function sampleText(file: string): string {
  if (!LISTED.has(file)) throw new Error(`results/sample/${file} is not a sample bench/tools/sample-list.ts names`);
  let text = texts.get(file);
  if (text === undefined) {
    text = readFileSync(path.join(ROOT, "results", "sample", file), "utf8");
    texts.set(file, text);
  }
  return text;
}

/** A listed results file (CSV or JSON) as every report reads it. */
export function sampleResults(file: string): BenchResults {
  let r = results.get(file);
  if (r === undefined) {
    r = resultsFromFile(sampleText(file));
    results.set(file, r);
  }
  return r;
}

/** Which cases: those whose fields hold these values. */
export type CaseMatch = Partial<Pick<CaseResult, "client" | "mode" | "payload" | "codec">>;

/** A listed results file's cases that match. */
export function casesIn(file: string, match: CaseMatch = {}): CaseResult[] {
  return sampleResults(file).cases.filter((c) =>
    Object.entries(match).every(([k, v]) => c[k as keyof CaseMatch] === v),
  );
}

/** The one case of a listed results file that matches; throws, naming the file, when there is none or more. */
export function caseIn(file: string, match: CaseMatch): CaseResult {
  const found = casesIn(file, match);
  if (found.length !== 1) throw new Error(`results/sample/${file}: ${found.length} cases of ${JSON.stringify(match)}`);
  return found[0]!;
}
