/**
 * `bun run figures [--check]`: fills the generated spans of the README and docs/ from the committed
 * samples (results/sample/; each page's figures in figures/pages.ts) and writes the pages that
 * changed. With --check it writes nothing: it names every span whose text the samples write
 * differently, then says what code made each quoted sample and whether that code has changed
 * since; exit 1 when a span differs, a span has no figure (or a figure no span), a figure fails,
 * or a sample's format is older than the reader's.
 */

import path from "node:path";
import { writeAtomic } from "../cli/output.ts";
import { ROOT } from "../cli/paths.ts";
import { changeLine, generate } from "./figures/generate.ts";
import { PAGES } from "./figures/pages.ts";
import { sampleStates, stalenessLines } from "./figures/sample-staleness.ts";

function main(argv: string[]): number {
  const unknown = argv.filter((a) => a !== "--check");
  if (unknown.length > 0) {
    process.stderr.write(`figures: unknown argument '${unknown[0]}'; valid: --check\n`);
    return 2;
  }
  const check = argv.includes("--check");
  const pages = generate(ROOT, PAGES);
  const problems = pages.flatMap((p) => p.problems);
  for (const line of problems) process.stderr.write(`${line}\n`);
  const changed = pages.filter((p) => p.changed.length > 0);
  if (check) {
    for (const p of changed) for (const c of p.changed) process.stdout.write(`${changeLine(p.page, c)}\n`);
    const spans = pages.reduce((n, p) => n + p.changed.length, 0);
    process.stdout.write(
      changed.length === 0
        ? `Every generated span of ${pages.length} pages matches results/sample/.\n`
        : `${spans} generated span(s) differ from results/sample/: run bun run figures\n`,
    );
    const staleness = stalenessLines(sampleStates());
    process.stdout.write(`What made each quoted sample:\n${staleness.lines.join("\n")}\n`);
    return changed.length === 0 && problems.length === 0 && !staleness.failed ? 0 : 1;
  }
  for (const p of changed) writeAtomic(path.join(ROOT, p.page), p.next);
  process.stdout.write(
    changed.length === 0
      ? `Every generated span of ${pages.length} pages already matches results/sample/.\n`
      : `Wrote ${changed.map((p) => `${p.page} (${p.changed.length} span${p.changed.length === 1 ? "" : "s"})`).join(", ")}.\n`,
  );
  return problems.length === 0 ? 0 : 1;
}

if (import.meta.main) process.exitCode = main(process.argv.slice(2));
