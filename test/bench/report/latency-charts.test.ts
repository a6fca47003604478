/** Latency mode's charts follow the cases: a line per codec over the rates, crosses where a rate was missed, the spectrum at a load every codec kept. */
import { describe, expect, it } from "vitest";
import { latencySpecs, withPercentileTicks } from "../../../bench/report/latency-charts.ts";
import type { BenchResults, CaseResult } from "../../../client/harness/results.ts";
import type { SourcedCase } from "../../../bench/report/sources.ts";

/** A latency case at `rate` whose corrected percentiles grow from `p50`. */
function row(codec: string, rate: number, p50: number, over: { flags?: string[] } = {}): SourcedCase {
  const latency = { samples: 5000, p50, p90: 2 * p50, p99: 10 * p50, p999: 20 * p50, p9999: 30 * p50, max: 40 * p50 };
  const c = {
    mode: "latency",
    codec,
    payload: "small",
    standard: true,
    bytes: 30,
    flags: [],
    socket: { targetRate: rate, received: 5000, latency },
    ...over,
  } as unknown as CaseResult;
  return { source: "bun 1.4.4", run: {} as BenchResults, case: c };
}

type Point = { x: number; y: number };

describe("latency charts", () => {
  const rows = [
    row("json", 1000, 80_000),
    row("json", 5000, 90_000),
    row("json", 20_000, 400_000, { flags: ["below-rate"] }),
    row("custom-binary", 1000, 70_000),
    row("custom-binary", 5000, 75_000),
    row("custom-binary", 20_000, 77_000),
  ];
  const [rate, spectrum] = latencySpecs(rows, "small");

  it("at several rates: p50 and p99 per codec against the rate, in µs, with a cross where the rate was not reached", () => {
    expect(rate!.id).toBe("latency-rate-small");
    expect(rate!.config.type).toBe("line");
    const sets = rate!.config.data.datasets;
    expect(sets.map((d) => d.label)).toEqual(["json p50", "json p99", "custom-binary p50", "custom-binary p99"]);
    expect(sets[0]!.data).toEqual([
      { x: 1000, y: 80 },
      { x: 5000, y: 90 },
      { x: 20_000, y: 400 },
    ]);
    expect(sets[1]!.data.map((p) => (p as Point).y)).toEqual([800, 900, 4000]);
    expect(sets[1]!.borderDash).toBeDefined();
    expect(sets[0]!.pointStyle).toEqual(["circle", "circle", "crossRot"]);
    expect(sets[2]!.pointStyle).toEqual(["circle", "circle", "circle"]);
  });

  it("the spectrum: at the highest rate every codec reached, percentiles up to what the samples resolve, max at the sample count", () => {
    expect(spectrum!.title).toContain("at 5,000 msgs/s");
    const json = spectrum!.config.data.datasets.find((d) => d.label === "json")!;
    // 5,000 samples: p99.99 (1 in 10,000) is beyond them; the max stands at 5,000.
    expect(json.data).toEqual([
      { x: 2, y: 90 },
      { x: 10, y: 180 },
      { x: 100, y: 900 },
      { x: 1000, y: 1800 },
      { x: 5000, y: 3600 },
    ]);
    // The other way round, the spectrum follows: with custom-binary short of the rate at 5,000, it is drawn at 1,000.
    const other = latencySpecs(
      [
        row("json", 1000, 1),
        row("json", 5000, 1),
        row("custom-binary", 1000, 1),
        row("custom-binary", 5000, 1, { flags: ["below-rate"] }),
      ],
      "small",
    );
    expect(other[1]!.title).toContain("at 1,000 msgs/s");
  });

  it("at one rate: bars of p50, p99 and p99.9 per codec; nothing without latency cases", () => {
    const [bars, spec] = latencySpecs([row("json", 2000, 80_000), row("msgpack", 2000, 60_000)], "small");
    expect(bars!.config.type).toBe("bar");
    expect(bars!.config.data.labels).toEqual(["json", "msgpack"]);
    expect(bars!.config.data.datasets.map((d) => [d.label, d.data])).toEqual([
      ["p50", [80, 60]],
      ["p99", [800, 600]],
      ["p99.9", [1600, 1200]],
    ]);
    expect(spec!.id).toBe("latency-spectrum-small");
    expect(latencySpecs([], "small")).toEqual([]);
  });

  it("labels the spectrum's axis in percent, and leaves other charts alone", () => {
    const config = withPercentileTicks(structuredClone(spectrum!.config));
    const callback = (config.options as { scales: { x: { ticks: { callback: (v: number) => string } } } }).scales.x
      .ticks.callback;
    expect([1, 2, 3, 10, 20, 100, 1000, 10_000, 100_000].map(callback)).toEqual([
      "",
      "50%",
      "",
      "90%",
      "",
      "99%",
      "99.9%",
      "99.99%",
      "99.999%",
    ]);
    const plain = structuredClone(rate!.config);
    expect(withPercentileTicks(plain)).toEqual(rate!.config);
  });
});
