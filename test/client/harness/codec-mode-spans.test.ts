/** Codec mode's rounds from several processes, pooled as one run. */
import { BUILT_IN } from "../../../protocols/registry.ts";
import { describe, expect, it } from "vitest";
import type { Clock } from "../../../client/harness/clock.ts";
import {
  CodecModeSpans,
  forkSpans,
  mergeForks,
  PRECISION_SHARE_OF_PLANNED,
  type SpanRunner,
} from "../../../client/harness/codec-mode-spans.ts";
import { type CodecModeResult, runCodecMode } from "../../../client/harness/codec-mode.ts";
import { widestRatioInterval, withRatios } from "../../../client/harness/ratios.ts";
import { testSettings } from "../../helpers/settings.ts";

describe("forkSpans", () => {
  it("cuts the passes into equal, adjoining spans", () => {
    expect(forkSpans(3, 1)).toEqual([{ from: 0, to: 3 }]);
    expect(forkSpans(3, 3)).toEqual([
      { from: 0, to: 1 },
      { from: 1, to: 2 },
      { from: 2, to: 3 },
    ]);
    expect(forkSpans(2, 4)).toEqual([
      { from: 0, to: 0.5 },
      { from: 0.5, to: 1 },
      { from: 1, to: 1.5 },
      { from: 1.5, to: 2 },
    ]);
  });
});

describe("mergeForks", () => {
  const codecs = ["json", "custom-binary", "msgpack"].map((n) => BUILT_IN.get(n)!);
  const clock: Clock = { name: "performance.now", now: () => performance.now() };
  const settings = testSettings({
    payloads: ["small", "medium"],
    iterations: { codec: 400 },
    runs: 3,
    warmup: { codec: 50 },
    seed: 5,
  });
  const fork = (from: number, to: number) =>
    runCodecMode(settings, { codecs, clock, calibration: { resolutionNs: 100, overheadNs: 40 }, span: { from, to } });

  it("pools every fork's rounds: each round's codecs still from one process, numbered apart from the other fork's", async () => {
    const parts = [await fork(0, 1.5), await fork(1.5, 3)];
    const merged = mergeForks(parts, 2);
    for (const c of merged.cases) {
      const mine = parts.map((p) => p.cases.find((x) => x.codec === c.codec && x.payload === c.payload)!);
      expect(c.error).toBe("");
      expect(c.verified).toBe(true);
      expect(c.flags).not.toContain("partial");
      expect(c.rounds).toBe(mine[0]!.rounds + mine[1]!.rounds);
      expect(c.raw).toHaveLength(c.rounds);
      expect(new Set(c.raw.map((r) => r.round)).size).toBe(c.rounds);
      expect(c.runs).toBe(3);
      expect(c.bytes).toBe(mine[0]!.bytes);
      expect(c.total.n).toBe(c.rounds);
    }
    // A round holds every codec of the payload, and only rounds of one fork.
    for (const payload of ["small", "medium"]) {
      const ofPayload = merged.cases.filter((c) => c.payload === payload);
      const rounds = new Map<number, string[]>();
      for (const c of ofPayload) for (const r of c.raw) rounds.set(r.round, [...(rounds.get(r.round) ?? []), c.codec]);
      for (const names of rounds.values()) expect(names.sort()).toEqual(["custom-binary", "json", "msgpack"]);
    }
    expect(merged.order[0]).toHaveLength(parts[0]!.order[0]!.length + parts[1]!.order[0]!.length);
  });

  it("from fresh processes, tags each round with its process, and each ratio's interval is theirs", async () => {
    const parts = [await fork(0, 1), await fork(1, 2), await fork(2, 3)];
    const merged = mergeForks(parts, 3, true);
    for (const c of merged.cases) {
      const counts = [0, 1, 2].map((k) => c.raw.filter((r) => r.process === k).length);
      expect(counts).toEqual(
        parts.map((p) => p.cases.find((x) => x.codec === c.codec && x.payload === c.payload)!.rounds),
      );
    }
    const ratio = withRatios(merged.cases).cases.find((c) => c.codec === "msgpack" && c.payload === "small")!.ratios!
      .vsJson!;
    expect([ratio.processes, ratio.rounds]).toEqual([3, merged.cases.find((c) => c.codec === "msgpack")!.rounds]);
    // Pooled as one process (not fresh), no round says where it came from.
    for (const c of mergeForks(parts, 3).cases) expect(c.raw.every((r) => r.process === undefined)).toBe(true);
  });

  it("flags every case partial when a fork never ran", async () => {
    const merged = mergeForks([await fork(0, 1)], 3);
    for (const c of merged.cases) expect(c.flags).toContain("partial");
  });

  it("a case that failed in any fork stays failed", async () => {
    const parts = [await fork(0, 1.5), await fork(1.5, 3)];
    const broken = parts[1]!.cases[0]!;
    parts[1]!.cases[0] = { ...broken, verified: false, error: "round 9 threw: Error: out of luck" };
    const merged = mergeForks(parts, 2);
    const c = merged.cases.find((x) => x.codec === broken.codec && x.payload === broken.payload)!;
    expect(c.verified).toBe(false);
    expect(c.error).toBe("round 9 threw: Error: out of luck");
  });
});

