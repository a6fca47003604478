/**
 * The custom-binary key reader (docs/custom-binary.md, "Reading the routing
 * key without decoding"): the key of each of the spec's test vectors, read
 * up to the key's last byte and no further; another layout's or version's
 * header refused with the decoder's codes; the bytes on the way to the key
 * checked by the decoder's rules.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { ARTICLE_MESSAGES, ROUTING_KEYS } from "../../protocols/messages.ts";
import { SET_EXAMPLES } from "../../protocols/message-sets.ts";
import {
  BinaryReader,
  createCustomBinary,
  DecodeError,
  readKeyWith,
  type LayoutName,
} from "../../custom-binary/index.ts";

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
  for (const m of section.matchAll(/\*\*([a-zA-Z -]+)\*\*:[\s\S]*?```\n([\s\S]*?)```/g)) {
    out.set(
      m[1]!,
      hex(
        m[2]!
          .split("\n")
          .map((line) => line.split(/\s{2,}/)[0]!)
          .join(" "),
      ),
    );
  }
  return out;
}

const vectors = specVectors();
const LAYOUTS: LayoutName[] = ["small", "medium", "large", "chat", "game-tick", "market"];

/** Each spec vector: its layout, its key, and the offset just past the key's last byte (worked out from the spec's annotated bytes). */
const KEYS: { vector: string; layout: LayoutName; key: number | string; keyEnd: number }[] = [
  { vector: "small", layout: "small", key: ARTICLE_MESSAGES.small.num, keyEnd: 15 }, // header, 1 + 12 text, 1 num
  { vector: "medium", layout: "medium", key: ARTICLE_MESSAGES.medium.num, keyEnd: 68 }, // header, 1 + 12, 1 + 51, 2 num
  { vector: "large", layout: "large", key: ARTICLE_MESSAGES.large.num, keyEnd: 202 }, // header, 1 + 12, 1 + 111, 1 + 26, 1 + 44, 4 num
  { vector: "non-ASCII small", layout: "small", key: 300, keyEnd: 10 }, // header, 1 + 6, 2 num
  { vector: "chat", layout: "chat", key: SET_EXAMPLES.chat.room, keyEnd: 5 }, // header, presence, 2 id, 1 room
  { vector: "game-tick", layout: "game-tick", key: SET_EXAMPLES["game-tick"].match, keyEnd: 2 }, // header, 1 match
  { vector: "market", layout: "market", key: SET_EXAMPLES.market.symbol, keyEnd: 9 }, // header, 1 + 7 symbol
];

/** The DecodeError `read` throws (failing the test if it returns or throws anything else). */
function decodeError(read: () => unknown): DecodeError {
  try {
    read();
  } catch (e) {
    if (e instanceof DecodeError) return e;
    throw new Error(`expected DecodeError, got ${String(e)}`);
  }
  throw new Error("expected DecodeError, read a key");
}

