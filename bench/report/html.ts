/**
 * The offline report: one self-contained HTML file with chart.js inlined and
 * the figures embedded, the same charts as the page (bench/report/charts.ts),
 * and a table. It opens straight from disk with no network.
 */

import type { ChartRow } from "./rows.ts";
import { chartSpecs } from "./charts.ts";

/** JSON safe inside <script>: no "</script>", no "<!--". */
function scriptJson(value: unknown): string {
  return JSON.stringify(value).replaceAll("<", "\\u003c");
}

function escapeHtml(s: string): string {
  return s.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;").replaceAll('"', "&quot;");
}

function cell(v: number, digits = 1): string {
  return Number.isFinite(v) ? v.toFixed(digits) : "";
}

export function reportHtml(rows: ChartRow[], chartJsSource: string, subtitle: string): string {
  const specs = chartSpecs(rows);
  const figures = specs.map((s) => `<figure><canvas id="chart-${escapeHtml(s.id)}" data-payload="${escapeHtml(s.payload)}"></canvas></figure>`).join("\n");
  const tableRows = rows
    .map(
      (r) =>
        `<tr><td>${escapeHtml(r.source)}</td><td>${escapeHtml(r.mode)}</td><td>${escapeHtml(r.payload)}</td><td>${escapeHtml(r.standard ? r.codec : `${r.codec}*`)}</td>` +
        `<td>${cell(r.bytes, 0)}</td><td>${cell(r.serializeNs)}</td><td>${cell(r.deserializeNs)}</td><td>${cell(r.totalNs)}</td>` +
        `<td>${cell(r.rttP50Ns / 1000, 2)}</td><td>${cell(r.rttP99Ns / 1000, 2)}</td><td>${cell(r.msgsPerS, 0)}</td></tr>`,
    )
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
table { border-collapse: collapse; font-size: 0.85rem; width: 100%; margin-top: 1.5rem; }
th, td { border-bottom: 1px solid #e2e6eb; padding: 0.25rem 0.5rem; text-align: right; white-space: nowrap; }
th:nth-child(-n+4), td:nth-child(-n+4) { text-align: left; }
</style>
</head>
<body>
<h1>WebSocket serialization benchmark</h1>
<p>${escapeHtml(subtitle)}</p>
<section class="charts">
${figures}
</section>
<table>
<tr><th>source</th><th>mode</th><th>payload</th><th>codec</th><th>bytes</th><th>serialize ns</th><th>deserialize ns</th><th>total ns</th><th>rtt p50 µs</th><th>rtt p99 µs</th><th>msgs/s</th></tr>
${tableRows}
</table>
<p>* non-standard (msgpackr records). Times per message, means of the runs; total is serialize + deserialize in process, the round-trip time in roundtrip mode, wall time per message in stream mode.</p>
<script>
${chartJsSource.replaceAll("</script", "<\\/script")}
</script>
<script>
const specs = ${scriptJson(specs)};
for (const s of specs) new Chart(document.getElementById("chart-" + s.id), s.config);
</script>
</body>
</html>
`;
}
