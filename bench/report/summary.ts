/**
 * A run's summary: the sections every output prints beside its tables, built
 * here once from the results, so the terminal (table.ts), report.html (the
 * CLI's and `bun run report`'s) and the page say the same things. Each
 * output places them its own way; none leaves one out.
 *
 * The verdict pairs codecs round by round (are two codecs apart?), so it
 * needs a run's rounds: a results file read from a CSV has none, and gets
 * every section but the verdict (they read the ratios the CSV keeps).
 */

import type { BenchResults } from "../../client/harness/results.ts";
import { fidelityLines } from "./fidelity-table.ts";
import { notTimedPayloads, verdictLines } from "./verdict.ts";
import { calibrationLines, labFieldLines } from "./field-table.ts";
import { patternLines, routeSection } from "./patterns-table.ts";
import { hasRounds } from "./results-file.ts";
import { loadSection, loadVerdictLines } from "./load-table.ts";
import { evolveSection, evolveVerdictLines } from "./evolve-table.ts";

/** The sections, in the order the page and report.html print them. */
export const SUMMARY_SECTIONS = [
  "fidelity",
  "verdict",
  "labField",
  "calibration",
  "patterns",
  "route",
  "load",
  "evolve",
] as const;

export type SummarySection = (typeof SUMMARY_SECTIONS)[number];

/**
 * Each section's lines (empty when a run has nothing to say there):
 * - fidelity: what each codec did to the user's own messages (fidelity-table.ts);
 * - verdict: the answer, a few lines (verdict.ts);
 * - labField, calibration: codec mode's figure beside the server's, and the known costs the
 *   server's figure found (field-table.ts);
 * - patterns: read-one and validated in codec mode; route: route mode's server CPU (patterns-table.ts);
 * - load: each codec at the user's traffic, --load (load-table.ts), whose answer also closes the verdict;
 * - evolve: what each codec's reader read across each change to the messages (evolve-table.ts), with a verdict line too.
 */
export type BenchmarkSummary = Readonly<Record<SummarySection, readonly string[]>>;

/** `wide`: the columns --wide adds to the terminal's tables (route mode's). */
export function benchmarkSummary(results: BenchResults, options: { wide?: boolean } = {}): BenchmarkSummary {
  return {
    fidelity: fidelityLines(results),
    // A run with no case at all (every codec lossy on the user's messages) still says why, payload by payload.
    // A run of evolve mode alone timed nothing: its own line is its verdict.
    verdict: results.settings.modes.every((m) => m === "evolve")
      ? evolveVerdictLines(results.evolve)
      : hasRounds(results) || results.cases.length === 0
        ? [
            ...verdictLines(results.cases, notTimedPayloads(results), results.settings.payloads),
            ...loadVerdictLines(results.load),
            ...evolveVerdictLines(results.evolve),
          ]
        : evolveVerdictLines(results.evolve),
    labField: labFieldLines(results),
    calibration: calibrationLines(results),
    patterns: patternLines(results.cases),
    route: routeSection(results.cases, options.wide === true),
    load: loadSection(results.load),
    evolve: evolveSection(results.evolve),
  };
}

/** The sections named, in that order, as lines; a blank line after the fidelity section (the others open with their own). */
export function summaryLines(
  summary: BenchmarkSummary,
  sections: readonly SummarySection[] = SUMMARY_SECTIONS,
): string[] {
  return sections.flatMap((name) =>
    name === "fidelity" && summary.fidelity.length > 0 ? [...summary.fidelity, ""] : summary[name],
  );
}
