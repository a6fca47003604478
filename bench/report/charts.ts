/**
 * chart.js configurations for a set of results, per payload: serialize,
 * deserialize and total time per message, the median of the rounds with its
 * 95% interval (the figure the ratios and the verdict use); bytes;
 * round-trip time; stream messages per second; latency mode's latency
 * against rate and percentile spectrum (latency-charts.ts). Each source (a runtime,
 * a browser, a loaded file) gets its own bars, side by side, and a chart
 * whose sources differ more than tenfold gets a logarithmic axis so the
 * smaller stays readable. The configs are plain JSON, so the page and the
 * offline report (report.html) draw the same charts; both register
 * `errorBarsPlugin`, which draws the intervals.
 */

import { CODEC_FAMILIES } from "../../protocols/codec.ts";
import { codecLabel } from "./format.ts";
import { orderPayloads } from "../../protocols/messages.ts";
import { BUILT_IN } from "../../protocols/registry.ts";
import { RAW_CODEC_NAME } from "../../protocols/contract.ts";
import { round3, unique, type ChartSpec } from "./chart-spec.ts";
import { latencySpecs } from "./latency-charts.ts";
import type { SourcedCase } from "./sources.ts";
import type { Summary } from "../../client/harness/statistics.ts";
import type { CaseResult, Estimate } from "../../client/harness/results.ts";

/** One hue per metric; sources get lighter shades of it. */
const HUES: Record<string, number> = {
  serialize: 210,
  deserialize: 150,
  total: 30,
  bytes: 270,
  deflate: 300,
  stream: 330,
  zstd: 110,
  p50: 190,
  p99: 350,
  msgs: 40,
  field: 20,
  echo: 250,
  first: 0,
  first100: 60,
  first1000: 90,
};

function color(metric: string, sourceIndex: number): string {
  const lightness = Math.min(40 + sourceIndex * 15, 80);
  return `hsl(${HUES[metric] ?? 0}, 65%, ${lightness}%)`;
}

function options(title: string, yTitle: string, log: boolean): Record<string, unknown> {
  return {
    responsive: true,
    animation: false,
    plugins: { title: { display: true, text: title }, legend: { position: "bottom" } },
    scales: {
      // Every codec named; chart.js tilts the names only when they would overlap.
      x: { ticks: { autoSkip: false, maxRotation: 45 } },
      y: log
        ? { type: "logarithmic", title: { display: true, text: `${yTitle} (log scale)` } }
        : { beginAtZero: true, title: { display: true, text: yTitle } },
    },
  };
}

/** Sources this far apart (largest value over smallest) share a logarithmic axis. */
const LOG_SCALE_SPREAD = 10;

interface Metric {
  metric: string;
  label: string;
  value: (r: SourcedCase) => number;
  /** The 95% interval of the value, drawn as a bar. */
  interval?: (r: SourcedCase) => [number, number] | undefined;
}

/**
 * A codec's family as its cases record it (a codec module's as it declares it), else the
 * built-in's; "yours" for a codec module that names none.
 */
function familyOf(codec: string, rows: readonly SourcedCase[] = []): string {
  return (
    rows.find((r) => r.case.codec === codec && r.case.family !== undefined)?.case.family ??
    BUILT_IN.get(codec)?.family ??
    (codec === RAW_CODEC_NAME ? "transport" : "yours")
  );
}
const FAMILY_ORDER: readonly string[] = ["transport", ...CODEC_FAMILIES, "yours"];

/**
 * The chart's codecs grouped by family (text, schema, schema-less,
 * zero-copy, then the user's own), best first within each by `key` (lower
 * is better) of the first source's cases, so sixteen bars still read. The
 * order is taken over `across`, the cases of this kind of chart on every
 * payload (each payload's figures against its best), so a codec keeps its
 * place from one payload's chart to the next.
 */
function orderCodecs(
  rows: readonly SourcedCase[],
  key: (r: SourcedCase) => number,
  across: readonly SourcedCase[] = rows,
): string[] {
  const codecs = unique(rows.map((r) => r.case.codec));
  const source = rows[0]?.source;
  const ofSource = across.filter((r) => r.source === source);
  const best = new Map<string, number>();
  for (const r of ofSource) {
    const v = key(r);
    if (Number.isFinite(v) && v > 0) best.set(r.case.payload, Math.min(best.get(r.case.payload) ?? Infinity, v));
  }
  const keyOf = (codec: string): number => {
    const logs = ofSource
      .filter((r) => r.case.codec === codec)
      .map((r) => key(r) / (best.get(r.case.payload) ?? NaN))
      .filter((x) => Number.isFinite(x) && x > 0)
      .map(Math.log);
    return logs.length > 0 ? logs.reduce((a, b) => a + b, 0) / logs.length : Number.POSITIVE_INFINITY;
  };
  return codecs.sort(
    (a, b) => FAMILY_ORDER.indexOf(familyOf(a, rows)) - FAMILY_ORDER.indexOf(familyOf(b, rows)) || keyOf(a) - keyOf(b),
  );
}

