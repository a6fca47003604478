import { describe, expect, it } from "vitest";
import { BUILT_IN } from "../../../protocols/registry.ts";
import { calibrateClock, type Clock } from "../../../client/harness/clock.ts";
import { runCodecMode, WARMUP_ROUNDS, type CodecModeContext } from "../../../client/harness/codec-mode.ts";
import { TimeLedger } from "../../../client/harness/time-account.ts";
import { minBatchNs } from "../../../client/harness/schedule.ts";
import type { Settings } from "../../../client/harness/settings.ts";
import { testSettings } from "../../helpers/settings.ts";
import { messagesFor } from "../../../client/harness/generator.ts";

const performanceClockForTests: Clock = { name: "performance.now", now: () => performance.now() };
import type { Message } from "../../../protocols/messages.ts";
import type { Codec } from "../../../protocols/codec.ts";

/**
 * A clock that ticks only every 100 µs (coarser than any browser's), over a
 * virtual time that only the fake codec below and the clock reads advance.
 */
function coarseClock(resolutionNs: number, readCostNs: number): { clock: Clock; advance(ns: number): void } {
  let virtualNs = 0;
  return {
    clock: {
      name: "fake-coarse",
      now: () => {
        virtualNs += readCostNs;
        return (Math.floor(virtualNs / resolutionNs) * resolutionNs) / 1e6;
      },
    },
    advance: (ns) => {
      virtualNs += ns;
    },
  };
}

/** A JSON codec that costs exactly `encodeNs` / `decodeNs` of virtual time per call. */
function fixedCostCodec(name: string, advance: (ns: number) => void, encodeNs: number, decodeNs: number): Codec {
  return {
    name,
    description: "test codec with a known cost",
    frame: "text",
    standard: true,
    library: "",
    forPayload: () => ({
      encode: (m: Message) => {
        advance(encodeNs);
        return JSON.stringify(m);
      },
      decode: (s) => {
        advance(decodeNs);
        return JSON.parse(s as string) as Message;
      },
    }),
  };
}

describe("harness with a coarse clock", () => {
  const RESOLUTION = 100_000; // 100 µs
  const fake = coarseClock(RESOLUTION, 50);
  const calibration = calibrateClock(fake.clock, 50, 20_000, 5);

  it("calibration finds the fake clock's resolution and read cost", () => {
    expect(calibration.resolutionNs).toBe(RESOLUTION);
    expect(calibration.overheadNs).toBeGreaterThan(40);
    expect(calibration.overheadNs).toBeLessThan(60);
  });

  it("batches last at least 100 ticks, so per-message values land within 1% of the truth", async () => {
    expect(minBatchNs(calibration)).toBeGreaterThanOrEqual(100 * RESOLUTION);
    const TRUE_ENCODE = 260;
    const TRUE_DECODE = 410;
    const codec = fixedCostCodec("known-cost", fake.advance, TRUE_ENCODE, TRUE_DECODE);
    const settings = testSettings({
      payloads: ["small"],
      iterations: { codec: 200_000 },
      runs: 3,
      warmup: { codec: 1000 },
      seed: 1,
      fixed: false,
    });
    const result = await runCodecMode(settings, { codecs: [codec], clock: fake.clock, calibration });
    const c = result.cases[0]!;
    expect(c.verified).toBe(true);
    // Every single call is far below one tick: unbatched timing would read 0 or 100 µs.
    expect(c.serializeBatches.batch * TRUE_ENCODE).toBeGreaterThanOrEqual(100 * RESOLUTION);
    const within1pct = (measured: number, truth: number): void =>
      expect(Math.abs(measured - truth) / truth).toBeLessThanOrEqual(0.01);
    within1pct(c.serialize.mean, TRUE_ENCODE);
    within1pct(c.deserialize.mean, TRUE_DECODE);
    within1pct(c.total.mean, TRUE_ENCODE + TRUE_DECODE);
    within1pct(c.serializeBatches.p50, TRUE_ENCODE);
    within1pct(c.deserializeBatches.p50, TRUE_DECODE);
    expect(c.runs).toBe(3);
    // Every pass is cut into slices of the same size (the last may hold fewer); one slice per round.
    expect(c.rounds).toBe(3 * Math.ceil(200_000 / c.serializeBatches.batch));
    expect(c.raw).toHaveLength(c.rounds);
    expect(new Set(c.raw.map((r) => r.round)).size).toBe(c.rounds);
  });
});

