/**
 * The run-wide time estimate: measured pace for what ran, the last run's
 * timings (or built-in figures) for what has not, corrected by this run's
 * speed; elapsed time counts from the start of the benchmark.
 */
import { everyMode } from "../../helpers/settings.ts";
import { describe, expect, it } from "vitest";
import { RunEstimate } from "../../../bench/cli/eta.ts";
import type { Progress } from "../../../client/harness/progress.ts";
import { defaultSettings, type Settings } from "../../../client/harness/settings.ts";

const settings: Settings = {
  ...defaultSettings("default", ["json", "custom-binary"]),
  codecs: ["json", "custom-binary"],
  payloads: ["small", "large"],
  modes: ["codec", "stream"],
  runs: everyMode(2),
  iterations: {
    codec: 1000,
    roundtrip: 1000,
    stream: 1000,
    fanout: 1000,
    latency: 1000,
    route: 1000,
    cold: 1000,
    evolve: 100,
  },
};
const plan = [
  { mode: "codec" as const, units: 4 },
  { mode: "stream" as const, units: 4 },
];
/** 8 case-runs in all: codec small, codec large, stream small, stream large, 2 codecs x 2 runs each. */
const history = {
  "codec small": { ms: 400, units: 4, iterations: 1000 },
  "codec large": { ms: 800, units: 4, iterations: 1000 },
  "stream small": { ms: 2000, units: 4, iterations: 1000 },
  "stream large": { ms: 2000, units: 4, iterations: 1000 },
};

function clock(): { now: () => number; advance(ms: number): void } {
  let t = 0;
  return { now: () => t, advance: (ms) => (t += ms) };
}

const event = (mode: Progress["mode"], payload: string, done: number, total: number): Progress => ({
  mode,
  stage: "run",
  codec: "json",
  payload,
  run: 0,
  runs: 2,
  done,
  total,
  elapsedMs: 0,
});

describe("the benchmark's time estimate", () => {
  it("before anything ran: the last run's timings, scaled to this run's messages", () => {
    const c = clock();
    const estimate = new RunEstimate(settings, plan, history, c.now);
    expect(estimate.remainingMs()).toBe(5200);
    const twice = new RunEstimate(
      { ...settings, iterations: { ...settings.iterations, codec: 2000 } },
      plan,
      history,
      c.now,
    );
    expect(twice.remainingMs()).toBe(5200 + 1200);
  });

  it("follows this run's pace: a machine twice as slow doubles what is left", () => {
    const c = clock();
    const estimate = new RunEstimate(settings, plan, history, c.now);
    estimate.update(event("codec", "small", 0, 8));
    c.advance(200); // twice the 100 ms per case-run the last run took
    estimate.update(event("codec", "small", 1, 8));
    // codec small: 3 left at the measured 200 ms; the rest at twice its estimate.
    expect(estimate.remainingMs()).toBe(3 * 200 + 2 * (800 + 2000 + 2000));
    expect(estimate.elapsedMs()).toBe(200);
  });

  it("counts the socket modes' running total per stretch, and records what each took", () => {
    const c = clock();
    const estimate = new RunEstimate(settings, plan, history, c.now);
    for (let i = 1; i <= 4; i++) {
      c.advance(100);
      estimate.update(event("codec", "small", i, 8));
    }
    for (let i = 5; i <= 8; i++) {
      c.advance(200);
      estimate.update(event("codec", "large", i, 8));
    }
    c.advance(500);
    estimate.update(event("stream", "small", 1, 8));
    expect(estimate.timings()).toEqual({
      "codec small": { ms: 400, units: 4, iterations: 1000 },
      "codec large": { ms: 800, units: 4, iterations: 1000 },
      "stream small": { ms: 500, units: 1, iterations: 1000 },
    });
    c.advance(500);
    estimate.update(event("stream", "small", 2, 8));
    expect(estimate.timings()["stream small"]).toEqual({ ms: 1000, units: 2, iterations: 1000 });
  });

  it("without history: built-in figures, and nothing left once every stretch is done", () => {
    const c = clock();
    const estimate = new RunEstimate(settings, plan, undefined, c.now);
    expect(estimate.remainingMs()).toBeGreaterThan(0);
    for (const [mode, payload, done] of [
      ["codec", "small", 4],
      ["codec", "large", 8],
      ["stream", "small", 4],
      ["stream", "large", 8],
    ] as const) {
      c.advance(100);
      estimate.update(event(mode, payload, done, 8));
    }
    expect(estimate.remainingMs()).toBe(0);
  });

  it("paces latency mode by its schedule: messages over rate for each rate, about 12% more", () => {
    const c = clock();
    const latency = {
      ...settings,
      modes: ["latency" as const],
      rates: [1000, 2000],
      iterations: { ...settings.iterations, latency: 1000 },
    };
    // 2 codecs x 2 runs x 2 rates per payload; a case-run takes 1.12 x the mean of 1,000 ms and 500 ms.
    const estimate = new RunEstimate(latency, [{ mode: "latency", units: 8 }], history, c.now);
    expect(estimate.remainingMs()).toBeCloseTo(2 * 8 * 1.12 * 750, 6);
  });

  it("with --load: a window per codec and round, raw among them, after the modes", () => {
    const c = clock();
    const loaded = { ...settings, load: { rates: [{ payload: "small", rate: 1000 }], fanout: 2 } };
    const estimate = new RunEstimate(loaded, plan, history, c.now);
    // 3 rounds of raw, json and custom-binary, each 0.5 s of warm-up, a 2 s window and 0.4 s around them.
    expect(estimate.remainingMs()).toBe(5200 + 3 * 3 * 2900);
    estimate.update(event("load", "small=1000", 0, 9));
    c.advance(3000);
    estimate.update(event("load", "small=1000", 1, 9));
    expect(estimate.timings()["load small=1000"]).toEqual({ ms: 3000, units: 1, iterations: 1 });
  });
});