function spec(
  id: string,
  payload: string,
  title: string,
  yTitle: string,
  rows: SourcedCase[],
  metrics: Metric[],
  perSource: boolean,
  nameSources: boolean,
  key: (r: SourcedCase) => number,
  across: readonly SourcedCase[] = rows,
  /** A logarithmic axis whatever the sources: figures that span orders of magnitude by nature (cold mode's first message and its thousandth). */
  logAxis = false,
): ChartSpec {
  const codecs = orderCodecs(rows, key, across);
  const sources = perSource ? unique(rows.map((r) => r.source)) : [rows[0]?.source ?? ""];
  const datasets = [];
  const values: number[] = [];
  for (const m of metrics) {
    for (const [i, source] of sources.entries()) {
      const of = codecs.map((codec) => rows.find((x) => x.case.codec === codec && (!perSource || x.source === source)));
      const data = of.map((r) => {
        const v = r ? m.value(r) : NaN;
        if (Number.isFinite(v) && v > 0) values.push(v);
        return Number.isFinite(v) ? round3(v) : null;
      });
      const bars = m.interval
        ? of.map((r) => {
            const iv = r && m.interval!(r);
            return iv && Number.isFinite(iv[0]) && Number.isFinite(iv[1])
              ? ([round3(Math.max(iv[0], 0)), round3(iv[1])] as [number, number])
              : null;
          })
        : undefined;
      datasets.push({
        // With several sources on the page, every legend names its source, even where only one has figures.
        label: perSource && nameSources ? `${m.label}, ${source}` : m.label,
        data,
        backgroundColor: color(m.metric, i),
        ...(bars && bars.some((b) => b !== null) ? { errorBars: bars } : {}),
      });
    }
  }
  const log =
    logAxis ||
    (sources.length > 1 && values.length > 1 && Math.max(...values) / Math.min(...values) > LOG_SCALE_SPREAD);
  // Marked as every table marks it: * non-standard, ! lossy on these messages.
  const name = (c: string): string => {
    const of = rows.find((r) => r.case.codec === c)?.case;
    return of ? codecLabel(of) : c;
  };
  // With more than one family on the chart, each bar names its family on a second line.
  const families = unique(codecs.map((c) => familyOf(c, rows)));
  const labels = codecs.map((c) => (families.length > 1 ? [name(c), familyOf(c, rows)] : name(c)));
  return {
    id,
    payload,
    title,
    config: { type: "bar", data: { labels, datasets }, options: options(title, yTitle, log) },
  };
}

/** A median's 95% interval, scaled (µs from ns: 1/1000); undefined below 6 rounds, where none exists. */
const medianInterval = (s: Summary, scale = 1): [number, number] | undefined =>
  Number.isFinite(s.medianLow) && Number.isFinite(s.medianHigh)
    ? [s.medianLow * scale, s.medianHigh * scale]
    : undefined;

/**
 * A chart.js plugin that draws each dataset's `errorBars` (one [low, high]
 * per bar) as a whisker over its bar. Self-contained, so report.html can
 * carry its source text as it is.
 */
export const errorBarsPlugin = {
  id: "errorBars",
  afterDatasetsDraw(chart: {
    ctx: CanvasRenderingContext2D;
    data: { datasets: { errorBars?: ([number, number] | null)[] }[] };
    getDatasetMeta(i: number): { hidden: boolean | null; data: { x: number; width?: number }[] };
    isDatasetVisible(i: number): boolean;
    scales: Record<string, { getPixelForValue(v: number): number }>;
    chartArea: { left: number; top: number; right: number; bottom: number };
  }): void {
    const ctx = chart.ctx;
    const y = chart.scales.y;
    if (!y) return;
    const area = chart.chartArea;
    ctx.save();
    // An interval reaching past the axis (below zero on a log scale, or off the top) stops at its edge, uncapped there.
    ctx.beginPath();
    ctx.rect(area.left, area.top, area.right - area.left, area.bottom - area.top);
    ctx.clip();
    ctx.strokeStyle = "#1b1f24";
    ctx.lineWidth = 1;
    chart.data.datasets.forEach((dataset, i) => {
      if (!dataset.errorBars || !chart.isDatasetVisible(i)) return;
      const bars = chart.getDatasetMeta(i).data;
      dataset.errorBars.forEach((bar, j) => {
        const element = bars[j];
        if (!bar || !element) return;
        const x = element.x;
        const top = Math.max(area.top, y.getPixelForValue(bar[1]));
        const low = bar[0] > 0 ? y.getPixelForValue(bar[0]) : Number.POSITIVE_INFINITY;
        const bottom = Number.isFinite(low) ? Math.min(area.bottom, low) : area.bottom;
        const cap = Math.min(6, (element.width ?? 12) / 3);
        ctx.beginPath();
        ctx.moveTo(x, top);
        ctx.lineTo(x, bottom);
        if (top > area.top) {
          ctx.moveTo(x - cap, top);
          ctx.lineTo(x + cap, top);
        }
        if (bottom < area.bottom) {
          ctx.moveTo(x - cap, bottom);
          ctx.lineTo(x + cap, bottom);
        }
        ctx.stroke();
      });
    });
    ctx.restore();
  },
};

