/**
 * `bun run readme-figures [--check]`: makes the README's figures block from
 * the committed result files (results/sample/) and writes it into the
 * README; with --check, only says whether the README's copy is current
 * (exit 1 when it is not).
 */

import { readFileSync } from "node:fs";
import path from "node:path";
import type { BenchResults } from "../harness/results.ts";
import { sampleFigures, withFigures } from "../report/sample-figures.ts";
import { writeAtomic } from "./output.ts";
import { ROOT } from "./paths.ts";

/** The back-to-back runs the README quotes, and the older run from another machine. */
export const SAMPLE_RUNS = ["results/sample/epyc-default-1.json", "results/sample/epyc-default-2.json", "results/sample/epyc-default-3.json"];
export const OTHER_MACHINE = "results/sample/all-modes-varied.json";

const load = (file: string): BenchResults => JSON.parse(readFileSync(path.join(ROOT, file), "utf8")) as BenchResults;

/** The block as the committed files give it. */
export function currentFigures(): string {
  return sampleFigures(SAMPLE_RUNS.map(load), SAMPLE_RUNS, { results: load(OTHER_MACHINE), name: OTHER_MACHINE });
}

function main(argv: string[]): number {
  const unknown = argv.filter((a) => a !== "--check");
  if (unknown.length > 0) {
    process.stderr.write(`readme-figures: unknown argument '${unknown[0]}'; valid: --check\n`);
    return 2;
  }
  const readmePath = path.join(ROOT, "README.md");
  const readme = readFileSync(readmePath, "utf8");
  const updated = withFigures(readme, currentFigures());
  if (argv.includes("--check")) {
    process.stdout.write(updated === readme ? "README figures match results/sample/.\n" : "README figures differ from results/sample/: run bun run readme-figures\n");
    return updated === readme ? 0 : 1;
  }
  writeAtomic(readmePath, updated);
  process.stdout.write(`Wrote the figures block of README.md from ${SAMPLE_RUNS.join(", ")} and ${OTHER_MACHINE}.\n`);
  return 0;
}

if (import.meta.main) process.exitCode = main(process.argv.slice(2));
