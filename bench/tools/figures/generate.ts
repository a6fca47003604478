/**
 * Fills every document's generated spans from the committed samples: one pass over README.md and
 * docs/*.md, each span written by its page's figure (pages.ts). Nothing is written here; the
 * command (../figures.ts) writes the new texts or, with --check, reports where they differ.
 */

import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import type { PageFigures } from "./figure-spec.ts";
import { readingSamples } from "./sample-files.ts";
import { type Span, spansOf, withFigures } from "./spans.ts";

/** One document after generation: its text now and as the samples write it, and what stands in the way. */
export interface GeneratedPage {
  page: string;
  text: string;
  next: string;
  /** Spans whose text the samples write differently: where, what it reads, what it should. */
  changed: { span: Span; figure: string }[];
  /** A span no figure writes, a figure no span shows, a figure that failed: each a line naming the page and span. */
  problems: string[];
  /** The samples its figures read (results/sample/...): who quotes each sample. */
  quotes: string[];
}

/** The documents that may hold spans, from the project's root. */
function documents(root: string): string[] {
  return [
    "README.md",
    ...readdirSync(path.join(root, "docs"))
      .filter((f) => f.endsWith(".md"))
      .sort()
      .map((f) => `docs/${f}`),
  ];
}

/** Every document's spans filled by `pages`' figures; a document with spans and no figures is a problem. */
export function generate(root: string, pages: readonly PageFigures[]): GeneratedPage[] {
  return documents(root).flatMap((page): GeneratedPage[] => {
    const text = readFileSync(path.join(root, page), "utf8");
    const own = pages.find((p) => p.page === page);
    if (own === undefined) {
      if (spansOf(text, page).length === 0) return [];
      return [
        {
          page,
          text,
          next: text,
          changed: [],
          problems: [`${page}: has spans but no figures (bench/tools/figures/pages.ts)`],
          quotes: [],
        },
      ];
    }
    return [fill(page, text, own)];
  });
}

/** One page's spans filled by its figures. */
export function fill(page: string, text: string, own: PageFigures): GeneratedPage {
  let spans: Span[];
  try {
    spans = spansOf(text, page);
  } catch (e) {
    return { page, text, next: text, changed: [], problems: [(e as Error).message], quotes: [] };
  }
  const problems: string[] = [];
  const figures = new Map<string, string>();
  const changed: GeneratedPage["changed"] = [];
  const quotes = new Set<string>();
  for (const span of spans) {
    const where = `${page}:${span.line} fig:${span.name}`;
    const make = Object.hasOwn(own.figures, span.name) ? own.figures[span.name] : undefined;
    if (make === undefined) {
      problems.push(`${where}: no figure writes it`);
      continue;
    }
    let figure = figures.get(span.name);
    if (figure === undefined) {
      try {
        const made = readingSamples(make);
        figure = made.value;
        for (const f of made.read) quotes.add(f);
      } catch (e) {
        problems.push(`${where}: ${e instanceof Error ? e.message : String(e)}`);
        continue;
      }
      figures.set(span.name, figure);
    }
    if (figure !== span.text) changed.push({ span, figure });
  }
  const shown = new Set(spans.map((s) => s.name));
  for (const name of Object.keys(own.figures))
    if (!shown.has(name)) problems.push(`${page}: figure ${name} has no span (<!--fig:${name}-->...<!--/fig-->)`);
  return { page, text, next: withFigures(text, figures), changed, problems, quotes: [...quotes].sort() };
}

/** A changed span as --check reports it: where, what the page reads, what the samples write (a block: its first differing line). */
export function changeLine(page: string, c: GeneratedPage["changed"][number]): string {
  const where = `${page}:${c.span.line} fig:${c.span.name}`;
  if (!c.span.block) return `${where} reads "${c.span.text}", the samples give "${c.figure}"`;
  const [was, now] = [c.span.text.split("\n"), c.figure.split("\n")];
  const i = was.findIndex((l, k) => l !== now[k]);
  const at = i < 0 ? was.length : i;
  return `${where}, its line ${at + 1}, reads "${was[at] ?? ""}", the samples give "${now[at] ?? ""}"`;
}
