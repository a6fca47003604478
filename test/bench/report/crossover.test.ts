/** --link-sweep's answer (bench/report/crossover.ts): where the smaller codec overtakes the faster one, measured and predicted. */
import { describe, expect, it } from "vitest";
import {
  crossoverVerdict,
  fastAndSmall,
  measuredCrossoverKbps,
  predictedCrossoverKbps,
  sweepLines,
  type SweepStep,
} from "../../../bench/report/crossover.ts";
import type { CaseResult } from "../../../client/harness/results.ts";

const fast = { codec: "json", msgsPerS: 50_000, wireBytes: 335 };
const small = { codec: "msgpackr", msgsPerS: 40_000, wireBytes: 285 };

describe("the crossover", () => {
  it("predicted: below 8 x the faster codec's frame bytes x the smaller codec's loopback rate", () => {
    expect(predictedCrossoverKbps(fast, small)).toBeCloseTo((8 * 335 * 40_000) / 1000);
    // One codec both fastest and smallest, or the "small" one faster: nothing to cross.
    expect(predictedCrossoverKbps(fast, fast)).toBeNaN();
    expect(predictedCrossoverKbps(small, fast)).toBeNaN();
  });

  it("measured: between the last step the faster codec won and the first from which the smaller always did", () => {
    const steps: SweepStep[] = [
      { kbps: 1_000, fast: 300, small: 400 },
      { kbps: 100_000, fast: 40_000, small: 35_000 },
      { kbps: 30_000, fast: 11_000, small: 13_000 },
      { kbps: 10_000, fast: 3_700, small: 4_300 },
    ];
    expect(measuredCrossoverKbps(steps)).toBeCloseTo(Math.sqrt(100_000 * 30_000));
    // Where the smaller codec wins, then loses at a slower link, the crossover lies below that loss.
    const noisy = [
      ...steps,
      { kbps: 300_000, fast: 45_000, small: 46_000 },
      { kbps: 3_000, fast: 1_200, small: 1_100 },
    ];
    expect(measuredCrossoverKbps(noisy)).toBeCloseTo(Math.sqrt(3_000 * 1_000));
    expect(measuredCrossoverKbps([{ kbps: 1_000, fast: 1, small: 2 }])).toBe(Number.POSITIVE_INFINITY);
    expect(measuredCrossoverKbps([{ kbps: 1_000, fast: 2, small: 1 }])).toBeNaN();
  });

  it("says the answer in one line", () => {
    const steps = [
      { kbps: 100_000, fast: 40_000, small: 35_000 },
      { kbps: 10_000, fast: 3_700, small: 4_300 },
    ];
    const base = { payload: "large", fast, small, predictedKbps: 107_200, ceilingKbps: 500_000, steps };
    expect(crossoverVerdict({ ...base, measuredKbps: measuredCrossoverKbps(steps) })).toBe(
      "large: below 31.6 Mbit/s, msgpackr beats json: bytes outweigh CPU",
    );
    expect(crossoverVerdict({ ...base, measuredKbps: Number.NaN })).toBe(
      "large: json beats msgpackr down to 10 Mbit/s, the slowest link tried: CPU outweighs bytes there",
    );
    expect(crossoverVerdict({ ...base, measuredKbps: Number.POSITIVE_INFINITY })).toBe(
      "large: msgpackr beats json on every link tried: bytes outweigh CPU",
    );
    // Predicted above what the emulator carries, and the smaller codec already wins below it.
    expect(crossoverVerdict({ ...base, ceilingKbps: 80_000, measuredKbps: Number.POSITIVE_INFINITY })).toBe(
      "large: below 107 Mbit/s (predicted; the emulator carries up to 80 Mbit/s here, where msgpackr already wins), msgpackr beats json: bytes outweigh CPU",
    );
    // A machine so busy the emulator carries less than every step: no step ran.
    expect(crossoverVerdict({ ...base, steps: [], ceilingKbps: 900, measuredKbps: Number.NaN })).toBe(
      "large: the emulator carries only 900 kbit/s here, too little for any step; no crossover measured (predicted below 107 Mbit/s)",
    );
    expect(crossoverVerdict({ ...base, small: fast, measuredKbps: Number.NaN })).toBe(
      "large: json is both the fastest and the smallest; no link speed changes the answer",
    );
  });
});

describe("the two codecs a sweep compares", () => {
  const caseOf = (codec: string, msgsPerS: number, wireBytes: number, verified = true) =>
    ({ codec, msgsPerS, verified, socket: { wireBytes } }) as unknown as CaseResult;

  it("the fastest by stream rate and the smallest on the wire (the faster of a tie), leaving out raw and failed cases", () => {
    const pair = fastAndSmall([
      caseOf("json", 90_000, 337),
      caseOf("protobuf", 87_000, 237),
      caseOf("avro", 60_000, 237),
      caseOf("raw", 200_000, 10),
      caseOf("broken", 500_000, 1, false),
    ]);
    expect(pair?.fast.codec).toBe("json");
    expect(pair?.small).toEqual({ codec: "protobuf", msgsPerS: 87_000, wireBytes: 237 });
    expect(fastAndSmall([caseOf("raw", 1, 1)])).toBeUndefined();
  });

  it("prints each step with each codec's share of the link, and the verdicts last", () => {
    const c = {
      payload: "large",
      fast,
      small,
      predictedKbps: 107_200,
      ceilingKbps: 500_000,
      measuredKbps: 31_623,
      steps: [{ kbps: 10_000, fast: 3_000, small: 4_000 }],
      verdict: "large: below 31.6 Mbit/s, msgpackr beats json: bytes outweigh CPU",
    };
    const lines = sweepLines([c]);
    // 3,000 msgs/s of 335-byte frames: 8.04 Mbit/s of 10.
    expect(lines).toContain("     10 Mbit/s  json    3,000 (80%)  msgpackr    4,000 (91%)  msgpackr");
    expect(lines.at(-1)).toBe(`  ${c.verdict}`);
  });
});