/** Real time, a made-up calibration: small runs of two payloads. */
function realRun(codecs: Codec[], runs = 3, extra: Partial<CodecModeContext> = {}): [Settings, CodecModeContext] {
  const clock: Clock = { name: "performance.now", now: () => performance.now() };
  const settings = testSettings({
    payloads: ["small", "medium"],
    iterations: { codec: 300 },
    runs,
    warmup: { codec: 50 },
    seed: 11,
    fixed: false,
  });
  return [settings, { codecs, clock, calibration: { resolutionNs: 100, overheadNs: 40 }, ...extra }];
}

describe("harness failure handling", () => {
  const json = BUILT_IN.get("json")!;

  it("a codec that decodes wrongly is reported as failed and never timed", async () => {
    const wrong: Codec = {
      ...json,
      name: "drops-a-digit",
      forPayload: (p) => {
        const inner = json.forPayload(p);
        return { encode: inner.encode, decode: (d) => ({ ...inner.decode(d), num: 0 }) };
      },
    };
    const result = await runCodecMode(...realRun([json, wrong]));
    const failed = result.cases.filter((c) => c.codec === "drops-a-digit");
    expect(failed).toHaveLength(2);
    for (const c of failed) {
      expect(c.verified).toBe(false);
      expect(c.error).toMatch(/message #0 did not round-trip: field 'num'/);
      expect(c.runs).toBe(0);
      expect(Number.isNaN(c.serialize.mean)).toBe(true);
    }
    for (const c of result.cases.filter((c) => c.codec === "json")) {
      expect(c.verified).toBe(true);
      expect(c.runs).toBe(3);
    }
  });

  it("a codec that throws mid-run costs that case only", async () => {
    let calls = 0;
    const flaky: Codec = {
      ...json,
      name: "flaky",
      forPayload: (p) => {
        const inner = json.forPayload(p);
        return {
          encode: (m) => {
            // Before timing: the verifying pass (300 calls) and the echo's warm-up on its first
            // chunk (300). Each of the three runs adds 300, and up to 300 for the echo, so call
            // 1000 always falls in a run.
            if (p === "medium" && ++calls >= 1000) throw new Error("encoder ran out of luck");
            return inner.encode(m);
          },
          decode: inner.decode,
        };
      },
    };
    const result = await runCodecMode(...realRun([json, flaky]));
    const byKey = new Map(result.cases.map((c) => [`${c.codec} ${c.payload}`, c]));
    expect(byKey.get("flaky medium")!.verified).toBe(false);
    expect(byKey.get("flaky medium")!.error).toMatch(/round \d+ threw: Error: encoder ran out of luck/);
    expect(byKey.get("flaky small")!.verified).toBe(true);
    expect(byKey.get("json medium")!.verified).toBe(true);
    expect(byKey.get("json medium")!.runs).toBe(3);
  });

  it("interleaves the codecs round by round, in an order shuffled per round and recorded, with a collection before every pass", async () => {
    let collections = 0;
    const codecs = ["json", "json-bytes", "custom-binary", "msgpack", "msgpackr"].map((n) => BUILT_IN.get(n)!);
    const result = await runCodecMode(...realRun(codecs, 6, { gc: () => collections++ }));
    expect(result.order).toHaveLength(2);
    for (const [p, payload] of ["small", "medium"].entries()) {
      const rounds = result.order[p]!;
      expect(rounds.length).toBeGreaterThanOrEqual(6);
      for (const order of rounds) expect([...order].sort()).toEqual(codecs.map((c) => c.name).sort());
      expect(new Set(rounds.map((o) => o.join(","))).size).toBeGreaterThan(1);
      // Every codec of the payload timed a slice in every round, at the position the order says.
      for (const c of result.cases.filter((x) => x.payload === payload)) {
        expect(c.raw).toHaveLength(rounds.length);
        for (const r of c.raw) expect(rounds[r.round]![r.position]).toBe(c.codec);
      }
    }
    expect(collections).toBe(2 * 6);
  });
});

describe("warm-up before the timed rounds", () => {
  it("runs warm-up rounds first, scheduled and checked as timed ones, and keeps none of them", async () => {
    const ledger = new TimeLedger();
    const codecs = ["json", "custom-binary", "msgpackr"].map((n) => BUILT_IN.get(n)!);
    const result = await runCodecMode(...realRun(codecs, 1, { ledger }));
    expect(WARMUP_ROUNDS).toBeGreaterThan(0);
    for (const c of result.cases) {
      const order = result.order[["small", "medium"].indexOf(c.payload)]!;
      // Only the timed rounds are kept, numbered from 0, and the order holds only them.
      expect(c.raw.map((r) => r.round)).toEqual(order.map((_, i) => i));
    }
    const phases = ledger.account(1e6).phases;
    expect(phases.warmup).toBeGreaterThan(0);
    expect(phases.timed).toBeGreaterThan(0);
  });

  it("a span's warm-up sends each codec through that many messages before timing, however short the span", async () => {
    let encodes = 0;
    const json = BUILT_IN.get("json")!;
    const counting: Codec = {
      ...json,
      name: "counting",
      forPayload: (p) => ({ ...json.forPayload(p), encode: (m) => (encodes++, json.forPayload(p).encode(m)) }),
    };
    const settings = testSettings({ payloads: ["small"], iterations: { codec: 1000 }, runs: 1, warmup: { codec: 1 } });
    /** Encodes before the first timed round was reported, on a span of 100 messages. */
    const beforeTiming = async (warmup?: number): Promise<number> => {
      encodes = 0;
      let seen: number | undefined;
      await runCodecMode(settings, {
        codecs: [counting],
        clock: performanceClockForTests,
        calibration: { resolutionNs: 100, overheadNs: 40 },
        span: { from: 0, to: 0.1, ...(warmup ? { warmup } : {}) },
        onProgress: (e) => {
          if (e.stage === "run") seen ??= encodes;
        },
      });
      return seen!;
    };
    // The 100 messages verified, then 4,900 more; alone, the verifying pass and the warm-up rounds only.
    expect(await beforeTiming(5000)).toBeGreaterThanOrEqual(5000);
    expect(await beforeTiming()).toBeLessThan(5000);
  });
});

describe("a span of the runs (one process of several)", () => {
  it("times the span's messages only, in slices that never cross a run's end", async () => {
    // A coarse fake clock and known costs make the slices the same every time.
    const fake = coarseClock(100_000, 50);
    const calibration = calibrateClock(fake.clock, 50, 20_000, 5);
    const codecs = [fixedCostCodec("a", fake.advance, 260, 410), fixedCostCodec("b", fake.advance, 300, 500)];
    const settings = testSettings({
      payloads: ["small"],
      iterations: { codec: 200_000 },
      runs: 2,
      warmup: { codec: 100 },
    });
    const part = await runCodecMode(settings, { codecs, clock: fake.clock, calibration, span: { from: 0.5, to: 1.5 } });
    const size = part.slices.small!;
    for (const c of part.cases) {
      expect(c.error).toBe("");
      expect(c.flags).not.toContain("partial");
      // The second half of run 0 and the first half of run 1: one run's worth of messages, each half in slices of its own.
      expect(c.runs).toBe(2);
      expect(c.rounds).toBe(2 * Math.ceil(100_000 / size));
      expect(c.raw.filter((r) => r.run === 0)).toHaveLength(Math.ceil(100_000 / size));
    }
  });

  it("makes only the span's messages: a span past the first run holds the run's messages again", async () => {
    const seen: Message[] = [];
    const json = BUILT_IN.get("json")!;
    const recording: Codec = {
      ...json,
      name: "recording",
      forPayload: (p) => ({ ...json.forPayload(p), encode: (m) => (seen.push(m), json.forPayload(p).encode(m)) }),
    };
    const settings = testSettings({ payloads: ["small"], iterations: { codec: 100 }, runs: 1, warmup: { codec: 1 } });
    await runCodecMode(settings, {
      codecs: [recording],
      clock: performanceClockForTests,
      calibration: { resolutionNs: 100, overheadNs: 40 },
      span: { from: 1.25, to: 1.5 },
    });
    // Positions 125..150 are messages 25..50 of the run's sequence.
    const all = messagesFor(settings, "small", 100);
    const texts = new Set(seen.map((m) => JSON.stringify(m)));
    expect(texts).toEqual(new Set(all.slice(25, 50).map((m) => JSON.stringify(m))));
  });

  it("times only the payloads asked for", async () => {
    const result = await runCodecMode(...realRun([BUILT_IN.get("json")!], 1, { payloads: ["medium"] }));
    expect(result.cases.map((c) => c.payload)).toEqual(["medium"]);
    expect(result.order[0]).toEqual([]);
    expect(Object.keys(result.payloadMs)).toEqual(["medium"]);
  });
});
