/**
 * A chart row as table cells, for the page's table: its bytes, times, the 95% interval of its
 * total, its ratio to JSON with that ratio's interval, and its flags. report.html's table shows
 * the same columns with plain numbers (bench/report/html.ts).
 */
import { codecLabel, formatNs } from "./format.ts";
import type { ChartRow } from "./rows.ts";

export const ROW_HEAD = ["source", "mode", "payload", "codec", "bytes", "serialize", "deserialize", "total / rtt", "± 95%", "vs json [95%]", "p99 rtt", "msgs/s", "flags"];

/** "1.00" for JSON itself, "≈0.98 [0.95-1.02]" when the interval holds 1, "" when there is no ratio. */
export function vsJsonText(r: ChartRow): string {
  if (r.codec === "json") return "1.00";
  if (!Number.isFinite(r.vsJson)) return "";
  const interval = Number.isFinite(r.vsJsonLow) && Number.isFinite(r.vsJsonHigh) && r.vsJsonLow !== r.vsJsonHigh ? ` [${r.vsJsonLow.toFixed(2)}-${r.vsJsonHigh.toFixed(2)}]` : "";
  const tie = r.vsJsonLow <= 1 && 1 <= r.vsJsonHigh ? "≈" : "";
  return `${tie}${r.vsJson.toFixed(2)}${interval}`;
}

const count = (n: number): string => (Number.isFinite(n) ? Math.round(n).toLocaleString("en-US") : "-");

/** The cells of one row, in ROW_HEAD's order; "-" where the mode has no such figure. */
export function rowCells(r: ChartRow): string[] {
  return [
    r.source,
    r.mode,
    r.payload,
    codecLabel(r),
    count(r.bytes),
    formatNs(r.serializeNs),
    formatNs(r.deserializeNs),
    formatNs(r.totalNs),
    Number.isFinite(r.totalCi95Ns) ? formatNs(r.totalCi95Ns) : "-",
    vsJsonText(r) || "-",
    formatNs(r.rttP99Ns),
    count(r.msgsPerS),
    r.flags.join(", "),
  ];
}
