/**
 * The browser strategy of custom-binary/utf8.ts (no Buffer methods: strings
 * in JavaScript, TextDecoder/TextEncoder for long ones), run here by loading
 * the module while Buffer is hidden. The page's end-to-end test covers it in
 * a real browser too.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { createRng, makeMessages } from "../../bench/harness/generator.ts";
import { ARTICLE_MESSAGES, type Message } from "../../protocols/messages.ts";

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
    expect(utf8.NATIVE_WRITE_MIN_LENGTH).toBe(256);
  });

  it("round-trips the article's messages to the spec's bytes, and varied ones exactly", () => {
    expect(Array.from(cb.encode(ARTICLE_MESSAGES.small))).toEqual([0x19, 0x0c, ...new TextEncoder().encode("Hello World!"), 0x7b]);
    const messages: Message[] = [
      ...makeMessages("small", { count: 200, seed: 4, fixed: false }),
      ...makeMessages("medium", { count: 200, seed: 4, fixed: false }),
      ...makeMessages("large", { count: 200, seed: 4, fixed: false }),
      { text: "é".repeat(300), text2: "x".repeat(400), num: 1, decimal: 2 },
      { text: "😀".repeat(100), num: 7 },
    ];
    for (const m of messages) expect(cb.decode(cb.encode(m))).toEqual(m);
  });

  it("agrees with a strict TextDecoder on random byte strings, short and long", () => {
    const rng = createRng(99);
    const strict = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
    const pool = [0x41, 0x7f, 0x80, 0xbf, 0xc2, 0xdf, 0xe0, 0xa0, 0xed, 0x9f, 0xef, 0xf0, 0x90, 0xf4, 0x8f, 0xf5, 0xff, 0xc0];
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
        expect(() => utf8.readUtf8(body, 0, len)).toThrow(DecodeErrorClass);
      } else {
        expect(utf8.readUtf8(body, 0, len)).toBe(expected);
      }
      const ascii = body.every((b) => b < 0x80);
      expect(utf8.decodeAscii(body, 0, len) === undefined).toBe(!ascii);
    }
  });

  it("refuses a flagged message with non-ASCII bytes and truncation the same way", () => {
    expect(() => cb.decode(Uint8Array.from([0x19, 0x02, 0xc3, 0xa9, 0x00]))).toThrow(/NOT_ASCII/);
    expect(() => cb.decode(Uint8Array.from([0x11, 0x02, 0x41, 0x42, 0x00]))).toThrow(/ASCII_FLAG_MISSING/);
    expect(() => cb.decode(Uint8Array.from([0x19, 0x05, 0x41]))).toThrow(RangeError);
    expect(() => cb.encode({ text: "a\uD800", num: 1 })).toThrow(/lone UTF-16 surrogate/);
  });
});
