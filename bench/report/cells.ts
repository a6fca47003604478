/**
 * A case as table cells, for the page's table: its bytes, times (the median of the rounds, the
 * figure its ratios use, with the 95% interval of the total's; then the mean, collections
 * included), its ratio to JSON with that ratio's interval, the link it crossed (--link) and
 * what the link did to it, and its flags. report.html's table
 * shows the same columns with plain numbers (bench/report/html.ts).
 */
import type { CaseResult } from "../../client/harness/results.ts";
import { codecLabel, formatNs } from "./format.ts";
import type { SourcedCase } from "./sources.ts";
import { linkCellText } from "./link-use.ts";

export const ROW_HEAD = [
  "source",
  "mode",
  "payload",
  "codec",
  "bytes",
  "serialize",
  "deserialize",
  "total / rtt",
  "95% interval",
  "mean+gc",
  "vs json [95%]",
  "p99 rtt / latency",
  "msgs/s",
  "link",
  "flags",
];

/** A median's 95% interval as "1.20-1.26 µs"; "" where there is none (below 6 rounds, or a file from before). */
function medianIntervalText(s: { medianLow: number; medianHigh: number }): string {
  return Number.isFinite(s.medianLow) && Number.isFinite(s.medianHigh)
    ? `${formatNs(s.medianLow)}-${formatNs(s.medianHigh)}`
    : "";
}

/** "1.00" for JSON itself, "≈0.98 [0.95-1.02]" when the interval holds 1, "" when there is no ratio; route mode: the server's CPU forwarding. */
export function vsJsonText(c: CaseResult): string {
  if (c.codec === "json") return "1.00";
  const r = c.mode === "route" ? c.ratios?.routeVsJson : c.ratios?.vsJson;
  if (!r || !Number.isFinite(r.ratio)) return "";
  const interval =
    Number.isFinite(r.low) && Number.isFinite(r.high) && r.low !== r.high
      ? ` [${r.low.toFixed(2)}-${r.high.toFixed(2)}]`
      : "";
  const tie = r.low <= 1 && 1 <= r.high ? "≈" : "";
  return `${tie}${r.ratio.toFixed(2)}${interval}`;
}

const count = (n: number): string => (Number.isFinite(n) ? Math.round(n).toLocaleString("en-US") : "-");

/** The cells of one case, in ROW_HEAD's order; "-" where the mode has no such figure. */
export function rowCells({ source, case: c }: SourcedCase): string[] {
  return [
    source,
    c.mode,
    c.payload,
    codecLabel(c),
    count(c.bytes),
    formatNs(c.serialize.median),
    formatNs(c.deserialize.median),
    formatNs(c.total.median),
    medianIntervalText(c.total) || "-",
    formatNs(c.total.mean),
    vsJsonText(c) || "-",
    formatNs((c.socket?.latency ?? c.socket?.rtt)?.p99 ?? NaN),
    count(c.msgsPerS),
    linkCellText(c) || "-",
    c.flags.join(", "),
  ];
}
