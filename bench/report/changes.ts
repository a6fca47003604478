/**
 * Two runs side by side (`bun run report A B`): for every case both hold, how each figure moved
 * from A to B, with a 95% interval, and whether the move is larger than the runs' own noise.
 *
 * Times: the ratio B/A of the mean per message, its interval from each run's mean and interval
 * (Welch on the logarithms: each mean's relative standard error, t with Welch-Satterthwaite
 * degrees of freedom). Runs made at different moments also differ by the machine's speed, which
 * this interval does not hold; the ratio to JSON within each run does not carry it, so it is
 * compared too: a codec "moved against JSON" when A's and B's 95% intervals do not overlap.
 */

import type { CaseResult, Estimate } from "../../client/harness/results.ts";
import { tQuantile975 } from "../../client/harness/statistics.ts";
import { formatNs, pad, wrapLine } from "./format.ts";
import type { SourcedCase } from "./sources.ts";

/** B over A with its 95% interval (low/high NaN when either run has no interval), and what it means. */
export interface Change extends Pick<Estimate, "value" | "low" | "high"> {
  /** "faster" / "slower" when the interval leaves out 1, "same" when it holds 1, "" without an interval. */
  verdict: "faster" | "slower" | "same" | "";
}

export interface CaseChange {
  mode: string;
  payload: string;
  codec: string;
  a: CaseResult;
  b: CaseResult;
  total: Change;
  serialize: Change;
  deserialize: Change;
  /** Encoded size B/A (1 unless the messages or the codec changed). */
  bytes: number;
  /** The ratio to JSON in each run, and whether their intervals are apart. */
  vsJsonMoved: "faster" | "slower" | "same" | "";
}

/** B's mean over A's, each with the half-width of its 95% interval over `n` rounds. */
export function meanChange(meanA: number, ci95A: number, nA: number, meanB: number, ci95B: number, nB: number): Change {
  const value = meanB / meanA;
  if (!(nA >= 2 && nB >= 2 && Number.isFinite(ci95A) && Number.isFinite(ci95B) && meanA > 0 && meanB > 0))
    return { value, low: NaN, high: NaN, verdict: "" };
  const relA = ci95A / tQuantile975(nA - 1) / meanA;
  const relB = ci95B / tQuantile975(nB - 1) / meanB;
  const variance = relA ** 2 + relB ** 2;
  const df = variance > 0 ? variance ** 2 / (relA ** 4 / (nA - 1) + relB ** 4 / (nB - 1)) : nA + nB - 2;
  const half = tQuantile975(Math.max(1, Math.floor(df))) * Math.sqrt(variance);
  const low = Math.exp(Math.log(value) - half);
  const high = Math.exp(Math.log(value) + half);
  return { value, low, high, verdict: high < 1 ? "faster" : low > 1 ? "slower" : "same" };
}

function vsJsonMoved(a: CaseResult, b: CaseResult): CaseChange["vsJsonMoved"] {
  const ra = a.ratios?.vsJson;
  const rb = b.ratios?.vsJson;
  if (a.codec === "json" || !ra || !rb || ![ra.low, ra.high, rb.low, rb.high].every(Number.isFinite)) return "";
  if (rb.high < ra.low) return "faster";
  if (rb.low > ra.high) return "slower";
  return "same";
}

const key = (c: CaseResult): string => `${c.mode}\u0000${c.payload}\u0000${c.codec}`;

/** B's mean of a figure over A's, each with its interval over the case's rounds. */
function change(a: CaseResult, b: CaseResult, figure: "total" | "serialize" | "deserialize"): Change {
  return meanChange(a[figure].mean, a[figure].ci95, a.rounds, b[figure].mean, b[figure].ci95, b.rounds);
}

