/**
 * Latency mode's charts, per payload:
 * - latency against rate (run at several rates): one line per codec for p50 (solid) and one for
 *   p99 (dashed), both corrected (from each message's due time), on log axes; a point where the
 *   client fell short of the rate (flag `below-rate`) is drawn as a cross, since its latency is
 *   that of a lighter load. At a single rate, bars of p50 / p99 / p99.9 per codec instead.
 * - the percentile spectrum, HdrHistogram's usual picture: latency against 1 / (1 - percentile)
 *   on a log axis (2 = 50%, 10 = 90%, 100 = 99%, ...), one line per codec, at the highest rate every
 *   codec of the payload kept (so they compare at the same load), else the lowest rate run. Its
 *   points are the percentiles every results file carries (p50 to p99.99 and max, the max at the
 *   sample count), only those the samples can resolve.
 * Configs are plain JSON; `withPercentileTicks` (self-contained, so report.html can carry its source)
 * labels the spectrum's axis in percent.
 */

import { round3, unique, type ChartDataset, type ChartSpec } from "./chart-spec.ts";
import { codecLabel } from "./format.ts";
import type { SourcedCase } from "./sources.ts";

/** A latency case's corrected percentile (from when each message was due), ns; NaN where it has none. */
const fromDue = (r: SourcedCase, p: "p50" | "p90" | "p99" | "p999" | "p9999" | "max"): number =>
  r.case.socket?.latency?.[p] ?? NaN;
/** The rate asked for, messages per second; NaN outside latency mode. */
const rateOf = (r: SourcedCase): number => r.case.socket?.targetRate ?? NaN;

/** The spectrum's points: percentile and the row's figure at it. */
const SPECTRUM: { q: number; pick: (r: SourcedCase) => number }[] = [
  { q: 0.5, pick: (r) => fromDue(r, "p50") },
  { q: 0.9, pick: (r) => fromDue(r, "p90") },
  { q: 0.99, pick: (r) => fromDue(r, "p99") },
  { q: 0.999, pick: (r) => fromDue(r, "p999") },
  { q: 0.9999, pick: (r) => fromDue(r, "p9999") },
];

/** A hue per codec, spread around the wheel; sources after the first get lighter shades. */
function codecColor(index: number, count: number, sourceIndex: number): string {
  return `hsl(${Math.round((index * 360) / Math.max(count, 1)) % 360}, 65%, ${Math.min(38 + sourceIndex * 18, 75)}%)`;
}

function lineOptions(title: string, xTitle: string, yTitle: string, percentileAxis: boolean): Record<string, unknown> {
  return {
    responsive: true,
    animation: false,
    plugins: { title: { display: true, text: title }, legend: { position: "bottom" } },
    scales: {
      x: {
        type: "logarithmic",
        title: { display: true, text: xTitle },
        ...(percentileAxis ? { min: 1, percentileAxis: true } : {}),
      },
      y: { type: "logarithmic", title: { display: true, text: `${yTitle} (log scale)` } },
    },
  };
}

/** The codec x source series of a payload's latency cases, in a stable order. */
function series(
  rows: readonly SourcedCase[],
): { codec: string; source: string; rows: SourcedCase[]; color: string; label: string }[] {
  const codecs = unique(rows.map((r) => r.case.codec));
  const sources = unique(rows.map((r) => r.source));
  const out = [];
  for (const [si, source] of sources.entries()) {
    for (const [ci, codec] of codecs.entries()) {
      const of = rows
        .filter((r) => r.case.codec === codec && r.source === source)
        .sort((a, b) => rateOf(a) - rateOf(b));
      if (of.length === 0) continue;
      const name = of[0]!.case.standard ? codec : `${codec}*`;
      out.push({
        codec,
        source,
        rows: of,
        color: codecColor(ci, codecs.length, si),
        label: sources.length > 1 ? `${name}, ${source}` : name,
      });
    }
  }
  return out;
}

function rateChart(rows: readonly SourcedCase[], payload: string): ChartSpec {
  const datasets: ChartDataset[] = [];
  for (const s of series(rows)) {
    for (const [p, dash] of [
      ["p50", undefined],
      ["p99", [6, 4]],
    ] as const) {
      const shown = s.rows.filter((r) => Number.isFinite(fromDue(r, p)));
      const crossed = shown.map((r) => r.case.flags.includes("below-rate"));
      datasets.push({
        label: `${s.label} ${p}`,
        data: shown.map((r) => ({ x: rateOf(r), y: round3(fromDue(r, p) / 1000) })),
        backgroundColor: s.color,
        borderColor: s.color,
        ...(dash ? { borderDash: [...dash] } : {}),
        pointStyle: crossed.map((x) => (x ? "crossRot" : "circle")),
        pointRadius: crossed.map((x) => (x ? 7 : 3)),
        showLine: true,
      });
    }
  }
  const title = `${payload}: latency against rate (corrected p50 solid, p99 dashed; ✕ rate not reached)`;
  return {
    id: `latency-rate-${payload}`,
    payload,
    title,
    config: {
      type: "line",
      data: { datasets },
      options: lineOptions(title, "messages per second asked for (log scale)", "µs", false),
    },
  };
}