describe("custom-binary key reader: the spec's test vectors", () => {
  it("covers every vector", () => {
    expect(KEYS.map((k) => k.vector).sort()).toEqual([...vectors.keys()].sort());
  });

  for (const { vector, layout, key, keyEnd } of KEYS) {
    it(`${vector}: reads ${ROUTING_KEYS[layout]} ${JSON.stringify(key)}, decode's ${ROUTING_KEYS[layout]}, by its layout's reader and by the header's`, () => {
      const bytes = vectors.get(vector)!;
      expect(createCustomBinary("copy", layout).readKey(bytes)).toBe(key);
      expect(createCustomBinary("copy").readKey(bytes)).toBe(key);
      expect(readKeyWith(new BinaryReader(), bytes, layout)).toBe(key);
      expect(createCustomBinary("copy", layout).decode(bytes)).toMatchObject({ [ROUTING_KEYS[layout]]: key });
    });

    it(`${vector}: cut off before the key's last byte is a RangeError; cut right after it, or with a byte more, still the key`, () => {
      const bytes = vectors.get(vector)!;
      const cb = createCustomBinary("copy", layout);
      for (let length = 0; length < keyEnd; length++)
        expect(() => cb.readKey(bytes.subarray(0, length)), `${length} bytes`).toThrow(RangeError);
      expect(cb.readKey(bytes.subarray(0, keyEnd))).toBe(key);
      const longer = new Uint8Array(bytes.length + 1);
      longer.set(bytes);
      expect(cb.readKey(longer)).toBe(key);
    });
  }

  it("reads from a view into a larger buffer (byteOffset respected)", () => {
    const big = new Uint8Array(300);
    const bytes = vectors.get("large")!;
    big.set(bytes, 11);
    expect(createCustomBinary("copy", "large").readKey(big.subarray(11, 11 + bytes.length))).toBe(
      ARTICLE_MESSAGES.large.num,
    );
  });

  it("shares its reader with decode, each reset by the other's next call", () => {
    const cb = createCustomBinary("copy", "market");
    const bytes = vectors.get("market")!;
    expect(() => cb.decode(bytes.subarray(0, 20))).toThrow(RangeError);
    expect(cb.readKey(bytes)).toBe("BTC-USD");
    expect(cb.decode(bytes)).toEqual(SET_EXAMPLES.market);
    expect(cb.readKey(hex("2e 03 45 54 48"))).toBe("ETH");
  });
});

describe("custom-binary key reader: the header", () => {
  it("another layout's header: UNKNOWN_TYPE at offset 0 with the header byte, naming both layouts", () => {
    for (const reading of LAYOUTS) {
      const cb = createCustomBinary("copy", reading);
      for (const { vector, layout } of KEYS) {
        if (layout === reading) continue;
        const bytes = vectors.get(vector)!;
        const e = decodeError(() => cb.readKey(bytes));
        expect(e.code, `${vector} read as ${reading}`).toBe("UNKNOWN_TYPE");
        expect(e.offset).toBe(0);
        expect(e.byte).toBe(bytes[0]);
        expect(e.message).toContain(`a ${layout} message`);
        expect(e.message).toContain(`not the ${reading} message`);
      }
    }
  });

  it("another version, version 1 included: UNSUPPORTED_VERSION, as the decoder says", () => {
    for (const header of [0x19, 0x39]) {
      const bytes = hex(`${header.toString(16)} 0c 48 65 6c 6c 6f 20 57 6f 72 6c 64 21 7b`);
      for (const cb of [createCustomBinary("copy", "small"), createCustomBinary("copy")]) {
        const e = decodeError(() => cb.readKey(bytes));
        expect(e.code).toBe("UNSUPPORTED_VERSION");
        expect(e.offset).toBe(0);
        expect(e.byte).toBe(header);
        expect(e.message).toBe(decodeError(() => cb.decode(bytes)).message);
      }
    }
  });

  it("a version-1 game-tick, whose tick sits where match is now: UNSUPPORTED_VERSION, never its tick read as the match", () => {
    // Version 1's spec vector: header 0x1d, then tick 600 (d8 04), one still entity.
    const v1 = hex("1d d8 04 01 01 fc");
    for (const cb of [createCustomBinary("copy", "game-tick"), createCustomBinary("copy")]) {
      const e = decodeError(() => cb.readKey(v1));
      expect([e.code, e.offset, e.byte]).toEqual(["UNSUPPORTED_VERSION", 0, 0x1d]);
      expect(e.message).toBe(
        "custom-binary: unsupported version 1 (this decoder reads version 2) at offset 0 (byte 0x1d) [UNSUPPORTED_VERSION]",
      );
    }
  });

  it("a type version 2 does not have: UNKNOWN_TYPE, with a layout or without", () => {
    expect(decodeError(() => createCustomBinary("copy", "chat").readKey(hex("27 00 00"))).code).toBe("UNKNOWN_TYPE");
    expect(decodeError(() => createCustomBinary("copy").readKey(hex("20 00 00"))).code).toBe("UNKNOWN_TYPE");
    expect(decodeError(() => createCustomBinary("copy").readKey(hex("2f 00 00"))).code).toBe("UNKNOWN_TYPE");
  });

  it("game-tick's header without the ASCII flag: ASCII_FLAG_MISSING, the decoder's first check", () => {
    const e = decodeError(() => createCustomBinary("copy", "game-tick").readKey(hex("25 0c d8 04 00")));
    expect(e.code).toBe("ASCII_FLAG_MISSING");
    expect(e.offset).toBe(0);
    expect(e.byte).toBe(0x25);
  });

  it("an empty frame is a RangeError", () => {
    expect(() => createCustomBinary("copy", "small").readKey(new Uint8Array(0))).toThrow(RangeError);
    expect(() => createCustomBinary("copy").readKey(new Uint8Array(0))).toThrow(RangeError);
  });
});

