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
        return { encode: inner.encode, decode: (d: Uint8Array | string) => (broken ? { ...inner.decode(d), num: 424242 } : inner.decode(d)) };
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

describe("CodecCase read-one", () => {
  const messages = makeMessages("market", { count: 50, seed: 3, fixed: false });

  it("times the routing key of every built-in payload, by readKey where keyAccess says how, and says how", () => {
    for (const name of ["json", "custom-binary"]) {
      const c = new CodecCase(BUILT_IN.get(name)!, "market", messages, ctx);
      c.prepare(() => undefined);
      c.timeSlice({ run: 0, round: 0, position: 0, start: 0, count: 50 });
      const r = c.result(0, "", 1);
      expect(c.error).toBeUndefined();
      expect(r.readOne!.median).toBeGreaterThan(0);
      expect(r.keyAccess).toBe(name === "json" ? "decode" : "offset");
      expect(r.raw[0]!.readOneNs).toBeGreaterThan(0);
    }
  });

  it("fails a case whose readKey gives a wrong key, before timing, naming the message and both keys", () => {
    const json = BUILT_IN.get("json")!;
    const seventh = messages[7] as { seq: number; symbol: string };
    const lying = {
      ...json,
      name: "lying-key",
      keyAccess: "scan" as const,
      // Right on every message but the eighth.
      forPayload: (p: string) => ({ ...json.forPayload(p), readKey: (d: unknown) => (JSON.parse(String(d)).seq === seventh.seq ? "XXX" : JSON.parse(String(d)).symbol) }),
    };
    const c = new CodecCase(lying, "market", messages, ctx);
    c.prepare(() => undefined);
    expect(c.error).toBe(`message #7: read-one gave symbol = "XXX", the message holds ${JSON.stringify(seventh.symbol)}`);
  });

  it("a readKey that breaks after verification is caught in the timed slice; a user's messages, which name no key, have no read-one", () => {
    const json = BUILT_IN.get("json")!;
    let broken = false;
    const late = { ...json, name: "late-key", keyAccess: "scan" as const, forPayload: (p: string) => ({ ...json.forPayload(p), readKey: (d: unknown) => (broken ? "?" : JSON.parse(String(d)).symbol) }) };
    const c = new CodecCase(late, "market", messages, ctx);
    c.prepare(() => undefined);
    expect(c.error).toBeUndefined();
    broken = true;
    c.timeSlice({ run: 0, round: 0, position: 0, start: 40, count: 10 });
    expect(c.error).toMatch(/^timed slice read symbol of message #49 as "\?", not "/);
    const mine = new CodecCase(json, "mine", [{ a: 1 }, { a: 2 }], ctx);
    mine.prepare(() => undefined);
    mine.timeSlice({ run: 0, round: 0, position: 0, start: 0, count: 2 });
    expect(mine.result(0, "", 1).readOne).toBeUndefined();
  });
});

describe("CodecCase validated", () => {
  const messages = makeMessages("chat", { count: 50, seed: 4, fixed: false });

  it("times a decode and the checks its codec's decoder leaves out, and says which", () => {
    for (const [name, adds] of [["json", "validator"], ["protobuf", "ranges"], ["custom-binary", "none"]] as const) {
      const c = new CodecCase(BUILT_IN.get(name)!, "chat", messages, ctx);
      c.prepare(() => undefined);
      c.timeSlice({ run: 0, round: 0, position: 0, start: 0, count: 50 });
      expect(c.error).toBeUndefined();
      const r = c.result(0, "", 1);
      expect(r.addedChecks).toBe(adds);
      expect(r.validated!.median).toBeGreaterThan(0);
    }
  });
});
