/** How a report, the bench's table and the page say what code made a run (bench/cli/provenance.ts finds it). */

import type { Provenance } from "../../client/harness/results.ts";

/** One line saying what made results: "made by commit 1a2b3c4d5e, bench 0.1.0, csv 6". */
export function provenanceLine(p: Provenance | undefined): string {
  // A page's own run does not say (it knows no checkout).
  if (!p || p.benchVersion === "") return `made by code of no known commit${p?.format ? `, ${p.format}` : ""}`;
  const commit =
    p.commit === ""
      ? "an installed copy (no git checkout)"
      : `commit ${p.commit.slice(0, 10)}${p.dirty === true ? " (with uncommitted changes)" : p.dirty === false ? "" : " (changes unknown)"}`;
  return `made by ${commit}, bench ${p.benchVersion}${p.format ? `, ${p.format}` : ""}`;
}
