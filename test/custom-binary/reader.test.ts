/**
 * Random and mutated input may only ever produce the two documented errors,
 * and the decoder must keep working afterwards. Bounded: a few seconds.
 */
import { describe, expect, it } from "vitest";
import { createRng, makeMessages } from "../../bench/harness/generator.ts";
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

describe("custom-binary fuzz", () => {
  const rng = createRng(20261121);

  it("random bytes: only RangeError or DecodeError", () => {
    for (let i = 0; i < 20_000; i++) {
      const len = Math.floor(rng() * 40);
      const bytes = new Uint8Array(len);
      for (let j = 0; j < len; j++) bytes[j] = Math.floor(rng() * 256);
      // A plausible header half the time, so the fuzzer reaches the fields.
      if (len > 0 && rng() < 0.5) bytes[0] = [0x11, 0x12, 0x13, 0x19, 0x1a, 0x1b][Math.floor(rng() * 6)]!;
      onlyDocumentedErrors(bytes);
    }
    expect(cb.decode(cb.encode(ARTICLE_MESSAGES.large))).toEqual(ARTICLE_MESSAGES.large);
  });

  it("bit flips and byte changes of valid messages: only documented errors, and a decoded result re-encodes to the same bytes", () => {
    const messages = [...makeMessages("small", { count: 50, seed: 7, fixed: false }), ...makeMessages("large", { count: 50, seed: 7, fixed: false })];
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
          if (!Object.values(decoded).some((v) => Number.isNaN(v))) {
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
    const pool = [0x41, 0x7f, 0x80, 0xbf, 0xc0, 0xc2, 0xdf, 0xe0, 0xa0, 0xed, 0x9f, 0xef, 0xf0, 0x90, 0xf4, 0x8f, 0xf5, 0xff, 0xbd];
    for (let i = 0; i < 20_000; i++) {
      const len = 1 + Math.floor(rng() * 6);
      const body = new Uint8Array(len);
      for (let j = 0; j < len; j++) body[j] = pool[Math.floor(rng() * pool.length)]!;
      let valid = true;
      let text = "";
      try {
        text = strictDecoder.decode(body);
      } catch {
        valid = false;
      }
      expect(firstInvalidUtf8(body, 0, len) === -1, Buffer.from(body).toString("hex")).toBe(valid);
      const ascii = body.every((b) => b < 0x80);
      const frame = Uint8Array.from([ascii ? 0x19 : 0x11, len, ...body, 0x05]);
      const outcome = onlyDocumentedErrors(frame);
      expect(outcome, Buffer.from(body).toString("hex")).toBe(valid ? "ok" : "decode");
      if (valid) expect(cb.decode(frame)).toEqual({ text, num: 5 });
    }
  });
});