/** Every mode x payload x codec both runs hold (verified in both), in A's order. */
export function caseChanges(a: readonly CaseResult[], b: readonly CaseResult[]): CaseChange[] {
  const inB = new Map(b.filter((c) => c.verified).map((c) => [key(c), c]));
  const out: CaseChange[] = [];
  for (const ca of a.filter((c) => c.verified)) {
    const cb = inB.get(key(ca));
    if (!cb) continue;
    out.push({
      mode: ca.mode,
      payload: ca.payload,
      codec: ca.codec,
      a: ca,
      b: cb,
      total: change(ca, cb, "total"),
      serialize: change(ca, cb, "serialize"),
      deserialize: change(ca, cb, "deserialize"),
      bytes: cb.bytes / ca.bytes,
      vsJsonMoved: vsJsonMoved(ca, cb),
    });
  }
  return out;
}

/** "-12.3% [-15.0, -9.4]" for a ratio of 0.877 with its interval; "" where there is no figure. */
export function changeText(c: Change): string {
  if (!Number.isFinite(c.value)) return "";
  const pct = (r: number): string => `${r >= 1 ? "+" : ""}${((r - 1) * 100).toFixed(1)}`;
  return Number.isFinite(c.low) ? `${pct(c.value)}% [${pct(c.low)}, ${pct(c.high)}]` : `${pct(c.value)}%`;
}

/** A run's label: what ran it and when ("bun 1.4.4, 2026-11-22 10:31"), the file's name when two runs would read the same. */
export function benchmarkLabels(runs: readonly { rows: readonly SourcedCase[]; file: string }[]): string[] {
  const plain = runs.map(({ rows }) => {
    const r = rows[0];
    if (!r) return "";
    const when = r.run.timestamp.replace("T", " ").slice(0, 16);
    const sources = [...new Set(rows.map((x) => x.source))].join(" + ");
    return when ? `${sources}, ${when}` : sources;
  });
  return plain.map((label, i) =>
    label === "" || plain.indexOf(label) !== plain.lastIndexOf(label)
      ? `${label}${label ? " " : ""}(${runs[i]!.file})`
      : label,
  );
}

/** A ratio to two decimals, "-" where there is none. */
const fixed = (v: number): string => (Number.isFinite(v) ? v.toFixed(2) : "-");

const MARK = { faster: "faster", slower: "slower", same: "same", "": "" } as const;

function vsJsonPair(c: CaseChange): string {
  if (c.codec === "json") return "1.00";
  return `${fixed(c.a.ratios?.vsJson?.value ?? NaN)} → ${fixed(c.b.ratios?.vsJson?.value ?? NaN)}${c.vsJsonMoved === "faster" || c.vsJsonMoved === "slower" ? " *" : ""}`;
}

/**
 * The comparison for a terminal (at most TERMINAL_WIDTH columns): one line per case, total per
 * message in A and B, the change with its interval and what it means, and the ratio to JSON in
 * each run (* where the two intervals are apart).
 */
export function changeLines(comparisons: readonly CaseChange[], labels: readonly [string, string]): string[] {
  const widths = [9, 7, 17, 9, 9, 22, 6, 13];
  const row = (cells: string[]): string =>
    cells
      .map((c, i) => pad(c, widths[i]!, i >= 3 && i !== 6))
      .join(" ")
      .trimEnd();
  const lines = [
    ...wrapLine(`A: ${labels[0]}`),
    ...wrapLine(`B: ${labels[1]}`),
    row(["mode", "payload", "codec", "mean A", "mean B", "change B/A [95%]", "", "vs json A → B"]),
  ];
  for (const c of comparisons) {
    lines.push(
      row([
        c.mode,
        c.payload,
        c.a.standard ? c.codec : `${c.codec}*`,
        formatNs(c.a.total.mean),
        formatNs(c.b.total.mean),
        changeText(c.total),
        MARK[c.total.verdict],
        vsJsonPair(c),
      ]),
    );
  }
  lines.push(
    ...wrapLine(
      "faster/slower: the 95% interval of the change leaves out 0 (same: it holds 0). Runs made apart also differ by the machine's speed; " +
        "the ratio to JSON within each run does not, and * marks a codec whose ratio moved beyond both runs' intervals.",
    ),
  );
  return lines;
}

function escapeHtml(s: string): string {
  return s.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;").replaceAll('"', "&quot;");
}

