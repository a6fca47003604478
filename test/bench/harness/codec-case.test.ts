/** One codec-mode case's timed slices, at their edges. */
import { BUILT_IN } from "../../../protocols/registry.ts";
import { describe, expect, it } from "vitest";
import { performanceClock } from "../../../bench/harness/clock.ts";
import { CodecCase } from "../../../bench/harness/codec-case.ts";
import { makeMessages } from "../../../bench/harness/generator.ts";

const ctx = { clock: performanceClock, calibration: { resolutionNs: 100, overheadNs: 40 }, iterations: 50, warmup: 10, client: "inprocess" as const, clientLibrary: "" };

describe("CodecCase.timeSlice", () => {
  for (const count of [1, 2, 3]) {
    it(`a slice of ${count} message(s) (the last of a pass can be that short) is timed and spot-checked`, () => {
      const c = new CodecCase(BUILT_IN.get("json")!, "small", makeMessages("small", { count: 50, seed: 3, fixed: false }), ctx);
      c.prepare(() => undefined);
      expect(c.error).toBeUndefined();
      c.timeSlice({ run: 0, round: 0, position: 0, start: 50 - count, count });
      expect(c.error).toBeUndefined();
      const r = c.result(0, "", 1);
      expect(r.rounds).toBe(1);
      expect(r.total.mean).toBeGreaterThan(0);
    });
  }

  it("still catches a codec whose timed slice decodes wrongly", () => {
    const json = BUILT_IN.get("json")!;
    let broken = false;
    const lateBreak = {
      ...json,
      name: "breaks-after-verify",
      forPayload: (p: "small") => {
        const inner = json.forPayload(p);
        // Right through verification and warm-up; wrong once `broken` is set.
        return { encode: inner.encode, decode: (d: Uint8Array | string) => (broken ? { ...inner.decode(d), num: -1 } : inner.decode(d)) };
      },
    };
    const c = new CodecCase(lateBreak, "small", makeMessages("small", { count: 50, seed: 3, fixed: false }), ctx);
    c.prepare(() => undefined);
    expect(c.error).toBeUndefined();
    broken = true;
    c.timeSlice({ run: 0, round: 0, position: 0, start: 49, count: 1 });
    expect(c.error).toMatch(/^timed slice decoded message #49 wrongly/);
  });
});
