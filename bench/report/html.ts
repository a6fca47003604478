/**
 * The offline report: one self-contained HTML file with chart.js inlined and
 * the figures embedded, the same charts as the page (bench/report/charts.ts),
 * and a table. It opens straight from disk with no network.
 */

import type { SourcedCase } from "./sources.ts";
import { chartSpecs, errorBarsPlugin } from "./charts.ts";
import { withPercentileTicks } from "./latency-charts.ts";
import { count, formatNs, markNotes } from "./format.ts";
import { messagesText, runsText } from "./messages-line.ts";
import { caseTablesHtml, escapeHtml } from "./table-html.ts";
import { summaryLines, type BenchmarkSummary } from "./summary.ts";

/** What the report says above its charts. */
export interface ReportText {
  /** One line: which run or files. */
  subtitle: string;
  /**
   * The run's summary (summary.ts): its verdict and fidelity above the charts, the rest after the
   * table. Absent for several runs, which have no one verdict; its verdict is empty for a CSV,
   * which has no rounds to pair.
   */
  summary?: BenchmarkSummary;
  /** Why there is no verdict, when there is none. */
  noVerdict?: string;
  /** Two runs compared (bench/report/changes.ts, changeHtml), shown after the table. */
  comparison?: string;
}

/** JSON safe inside <script>: no "</script>", no "<!--". */
function scriptJson(value: unknown): string {
  return JSON.stringify(value).replaceAll("<", "\\u003c");
}

/** One line per source: its machine, clock and settings, as its run records them. */
function sourceLines(rows: readonly SourcedCase[]): string[] {
  const lines: string[] = [];
  for (const source of [...new Set(rows.map((r) => r.source))]) {
    const of = rows.filter((r) => r.source === source);
    const { run, case: c } = of[0]!;
    const m = run.environments?.[c.client] ?? run.environment;
    const clients = c.socket?.clients ?? NaN;
    const iterations = [...new Set(of.map((x) => x.case.mode))]
      .map((mode) => `${mode} ${count(of.find((x) => x.case.mode === mode)!.case.iterations)}`)
      .join(", ");
    lines.push(
      `${source}: ${m.os}, ${m.cpu} x${m.cores}; clock resolution ${formatNs(m.timerResolutionNs)}, read ${formatNs(m.timerOverheadNs)}. ` +
        `${messagesText(run.settings, [...new Set(of.map((x) => x.case.payload))])}, ${runsText(run.settings, [...new Set(of.map((x) => x.case.mode))])} per case; ` +
        `messages per run: ${iterations}; compression ${run.settings.deflate ? "on (permessage-deflate)" : "off"}` +
        `${Number.isFinite(clients) && clients > 1 ? `; ${clients} clients` : ""}.`,
    );
  }
  return lines;
}

export function reportHtml(rows: readonly SourcedCase[], chartJsSource: string, text: ReportText): string {
  const specs = chartSpecs(rows);
  const figures = specs
    .map(
      (s) =>
        `<figure><canvas id="chart-${escapeHtml(s.id)}" data-payload="${escapeHtml(s.payload)}"></canvas></figure>`,
    )
    .join("\n");
  // What * and ! mean, said of the codecs on this report that carry them.
  const notes = markNotes(rows.map((r) => r.case));
  const marks = [notes.nonStandard, notes.lossy]
    .filter((n) => n !== undefined)
    .map((n) => `<p>${escapeHtml(n)}</p>\n`)
    .join("");
  const verdictLines = text.summary?.verdict ?? [];
  const verdict =
    verdictLines.length > 0
      ? `<section class="verdict"><pre>${escapeHtml(verdictLines.join("\n"))}</pre></section>`
      : text.noVerdict
        ? `<p class="note">${escapeHtml(text.noVerdict)}</p>`
        : "";
  const block = (lines: readonly string[]): string =>
    lines.length > 0 ? `<section class="verdict"><pre>${escapeHtml(lines.join("\n").trim())}</pre></section>` : "";
  const fidelity = block(text.summary?.fidelity ?? []);
  const labField = block(
    text.summary ? summaryLines(text.summary, ["labField", "calibration", "patterns", "route", "load", "evolve"]) : [],
  );
  const sources = sourceLines(rows)
    .map((l) => `<li>${escapeHtml(l)}</li>`)
    .join("\n");
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>WebSocket serialization benchmark: report</title>
<style>
body { font-family: system-ui, sans-serif; max-width: 1200px; margin: 0 auto; padding: 1rem 1.5rem 3rem; color: #1b1f24; }
.charts { display: grid; grid-template-columns: repeat(auto-fit, minmax(520px, 1fr)); gap: 1rem; }
figure { margin: 0; border: 1px solid #e2e6eb; border-radius: 6px; padding: 0.5rem; }
.table-scroll { overflow-x: auto; max-width: 100%; margin-top: 1.5rem; }
table { border-collapse: collapse; font-size: 0.85rem; width: 100%; margin-bottom: 1rem; }
caption { text-align: left; font-weight: 600; padding: 0.25rem 0; }
th, td { border-bottom: 1px solid #e2e6eb; padding: 0.25rem 0.3rem; text-align: right; white-space: nowrap; }
/* The case tables fit 1,280 px: headers wrap between words, a figure only before its interval (table-html.ts). */
table.cases { font-size: 0.8rem; }
table.cases th { white-space: normal; vertical-align: bottom; }
table.cases td.wraps { white-space: normal; }
table.cases td.wraps span { white-space: nowrap; }
th:first-child, td:first-child { text-align: left; }
.verdict pre { background: #f3f6f9; border: 1px solid #d5dbe1; border-radius: 6px; padding: 0.75rem 1rem; font-size: 0.9rem; white-space: pre-wrap; }
.sources { font-size: 0.85rem; color: #3d444d; padding-left: 1.2rem; }
.note { color: #3d444d; }
</style>
</head>
<body>
<h1>WebSocket serialization benchmark</h1>
<p>${escapeHtml(text.subtitle)}</p>
${verdict}
${fidelity}
<ul class="sources">
${sources}
</ul>
<section class="charts">
${figures}
</section>
<div class="table-scroll">
<p class="note">Times per message: the median of the rounds, the figure every ratio and the verdict use; mean+gc: the mean, every message, collections included.</p>
${caseTablesHtml(rows)}
</div>
${labField}
${text.comparison ?? ""}
${marks}<p>Times per message: the median of the rounds with its 95% interval (the whiskers on the charts); total is serialize + deserialize in process, the round-trip time in roundtrip mode, wall time per message in stream mode. "vs json": total time against json's, paired round by round, with its 95% interval (with several processes, each process one estimate of it); ≈ when that interval holds 1, † when it is wider than the precision the benchmark asked for.</p>
<script>
${chartJsSource.replaceAll("</script", "<\\/script")}
</script>
<script>
const errorBarsPlugin = ${objectSource(errorBarsPlugin)};
Chart.register(errorBarsPlugin);
const specs = ${scriptJson(specs)};
const withPercentileTicks = ${withPercentileTicks.toString()};
for (const s of specs) new Chart(document.getElementById("chart-" + s.id), withPercentileTicks(s.config));
</script>
</body>
</html>
`;
}

/** The plugin object as JavaScript source: its id and its one method. */
function objectSource(plugin: typeof errorBarsPlugin): string {
  const method = plugin.afterDatasetsDraw.toString();
  return `{ id: ${JSON.stringify(plugin.id)}, ${method.startsWith("afterDatasetsDraw") ? method : `afterDatasetsDraw: ${method}`} }`;
}
