/**
 * The generated spans of a document: `<!--fig:NAME-->TEXT<!--/fig-->`, inline in a sentence or
 * around a block (its markers on lines of their own, a blank line between each and the block, so
 * Markdown reads the block as it would without them). `bun run figures` writes TEXT from the
 * committed samples; everything outside the spans is prose no remake can change.
 */

/** One span as the document holds it. */
export interface Span {
  name: string;
  /** What the document holds between the markers now (a block: without the line breaks around it). */
  text: string;
  block: boolean;
  /** The line the span opens on, counting from 1. */
  line: number;
}

const SPAN = /<!--fig:([a-z0-9-]+)-->([\s\S]*?)<!--\/fig-->/g;
/** A marker the pattern above would not pair: an opening without its close, a close without its opening, a bad name. */
const MARKER = /<!--(fig:[^>]*|\/fig)-->/g;

/** A document's spans, in order; throws on a marker that opens no span or is not closed, naming its line. */
export function spansOf(text: string, where: string): Span[] {
  const spans: Span[] = [];
  const paired = new Set<number>();
  for (const m of text.matchAll(SPAN)) {
    const [whole, name, inner] = m as unknown as [string, string, string];
    paired.add(m.index!);
    paired.add(m.index! + whole.length - "<!--/fig-->".length);
    const block = isBlock(inner);
    spans.push({ name, text: block ? inner.replace(/^\n+|\n+$/g, "") : inner, block, line: lineAt(text, m.index!) });
  }
  for (const m of text.matchAll(MARKER))
    if (!paired.has(m.index!))
      throw new Error(
        `${where}:${lineAt(text, m.index!)}: ${m[0]} is not one span (<!--fig:NAME-->TEXT<!--/fig-->, NAME in a-z, 0-9 and -)`,
      );
  return spans;
}

/** The document with each span's text replaced by its figure (a span with no figure given stays as it is). */
export function withFigures(text: string, figures: ReadonlyMap<string, string>): string {
  return text.replace(SPAN, (whole, name: string, inner: string) => {
    const figure = figures.get(name);
    if (figure === undefined) return whole;
    return `<!--fig:${name}-->${isBlock(inner) ? `\n\n${figure}\n\n` : figure}<!--/fig-->`;
  });
}

/** A span around a block opens and closes at a line break. */
const isBlock = (inner: string): boolean => inner.startsWith("\n") && inner.endsWith("\n");

function lineAt(text: string, index: number): number {
  let line = 1;
  for (let i = text.indexOf("\n"); i >= 0 && i < index; i = text.indexOf("\n", i + 1)) line++;
  return line;
}
