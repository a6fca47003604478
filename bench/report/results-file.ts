/**
 * A results file (the JSON the CLI and the page write) read back into the results every report
 * reads: `bun run report`, the page's Load and Compare, the gate, the documents' figures and
 * crosscheck all start here. The JSON is the one record read back; the CSV beside it is an export
 * for spreadsheets and is refused with a line saying so, as is a JSON of an older format.
 */

import type { BenchResults } from "../../client/harness/results.ts";
import { ReportError } from "./report-errors.ts";
import { JSON_VERSION, orderFrom, roundsFrom } from "./results-json.ts";

/** A results JSON's text as results: figures a failed case never got, written as null, back to NaN. */
export function resultsFromFile(text: string): BenchResults {
  const trimmed = text.trimStart();
  if (!trimmed.startsWith("{")) {
    if (/^\uFEFF?"?client"?,/.test(trimmed))
      throw new ReportError(
        "CSV_NOT_READ",
        "a results CSV is an export for spreadsheets and is not read back; give the .json the run wrote beside it",
      );
    throw new ReportError("NOT_RESULTS", "not a results JSON (nor k6's JSON output)");
  }
  const results = JSON.parse(trimmed) as BenchResults & { format?: string };
  if (!Array.isArray(results.cases)) throw new ReportError("NOT_RESULTS", "not a results JSON: no cases");
  const version = Number(/\/(\d+)$/.exec(results.format ?? "")?.[1] ?? "1");
  if (version !== JSON_VERSION)
    throw new ReportError(
      "OLD_FORMAT",
      `a results JSON of format ${version}, ${version < JSON_VERSION ? "older" : "newer"} than this reader's (${JSON_VERSION}); remake it with the version of the bench that reads it (bun run bench, with the same options)`,
    );
  results.provenance = { commit: "", benchVersion: "", ...results.provenance, format: `json ${version}` };
  results.order = orderFrom(results.order as unknown as Parameters<typeof orderFrom>[0]);
  for (const c of results.cases) {
    c.raw = roundsFrom(c.raw as unknown as Parameters<typeof roundsFrom>[0]);
    reviveNulls(c as unknown as Record<string, unknown>);
  }
  for (const check of results.calibration ?? []) reviveNulls(check as unknown as Record<string, unknown>);
  return results;
}

/** Whether the results hold each case's rounds (a run in memory, a file from one) or only its figures: the verdict pairs rounds of its own. */
export function hasRounds(results: BenchResults): boolean {
  return results.cases.some((c) => c.raw.length > 0);
}

function reviveNulls(o: Record<string, unknown>): void {
  for (const [k, v] of Object.entries(o)) {
    if (v === null) o[k] = NaN;
    else if (typeof v === "object" && !Array.isArray(v)) reviveNulls(v as Record<string, unknown>);
  }
}
