import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { makeMessages } from "../../client/harness/generator.ts";
import { ARTICLE_MESSAGES } from "../../protocols/messages.ts";
import { SET_EXAMPLES } from "../../protocols/message-sets.ts";
import { type Message, createCustomBinary, DecodeError, EncodeError } from "../../custom-binary/index.ts";

const cb = createCustomBinary("copy");
const hex = (s: string): Uint8Array =>
  Uint8Array.from(
    s
      .trim()
      .split(/\s+/)
      .map((h) => parseInt(h, 16)),
  );

/** The hex blocks of docs/custom-binary.md's "Test vectors", comments stripped. */
function specVectors(): Map<string, Uint8Array> {
  const doc = readFileSync(new URL("../../docs/custom-binary.md", import.meta.url), "utf8");
  const section = doc.slice(doc.indexOf("## Test vectors"), doc.indexOf("## Sizes"));
  const out = new Map<string, Uint8Array>();
  const re = /\*\*([a-zA-Z -]+)\*\*:[\s\S]*?```\n([\s\S]*?)```/g;
  for (const m of section.matchAll(re)) {
    const bytes = m[2]!
      .split("\n")
      .map((line) => line.split(/\s{2,}/)[0]!)
      .join(" ");
    out.set(m[1]!, hex(bytes));
  }
  return out;
}

const vectors = specVectors();
const expected: Record<string, Message> = {
  small: ARTICLE_MESSAGES.small,
  medium: ARTICLE_MESSAGES.medium,
  large: ARTICLE_MESSAGES.large,
  "non-ASCII small": { text: "é😀", num: 300 },
  ...SET_EXAMPLES,
};

describe("custom-binary test vectors from docs/custom-binary.md", () => {
  it("the spec has every vector", () => {
    expect([...vectors.keys()].sort()).toEqual(Object.keys(expected).sort());
  });

  for (const [name, message] of Object.entries(expected)) {
    it(`${name}: encodes to the spec's bytes and decodes back`, () => {
      const bytes = vectors.get(name)!;
      expect(Array.from(cb.encode(message))).toEqual(Array.from(bytes));
      expect(cb.decode(bytes)).toEqual(message);
    });

    it(`${name}: every strict prefix is a RangeError naming offset and length`, () => {
      const bytes = vectors.get(name)!;
      for (let len = 0; len < bytes.length; len++) {
        expect(() => cb.decode(bytes.subarray(0, len))).toThrow(RangeError);
      }
      expect(() => cb.decode(bytes.subarray(0, 1))).toThrow(
        /truncated message: need \d+ byte\(s\) at offset 1, but the message is 1 byte\(s\) long/,
      );
    });
  }

  it("sizes are the article's smallest: 15 / 76 / 222", () => {
    expect(vectors.get("small")!.length).toBe(15);
    expect(vectors.get("medium")!.length).toBe(76);
    expect(vectors.get("large")!.length).toBe(222);
  });
});

function decodeError(bytes: Uint8Array): DecodeError {
  try {
    cb.decode(bytes);
  } catch (e) {
    if (e instanceof DecodeError) return e;
    throw new Error(`expected DecodeError, got ${String(e)}`);
  }
  throw new Error("expected DecodeError, decoded fine");
}

