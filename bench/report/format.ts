/** Number formatting shared by the console table, the page and the HTML report. */

import type { CaseResult, Estimate } from "../../client/harness/results.ts";
import { browserVersion } from "../../client/harness/browser-version.ts";

/** A duration in ns with a sensible unit. */
export function formatNs(ns: number): string {
  if (!Number.isFinite(ns)) return "-";
  if (ns < 1000) return `${ns.toFixed(ns < 10 ? 2 : 1)} ns`;
  if (ns < 1e6) return `${(ns / 1e3).toFixed(2)} µs`;
  return `${(ns / 1e6).toFixed(2)} ms`;
}

/** A count with thousands separators, "-" when unknown. */
export function count(n: number): string {
  return Number.isFinite(n) ? Math.round(n).toLocaleString("en-US") : "-";
}

/** Bytes in MiB, whole ("-" when unknown). */
export function mebibytes(bytes: number): string {
  return Number.isFinite(bytes) && bytes > 0 ? `${Math.round(bytes / 1048576)} MiB` : "-";
}

/** `part` as a whole percentage of `whole`, "-" when unknown. */
export function percent(part: number, whole: number): string {
  return whole > 0 && Number.isFinite(part) ? `${Math.round((100 * part) / whole)}%` : "-";
}

/** Pads to `width` characters (code points), on the left when `right` aligns it right. */
export function pad(s: string, width: number, right = false): string {
  const len = [...s].length;
  return len >= width ? s : right ? " ".repeat(width - len) + s : s + " ".repeat(width - len);
}

/** A mean with the half-width of its 95% interval; one sample has no interval, so none is shown. */
export function meanWithInterval(summary: { n: number; mean: number; ci95: number }): string {
  return summary.n < 2 ? formatNs(summary.mean) : `${formatNs(summary.mean)} ± ${formatNs(summary.ci95)}`;
}

/** Widest line of the default terminal output. */
export const TERMINAL_WIDTH = 100;

/**
 * A line longer than `width` broken at spaces, the continuation lines
 * starting with `indent`; a word longer than a line stays whole.
 */
export function wrapLine(line: string, width = TERMINAL_WIDTH, indent = "   "): string[] {
  const out: string[] = [];
  let rest = line;
  while ([...rest].length > width) {
    const cut = rest.lastIndexOf(" ", width);
    if (cut <= indent.length) break;
    out.push(rest.slice(0, cut).trimEnd());
    rest = indent + rest.slice(cut + 1).trimStart();
  }
  out.push(rest);
  return out;
}

/** A codec's name as every table and the verdict show it: `*` non-standard, `!` lossy on these messages. */
export function codecLabel(c: { codec: string; standard: boolean; flags: readonly string[] }): string {
  return `${c.codec}${c.standard ? "" : "*"}${c.flags.includes("lossy") ? "!" : ""}`;
}

/**
 * What `*` and `!` mean, said of the codecs in `cases` that carry them (from each codec's own
 * `standard` and the fidelity check's `lossy`), so a note never names a codec that did not run.
 */
export function markNotes(cases: readonly { codec: string; standard: boolean; flags: readonly string[] }[]): {
  nonStandard?: string;
  lossy?: string;
} {
  const names = (pick: (c: (typeof cases)[number]) => boolean): string[] => [
    ...new Set(cases.filter(pick).map((c) => c.codec)),
  ];
  const nonStandard = names((c) => !c.standard && c.codec !== "raw");
  const lossy = names((c) => c.flags.includes("lossy"));
  const list = (n: readonly string[]): string => n.join(", ");
  return {
    ...(nonStandard.length > 0
      ? {
          nonStandard: `* non-standard: ${list(nonStandard)} ${nonStandard.length === 1 ? "writes a format" : "write formats"} that only the same library (or code) reads.`,
        }
      : {}),
    ...(lossy.length > 0
      ? {
          lossy: `! lossy: ${list(lossy)} changed values of these messages (the fidelity table says which); timed because --allow-lossy asked.`,
        }
      : {}),
  };
}

/** A ratio as a report has it: its interval and its marks, where it has them. */
type RatioLike = Pick<Estimate, "value"> & Partial<Pick<Estimate, "low" | "high" | "rounds" | "overlap" | "wide">>;

/**
 * A ratio as every output writes it (the table, the verdict, the page, docs/results.md): with the
 * half-width of its interval in percent, the wider side, "0.82 ±6.0%", "≈1.01 ±3.0%" when the
 * interval holds 1, "1.35 ±9.9%†" when wider than the benchmark's --precision; `interval: false`,
 * the figure and its ≈ alone ("≈1.01"), for a line that lists several.
 */
export function ratioText(r: RatioLike | undefined, options: { interval?: boolean } = {}): string {
  if (!r || !Number.isFinite(r.value)) return "-";
  const { low = Number.NaN, high = Number.NaN, rounds } = r;
  const half = Math.max(high / r.value - 1, 1 - low / r.value);
  // One round has no interval; a ratio read back from a CSV does not say its rounds, and shows what it has.
  const interval =
    options.interval === false || (rounds !== undefined && rounds < 2) || !Number.isFinite(half)
      ? ""
      : ` ${halfWidthText(half)}`;
  return `${r.overlap ? "≈" : ""}${ratioFigure(r.value)}${interval}${r.wide && options.interval !== false ? PRECISION_MARK : ""}`;
}

/** After a ratio whose interval is wider than the run's --precision asked. */
export const PRECISION_MARK = "†";

/** The half-width of an interval relative to its figure (0.062) as a ratio's shows it: "±6.2%", "±12%" from 9.95% up. */
export function halfWidthText(half: number): string {
  const pct = half * 100;
  return `±${pct < 9.95 ? pct.toFixed(1) : Math.round(pct)}%`;
}

/** A ratio to two decimals, or to two significant digits below 0.1 (a field read in 25 ns against a 6 µs decode is 0.0043, not 0.00). */
export function ratioFigure(ratio: number): string {
  return ratio > 0 && ratio < 0.1 ? ratio.toPrecision(2) : ratio.toFixed(2);
}

/** Where cold mode's `n` processes ran: "fresh Bun processes", or "fresh Chrome 156.0.0.0 pages" (a browser's, by its user agent). */
export function coldProcessesText(cases: readonly CaseResult[], n = 2): string {
  const page = cases.find((c) => c.mode === "cold" && c.client === "browser");
  const s = n === 1 ? "" : "s";
  return page
    ? `fresh ${browserVersion(page.clientLibrary ?? "")} page${s}`
    : `fresh Bun process${n === 1 ? "" : "es"}`;
}