/** One rate: bars of p50, p99 and p99.9 per codec. */
function barChart(rows: readonly SourcedCase[], payload: string): ChartSpec {
  const all = series(rows);
  const labels = unique(all.map((s) => codecLabel(s.rows[0]!.case)));
  const sources = unique(all.map((s) => s.source));
  const datasets: ChartDataset[] = [];
  for (const [si, source] of sources.entries()) {
    for (const [mi, [p, figure]] of (
      [
        ["p50", "p50"],
        ["p99", "p99"],
        ["p99.9", "p999"],
      ] as const
    ).entries()) {
      const data = unique(all.map((s) => s.codec)).map((codec) => {
        const r = all.find((s) => s.codec === codec && s.source === source)?.rows[0];
        return r && Number.isFinite(fromDue(r, figure)) ? round3(fromDue(r, figure) / 1000) : null;
      });
      datasets.push({
        label: sources.length > 1 ? `${p}, ${source}` : p,
        data,
        backgroundColor: codecColor(mi, 3, si),
      });
    }
  }
  const rate = rateOf(rows[0]!);
  const title = `${payload} at ${rate.toLocaleString("en-US")} msgs/s: corrected latency (from when each message was due)`;
  const options = lineOptions(title, "", "µs", false) as { scales: Record<string, unknown> };
  options.scales.x = { ticks: { autoSkip: false, maxRotation: 45 } };
  return { id: `latency-${payload}`, payload, title, config: { type: "bar", data: { labels, datasets }, options } };
}

/** The rate the spectrum is drawn at: the highest every codec of the payload kept, else the lowest run. */
function commonRate(rows: readonly SourcedCase[]): number {
  const rates = unique(rows.map(rateOf)).sort((a, b) => a - b);
  const series = (r: SourcedCase): string => `${r.case.codec}\u0000${r.source}`;
  const codecs = unique(rows.map(series));
  const kept = rates.filter((rate) =>
    codecs.every((k) =>
      rows.some((r) => series(r) === k && rateOf(r) === rate && !r.case.flags.includes("below-rate")),
    ),
  );
  return kept.length > 0 ? kept[kept.length - 1]! : rates[0]!;
}

function spectrumChart(rows: readonly SourcedCase[], payload: string): ChartSpec {
  const rate = commonRate(rows);
  const at = rows.filter((r) => rateOf(r) === rate);
  const datasets: ChartDataset[] = series(at).map((s) => {
    const r = s.rows[0]!;
    // The replies received: the samples behind the percentiles.
    const received = r.case.socket?.received ?? NaN;
    const points = SPECTRUM.filter((p) => 1 / (1 - p.q) <= received && Number.isFinite(p.pick(r))).map((p) => ({
      x: round3(1 / (1 - p.q)),
      y: round3(p.pick(r) / 1000),
    }));
    if (Number.isFinite(fromDue(r, "max")) && received > 0)
      points.push({ x: received, y: round3(fromDue(r, "max") / 1000) });
    return { label: s.label, data: points, backgroundColor: s.color, borderColor: s.color, showLine: true };
  });
  const title = `${payload} at ${rate.toLocaleString("en-US")} msgs/s: percentile spectrum (corrected latency; last point: max)`;
  return {
    id: `latency-spectrum-${payload}`,
    payload,
    title,
    config: {
      type: "line",
      data: { datasets },
      options: lineOptions(title, "percentile (log scale of 1 / (1 - p))", "µs", true),
    },
  };
}

export function latencySpecs(rows: readonly SourcedCase[], payload: string): ChartSpec[] {
  const of = rows.filter((r) => Number.isFinite(rateOf(r)) && rateOf(r) > 0);
  if (of.length === 0) return [];
  const several = unique(of.map(rateOf)).length > 1;
  return [several ? rateChart(of, payload) : barChart(of, payload), spectrumChart(of, payload)];
}

/**
 * Labels a spectrum's axis (marked `percentileAxis`) in percent: 2 as 50%, 10 as 90%, 100 as 99%
 * and so on; other ticks unlabelled. Mutates and returns the config; self-contained (no outside
 * names), so report.html carries its source as it is.
 */
export function withPercentileTicks<T>(config: T): T {
  const x = (config as { options?: { scales?: { x?: { percentileAxis?: boolean; ticks?: Record<string, unknown> } } } })
    .options?.scales?.x;
  if (x?.percentileAxis) {
    x.ticks = {
      ...x.ticks,
      autoSkip: false,
      callback: (value: number | string) => {
        const v = Number(value);
        if (v === 2) return "50%";
        const k = Math.round(Math.log10(v));
        if (k < 1 || Math.abs(v - 10 ** k) > 1e-6 * v) return "";
        return `${(100 - 100 / 10 ** k).toFixed(Math.max(0, k - 2))}%`;
      },
    };
  }
  return config;
}