describe("custom-binary malformed input", () => {
  it("unknown version: UNSUPPORTED_VERSION at offset 0 with the byte", () => {
    const e = decodeError(hex("39 0c 48 65 6c 6c 6f 20 57 6f 72 6c 64 21 7b"));
    expect(e.code).toBe("UNSUPPORTED_VERSION");
    expect(e.offset).toBe(0);
    expect(e.byte).toBe(0x39);
    expect(e.message).toContain("0x39");
  });

  it("version 1, every layout of it: UNSUPPORTED_VERSION, saying which version this decoder reads", () => {
    // Version 1's small test vector, and its game-tick one, whose tick (d8 04) sits where version 2 has match.
    const small = decodeError(hex("19 0c 48 65 6c 6c 6f 20 57 6f 72 6c 64 21 7b"));
    expect([small.code, small.offset, small.byte]).toEqual(["UNSUPPORTED_VERSION", 0, 0x19]);
    expect(small.message).toContain("unsupported version 1 (this decoder reads version 2)");
    const v1Tick =
      "1d d8 04 01 01 49 00 00 00 00 00 00 25 40 00 00 00 00 00 00 0a c0 00 00 00 00 00 00 f8 3f 00 00 00 00 00 00 e0 bf";
    const tick = decodeError(hex(v1Tick));
    expect([tick.code, tick.offset, tick.byte]).toEqual(["UNSUPPORTED_VERSION", 0, 0x1d]);
    for (let header = 0x10; header <= 0x1f; header++)
      expect(decodeError(Uint8Array.of(header, 0, 0, 0)).code).toBe("UNSUPPORTED_VERSION");
  });

  it("unknown type: UNKNOWN_TYPE", () => {
    expect(decodeError(hex("27 00 00")).code).toBe("UNKNOWN_TYPE");
    expect(decodeError(hex("20")).code).toBe("UNKNOWN_TYPE");
  });

  it("trailing bytes: TRAILING_BYTES naming how many", () => {
    const e = decodeError(hex("29 0c 48 65 6c 6c 6f 20 57 6f 72 6c 64 21 7b 00 00"));
    expect(e.code).toBe("TRAILING_BYTES");
    expect(e.offset).toBe(15);
    expect(e.message).toContain("extra 2 of 17 byte(s)");
  });

  it("overlong varint: VARINT_OVERLONG", () => {
    const e = decodeError(hex("29 00 fb 00"));
    expect(e.code).toBe("VARINT_OVERLONG");
    expect(e.offset).toBe(3);
  });

  it("varint over 32 bits: VARINT_TOO_BIG", () => {
    expect(decodeError(hex("29 00 ff ff ff ff 1f")).code).toBe("VARINT_TOO_BIG");
    expect(decodeError(hex("29 00 ff ff ff ff 8f 01")).code).toBe("VARINT_TOO_BIG");
    expect(cb.decode(hex("29 00 ff ff ff ff 0f"))).toEqual({ text: "", num: 4294967295 });
  });

  it("a huge string length is truncation, not an allocation", () => {
    expect(() => cb.decode(hex("29 ff ff ff ff 0f 41"))).toThrow(RangeError);
  });

  it.each([
    ["lone continuation byte", "21 01 80 00", 2],
    ["overlong 2-byte form of '/'", "21 02 c0 af 00", 2],
    ["overlong 3-byte form", "21 03 e0 80 80 00", 3],
    ["encoded surrogate U+D800", "21 03 ed a0 80 00", 3],
    ["above U+10FFFF", "21 04 f4 90 80 80 00", 3],
    ["sequence cut by the string's end", "21 02 e2 82 00", 2],
    ["0xff", "21 01 ff 00", 2],
  ])("invalid UTF-8 (%s): INVALID_UTF8 at the bad byte", (_name, bytes, offset) => {
    const e = decodeError(hex(bytes));
    expect(e.code).toBe("INVALID_UTF8");
    expect(e.offset).toBe(offset);
  });

  it("a message flagged ASCII with a non-ASCII string: NOT_ASCII", () => {
    const e = decodeError(hex("29 02 c3 a9 00"));
    expect(e.code).toBe("NOT_ASCII");
    expect(e.offset).toBe(2);
    const medium = decodeError(hex("2a 01 41 02 c3 a9 00 00 00 00 00 00 00 00 00"));
    expect(medium.code).toBe("NOT_ASCII");
    expect(medium.offset).toBe(4);
  });

  it("an unflagged message of ASCII strings: ASCII_FLAG_MISSING", () => {
    expect(decodeError(hex("21 02 41 42 00")).code).toBe("ASCII_FLAG_MISSING");
    expect(decodeError(hex("21 00 00")).code).toBe("ASCII_FLAG_MISSING");
    expect(cb.decode(hex("29 00 00"))).toEqual({ text: "", num: 0 });
  });

  it("a real U+FFFD in the text is accepted", () => {
    expect(cb.decode(hex("21 03 ef bf bd 00"))).toEqual({ text: "\uFFFD", num: 0 });
  });

  it("a byte-order mark is kept as a character", () => {
    expect(cb.decode(hex("21 03 ef bb bf 00"))).toEqual({ text: "\uFEFF", num: 0 });
  });

  it("decodes from a view into a larger buffer (byteOffset respected)", () => {
    const big = new Uint8Array(64);
    const bytes = vectors.get("small")!;
    big.set(bytes, 7);
    expect(cb.decode(big.subarray(7, 7 + bytes.length))).toEqual(ARTICLE_MESSAGES.small);
  });
});

