/**
 * What the charts and the tables of results side by side (report.html, the
 * page) show a case under: its source, one name per runtime ("bun 1.4.4"
 * for the in-process cases and Bun's client alike, "node client",
 * "Chrome 156", "k6 v1.8.1"), with the run it belongs to for its machine
 * and settings. Several runs side by side name the run in the source too.
 */

import type { BenchResults, CaseResult } from "../../client/harness/results.ts";

export interface SourcedCase {
  source: string;
  run: BenchResults;
  case: CaseResult;
}

/** The runtime that ran `c`, as one label. */
export function sourceOf(run: BenchResults, c: CaseResult): string {
  const env = run.environments?.[c.client] ?? run.environment;
  if (c.client === "browser") return env.runtimeVersion.replace(/^(\w+) (\d+)\..*$/, "$1 $2") || "browser";
  if (c.client === "node") return "node client";
  return `${env.runtime} ${env.runtimeVersion}`.trim();
}

/** A run's verified cases, each under its source (a failed case has no figures to show). */
export function sourcedCases(run: BenchResults): SourcedCase[] {
  return run.cases.filter((c) => c.verified).map((c) => ({ source: sourceOf(run, c), run, case: c }));
}
