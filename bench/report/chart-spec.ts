/**
 * A chart as plain JSON: a chart.js configuration with an id and the payload it belongs to, so
 * the page and the offline report (report.html) draw the same charts from the same specs.
 */

export interface ChartDataset {
  label: string;
  /** Bar charts: one value per label; line charts: points. */
  data: (number | null | { x: number; y: number })[];
  backgroundColor: string;
  /** 95% intervals, one [low, high] per bar, drawn by charts.ts's errorBarsPlugin. */
  errorBars?: ([number, number] | null)[];
  borderColor?: string;
  borderDash?: number[];
  /** Per point: how it is drawn (a point the client could not send at its rate is crossed). */
  pointStyle?: string[];
  pointRadius?: number[];
  showLine?: boolean;
}

export interface ChartSpec {
  id: string;
  payload: string;
  title: string;
  config: {
    type: "bar" | "line";
    /** Bar charts: one label per bar, two lines (codec, family) where several families share the chart. */
    data: { labels?: (string | string[])[]; datasets: ChartDataset[] };
    options: Record<string, unknown>;
  };
}

/** Each value once, in first-seen order. */
export function unique<T>(values: readonly T[]): T[] {
  return [...new Set(values)];
}

/** A figure rounded to 3 decimals, as the chart data carries it. */
export const round3 = (v: number): number => Math.round(v * 1000) / 1000;
