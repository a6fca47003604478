/** Codec mode's rounds from several processes, pooled as one run. */
import { BUILT_IN } from "../../../protocols/registry.ts";
import { describe, expect, it } from "vitest";
import type { Clock } from "../../../bench/harness/clock.ts";
import { forkSpans, mergeForks } from "../../../bench/harness/codec-mode-spans.ts";
import { runCodecMode } from "../../../bench/harness/codec-mode.ts";
import { testSettings } from "../../helpers/settings.ts";

describe("forkSpans", () => {
  it("cuts the passes into equal, adjoining spans", () => {
    expect(forkSpans(3, 1)).toEqual([{ from: 0, to: 3 }]);
    expect(forkSpans(3, 3)).toEqual([{ from: 0, to: 1 }, { from: 1, to: 2 }, { from: 2, to: 3 }]);
    expect(forkSpans(2, 4)).toEqual([{ from: 0, to: 0.5 }, { from: 0.5, to: 1 }, { from: 1, to: 1.5 }, { from: 1.5, to: 2 }]);
  });
});

describe("mergeForks", () => {
  const codecs = ["json", "custom-binary", "msgpack"].map((n) => BUILT_IN.get(n)!);
  const clock: Clock = { name: "performance.now", now: () => performance.now() };
  const settings = testSettings({ payloads: ["small", "medium"], iterations: { codec: 400 }, runs: 3, warmup: { codec: 50 }, seed: 5 });
  const fork = (from: number, to: number) => runCodecMode(settings, { codecs, clock, calibration: { resolutionNs: 100, overheadNs: 40 }, span: { from, to } });

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
