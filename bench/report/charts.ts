/**
 * chart.js configurations for a set of results, per payload: serialize,
 * deserialize and total time per message; bytes; round-trip percentiles;
 * stream messages per second. Each source (Bun in process, the Bun client,
 * a browser, a loaded file) gets its own bars, side by side. The configs are
 * plain JSON, so the page and the offline report (report.html) draw the
 * same charts.
 */

import { PAYLOAD_NAMES } from "../../protocols/messages.ts";
import type { ChartRow } from "./rows.ts";

export interface ChartSpec {
  id: string;
  payload: string;
  title: string;
  config: {
    type: "bar";
    data: { labels: string[]; datasets: { label: string; data: (number | null)[]; backgroundColor: string }[] };
    options: Record<string, unknown>;
  };
}

/** One hue per metric; sources get lighter shades of it. */
const HUES: Record<string, number> = { serialize: 210, deserialize: 150, total: 30, bytes: 270, p50: 190, p99: 350, msgs: 40 };

function color(metric: string, sourceIndex: number): string {
  const lightness = Math.min(40 + sourceIndex * 15, 80);
  return `hsl(${HUES[metric] ?? 0}, 65%, ${lightness}%)`;
}

function unique<T>(values: T[]): T[] {
  return [...new Set(values)];
}

function options(title: string, yTitle: string): Record<string, unknown> {
  return {
    responsive: true,
    animation: false,
    plugins: { title: { display: true, text: title }, legend: { position: "bottom" } },
    scales: { y: { beginAtZero: true, title: { display: true, text: yTitle } } },
  };
}

function spec(
  id: string,
  payload: string,
  title: string,
  yTitle: string,
  rows: ChartRow[],
  metrics: { metric: string; label: string; value: (r: ChartRow) => number }[],
  perSource = true,
): ChartSpec {
  const codecs = unique(rows.map((r) => r.codec));
  const sources = perSource ? unique(rows.map((r) => r.source)) : [rows[0]?.source ?? ""];
  const datasets = [];
  for (const m of metrics) {
    for (const [i, source] of sources.entries()) {
      datasets.push({
        label: perSource && sources.length > 1 ? `${m.label} (${source})` : m.label,
        data: codecs.map((codec) => {
          const r = rows.find((x) => x.codec === codec && x.source === source);
          const v = r ? m.value(r) : NaN;
          return Number.isFinite(v) ? Math.round(v * 1000) / 1000 : null;
        }),
        backgroundColor: color(m.metric, i),
      });
    }
  }
  const labels = codecs.map((c) => (rows.find((r) => r.codec === c)?.standard === false ? `${c}*` : c));
  return { id, payload, title, config: { type: "bar", data: { labels, datasets }, options: options(title, yTitle) } };
}

export function chartSpecs(rows: ChartRow[]): ChartSpec[] {
  const specs: ChartSpec[] = [];
  for (const payload of PAYLOAD_NAMES) {
    const of = (mode: string): ChartRow[] => rows.filter((r) => r.payload === payload && r.mode === mode);
    const codec = of("codec");
    if (codec.length > 0) {
      specs.push(
        spec(`codec-${payload}`, payload, `${payload}: time per message, in process`, "ns per message", codec, [
          { metric: "serialize", label: "serialize", value: (r) => r.serializeNs },
          { metric: "deserialize", label: "deserialize", value: (r) => r.deserializeNs },
          { metric: "total", label: "total", value: (r) => r.totalNs },
        ]),
      );
    }
    const anyRows = rows.filter((r) => r.payload === payload && Number.isFinite(r.bytes) && r.codec !== "raw");
    if (anyRows.length > 0) {
      const first = new Map<string, ChartRow>();
      for (const r of anyRows) if (!first.has(r.codec)) first.set(r.codec, r);
      specs.push(spec(`bytes-${payload}`, payload, `${payload}: bytes per message`, "bytes", [...first.values()], [{ metric: "bytes", label: "bytes", value: (r) => r.bytes }], false));
    }
    const rt = of("roundtrip");
    if (rt.length > 0) {
      specs.push(
        spec(`roundtrip-${payload}`, payload, `${payload}: round-trip latency (one message in flight)`, "µs", rt, [
          { metric: "p50", label: "p50", value: (r) => r.rttP50Ns / 1000 },
          { metric: "p99", label: "p99", value: (r) => r.rttP99Ns / 1000 },
        ]),
      );
    }
    const st = of("stream");
    if (st.length > 0) {
      specs.push(spec(`stream-${payload}`, payload, `${payload}: stream throughput`, "messages per second", st, [{ metric: "msgs", label: "msgs/s", value: (r) => r.msgsPerS }]));
    }
  }
  return specs;
}
