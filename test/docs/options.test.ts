/**
 * Keeps docs/options.md's account of what plain `bun run bench` runs true to
 * the committed default runs: their settings, their slices, their round trips
 * and how long they took, and how long every codec takes in codec mode.
 */
import { describe, expect, it } from "vitest";
import { resultsFromFile } from "../../bench/report/results-file.ts";
import { codecModeMs, csvSample, doc, flat, num, sample } from "../helpers/samples.ts";
import { range, seconds, whole } from "../helpers/prose.ts";

const text = flat(doc("options.md"));

describe("docs/options.md", () => {
  const first = resultsFromFile(sample("epyc-default-1.json"));
  /** Codec mode's share of a default run: its stretches' times, as the run's JSON records them. */
  const codecMs = codecModeMs("epyc-default-1.json");
  const runs = [1, 2, 3].map((i) => csvSample(`epyc-default-${i}.csv`));

  it("how long every codec takes in codec mode, and codec mode in a default run, is the committed runs'", () => {
    expect(codecMs).toBeGreaterThan(0);
    const everyCodec = resultsFromFile(sample("epyc-every-codec.csv")).elapsedMs;
    expect(text).toContain(
      `takes codec mode alone ${seconds(everyCodec)} s here, \`results/sample/epyc-every-codec.csv\`, against ${seconds(codecMs)} s in a default run`,
    );
    const elapsed = [1, 2, 3].map((i) => resultsFromFile(sample(`epyc-default-${i}.csv`)).elapsedMs);
    expect(text).toContain(
      `the three committed default runs took ${range(elapsed, seconds)} s, codec mode ${seconds(codecMs)} s of it.`,
    );
  });

  it("what a default run runs is what the committed one ran: its settings, slices and round trips", () => {
    const s = first.settings;
    expect([s.runs.stream, s.runs.roundtrip]).toEqual([1, 1]);
    const slices = (mode: string, col: string) => {
      const values = new Set(runs[0]!.where({ mode }).map((r) => r(col)));
      expect(values.size, `${mode} ${col}`).toBe(1);
      return [...values][0]!;
    };
    expect(slices("stream", "rounds")).toBe(slices("roundtrip", "rounds"));
    const p50 = runs.flatMap((run) => run.where({ mode: "roundtrip" }).map((r) => num(r, "rtt_p50_ns")));
    expect(text).toContain(
      `in process ${whole(s.iterations.codec)} messages per codec (the article's loop) over ${s.forks} processes, then more rounds until every ratio's interval is within ±${s.precision}% or ${seconds(s.maxTimeMs ?? Number.NaN)} s have gone; stream one run of ${whole(s.iterations.stream)} messages with ${s.window} in flight, roundtrip one run of ${whole(s.iterations.roundtrip)} messages (each waits for its reply, a median of ${range(p50, (ns) => String(Math.round(ns / 1000)))} µs here), each run in ${slices("stream", "rounds")} slices per codec (stream: ${slices("stream", "round_msgs")} messages, roundtrip: ${slices("roundtrip", "round_msgs")})`,
    );
    expect(s.warmup.stream).toBe(s.warmup.roundtrip);
    expect(text).toContain(
      `Each server warms each codec up on ${whole(s.warmup.roundtrip)} calls in its own process first`,
    );
  });
});