/** Bytes per message compressed (codec mode from the CLI); NaN where the case has none. */
const compressed = (r: SourcedCase, size: "deflateBytes" | "deflateContextBytes" | "zstdBytes"): number =>
  r.case.compression?.[size] ?? NaN;

export function chartSpecs(rows: readonly SourcedCase[]): ChartSpec[] {
  const specs: ChartSpec[] = [];
  const named = unique(rows.map((r) => r.source)).length > 1;
  // Each kind of chart's cases on every payload: what its codec order is taken over.
  const inMode = (mode: string): SourcedCase[] => rows.filter((r) => r.case.mode === mode);
  const sized = rows.filter((r) => Number.isFinite(r.case.bytes) && r.case.codec !== "raw");
  for (const payload of orderPayloads(rows.map((r) => r.case.payload))) {
    const of = (mode: string): SourcedCase[] => rows.filter((r) => r.case.payload === payload && r.case.mode === mode);
    const codec = of("codec");
    if (codec.length > 0) {
      specs.push(
        spec(
          `codec-${payload}`,
          payload,
          `${payload}: time per message, in process (median of the rounds, 95% interval)`,
          "ns per message",
          codec,
          [
            {
              metric: "serialize",
              label: "serialize",
              value: (r) => r.case.serialize.median,
              interval: (r) => medianInterval(r.case.serialize),
            },
            {
              metric: "deserialize",
              label: "deserialize",
              value: (r) => r.case.deserialize.median,
              interval: (r) => medianInterval(r.case.deserialize),
            },
            {
              metric: "total",
              label: "total",
              value: (r) => r.case.total.median,
              interval: (r) => medianInterval(r.case.total),
            },
          ],
          true,
          named,
          (r) => r.case.total.median,
          inMode("codec"),
        ),
      );
    }
    const cold = of("cold").filter((r) => r.case.cold !== undefined);
    if (cold.length > 0) {
      const first = (
        metric: string,
        label: string,
        pick: (c: NonNullable<CaseResult["cold"]>) => Summary | undefined,
      ): Metric => ({
        metric,
        label,
        value: (r) => (r.case.cold && pick(r.case.cold)?.median) ?? NaN,
        interval: (r) => {
          const s = r.case.cold && pick(r.case.cold);
          return s ? medianInterval(s) : undefined;
        },
      });
      const firsts = [
        first("first", "first message", (c) => c.first),
        first("first100", "mean of the first 100", (c) => c.first100),
        first("first1000", "mean of the first 1,000", (c) => c.first1000),
      ];
      specs.push(
        spec(
          `cold-${payload}`,
          payload,
          `${payload}: a fresh process's first messages, ns per message (median of the processes, 95% interval; log scale)`,
          "ns per message",
          cold,
          firsts,
          true,
          named,
          (r) => r.case.cold!.first.median,
          inMode("cold"),
          true,
        ),
      );
    }
    const anyRows = rows.filter(
      (r) => r.case.payload === payload && Number.isFinite(r.case.bytes) && r.case.codec !== "raw",
    );
    if (anyRows.length > 0) {
      // One case per codec, one with compressed sizes where a run measured them.
      const first = new Map<string, SourcedCase>();
      const inStream = (r: SourcedCase): boolean => Number.isFinite(compressed(r, "deflateContextBytes"));
      for (const r of anyRows)
        if (!first.has(r.case.codec) || (inStream(r) && !inStream(first.get(r.case.codec)!)))
          first.set(r.case.codec, r);
      const picked = [...first.values()];
      const anyCompressed = picked.some(inStream);
      specs.push(
        spec(
          `bytes-${payload}`,
          payload,
          `${payload}: bytes per message${anyCompressed ? " (and compressed: deflate alone, in a stream; zstd)" : ""}`,
          "bytes",
          picked,
          [
            { metric: "bytes", label: "bytes", value: (r) => r.case.bytes },
            ...(anyCompressed
              ? [
                  {
                    metric: "deflate",
                    label: "deflate alone",
                    value: (r: SourcedCase) => compressed(r, "deflateBytes"),
                  },
                  {
                    metric: "stream",
                    label: "deflate in a stream",
                    value: (r: SourcedCase) => compressed(r, "deflateContextBytes"),
                  },
                  { metric: "zstd", label: "zstd", value: (r: SourcedCase) => compressed(r, "zstdBytes") },
                ]
              : []),
          ],
          false,
          false,
          (r) => r.case.bytes,
          sized,
        ),
      );
    }
    const rt = of("roundtrip");
    if (rt.length > 0) {
      specs.push(
        spec(
          `roundtrip-${payload}`,
          payload,
          `${payload}: round-trip time, one message in flight (median of the rounds, 95% interval; p50 and p99 of every message)`,
          "µs",
          rt,
          [
            {
              metric: "total",
              label: "median of the rounds",
              value: (r) => r.case.total.median / 1000,
              interval: (r) => medianInterval(r.case.total, 1 / 1000),
            },
            { metric: "p50", label: "p50", value: (r) => (r.case.socket?.rtt?.p50 ?? NaN) / 1000 },
            { metric: "p99", label: "p99", value: (r) => (r.case.socket?.rtt?.p99 ?? NaN) / 1000 },
          ],
          true,
          named,
          (r) => r.case.total.median,
          inMode("roundtrip"),
        ),
      );
    }
    const st = of("stream");
    if (st.length > 0) {
      specs.push(
        spec(
          `stream-${payload}`,
          payload,
          `${payload}: stream throughput (from the median of the rounds' time per message, 95% interval)`,
          "messages per second",
          st,
          [
            {
              metric: "msgs",
              label: "msgs/s",
              value: (r) => 1e9 / r.case.total.median,
              // From the interval of the time per message: 1e9 over its ends.
              interval: ({ case: { total } }) =>
                total.medianLow > 0 && Number.isFinite(total.medianHigh)
                  ? [1e9 / total.medianHigh, 1e9 / total.medianLow]
                  : undefined,
            },
          ],
          true,
          named,
          (r) => r.case.total.median,
          inMode("stream"),
        ),
      );
    }
    specs.push(...latencySpecs(of("latency"), payload));
    const field = fieldSpec(rows, payload, named);
    if (field) specs.push(field);
  }
  return specs;
}

