/**
 * The README's figures, made from committed result files (results/sample/)
 * so that no figure in the README is typed by hand: how far apart the
 * ratios of back-to-back runs landed, per mode, and the same ratios on
 * another machine. `bun run readme-figures` prints this block and writes
 * it into the README; a test fails when the README's copy differs.
 */

import type { BenchResults, CaseResult, Environment } from "../harness/results.ts";
import type { Mode } from "../harness/settings.ts";
import { PAYLOAD_NAMES } from "../../protocols/messages.ts";
import { vsJson, vsRaw, type Comparison } from "./ratios.ts";

/** Where the README's block starts and ends. */
export const FIGURES_BEGIN = "<!-- figures:begin (bun run readme-figures writes this block from results/sample/) -->";
export const FIGURES_END = "<!-- figures:end -->";

interface View {
  mode: Mode;
  baseline: "json" | "raw";
  what: string;
}

const VIEWS: readonly View[] = [
  { mode: "codec", baseline: "json", what: "Codec mode (serialize + deserialize in process), time per message relative to JSON" },
  { mode: "roundtrip", baseline: "json", what: "Roundtrip mode, mean round-trip time relative to JSON" },
  { mode: "stream", baseline: "raw", what: "Stream mode, time per message relative to raw (the transport alone; above 1 is slower)" },
];

/** A ratio with its interval as ± percent of it (the wider side). */
function cell(c: Comparison | undefined): string {
  if (!c) return "-";
  const plusMinus = Math.max(c.high / c.ratio - 1, 1 - c.low / c.ratio);
  return `${c.ratio.toFixed(2)} ± ${(100 * plusMinus).toFixed(1)}%`;
}

function compare(view: View, c: CaseResult, cases: readonly CaseResult[]): Comparison | undefined {
  if (view.baseline === "json") return vsJson(c, cases);
  // Time relative to raw: raw's throughput ratio turned around.
  const r = vsRaw(c, cases);
  return r && { ...r, ratio: 1 / r.ratio, low: 1 / r.high, high: 1 / r.low };
}

function machineLine(env: Environment): string {
  return `${env.cpu} (${env.cores} cores, ${env.memoryGiB} GiB), ${env.runtime} ${env.runtimeVersion}, ${env.os}`;
}

/** One mode's table: a row per payload and codec, a column per run, and the largest over the smallest ratio. */
function modeTable(view: View, runs: readonly BenchResults[]): { lines: string[]; worst: number; within: number; rows: number } {
  const lines = [`| payload | codec | ${runs.map((_, i) => `run ${i + 1}`).join(" | ")} | largest / smallest |`, `|---|---|${runs.map(() => "---|").join("")}---|`];
  let worst = 1;
  let within = 0;
  let rows = 0;
  const codecs = [...new Set(runs[0]!.cases.filter((c) => c.mode === view.mode).map((c) => c.codec))].filter((c) => c !== view.baseline);
  for (const payload of PAYLOAD_NAMES) {
    for (const codec of codecs) {
      const comparisons = runs.map((r) => {
        const c = r.cases.find((x) => x.mode === view.mode && x.payload === payload && x.codec === codec);
        return c && compare(view, c, r.cases);
      });
      const ratios = comparisons.filter((c) => c !== undefined).map((c) => c.ratio);
      if (ratios.length === 0) continue;
      const spread = Math.max(...ratios) / Math.min(...ratios);
      worst = Math.max(worst, spread);
      rows++;
      if (spread <= 1.05) within++;
      lines.push(`| ${payload} | ${codec} | ${comparisons.map(cell).join(" | ")} | ${spread.toFixed(3)} |`);
    }
  }
  return { lines, worst, within, rows };
}

/**
 * The block: back-to-back `runs` (same machine, same settings), mode by
 * mode, then `other` (another machine's run) beside the first run for codec
 * mode. `names` are the files, for the reader.
 */
export function sampleFigures(runs: readonly BenchResults[], names: readonly string[], other?: { results: BenchResults; name: string }): string {
  const first = runs[0]!;
  const out: string[] = [FIGURES_BEGIN, ""];
  out.push(`${runs.length} back-to-back runs of \`bun run bench\` (${names.map((n) => `\`${n}\``).join(", ")}) on ${machineLine(first.environment)}.`);
  out.push(`Each cell: the median of the per-round ratios ± its 95% interval, within that run.`);
  for (const view of VIEWS) {
    if (!first.cases.some((c) => c.mode === view.mode)) continue;
    const t = modeTable(view, runs);
    out.push("", `${view.what}: ${t.within} of ${t.rows} ratios within 1.05x across the runs, the widest ${t.worst.toFixed(3)}x apart.`, "", ...t.lines);
  }
  if (other) {
    const view = VIEWS[0]!;
    out.push("", `The same ratios (codec mode, relative to JSON) on another machine: ${machineLine(other.results.environment)}, \`${other.name}\`, measured before codec mode ran in interleaved rounds (3 whole runs per codec, geometric mean of the per-run ratios):`, "");
    out.push(`| payload | codec | ${first.environment.cpu}, run 1 | ${other.results.environment.cpu} |`, "|---|---|---|---|");
    for (const payload of PAYLOAD_NAMES) {
      for (const c of first.cases.filter((x) => x.mode === "codec" && x.payload === payload && x.codec !== "json")) {
        const o = other.results.cases.find((x) => x.mode === "codec" && x.payload === payload && x.codec === c.codec);
        out.push(`| ${payload} | ${c.codec} | ${cell(compare(view, c, first.cases))} | ${cell(o && compare(view, o, other.results.cases))} |`);
      }
    }
  }
  out.push("", FIGURES_END);
  return out.join("\n");
}

/** The README with its figures block replaced; throws when the markers are missing. */
export function withFigures(readme: string, block: string): string {
  const begin = readme.indexOf(FIGURES_BEGIN);
  const end = readme.indexOf(FIGURES_END);
  if (begin < 0 || end < begin) throw new Error(`the README has no figures block (${FIGURES_BEGIN} ... ${FIGURES_END})`);
  return readme.slice(0, begin) + block + readme.slice(end + FIGURES_END.length);
}
