/**
 * Random and mutated input may only ever produce the two documented errors,
 * and the decoder must keep working afterwards. Bounded: a few seconds.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { makeMessages } from "../../client/harness/generator.ts";
import { createRng } from "../../client/harness/random.ts";
import { ARTICLE_MESSAGES } from "../../protocols/messages.ts";
import { createCustomBinary, DecodeError } from "../../custom-binary/index.ts";
import { firstInvalidUtf8 } from "../../custom-binary/utf8.ts";

const cb = createCustomBinary();
const strictDecoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

function onlyDocumentedErrors(bytes: Uint8Array): "ok" | "range" | "decode" {
  try {
    cb.decode(bytes);
    return "ok";
  } catch (e) {
    if (e instanceof RangeError) return "range";
    if (e instanceof DecodeError) return "decode";
    throw new Error(`undocumented error for ${Buffer.from(bytes).toString("hex")}: ${String(e)}`);
  }
}

/** A NaN anywhere in a decoded message, nested arrays and objects included. */
function hasNaN(v: unknown): boolean {
  if (typeof v === "number") return Number.isNaN(v);
  return typeof v === "object" && v !== null && Object.values(v).some(hasNaN);
}

describe("custom-binary fuzz", () => {
  const rng = createRng(20261121);

  // Fixed seeds: a failure names its seed and its shrunk counterexample, and reproduces.
  const runs = (numRuns: number, seed: number): fc.Parameters<unknown> => ({ numRuns, seed });

  it("random bytes: only RangeError or DecodeError", () => {
    // A plausible header half the time, so the property reaches the fields.
    const frame = fc
      .tuple(
        fc.option(fc.constantFrom(0x21, 0x22, 0x23, 0x24, 0x25, 0x26, 0x29, 0x2a, 0x2b, 0x2c, 0x2d, 0x2e), {
          nil: undefined,
        }),
        fc.uint8Array({ maxLength: 80 }),
      )
      .map(([header, rest]) =>
        header === undefined || rest.length === 0 ? rest : Uint8Array.from([header, ...rest.subarray(1)]),
      );
    fc.assert(
      fc.property(frame, (bytes) => void onlyDocumentedErrors(bytes)),
      runs(20_000, 20261121),
    );
    expect(cb.decode(cb.encode(ARTICLE_MESSAGES.large))).toEqual(ARTICLE_MESSAGES.large);
  });

  it("any well-formed strings and in-range numbers round-trip exactly, in every layout", () => {
    const text = fc.string({ unit: "grapheme", maxLength: 40 });
    const large = fc.record({
      text,
      text2: fc.string({ unit: "grapheme", maxLength: 200 }),
      text3: text,
      text4: text,
      num: fc.nat({ max: 0xffffffff }),
      decimal: fc.double(),
      num2: fc.integer({ min: -0x80000000, max: 0x7fffffff }),
      decimal2: fc.double(),
    });
    fc.assert(
      fc.property(large, (m) => {
        expect(cb.decode(cb.encode(m))).toEqual(m);
        const small = { text: m.text, num: m.num };
        expect(cb.decode(cb.encode(small))).toEqual(small);
      }),
      runs(3000, 7),
    );
  });

  it("any in-range chat, game-tick and market message round-trips exactly, optional fields and -0 included", () => {
    const u53 = fc.maxSafeNat();
    const u32 = fc.nat({ max: 0xffffffff });
    const text = fc.string({ unit: "grapheme", maxLength: 60 });
    const chat = fc.record(
      {
        id: u32,
        room: u32,
        user: text,
        text: fc.string({ unit: "grapheme", maxLength: 300 }),
        sentAt: u53,
        reactions: fc.array(fc.record({ emoji: text, count: u32 }), { maxLength: 5 }),
        replyTo: u32,
        editedAt: u53,
      },
      { requiredKeys: ["id", "room", "user", "text", "sentAt", "reactions"] },
    );
    const double = fc.oneof(fc.double(), fc.constant(0), fc.constant(-0));
    const entity = fc.record({
      id: u32,
      state: fc.integer({ min: 0, max: 3 }),
      x: double,
      y: double,
      z: double,
      vx: double,
      vy: double,
      vz: double,
    });
    const tick = fc.record({ match: u32, tick: u32, entities: fc.array(entity, { maxLength: 20 }) });
    const market = fc.record({
      symbol: text,
      seq: u53,
      ts: u53,
      bid: fc.double(),
      bidSize: fc.double(),
      ask: fc.double(),
      askSize: fc.double(),
    });
    fc.assert(
      fc.property(fc.oneof(chat, tick, market), (m) => {
        const decoded = cb.decode(cb.encode(m));
        expect(decoded).toEqual(m);
        expect(Object.keys(decoded).sort()).toEqual(Object.keys(m).sort());
      }),
      runs(3000, 8),
    );
  });

  it("a string with a lone surrogate is refused by the encoder, never written as something else", () => {
    const lone = fc
      .tuple(fc.string({ maxLength: 5 }), fc.integer({ min: 0xd800, max: 0xdfff }), fc.string({ maxLength: 5 }))
      .map(([a, s, b]) => a + String.fromCharCode(s) + b)
      .filter((s) => !s.isWellFormed());
    fc.assert(
      fc.property(lone, (text) => void expect(() => cb.encode({ text, num: 1 })).toThrow(/lone UTF-16 surrogate/)),
      runs(2000, 11),
    );
  });

  /** Index of the first surrogate that is not half of a pair. */
  const firstLone = (text: string): number => {
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c < 0xd800 || c > 0xdfff) continue;
      const next = text.charCodeAt(i + 1);
      if (c <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) i++;
      else return i;
    }
    return -1;
  };

  it("long strings too (the native writer's path), named at the surrogate's index, with ASCII or not around it", () => {
    const around = fc.oneof(
      fc.string({ minLength: 16, maxLength: 60 }),
      fc.string({ unit: "binary", minLength: 16, maxLength: 60 }),
    );
    const lone = fc
      .tuple(around, fc.integer({ min: 0xd800, max: 0xdfff }), fc.string({ maxLength: 10 }))
      .filter(([a, s, b]) => a.isWellFormed() && b.isWellFormed() && !(a + String.fromCharCode(s) + b).isWellFormed());
    fc.assert(
      fc.property(lone, ([a, s, b]) => {
        const text = a + String.fromCharCode(s) + b;
        expect(() => cb.encode({ text, num: 1 })).toThrow(
          new RegExp(`lone UTF-16 surrogate at index ${firstLone(text)}\\b`),
        );
      }),
      runs(2000, 12),
    );
  });

  it("bit flips and byte changes of valid messages: only documented errors, and a decoded result re-encodes to the same bytes", () => {
    const messages = (["small", "large", "chat", "game-tick", "market"] as const).flatMap((p) =>
      makeMessages(p, { count: 40, seed: 7, fixed: false }),
    );
    const outcomes = { ok: 0, range: 0, decode: 0 };
    for (const message of messages) {
      const valid = cb.encode(message);
      for (let k = 0; k < 100; k++) {
        const bytes = valid.slice();
        const at = Math.floor(rng() * bytes.length);
        if (rng() < 0.5) bytes[at]! ^= 1 << Math.floor(rng() * 8);
        else bytes[at] = Math.floor(rng() * 256);
        const outcome = onlyDocumentedErrors(bytes);
        outcomes[outcome]++;
        if (outcome === "ok") {
          // Whatever decodes is canonical: one message, one encoding (NaN
          // payload bits aside, which engines need not preserve).
          const decoded = cb.decode(bytes);
          if (!hasNaN(decoded)) {
            expect(Array.from(cb.encode(decoded))).toEqual(Array.from(bytes));
          }
        }
      }
    }
    expect(outcomes.ok).toBeGreaterThan(0);
    expect(outcomes.decode).toBeGreaterThan(0);
    expect(outcomes.range).toBeGreaterThan(0);
  });

  it("UTF-8 validation agrees with a strict TextDecoder on random strings", () => {
    const pool = [
      0x41, 0x7f, 0x80, 0xbf, 0xc0, 0xc2, 0xdf, 0xe0, 0xa0, 0xed, 0x9f, 0xef, 0xf0, 0x90, 0xf4, 0x8f, 0xf5, 0xff, 0xbd,
    ];
    const body = fc
      .array(fc.constantFrom(...pool), { minLength: 1, maxLength: 6 })
      .map((bytes) => Uint8Array.from(bytes));
    fc.assert(
      fc.property(body, (b) => {
        let valid = true;
        let text = "";
        try {
          text = strictDecoder.decode(b);
        } catch {
          valid = false;
        }
        expect(firstInvalidUtf8(b, 0, b.length) === -1).toBe(valid);
        const ascii = b.every((x) => x < 0x80);
        const frame = Uint8Array.from([ascii ? 0x29 : 0x21, b.length, ...b, 0x05]);
        expect(onlyDocumentedErrors(frame)).toBe(valid ? "ok" : "decode");
        if (valid) expect(cb.decode(frame)).toEqual({ text, num: 5 });
      }),
      runs(20_000, 20261122),
    );
  });
});
