/**
 * The browser strategy of custom-binary/utf8.ts (no Buffer methods: strings
 * in JavaScript, TextDecoder/TextEncoder for long ones), run here by loading
 * the module while Buffer is hidden. The page's end-to-end test covers it in
 * a real browser too.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { makeMessages } from "../../client/harness/generator.ts";
import { createRng } from "../../client/harness/random.ts";
import { ARTICLE_MESSAGES } from "../../protocols/messages.ts";
import type { Message } from "../../custom-binary/index.ts";

type CustomBinaryModule = typeof import("../../custom-binary/index.ts");
type Utf8Module = typeof import("../../custom-binary/utf8.ts");
let cb: ReturnType<CustomBinaryModule["createCustomBinary"]>;
let DecodeErrorClass: CustomBinaryModule["DecodeError"];
let utf8: Utf8Module;

beforeAll(async () => {
  const g = globalThis as { Buffer?: unknown };
  const saved = g.Buffer;
  delete g.Buffer;
  try {
    utf8 = await import("../../custom-binary/utf8.ts");
    const mod = await import("../../custom-binary/index.ts");
    cb = mod.createCustomBinary();
    DecodeErrorClass = mod.DecodeError;
  } finally {
    g.Buffer = saved;
  }
});

describe("custom-binary without Buffer methods (the browser strategy)", () => {
  it("is the JavaScript strategy", () => {
    expect(utf8.NATIVE_STRINGS).toBe(false);
    expect(utf8.NATIVE_WRITE_MIN_LENGTH).toBe(512);
  });

  it("round-trips the article's messages to the spec's bytes, and varied ones exactly", () => {
    expect(Array.from(cb.encode(ARTICLE_MESSAGES.small))).toEqual([
      0x29,
      0x0c,
      ...new TextEncoder().encode("Hello World!"),
      0x7b,
    ]);
    const messages: Message[] = [
      ...makeMessages("small", { count: 200, seed: 4, fixed: false }),
      ...makeMessages("medium", { count: 200, seed: 4, fixed: false }),
      ...makeMessages("large", { count: 200, seed: 4, fixed: false }),
      { text: "é".repeat(300), text2: "x".repeat(400), num: 1, decimal: 2 },
      { text: "😀".repeat(100), num: 7 },
      // All ASCII, so flagged: one span of 13+ bytes (built from an array) and one of 64+ (TextDecoder).
      { text: "a".repeat(20), text2: "b".repeat(30), num: 3, decimal: 1.5 },
      { text: "x".repeat(300), num: 2 },
    ];
    for (const m of messages) expect(cb.decode(cb.encode(m))).toEqual(m);
  });

  it("agrees with a strict TextDecoder on random byte strings, short and long", () => {
    const rng = createRng(99);
    const strict = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
    const pool = [
      0x41, 0x7f, 0x80, 0xbf, 0xc2, 0xdf, 0xe0, 0xa0, 0xed, 0x9f, 0xef, 0xf0, 0x90, 0xf4, 0x8f, 0xf5, 0xff, 0xc0,
    ];
    for (let i = 0; i < 5000; i++) {
      const len = 1 + Math.floor(rng() * (i % 10 === 0 ? 300 : 8));
      const body = new Uint8Array(len);
      for (let j = 0; j < len; j++) body[j] = rng() < 0.7 ? 0x61 : pool[Math.floor(rng() * pool.length)]!;
      let expected: string | undefined;
      try {
        expected = strict.decode(body);
      } catch {
        expected = undefined;
      }
      if (expected === undefined) {
        let thrown: unknown;
        try {
          utf8.readUtf8(body, 0, len);
        } catch (e) {
          thrown = e;
        }
        // The same error the spec's byte-by-byte check names.
        expect(thrown).toBeInstanceOf(DecodeErrorClass);
        const bad = utf8.firstInvalidUtf8(body, 0, len);
        expect(thrown).toMatchObject({ code: "INVALID_UTF8", offset: bad, byte: body[bad] });
      } else {
        expect(utf8.readUtf8(body, 0, len)).toBe(expected);
      }
      const ascii = body.every((b) => b < 0x80);
      expect(utf8.decodeAscii(body, 0, len)).toBe(ascii ? expected : undefined);
    }
  });

  it("refuses a flagged message with non-ASCII bytes and truncation the same way", () => {
    expect(() => cb.decode(Uint8Array.from([0x29, 0x02, 0xc3, 0xa9, 0x00]))).toThrow(/NOT_ASCII/);
    for (const length of [20, 100]) {
      // A long flagged span with one valid two-byte character at string offset 15.
      const body = new Array<number>(length).fill(0x61);
      body[15] = 0xc3;
      body[16] = 0xa9;
      expect(() => cb.decode(Uint8Array.from([0x29, length, ...body, 0x00]))).toThrow(
        expect.objectContaining({ code: "NOT_ASCII", offset: 2 + 15 }),
      );
    }
    expect(() => cb.decode(Uint8Array.from([0x21, 0x02, 0x41, 0x42, 0x00]))).toThrow(/ASCII_FLAG_MISSING/);
    expect(() => cb.decode(Uint8Array.from([0x29, 0x05, 0x41]))).toThrow(RangeError);
    expect(() => cb.encode({ text: "a\uD800", num: 1 })).toThrow(/lone UTF-16 surrogate/);
  });
});
