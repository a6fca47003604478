/**
 * A results file, CSV or JSON (as the CLI and the page write them), read
 * back into the results every report reads: `bun run report`, the page's
 * Compare, readme-figures and crosscheck all start here. A JSON file holds
 * every round, so the ratios it does not carry (a file written before the
 * results carried them) are worked out from its rounds as a run's are; a
 * CSV carries its ratios in its columns (csv-read.ts). Latency mode's
 * percentiles, which older files held as round-trip times, are read as
 * latency.
 */

import { withRatios } from "../../client/harness/ratios.ts";
import type { BenchResults, SliceFigures } from "../../client/harness/results.ts";
import { medianInterval } from "../../client/harness/statistics.ts";
import { MODE_NAMES } from "../../client/harness/settings.ts";
import { resultsFromCsv } from "./csv-read.ts";
import { ReportError } from "./report-errors.ts";
import { orderFrom, roundsFrom } from "./results-json.ts";

/** A JSON results file's text as results: figures a failed case never got, written as null, back to NaN. */
function resultsFromJson(text: string): BenchResults {
  const results = JSON.parse(text) as BenchResults & { format?: string };
  if (!Array.isArray(results.cases)) throw new ReportError("NOT_RESULTS", "not a results JSON: no cases");
  // Format 3 on says what code made the file; every format names itself (none: format 1).
  const version = /\/(\d+)$/.exec(results.format ?? "")?.[1] ?? "1";
  results.provenance = { commit: "", benchVersion: "", ...results.provenance, format: `json ${version}` };
  // Format 2 writes the long lists as tables (results-json.ts); format 1 as they are in memory.
  results.order = orderFrom((results.order ?? {}) as unknown as Parameters<typeof orderFrom>[0]);
  // Files written before runs were set per mode held one number for every mode.
  const runs = results.settings?.runs as unknown;
  if (typeof runs === "number")
    results.settings.runs = Object.fromEntries(MODE_NAMES.map((m) => [m, runs])) as BenchResults["settings"]["runs"];
  for (const c of results.cases) {
    c.raw = roundsFrom((c.raw ?? []) as unknown as Parameters<typeof roundsFrom>[0]);
    reviveNulls(c as unknown as Record<string, unknown>);
    // Files written before a summary carried its median's interval: worked out from the rounds.
    for (const [figure, pick] of [
      ["serialize", (r: SliceFigures) => r.serializeNs],
      ["deserialize", (r: SliceFigures) => r.deserializeNs],
      ["total", (r: SliceFigures) => r.totalNs],
    ] as const) {
      const s = c[figure];
      if (s && s.medianLow === undefined) {
        const interval = medianInterval(c.raw.map(pick).filter(Number.isFinite));
        s.medianLow = interval?.low ?? NaN;
        s.medianHigh = interval?.high ?? NaN;
      }
    }
    // Files written before latency mode had its own percentiles held them in `rtt`.
    if (c.mode === "latency" && c.socket && c.socket.latency === undefined && c.socket.rtt) {
      c.socket.latency = c.socket.rtt;
      c.socket.rtt = undefined;
    }
  }
  for (const check of results.calibration ?? []) reviveNulls(check as unknown as Record<string, unknown>);
  return results.cases.every((c) => c.ratios !== undefined) ? results : { ...results, ...withRatios(results.cases) };
}

/** A results file's text, CSV or JSON, as results. */
export function resultsFromFile(text: string): BenchResults {
  const trimmed = text.trimStart();
  return trimmed.startsWith("{") ? resultsFromJson(trimmed) : resultsFromCsv(text);
}

/** Whether the results hold each case's rounds (a JSON file, a run in memory) or only what a CSV keeps: the verdict pairs rounds of its own. */
export function hasRounds(results: BenchResults): boolean {
  return results.cases.some((c) => c.raw.length > 0);
}

function reviveNulls(o: Record<string, unknown>): void {
  for (const [k, v] of Object.entries(o)) {
    if (v === null) o[k] = NaN;
    else if (typeof v === "object" && !Array.isArray(v)) reviveNulls(v as Record<string, unknown>);
  }
}