/** A ratio's interval as a bar, where it has one. */
const ratioInterval = (r: Estimate | undefined): [number, number] | undefined =>
  r && Number.isFinite(r.low) && Number.isFinite(r.high) ? [r.low, r.high] : undefined;

/**
 * The server's figure beside the lab's, the pair the verdict's server line quotes: each codec's
 * time per message inside the server (field: every message's decode + encode timed, in stream
 * mode where it ran, else roundtrip) and in the lab (codec mode's echo), both as ratios to
 * json's, with their 95% intervals.
 */
function fieldSpec(rows: readonly SourcedCase[], payload: string, named: boolean): ChartSpec | undefined {
  for (const mode of ["stream", "roundtrip", "latency"]) {
    const field = rows.filter(
      (r) => r.case.payload === payload && r.case.mode === mode && r.case.ratios?.fieldVsJson !== undefined,
    );
    if (field.length === 0) continue;
    const echo = (r: SourcedCase): Estimate | undefined =>
      rows.find(
        (x) =>
          x.source === r.source &&
          x.case.mode === "codec" &&
          x.case.payload === payload &&
          x.case.codec === r.case.codec &&
          x.case.verified,
      )?.case.ratios?.echoVsJson;
    return spec(
      `field-${payload}`,
      payload,
      `${payload}: in the server (field, ${mode}) and in the lab (echo), time per message as a ratio to json's (95% interval)`,
      "x json's time",
      field,
      [
        {
          metric: "field",
          label: "in the server (field)",
          value: (r) => r.case.ratios?.fieldVsJson?.value ?? NaN,
          interval: (r) => ratioInterval(r.case.ratios?.fieldVsJson),
        },
        {
          metric: "echo",
          label: "in the lab (echo)",
          value: (r) => echo(r)?.value ?? NaN,
          interval: (r) => ratioInterval(echo(r)),
        },
      ],
      true,
      named,
      (r) => r.case.ratios?.fieldVsJson?.value ?? NaN,
    );
  }
  return undefined;
}
