/** One codec-mode case: its verifying pass, and its timed slices at their edges. */
import { BUILT_IN } from "../../../protocols/registry.ts";
import { describe, expect, it } from "vitest";
import { performanceClock } from "../../../client/harness/clock.ts";
import { CodecCase } from "../../../client/harness/codec-case.ts";
import { makeMessages } from "../../../client/harness/generator.ts";
import type { Codec, Encoded } from "../../../protocols/codec.ts";
import type { Message } from "../../../protocols/messages.ts";

const ctx = {
  clock: performanceClock,
  calibration: { resolutionNs: 100, overheadNs: 40 },
  iterations: 50,
  warmup: 10,
  client: "inprocess" as const,
  clientLibrary: "",
};

/** A slice of messages [start, start + count) in round `round`, each read-one loop reading `readOneSlices` slices. */
const slice = (round: number, start: number, count: number, readOneSlices = 1) => ({
  run: 0,
  round,
  position: 0,
  start,
  count,
  readOneSlices,
});

/** `codec` with its decode (or another of its payload codec's functions) changed once `when()` holds. */
function breaksLater(
  codec: Codec,
  name: string,
  when: () => boolean,
  change: (pc: ReturnType<Codec["forPayload"]>) => Partial<ReturnType<Codec["forPayload"]>>,
): Codec {
  return {
    ...codec,
    name,
    forPayload: (p) => {
      const inner = codec.forPayload(p);
      const changed = change(inner);
      return new Proxy(inner, {
        get: (target, key: string) =>
          when() && key in changed
            ? changed[key as keyof typeof changed]
            : (target as unknown as Record<string, unknown>)[key],
      });
    },
  };
}

