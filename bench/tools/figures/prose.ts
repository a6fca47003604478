/**
 * How the README and docs/ write figures in prose, for the figures that fill their spans: a list
 * "a, b and c", a range "0.54-0.67", a count in words, a place, a whole number, a table. Ratios
 * and their ± are written as every output writes them (bench/report/format.ts: ratioFigure,
 * halfWidthText, ratioText).
 */

/** Names as a sentence lists them: "a, b and c". */
export const list = (names: readonly string[]): string =>
  names.length < 2 ? names.join("") : `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`;

const WORDS = [
  "none",
  ...["one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"],
  ...["eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen", "twenty"],
];
/** A count as the pages write it: in words up to twenty, in digits above; `zero` is how the sentence says none. */
export const word = (n: number, zero = "none"): string => (n === 0 ? zero : (WORDS[n] ?? String(n)));

const ORDINALS = ["first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth"];
/** A place as the pages write it, counting from 1: "first", "fourth"; past tenth, "11th". */
export const ordinal = (n: number): string => ORDINALS[n - 1] ?? `${n}th`;

/** The least and the most of some values. */
export const lo = (v: readonly number[]): number => Math.min(...v);
export const hi = (v: readonly number[]): number => Math.max(...v);

/** "lo-hi" of some values, each end in its own format (the high end in the low's unless given); one figure when both read the same. */
export const range = (
  values: readonly number[],
  low: (x: number) => string,
  high: (x: number) => string = low,
): string => {
  const [a, b] = [low(lo(values)), high(hi(values))];
  return a === b ? a : `${a}-${b}`;
};

/** A figure to so many decimals: fixed(2)(1.234) is "1.23". */
export const fixed =
  (digits: number) =>
  (x: number): string =>
    x.toFixed(digits);
/** A whole number with thousands separators: "12,345". */
export const whole = (x: number): string => Math.round(x).toLocaleString("en-US");
/** Milliseconds as whole seconds: "104". */
export const seconds = (ms: number): string => String(Math.round(ms / 1000));
/** To the nearest thousand: "84,000". */
export const thousands = (x: number): string => whole(Math.round(x / 1000) * 1000);

/** The half-width of a ratio's interval, relative to the ratio: the wider of its two sides. */
export const halfWidth = (r: { value: number; low: number; high: number }): number =>
  Math.max(r.high / r.value - 1, 1 - r.low / r.value);

/** A Markdown table: its header's cells, then a row of cells each. */
export const mdTable = (head: readonly string[], rows: readonly (readonly string[])[]): string =>
  [head, head.map(() => "---"), ...rows].map((cells) => `| ${cells.join(" | ")} |`).join("\n");

/** Lines as a fenced code block, their trailing spaces trimmed. */
export const codeBlock = (lines: readonly string[]): string =>
  ["```", ...lines.map((l) => l.trimEnd()), "```"].join("\n");
