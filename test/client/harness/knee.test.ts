import { describe, expect, it } from "vitest";
import { keptRate, kneeField, KNEE_RULE, knees, stepLatency, stopsClimbing } from "../../../client/harness/knee.ts";
import type { CaseResult, SliceFigures } from "../../../client/harness/results.ts";

/** A latency case at `rate` with what it achieved, its late sends and its corrected p99 (ns). */
function at(
  codec: string,
  rate: number,
  over: { achieved?: number; late?: number; p99?: number; payload?: string; verified?: boolean } = {},
): CaseResult {
  const sent = 1000;
  return {
    client: "bun",
    mode: "latency",
    codec,
    payload: over.payload ?? "small",
    verified: over.verified ?? true,
    // A results file from before slices carried their own latency: the step's totals decide.
    raw: [],
    socket: {
      targetRate: rate,
      achievedRate: over.achieved ?? rate,
      late: over.late ?? 0,
      sent,
      latency: { samples: sent, p50: 1e5, p90: 2e5, p99: over.p99 ?? 5e5, p999: 1e6, max: 2e6 },
    },
  } as unknown as CaseResult;
}

/** A latency case whose slices (one per round) saw these p99s, ns; every slice sent its rate on time. */
function sliced(codec: string, rate: number, p99s: number[]): CaseResult {
  const raw: SliceFigures[] = p99s.map((p99Ns, round) => ({
    run: 0,
    round,
    position: 0,
    serializeNs: 1,
    deserializeNs: 1,
    totalNs: 1e5,
    latency: { p99Ns, lateShare: 0, achievedShare: 1 },
  }));
  return { ...at(codec, rate, { p99: Math.max(...p99s) }), raw };
}

describe("the knee", () => {
  it("keeps a rate only when 99% of it was sent, at most 5% went late, and p99 stayed within 10x the lowest rate's (at least 1 ms)", () => {
    expect(keptRate(at("json", 1000), 5e5)).toBe(true);
    expect(keptRate(at("json", 1000, { achieved: 989 }), 5e5)).toBe(false);
    expect(keptRate(at("json", 1000, { late: 51 }), 5e5)).toBe(false);
    expect(keptRate(at("json", 1000, { late: 50 }), 5e5)).toBe(true);
    // A base p99 of 0.5 ms counts as 1 ms: the bound is 10 ms.
    expect(keptRate(at("json", 1000, { p99: 9.9e6 }), 5e5)).toBe(true);
    expect(keptRate(at("json", 1000, { p99: 10.1e6 }), 5e5)).toBe(false);
    expect(keptRate(at("json", 1000, { p99: 25e6 }), 3e6)).toBe(true);
    expect(keptRate(at("json", 1000, { verified: false }), 5e5)).toBe(false);
    expect(KNEE_RULE.maxP99Factor).toBe(10);
  });

  it("is the highest rate kept before two misses in a row; a single miss followed by a kept rate is forgiven and named", () => {
    const cases = [
      ...[1000, 2000, 5000].map((r) => at("json", r)),
      at("json", 10_000, { achieved: 9000 }),
      at("json", 20_000),
      at("json", 50_000, { late: 900 }),
      at("json", 100_000, { late: 900 }),
      ...[1000, 2000, 5000, 10_000].map((r) => at("custom-binary", r)),
      at("msgpack", 1000, { achieved: 900 }),
      at("msgpack", 2000, { achieved: 1800 }),
      at("protobuf", 1000),
      at("protobuf", 2000, { p99: 20e6 }),
    ];
    const found = knees(cases);
    expect(found).toEqual([
      { client: "bun", payload: "small", codec: "json", rate: 20_000, missed: 50_000, forgiven: [10_000] },
      { client: "bun", payload: "small", codec: "custom-binary", rate: 10_000 },
      { client: "bun", payload: "small", codec: "msgpack", rate: 0, missed: 1000 },
      // The last rate run, missed: nothing above it forgives it.
      { client: "bun", payload: "small", codec: "protobuf", rate: 1000, missed: 2000 },
    ]);
    expect(
      [
        [true, false],
        [false, true],
        [true, false, false],
        [false, false],
      ].map(stopsClimbing),
    ).toEqual([false, false, true, true]);
    // The opposite figures give the opposite knees.
    const swapped = knees([
      ...[1000, 2000].map((r) => at("json", r)),
      at("custom-binary", 1000),
      at("custom-binary", 2000, { p99: 50e6 }),
    ]);
    expect(swapped.map((k) => [k.codec, k.rate])).toEqual([
      ["json", 2000],
      ["custom-binary", 1000],
    ]);
  });

  it("has nothing to say about a run at one rate", () => {
    expect(knees([at("json", 2000), at("custom-binary", 2000)])).toEqual([]);
    expect(kneeField([at("json", 2000), at("custom-binary", 2000)])).toEqual({});
  });

  it("goes into the results file as its own field", () => {
    const cases = [at("json", 1000), at("json", 2000, { late: 500 })];
    expect(kneeField(cases)).toEqual({
      knees: [{ client: "bun", payload: "small", codec: "json", rate: 1000, missed: 2000 }],
    });
  });
});

describe("the knee, slice by slice", () => {
  it("judges a step by the median of its slices: one slice a pause of the machine hit does not sink it", () => {
    // Four slices at 0.4 ms and one at 40 ms: the step's p99 is 40 ms, its median slice's 0.4 ms.
    const paused = sliced("json", 20_000, [4e5, 4e5, 4e7, 4e5, 4e5]);
    expect(stepLatency(paused)!.p99Ns).toBe(4e5);
    expect(keptRate(paused, 4e5)).toBe(true);
    // Three of five slices slow: that is the codec, not a pause.
    expect(keptRate(sliced("json", 20_000, [4e5, 4e7, 4e7, 4e7, 4e5]), 4e5)).toBe(false);
  });

  it("beside raw, counts only the rates raw kept: where raw missed too, the machine could not keep up", () => {
    const ok = [4e5, 4e5, 4e5, 4e5, 4e5];
    const slow = [4e7, 4e7, 4e7, 4e7, 4e7];
    const cases = [
      ...[1000, 10_000, 20_000].map((r) => sliced("raw", r, ok)),
      sliced("raw", 50_000, slow),
      sliced("raw", 100_000, slow),
      // json misses only where raw misses: beside raw it kept every rate raw kept.
      ...[1000, 10_000, 20_000].map((r) => sliced("json", r, ok)),
      sliced("json", 50_000, slow),
      sliced("json", 100_000, slow),
      // msgpack misses 20,000, which raw kept: that is msgpack's.
      ...[1000, 10_000].map((r) => sliced("msgpack", r, ok)),
      ...[20_000, 50_000, 100_000].map((r) => sliced("msgpack", r, slow)),
    ];
    const found = knees(cases);
    expect(found.find((k) => k.codec === "json")).toEqual({
      client: "bun",
      payload: "small",
      codec: "json",
      rate: 20_000,
      missed: 50_000,
      besideRaw: { rate: 20_000 },
    });
    expect(found.find((k) => k.codec === "msgpack")).toEqual({
      client: "bun",
      payload: "small",
      codec: "msgpack",
      rate: 10_000,
      missed: 20_000,
    });
    expect(found.find((k) => k.codec === "raw")!.besideRaw).toBeUndefined();
  });
});