describe("CodecCase's verifying pass", () => {
  it("checks every message before timing, and fails a codec that breaks one message in 10,000, naming it", () => {
    const messages = makeMessages("small", { count: 10_000, seed: 3, fixed: false });
    const json = BUILT_IN.get("json")!;
    const target = messages[7_321]!;
    // Wrong on one message only: its num comes back one higher.
    const oneInTenThousand: Codec = {
      ...json,
      name: "one-in-10000",
      forPayload: (p) => {
        const inner = json.forPayload(p);
        return {
          ...inner,
          decode: (d: Encoded) => {
            const m = inner.decode(d) as { text: string; num: number };
            return m.text === (target as { text: string }).text ? { ...m, num: m.num + 1 } : m;
          },
        };
      },
    };
    const c = new CodecCase(oneInTenThousand, "small", messages, { ...ctx, iterations: 10_000 });
    c.prepare(() => undefined);
    expect(c.error).toBe(
      `message #7321 did not round-trip: field 'num': expected ${(target as { num: number }).num}, got ${(target as { num: number }).num + 1}`,
    );
    expect(c.result(0, "", 1).verified).toBe(false);
  });

  it("sizes every message, estimates a call's cost, and goes round the messages again for a longer warm-up", () => {
    const messages = makeMessages("medium", { count: 50, seed: 3, fixed: false });
    const stages: string[] = [];
    const c = new CodecCase(BUILT_IN.get("custom-binary")!, "medium", messages, { ...ctx, warmup: 200 });
    c.prepare((s) => stages.push(s));
    expect(c.error).toBeUndefined();
    expect(stages).toEqual(["verify", "warmup"]);
    expect(c.encodeCallNs).toBeGreaterThan(0);
    expect(c.decodeCallNs).toBeGreaterThan(0);
    expect(c.readOneCallNs).toBeGreaterThan(0);
    c.timeSlice(slice(0, 0, 50));
    const r = c.result(0, "", 1);
    expect(r.bytes).toBe(76);
    expect([r.bytesMin, r.bytesMax]).toEqual([76, 76]);
  });

  it("warms the serialize and deserialize loops on exactly `warmup` messages, the echo's on `othersWarmup`; a throw there fails the case", () => {
    const messages = makeMessages("small", { count: 50, seed: 3, fixed: false });
    const json = BUILT_IN.get("json")!;
    const calls = { encode: 0, decode: 0 };
    let throwAt = Infinity;
    const counting: Codec = {
      ...json,
      name: "counting",
      forPayload: (p) => {
        const inner = json.forPayload(p);
        return {
          ...inner,
          encode: (m) => {
            if (++calls.encode === throwAt) throw new Error("worn out");
            return inner.encode(m);
          },
          decode: (f) => {
            calls.decode++;
            return inner.decode(f);
          },
        };
      },
    };
    // Without the echo and validated loops' warm-up (`othersWarmup`), which calls the codec too.
    const c2 = new CodecCase(counting, "small", messages, { ...ctx, warmup: 1_234, othersWarmup: 0 });
    c2.prepare(() => {});
    expect(c2.error).toBeUndefined();
    expect(calls).toEqual({ encode: 1_234, decode: 1_234 });
    // With the echo's warm-up on the first 30 messages of the pass (not a whole chunk): 30 encodes more.
    calls.encode = calls.decode = 0;
    new CodecCase(counting, "small", messages, { ...ctx, warmup: 1_234, othersWarmup: 30 }).prepare(() => {});
    expect(calls.encode).toBe(1_234 + 30);

    calls.encode = calls.decode = 0;
    throwAt = 700;
    const c3 = new CodecCase(counting, "small", messages, { ...ctx, warmup: 1_234, othersWarmup: 0 });
    c3.prepare(() => {});
    expect(c3.error).toMatch(/^a message from #\d+ to #\d+ threw in the warm-up: Error: worn out$/);
  });
});

describe("CodecCase.timeSlice", () => {
  for (const count of [1, 2, 3]) {
    it(`a slice of ${count} message(s) (the last of a span can be that short) is timed and checked`, () => {
      const c = new CodecCase(
        BUILT_IN.get("json")!,
        "small",
        makeMessages("small", { count: 50, seed: 3, fixed: false }),
        ctx,
      );
      c.prepare(() => undefined);
      expect(c.error).toBeUndefined();
      c.timeSlice(slice(0, 50 - count, count));
      expect(c.error).toBeUndefined();
      const r = c.result(0, "", 1);
      expect(r.rounds).toBe(1);
      expect(r.total.mean).toBeGreaterThan(0);
    });
  }

  it("the echo, read-one and validated loops read the frames of the slices before: none in the first round, then each as its slices exist", () => {
    const messages = makeMessages("market", { count: 60, seed: 3, fixed: false });
    const c = new CodecCase(BUILT_IN.get("protobuf")!, "market", messages, ctx);
    c.prepare(() => undefined);
    for (let k = 0; k < 5; k++) c.timeSlice(slice(k, 10 * k, 10, 2));
    expect(c.error).toBeUndefined();
    const raw = c.result(0, "", 5).raw;
    const has = (f: "echoNs" | "readOneNs" | "validatedNs") => raw.map((r) => r[f] !== undefined);
    // Echo: from the slice before; read-one: the two slices from two before (two and three before); validated: three before.
    expect(has("echoNs")).toEqual([false, true, true, true, true]);
    expect(has("readOneNs")).toEqual([false, false, false, true, true]);
    expect(has("validatedNs")).toEqual([false, false, false, true, true]);
  });

  it("catches a codec whose timed slice decodes wrongly, naming the round and the message", () => {
    let broken = false;
    const late = breaksLater(
      BUILT_IN.get("json")!,
      "breaks-after-verify",
      () => broken,
      (inner) => ({ decode: (d: Encoded) => ({ ...(inner.decode(d) as object), num: 424242 }) as Message }),
    );
    const c = new CodecCase(late, "small", makeMessages("small", { count: 50, seed: 3, fixed: false }), ctx);
    c.prepare(() => undefined);
    expect(c.error).toBeUndefined();
    broken = true;
    c.timeSlice(slice(0, 49, 1));
    expect(c.error).toMatch(/^round 1's decode gave message #49 wrongly: field 'num'/);
    expect(c.result(0, "", 1).verified).toBe(false);
  });

  it("catches an echo that gives other bytes which decode to another message", () => {
    let broken = false;
    const late = breaksLater(
      BUILT_IN.get("json")!,
      "echo-breaks",
      () => broken,
      (inner) => ({ encode: (m: Message) => inner.encode({ ...(m as object), num: 1 } as Message) }),
    );
    const c = new CodecCase(late, "small", makeMessages("small", { count: 50, seed: 3, fixed: false }), ctx);
    c.prepare(() => undefined);
    c.timeSlice(slice(0, 0, 10));
    broken = true;
    c.timeSlice(slice(1, 10, 10));
    // The decode of the round's own frames holds (they were encoded wrongly too): the first wrong one named is the round's.
    expect(c.error).toMatch(/^round 2/);
  });
});

describe("CodecCase read-one", () => {
  const messages = makeMessages("market", { count: 50, seed: 3, fixed: false });

  it("times the routing key of every built-in payload, by readKey where keyAccess says how, and says how", () => {
    for (const name of ["json", "custom-binary"]) {
      const c = new CodecCase(BUILT_IN.get(name)!, "market", messages, ctx);
      c.prepare(() => undefined);
      for (let k = 0; k < 3; k++) c.timeSlice(slice(k, 10 * k, 10));
      const r = c.result(0, "", 3);
      expect(c.error).toBeUndefined();
      expect(r.readOne!.median).toBeGreaterThan(0);
      expect(r.keyAccess).toBe(name === "json" ? "decode" : "offset");
      expect(r.raw[2]!.readOneNs).toBeGreaterThan(0);
    }
  });

  it("fails a case whose readKey gives a wrong key, before timing, naming the message and both keys", () => {
    const json = BUILT_IN.get("json")!;
    const eighth = messages[47] as { seq: number; symbol: string };
    const lying: Codec = {
      ...json,
      name: "lying-key",
      keyAccess: "scan",
      // Right on every message but #47, past the warm-up's first messages: every key is checked.
      forPayload: (p) => ({
        ...json.forPayload(p),
        readKey: (d: Encoded) => (JSON.parse(String(d)).seq === eighth.seq ? "XXX" : JSON.parse(String(d)).symbol),
      }),
    };
    const c = new CodecCase(lying, "market", messages, ctx);
    c.prepare(() => undefined);
    expect(c.error).toBe(`read-one read symbol of message #47 as "XXX", not ${JSON.stringify(eighth.symbol)}`);
  });

  it("a readKey that breaks after verification is caught in the timed slice; a user's messages, which name no key, have no read-one", () => {
    let broken = false;
    const json = BUILT_IN.get("json")!;
    const late: Codec = {
      ...json,
      name: "late-key",
      keyAccess: "scan",
      forPayload: (p) => ({
        ...json.forPayload(p),
        readKey: (d: Encoded) => (broken ? "?" : JSON.parse(String(d)).symbol),
      }),
    };
    const c = new CodecCase(late, "market", messages, ctx);
    c.prepare(() => undefined);
    expect(c.error).toBeUndefined();
    c.timeSlice(slice(0, 0, 10));
    c.timeSlice(slice(1, 10, 10));
    broken = true;
    c.timeSlice(slice(2, 20, 10));
    expect(c.error).toMatch(/^round 3 read symbol of message #0 as "\?", not "/);
    const mine = new CodecCase(json, "mine", [{ a: 1 }, { a: 2 }], ctx);
    mine.prepare(() => undefined);
    mine.timeSlice(slice(0, 0, 2));
    expect(mine.result(0, "", 1).readOne).toBeUndefined();
  });
});

describe("CodecCase validated", () => {
  const messages = makeMessages("chat", { count: 50, seed: 4, fixed: false });

  it("times a decode and the checks its codec's decoder leaves out, and says which", () => {
    for (const [name, adds] of [
      ["json", "validator"],
      ["protobuf", "ranges"],
      ["custom-binary", "none"],
    ] as const) {
      const c = new CodecCase(BUILT_IN.get(name)!, "chat", messages, ctx);
      c.prepare(() => undefined);
      for (let k = 0; k < 4; k++) c.timeSlice(slice(k, 10 * k, 10));
      expect(c.error).toBeUndefined();
      const r = c.result(0, "", 4);
      expect(r.addedChecks).toBe(adds);
      expect(r.validated!.median).toBeGreaterThan(0);
    }
  });
});