/** The comparison as an HTML section for report.html: every figure's change with its interval. */
export function changeHtml(comparisons: readonly CaseChange[], labels: readonly [string, string]): string {
  const cell = (s: string): string => `<td>${escapeHtml(s)}</td>`;
  const vs = (c: CaseResult): string => {
    const ratio = c.ratios?.vsJson?.value ?? NaN;
    return c.codec === "json" ? "1.00" : Number.isFinite(ratio) ? ratio.toFixed(2) : "";
  };
  const rows = comparisons
    .map(
      (c) =>
        `<tr>${[c.mode, c.payload, c.a.standard ? c.codec : `${c.codec}*`, formatNs(c.a.total.mean), formatNs(c.b.total.mean), changeText(c.total), MARK[c.total.verdict], changeText(c.serialize), changeText(c.deserialize), Number.isFinite(c.bytes) ? `${((c.bytes - 1) * 100).toFixed(1)}%` : "", vs(c.a), vs(c.b), c.vsJsonMoved].map(cell).join("")}</tr>`,
    )
    .join("\n");
  return `<section class="comparison">
<h2>B against A</h2>
<p>A: ${escapeHtml(labels[0])}<br>B: ${escapeHtml(labels[1])}</p>
<table>
<tr><th>mode</th><th>payload</th><th>codec</th><th>mean A</th><th>mean B</th><th>change [95%]</th><th></th><th>serialize change</th><th>deserialize change</th><th>bytes change</th><th>vs json A</th><th>vs json B</th><th>vs json moved</th></tr>
${rows}
</table>
<p class="note">Change: B's mean per message over A's, with its 95% interval (each run's mean and interval over its rounds); faster or slower when that interval leaves out 0, same when it holds 0. Runs made at different moments also differ by the machine's speed, which this interval does not hold; the ratio to JSON within each run does not carry it, and "vs json moved" says faster or slower only where A's and B's 95% intervals of that ratio are apart.</p>
</section>`;
}

/**
 * B's ratio to JSON over A's, with its 95% interval: the two runs' intervals (each on the log
 * scale, its wider side) combined as independent errors. Undefined without both intervals.
 */
export function slowdown(a: Estimate, b: Estimate): Change | undefined {
  const half = (e: Estimate): number => Math.max(Math.log(e.high / e.value), Math.log(e.value / e.low));
  const value = b.value / a.value;
  const h = Math.hypot(half(a), half(b));
  if (!Number.isFinite(h) || !Number.isFinite(value)) return undefined;
  const low = value * Math.exp(-h);
  const high = value * Math.exp(h);
  return { value, low, high, verdict: high < 1 ? "faster" : low > 1 ? "slower" : "same" };
}

/**
 * `bun run report A B --fail-if-slower PCT`: the cases of B slower than A's by more than `pct`
 * percent, beyond doubt. Every codec but json by its ratio to JSON within each run, which does not
 * carry the machine's speed: failed where the whole 95% interval of B's ratio over A's (slowdown)
 * lies above 1 + PCT. The codecs in `timeOf` (--time-of) also by their own time per message
 * (the interval of B/A above 1, and B/A above 1 + PCT): json's, say, on runs made on one machine.
 */
export function slowerCases(comparisons: readonly CaseChange[], pct: number, timeOf: readonly string[] = []): string[] {
  const limit = 1 + pct / 100;
  const out: string[] = [];
  for (const c of comparisons) {
    const name = `${c.mode} ${c.payload} ${c.codec}`;
    const ra = c.a.ratios?.vsJson;
    const rb = c.b.ratios?.vsJson;
    const moved = c.codec !== "json" && ra && rb ? slowdown(ra, rb) : undefined;
    if (moved && moved.low > limit) {
      out.push(
        `${name}: ratio to json ${fixed(ra!.value)} [${fixed(ra!.low)}, ${fixed(ra!.high)}] -> ${fixed(rb!.value)} [${fixed(rb!.low)}, ${fixed(rb!.high)}], ${changeText(moved)}`,
      );
    }
    if (timeOf.includes(c.codec) && c.total.verdict === "slower" && c.total.value > limit) {
      out.push(
        `${name}: mean time per message ${formatNs(c.a.total.mean)} -> ${formatNs(c.b.total.mean)}, ${changeText(c.total)}`,
      );
    }
  }
  return out;
}
