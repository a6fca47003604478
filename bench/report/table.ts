/**
 * The summary table printed at the end of a run: one block per payload,
 * one line per codec, means with the 95% confidence interval, and the ratio
 * to JSON. Where a codec's interval overlaps JSON's, the ratio is marked "≈"
 * and the text does not call either faster.
 */

import type { BenchResults, CaseResult } from "../results.ts";
import { intervalsOverlap } from "../stats.ts";
import { jsonBaseline, pairedRatio } from "../compare.ts";
import { PAYLOAD_NAMES } from "../payloads.ts";

/** A duration in ns with a sensible unit. */
export function formatNs(ns: number): string {
  if (!Number.isFinite(ns)) return "-";
  if (ns < 1000) return `${ns.toFixed(ns < 10 ? 2 : 1)} ns`;
  if (ns < 1e6) return `${(ns / 1e3).toFixed(2)} µs`;
  return `${(ns / 1e6).toFixed(2)} ms`;
}

function pad(s: string, width: number, right = false): string {
  const len = [...s].length;
  return len >= width ? s : right ? " ".repeat(width - len) + s : s + " ".repeat(width - len);
}

/**
 * Total time relative to json, paired run by run (bench/compare.ts). Marked
 * "≈" whenever the two codecs' confidence intervals overlap, so the table
 * never calls a codec faster than the data can show.
 */
function ratioText(c: CaseResult, json: CaseResult | undefined): string {
  if (!json) return "";
  if (c === json) return "1.00";
  const ratio = pairedRatio(c, json);
  if (!ratio) return "";
  return intervalsOverlap(c.total, json.total) ? `≈${ratio.ratio.toFixed(2)}` : `${ratio.ratio.toFixed(2)}x`;
}

export function formatTable(results: BenchResults): string {
  const s = results.settings;
  const lines: string[] = [];
  lines.push(
    `Per message, mean of ${s.runs} run(s) of ${s.iterations.toLocaleString("en-US")} ${s.fixed ? "identical article" : "varied"} messages; ± is the 95% confidence interval of the mean.`,
  );
  lines.push(`"vs json": total time relative to json, paired run by run (geometric mean); ≈ means the two intervals overlap, so neither is shown faster.`);
  for (const payload of PAYLOAD_NAMES) {
    const cases = results.cases.filter((c) => c.payload === payload && c.mode === "codec");
    if (cases.length === 0) continue;
    const json = cases.find((c) => jsonBaseline(cases, c) === c);
    lines.push("");
    lines.push(`${payload}`);
    const header = [
      pad("codec", 19),
      pad("bytes", 6, true),
      pad("serialize", 12, true),
      pad("deserialize", 12, true),
      pad("total", 22, true),
      pad("vs json", 8, true),
      pad("msgs/s", 11, true),
    ].join("  ");
    lines.push(header);
    lines.push("-".repeat([...header].length));
    const sorted = [...cases].sort((a, b) => (a.verified === b.verified ? a.total.mean - b.total.mean : a.verified ? -1 : 1));
    for (const c of sorted) {
      const name = c.standard ? c.codec : `${c.codec}*`;
      if (!c.verified) {
        lines.push(`${pad(name, 19)}  FAILED: ${c.error}`);
        continue;
      }
      lines.push(
        [
          pad(name, 19),
          pad(String(Math.round(c.bytes)), 6, true),
          pad(formatNs(c.serialize.mean), 12, true),
          pad(formatNs(c.deserialize.mean), 12, true),
          pad(`${formatNs(c.total.mean)} ± ${formatNs(c.total.ci95)}`, 22, true),
          pad(ratioText(c, json), 8, true),
          pad(Math.round(c.msgsPerS).toLocaleString("en-US"), 11, true),
        ].join("  ") + (c.flags.includes("near-empty-loop") ? "  (near the empty-loop floor: check)" : ""),
      );
    }
  }
  if (results.cases.some((c) => !c.standard)) {
    lines.push("");
    lines.push("* non-standard: msgpackr records are not MessagePack that other decoders can read.");
  }
  const env = results.environment;
  lines.push("");
  lines.push(
    `${env.runtime} ${env.runtimeVersion}, ${env.os}, ${env.cpu} x${env.cores}; clock ${env.clock}: resolution ${formatNs(env.timerResolutionNs)}, read ${formatNs(env.timerOverheadNs)}`,
  );
  return lines.join("\n");
}
