/**
 * Where the generated figures sit in the documents: docs/results.md's block and the README's
 * first look, each between two markers that `bun run readme-figures` writes between.
 */

import { ReportError } from "./report-errors.ts";

/** Where docs/results.md's block starts and ends. */
export const FIGURES_BEGIN = "<!-- figures:begin (bun run readme-figures writes this block from results/sample/) -->";
export const FIGURES_END = "<!-- figures:end -->";
/** The README's first look: the committed --quick run's ratios (bun run readme-figures writes it too). */
export const QUICK_BEGIN =
  "<!-- quick:begin (bun run readme-figures writes this block from results/sample/epyc-quick.csv) -->";
export const QUICK_END = "<!-- quick:end -->";

/** `text` with the block between `begin` and `end` replaced by `block`; throws when the markers are missing. */
function withBlock(text: string, block: string, begin: string, end: string, where: string): string {
  const from = text.indexOf(begin);
  const to = text.indexOf(end);
  if (from < 0 || to < from)
    throw new ReportError("NO_FIGURES_BLOCK", `${where} has no figures block (${begin} ... ${end})`);
  return text.slice(0, from) + block + text.slice(to + end.length);
}

/** docs/results.md with its figures block replaced. */
export function withFigures(page: string, block: string): string {
  return withBlock(page, block, FIGURES_BEGIN, FIGURES_END, "docs/results.md");
}

/** The README with its first look replaced. */
export function withQuick(readme: string, block: string): string {
  return withBlock(readme, block, QUICK_BEGIN, QUICK_END, "the README");
}

/** Where docs/results.md says what code made its figures, under its title. */
export const MADE_BEGIN = "<!-- made:begin (bun run readme-figures writes this line from results/sample/) -->";
export const MADE_END = "<!-- made:end -->";

/** docs/results.md with its line on what made the figures replaced. */
export function withMade(page: string, block: string): string {
  return withBlock(page, block, MADE_BEGIN, MADE_END, "docs/results.md");
}