describe("CodecModeSpans: the planned spans, then more for precision", () => {
  const codecs = ["json", "custom-binary"].map((n) => BUILT_IN.get(n)!);
  const clock: Clock = { name: "performance.now", now: () => performance.now() };
  const calibration = { resolutionNs: 100, overheadNs: 40 };

  /** A runner in this process that records every span it was asked for. */
  function recorder(settings: ReturnType<typeof testSettings>): {
    asked: { span: { from: number; to: number }; payloads: readonly string[] }[];
    runner: SpanRunner;
  } {
    const asked: { span: { from: number; to: number }; payloads: readonly string[] }[] = [];
    return {
      asked,
      runner: async (span, payloads, side) => {
        asked.push({ span, payloads });
        return {
          result: await runCodecMode(settings, {
            codecs,
            clock,
            calibration,
            span,
            payloads,
            onProgress: side.progress,
            onCaseDone: side.caseDone,
          }),
        };
      },
    };
  }

  it("without a precision, runs the planned spans only, one per fork, and pools them; in one process only the first warms up", async () => {
    const settings = testSettings({
      payloads: ["small", "medium"],
      iterations: { codec: 600 },
      runs: 1,
      warmup: { codec: 50 },
      precision: undefined,
    });
    const { asked, runner } = recorder(settings);
    const progress: number[] = [];
    const spans = new CodecModeSpans({
      settings,
      forks: 3,
      codecs: codecs.length,
      now: clock.now,
      hooks: { onProgress: (e) => progress.push(e.done / e.total) },
    });
    const { result, error } = await spans.run(runner);
    expect(error).toBeUndefined();
    // The later spans find the codecs warm (warmup 0: the verifying pass only).
    expect(asked.map((a) => a.span)).toEqual(forkSpans(1, 3).map((s, i) => (i === 0 ? s : { ...s, warmup: 0 })));
    expect(asked.every((a) => a.payloads.join() === "small,medium")).toBe(true);
    expect(result.cases).toHaveLength(4);
    for (const c of result.cases) expect(c.flags).not.toContain("partial");
    // Progress runs across the spans, never back, to the end.
    expect(progress.every((p, i) => i === 0 || p >= progress[i - 1]! - 1e-9)).toBe(true);
    expect(progress.at(-1)).toBeCloseTo(1, 1);
  });

  it("with a precision out of reach, adds spans of the payloads short of it, past the planned runs, until the time allowed is spent", async () => {
    const settings = testSettings({
      payloads: ["small", "medium"],
      iterations: { codec: 600 },
      runs: 1,
      warmup: { codec: 50 },
      precision: 0.01,
      maxTimeMs: 3_000,
    });
    const { asked, runner } = recorder(settings);
    const started = performance.now();
    const { result } = await new CodecModeSpans({
      settings,
      forks: 2,
      codecs: codecs.length,
      now: clock.now,
      hooks: {},
    }).run(runner);
    expect(performance.now() - started).toBeLessThan(3_000 + 2_000);
    const more = asked.slice(2);
    expect(more.length).toBeGreaterThan(0);
    for (const a of more) {
      expect(a.payloads).toHaveLength(1);
      expect(a.span.from).toBeGreaterThanOrEqual(1);
    }
    // Each payload's spans follow one another: no message position is timed twice.
    for (const payload of ["small", "medium"]) {
      const mine = more.filter((a) => a.payloads[0] === payload).map((a) => a.span);
      for (let i = 1; i < mine.length; i++) expect(mine[i]!.from).toBeCloseTo(mine[i - 1]!.to, 9);
    }
    const small = result.cases.find((c) => c.payload === "small" && c.codec === "custom-binary")!;
    const planned = await runCodecMode(settings, { codecs, clock, calibration, span: { from: 0, to: 1 } });
    expect(small.rounds).toBeGreaterThan(
      planned.cases.find((c) => c.payload === "small" && c.codec === "custom-binary")!.rounds,
    );
  });

  it("in fresh processes, every span warms up as long as a planned span's messages, and each added one is a process too", async () => {
    const settings = testSettings({
      payloads: ["small"],
      iterations: { codec: 600 },
      runs: 1,
      warmup: { codec: 50 },
      precision: 0.01,
      maxTimeMs: 1_500,
    });
    const { asked, runner } = recorder(settings);
    const { result } = await new CodecModeSpans({
      settings,
      forks: 3,
      fresh: true,
      codecs: codecs.length,
      now: clock.now,
      hooks: {},
    }).run(runner);
    expect(asked.length).toBeGreaterThan(3);
    for (const a of asked) expect((a.span as { warmup?: number }).warmup).toBe(200);
    // Every span a process: the rounds name as many processes as spans ran.
    const c = result.cases.find((x) => x.codec === "custom-binary")!;
    expect(new Set(c.raw.map((r) => r.process)).size).toBe(asked.length);
    // An added process is never longer than a planned one (it would warm up longer than they did).
    for (const a of asked.slice(3)) expect(a.span.to - a.span.from).toBeLessThanOrEqual(1 / 3 + 1e-9);
  });

  it("gives precision a tenth of the planned spans' time where they alone outlast --max-time", async () => {
    const settings = testSettings({
      payloads: ["small"],
      iterations: { codec: 600 },
      runs: 1,
      warmup: { codec: 50 },
      precision: 0.01,
      maxTimeMs: 1,
    });
    const { asked, runner } = recorder(settings);
    // A clock on which every span takes 5 s: the two planned ones 10 s, so precision may have 1 s more, one span's worth at most.
    let t = 0;
    const slow: SpanRunner = async (span, payloads, side) => {
      const out = await runner(span, payloads, side);
      t += 5_000;
      return out;
    };
    await new CodecModeSpans({ settings, forks: 2, codecs: codecs.length, now: () => t, hooks: {} }).run(slow);
    expect(PRECISION_SHARE_OF_PLANNED).toBe(0.1);
    expect(asked).toHaveLength(3);
    expect(asked[2]!.span.from).toBe(1);
  });

  it("with a precision the planned spans meet, adds nothing; a hair narrower, it adds a span for it", async () => {
    // The planned spans are measured once, then replayed: the precision asked for is their widest
    // interval (a busy machine can make any interval wide, so no fixed precision is met every time).
    const { precision: _, ...settings } = testSettings({
      payloads: ["small"],
      iterations: { codec: 6_000 },
      runs: 1,
      warmup: { codec: 50 },
      maxTimeMs: 60_000,
    });
    const measured = recorder(settings);
    const planned: CodecModeResult[] = [];
    const keep: SpanRunner = async (span, payloads, side) => {
      const out = await measured.runner(span, payloads, side);
      if (out.result) planned.push(out.result);
      return out;
    };
    await new CodecModeSpans({ settings, forks: 2, codecs: codecs.length, now: clock.now, hooks: {} }).run(keep);
    expect(planned).toHaveLength(2);
    const widest = widestRatioInterval(withRatios(mergeForks(planned, 2).cases).cases);
    expect(widest).toBeGreaterThan(0);

    /** The spans asked for with precision `pct`: the planned ones replayed, any more measured. */
    const askedWith = async (pct: number) => {
      const asking = recorder({ ...settings, precision: pct });
      const runner: SpanRunner = async (span, payloads, side) => {
        const i = asking.asked.length;
        if (i >= planned.length) return asking.runner(span, payloads, side);
        asking.asked.push({ span, payloads });
        return { result: planned[i]! };
      };
      const plan = {
        settings: { ...settings, precision: pct },
        forks: 2,
        codecs: codecs.length,
        now: clock.now,
        hooks: {},
      };
      await new CodecModeSpans(plan).run(runner);
      return asking.asked;
    };
    expect(await askedWith(widest! * 100 * 1.001)).toHaveLength(2);
    const missed = await askedWith(widest! * 100 * 0.999);
    expect(missed.length).toBeGreaterThan(2);
    expect(missed[2]!.span.from).toBe(1);
  });

  it("a span that fails ends the spans there, keeping what it and the ones before finished, and says why", async () => {
    const settings = testSettings({
      payloads: ["small"],
      iterations: { codec: 600 },
      runs: 1,
      warmup: { codec: 50 },
      precision: 0.01,
      maxTimeMs: 60_000,
    });
    const { runner } = recorder(settings);
    let calls = 0;
    const failing: SpanRunner = async (span, payloads, side) =>
      ++calls === 2 ? { error: "a codec-mode process failed (exit 1)", partial: [] } : runner(span, payloads, side);
    const spans = new CodecModeSpans({ settings, forks: 3, codecs: codecs.length, now: clock.now, hooks: {} });
    const { result, error } = await spans.run(failing);
    expect(calls).toBe(2);
    expect(error).toBe("a codec-mode process failed (exit 1)");
    expect(result.cases.every((c) => c.flags.includes("partial"))).toBe(true);
    expect(spans.held().cases).toHaveLength(result.cases.length);
  });

  it("a runner that throws after telling some cases: the error is why, and the cases it told are kept", async () => {
    const settings = testSettings({ payloads: ["small"], iterations: { codec: 600 }, runs: 1, warmup: { codec: 50 } });
    const { runner } = recorder(settings);
    let calls = 0;
    const throwing: SpanRunner = async (span, payloads, side) => {
      if (++calls < 2) return runner(span, payloads, side);
      // The second span finishes its cases, tells them, then its process dies before its result.
      const told = await runner(span, payloads, { progress: () => {}, caseDone: () => {} });
      for (const c of told.result!.cases) side.caseDone(c);
      throw new Error("a codec-mode process failed (exit 137)");
    };
    const spans = new CodecModeSpans({
      settings,
      forks: 3,
      fresh: true,
      codecs: codecs.length,
      now: clock.now,
      hooks: {},
    });
    const { result, error } = await spans.run(throwing);
    expect(calls).toBe(2);
    expect(error).toBe("a codec-mode process failed (exit 137)");
    // Both processes' rounds: the first's result and the second's told cases.
    const c = result.cases.find((x) => x.codec === "custom-binary")!;
    expect(new Set(c.raw.map((r) => r.process))).toEqual(new Set([0, 1]));
    expect(c.flags).toContain("partial");
  });
});