describe("custom-binary edge values", () => {
  const long = "x".repeat(200);
  const huge = "é".repeat(9000); // 18,000 bytes: a 3-byte length prefix
  const cases: [string, Message][] = [
    ["empty strings, zero", { text: "", num: 0 }],
    ["uint32 max", { text: "a", num: 4294967295 }],
    ["varint boundaries", { text: "", text2: "", num: 2 ** 28, decimal: 0 }],
    ["emoji and CJK", { text: "🚀中文", text2: "ümlaut ñ", num: 127, decimal: -0 }],
    ["long strings, 2- and 3-byte length prefixes", { text: long, text2: huge, num: 128, decimal: Number.NaN }],
    [
      "int32 extremes and special doubles",
      {
        text: "",
        text2: long,
        text3: "😀".repeat(40),
        text4: "",
        num: 16384,
        decimal: Number.POSITIVE_INFINITY,
        num2: -2147483648,
        decimal2: 5e-324,
      },
    ],
    [
      "int32 max",
      {
        text: "a",
        text2: "b",
        text3: "c",
        text4: "d",
        num: 0,
        decimal: Number.MAX_VALUE,
        num2: 2147483647,
        decimal2: -0,
      },
    ],
  ];
  it.each(cases)("%s round-trips exactly", (_name, message) => {
    const decoded = cb.decode(cb.encode(message)) as unknown as Record<string, unknown>;
    for (const [k, v] of Object.entries(message)) expect(Object.is(decoded[k], v), k).toBe(true);
    expect(Object.keys(decoded)).toEqual(Object.keys(message));
  });

  it("refuses values its layout cannot carry, naming the field", () => {
    expect(() => cb.encode({ text: "a", num: -1 })).toThrow(EncodeError);
    expect(() => cb.encode({ text: "a", num: 2 ** 32 })).toThrow(/'num'.*0\.\.4294967295/);
    expect(() => cb.encode({ text: "a", num: 1.5 })).toThrow(EncodeError);
    expect(() => cb.encode({ text: 5 as unknown as string, num: 1 })).toThrow(/'text'.*string/);
    expect(() => cb.encode({ ...ARTICLE_MESSAGES.large, num2: 2 ** 31 })).toThrow(/'num2'/);
    expect(() => cb.encode({ ...ARTICLE_MESSAGES.medium, decimal: "3" as unknown as number })).toThrow(/'decimal'/);
  });

  it("refuses a lone surrogate instead of sending U+FFFD, short and long strings alike", () => {
    expect(() => cb.encode({ text: "a\uD800b", num: 1 })).toThrow(/'text'.*lone UTF-16 surrogate at index 1/);
    expect(() => cb.encode({ text: "x".repeat(40) + "\uDC00", num: 1 })).toThrow(/index 40/);
  });

  it("sets the ASCII flag exactly when every string is ASCII", () => {
    expect(cb.encode({ text: "abc", num: 1 })[0]).toBe(0x29);
    expect(cb.encode({ text: "abç", num: 1 })[0]).toBe(0x21);
    expect(cb.encode({ ...ARTICLE_MESSAGES.large, text4: "x".repeat(30) + "é" })[0]).toBe(0x23);
  });

  it("in views mode (V8's faster one) every encoding stays intact while later ones fill the slab and the next", () => {
    const views = createCustomBinary("views");
    const messages = makeMessages("large", { count: 2000, seed: 8, fixed: false });
    const encoded = messages.map((m) => views.encode(m));
    const snapshots = encoded.map((e) => Array.from(e));
    expect(new Set(encoded.map((e) => e.buffer)).size).toBeGreaterThan(2);
    messages.forEach((m, i) => {
      expect(Array.from(encoded[i]!)).toEqual(snapshots[i]);
      expect(views.decode(encoded[i]!)).toEqual(m);
      expect(Array.from(encoded[i]!)).toEqual(Array.from(cb.encode(m)));
    });
  });

  it("in copy mode (Bun's default) each encoding is a fresh array the caller owns", () => {
    const a = cb.encode(ARTICLE_MESSAGES.small);
    const copy = Array.from(a);
    cb.encode({ text: "overwrite?", num: 9 });
    cb.encode(ARTICLE_MESSAGES.large);
    expect(Array.from(a)).toEqual(copy);
    expect(a.byteOffset).toBe(0);
    expect(a.buffer.byteLength).toBe(a.length);
  });
});

