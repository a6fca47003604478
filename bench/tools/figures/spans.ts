/**
 * The generated spans of a document: `<!--fig:NAME-->TEXT<!--/fig-->`, inline in a sentence or
 * around a block (its markers on lines of their own, indented as the block is, a blank line
 * between each and the block, so Markdown reads the block as it would without them). An inline
 * span never opens a line: Markdown reads a line that starts with `<!--` as raw HTML, which
 * splits the paragraph and leaves the line's own Markdown unread. `bun run figures` writes TEXT
 * from the committed samples; everything outside the spans is prose no remake can change.
 */

/** One span as the document holds it. */
export interface Span {
  name: string;
  /** What the document holds between the markers now (a block: without the line breaks around it and its indent). */
  text: string;
  block: boolean;
  /** The line the span opens on, counting from 1. */
  line: number;
}

const SPAN = /<!--fig:([a-z0-9-]+)-->([\s\S]*?)<!--\/fig-->/g;
/** A marker the pattern above would not pair: an opening without its close, a close without its opening, a bad name. */
const MARKER = /<!--(fig:[^>]*|\/fig)-->/g;

/**
 * The text with its code (fenced blocks, inline code) blanked out, every other character where it
 * was: a marker shown as an example in code is not a span.
 */
const withoutCode = (text: string): string =>
  text.replace(/^```[\s\S]*?^```|`[^`\n]+`/gm, (code) => code.replace(/[^\n]/g, " "));

/** A document's spans, in order; throws on a marker that opens no span or is not closed, naming its line. */
export function spansOf(text: string, where: string): Span[] {
  const spans: Span[] = [];
  const paired = new Set<number>();
  const prose = withoutCode(text);
  for (const m of prose.matchAll(SPAN)) {
    const [whole, name] = m as unknown as [string, string];
    const inner = text.slice(m.index! + `<!--fig:${name}-->`.length, m.index! + whole.length - "<!--/fig-->".length);
    paired.add(m.index!);
    paired.add(m.index! + whole.length - "<!--/fig-->".length);
    const indent = blockIndent(inner);
    const line = lineAt(text, m.index!);
    if (indent === undefined)
      for (const [at, marker] of [
        [m.index!, `<!--fig:${name}-->`],
        [m.index! + whole.length - "<!--/fig-->".length, "<!--/fig-->"],
      ] as const)
        if (/(^|\n)[ \t]*$/.test(text.slice(0, at)))
          throw new Error(
            `${where}:${lineAt(text, at)}: ${marker} opens a line, which Markdown reads as raw HTML (the paragraph splits there): join it to the line before`,
          );
    spans.push({
      name,
      text: indent === undefined ? inner : unindented(inner.replace(/^\n+|\n+[ \t]*$/g, ""), indent),
      block: indent !== undefined,
      line,
    });
  }
  for (const m of prose.matchAll(MARKER))
    if (!paired.has(m.index!))
      throw new Error(
        `${where}:${lineAt(text, m.index!)}: ${m[0]} is not one span (<!--fig:NAME-->TEXT<!--/fig-->, NAME in a-z, 0-9 and -)`,
      );
  return spans;
}

/** The document with each span's text replaced by its figure (a span with no figure given stays as it is). */
export function withFigures(text: string, figures: ReadonlyMap<string, string>): string {
  let out = "";
  let from = 0;
  for (const m of withoutCode(text).matchAll(SPAN)) {
    const name = m[1]!;
    const figure = figures.get(name);
    if (figure === undefined) continue;
    const open = `<!--fig:${name}-->`;
    const inner = text.slice(m.index! + open.length, m.index! + m[0].length - "<!--/fig-->".length);
    const indent = blockIndent(inner);
    out += `${text.slice(from, m.index!)}${open}${indent === undefined ? figure : `\n\n${indented(figure, indent)}\n\n${indent}`}<!--/fig-->`;
    from = m.index! + m[0].length;
  }
  return out + text.slice(from);
}

/** A block's indent (a span around a block opens at a line break and closes on a line of its own, at the block's indent); undefined for an inline span. */
function blockIndent(inner: string): string | undefined {
  if (!inner.startsWith("\n")) return undefined;
  return /\n([ \t]*)$/.exec(inner)?.[1];
}
const indented = (block: string, indent: string): string =>
  block
    .split("\n")
    .map((l) => (l === "" ? l : indent + l))
    .join("\n");
const unindented = (block: string, indent: string): string =>
  block
    .split("\n")
    .map((l) => (l.startsWith(indent) ? l.slice(indent.length) : l))
    .join("\n");

function lineAt(text: string, index: number): number {
  let line = 1;
  for (let i = text.indexOf("\n"); i >= 0 && i < index; i = text.indexOf("\n", i + 1)) line++;
  return line;
}