describe("custom-binary key reader: the bytes on the way to the key, and no others", () => {
  const small = createCustomBinary("copy", "small");

  it("a varint on the way is read by the decoder's rules: overlong, oversized", () => {
    expect(decodeError(() => small.readKey(hex("29 00 fb 00"))).code).toBe("VARINT_OVERLONG");
    expect(decodeError(() => small.readKey(hex("29 80 00 00"))).code).toBe("VARINT_OVERLONG");
    expect(decodeError(() => small.readKey(hex("29 00 ff ff ff ff 1f"))).code).toBe("VARINT_TOO_BIG");
    expect(small.readKey(hex("29 00 ff ff ff ff 0f"))).toBe(4294967295);
    // chat's id, before the room: overlong, not a room read one byte early
    const e = decodeError(() => createCustomBinary("copy", "chat").readKey(hex("2c 00 81 00 07 00")));
    expect(e.code).toBe("VARINT_OVERLONG");
    expect(e.offset).toBe(3);
  });

  it("a skipped string's length must fit the frame: RangeError, even for a huge length", () => {
    expect(() => small.readKey(hex("29 0c 48 65"))).toThrow(RangeError);
    expect(() => small.readKey(hex("29 ff ff ff ff 0f 41"))).toThrow(RangeError);
    expect(() => createCustomBinary("copy", "medium").readKey(hex("2a 01 41 05 41 02"))).toThrow(RangeError);
  });

  it("market's symbol is decoded as the decoder decodes it: NOT_ASCII, INVALID_UTF8, ASCII_FLAG_MISSING", () => {
    const market = createCustomBinary("copy", "market");
    const notAscii = decodeError(() => market.readKey(hex("2e 02 c3 a9")));
    expect(notAscii.code).toBe("NOT_ASCII");
    expect(notAscii.offset).toBe(2);
    expect(decodeError(() => market.readKey(hex("26 02 c3 28"))).code).toBe("INVALID_UTF8");
    expect(decodeError(() => market.readKey(hex("26 03 45 54 48"))).code).toBe("ASCII_FLAG_MISSING");
    expect(market.readKey(hex("26 05 c3 a9 54 48 53"))).toBe("éTHS");
  });

  it("not the skipped strings' text, chat's presence byte, the fields after the key, nor trailing bytes: those are decode's to check", () => {
    // invalid UTF-8 in small's text: decode refuses it, the key is still num
    const badText = hex("21 02 c3 28 01");
    expect(decodeError(() => small.decode(badText)).code).toBe("INVALID_UTF8");
    expect(small.readKey(badText)).toBe(1);
    // chat's presence byte with reserved bits, and nothing after the room
    const chat = createCustomBinary("copy", "chat");
    expect(chat.readKey(hex("2c 04 00 07"))).toBe(7);
    // trailing bytes after a whole small message
    const trailing = hex("29 01 41 01 00");
    expect(decodeError(() => small.decode(trailing)).code).toBe("TRAILING_BYTES");
    expect(small.readKey(trailing)).toBe(1);
  });
});