/** The rows of docs/custom-binary.md's "Error vectors" table: frame, error, offset, byte. */
function errorVectors(): { frame: Uint8Array; error: string; offset: number; byte: number | undefined }[] {
  const doc = readFileSync(new URL("../../docs/custom-binary.md", import.meta.url), "utf8");
  const section = doc.slice(doc.indexOf("### Error vectors"), doc.indexOf("## Test vectors"));
  return section
    .split("\n")
    .filter((line) => /^\| (`|\(empty\))/.test(line))
    .map((line) => {
      const [frame, error, offset, byte] = line
        .split("|")
        .slice(1, 5)
        .map((cell) => cell.trim().replaceAll("`", ""));
      return {
        frame: frame === "(empty)" ? new Uint8Array(0) : hex(frame!),
        error: error!,
        offset: Number(offset),
        byte: byte ? parseInt(byte, 16) : undefined,
      };
    });
}

describe("custom-binary error vectors from docs/custom-binary.md", () => {
  const vectors = errorVectors();

  it("the spec has one for every error code, and truncation", () => {
    const kinds = new Set(vectors.map((v) => v.error));
    for (const code of [
      "truncated",
      "UNSUPPORTED_VERSION",
      "UNKNOWN_TYPE",
      "VARINT_OVERLONG",
      "VARINT_TOO_BIG",
      "INVALID_UTF8",
      "NOT_ASCII",
      "ASCII_FLAG_MISSING",
      "RESERVED_BITS",
      "NOT_CANONICAL",
      "TRAILING_BYTES",
    ]) {
      expect(kinds, code).toContain(code);
    }
  });

  for (const v of vectors) {
    it(`${Buffer.from(v.frame).toString("hex") || "(empty)"}: ${v.error} at offset ${v.offset}`, () => {
      let thrown: unknown;
      try {
        cb.decode(v.frame);
      } catch (e) {
        thrown = e;
      }
      if (v.error === "truncated") {
        expect(thrown).toBeInstanceOf(RangeError);
        expect((thrown as Error).message).toContain(`at offset ${v.offset},`);
      } else {
        expect(thrown).toBeInstanceOf(DecodeError);
        const e = thrown as DecodeError;
        expect([e.code, e.offset, e.byte]).toEqual([v.error, v.offset, v.byte]);
      }
    });
  }

  it("fields a layout does not name are not written, and NaN comes back as NaN", () => {
    expect(Buffer.from(cb.encode({ text: "a", num: 1, extra: 5 } as unknown as Message)).toString("hex")).toBe(
      "29016101",
    );
    const nan = cb.decode(cb.encode({ text: "", text2: "", num: 1, decimal: NaN })) as { decimal: number };
    expect(Number.isNaN(nan.decimal)).toBe(true);
  });
});
