/**
 * The bson codec (protocols/bson.ts). The checks every codec gets
 * (test/helpers/codec-checks.ts): every built-in payload's messages
 * round-trip exactly into plain objects, encoded bytes outlive later
 * encodes, chat's optional fields stay absent, a frame cut short or too
 * long throws, and a user's own messages are carried. Here: the small
 * message's bytes are the ones the BSON specification gives, every number
 * type the payloads hold comes back as the same JS number (int32 on the
 * wire where it fits, double otherwise), and every special double survives.
 */
import { describe, expect, it } from "vitest";
import { describeMismatch } from "../../client/harness/verify.ts";
import { bson } from "../../protocols/bson.ts";
import { checkCodecBasics, hex } from "../helpers/codec-checks.ts";

describe("bson", () => {
  checkCodecBasics(bson, { truncated: { byteTooMany: Error }, userMessages: "carried" });

  it("writes the article's small message as the BSON specification gives it", () => {
    const bytes = bson.forPayload("small").encode({ text: "Hello World!", num: 123 }) as Uint8Array;
    //   25000000                  document: its size, 37 bytes, int32 little-endian
    //   02 7465787400             element of type 0x02 (string), name "text" and a NUL
    //   0d000000                  the string's size with its NUL: 13, int32 little-endian
    //   48656c6c6f20576f726c6421 00  "Hello World!" in UTF-8, then NUL
    //   10 6e756d00               element of type 0x10 (int32), name "num" and a NUL
    //   7b000000                  123, int32 little-endian
    //   00                        end of the document
    expect(hex(bytes)).toBe(
      "25000000" + "027465787400" + "0d000000" + "48656c6c6f20576f726c642100" + "106e756d00" + "7b000000" + "00",
    );
  });

  it("writes int32-range integers as int32 and every other number as a double, each read back as the same number", () => {
    const pc = bson.forPayload("medium");
    // The element type byte of `num` (a uint32) and of `decimal`, in order.
    const types = (num: number, decimal: number): string => {
      const b = pc.encode({ text: "", text2: "", num, decimal }) as Uint8Array;
      return hex(b.subarray(4))
        .match(/(10|01)6e756d00|(10|01)646563696d616c00/g)!
        .map((s) => s.slice(0, 2))
        .join(",");
    };
    expect(types(2147483647, 3)).toBe("10,10");
    expect(types(2147483648, 2 ** 53 + 2)).toBe("01,01");
    expect(types(4294967295, -0)).toBe("01,01");
    for (const num of [0, 2147483647, 2147483648, 4294967295]) {
      for (const decimal of [3, -3, 2 ** 31, 2 ** 53 - 1, 2 ** 53 + 2, 1e21, 0.1, 5e-324]) {
        const m = { text: "", text2: "", num, decimal };
        expect(describeMismatch(m, pc.decode(pc.encode(m)))).toBeUndefined();
      }
    }
    const market = bson.forPayload("market");
    const m = { symbol: "", seq: 2 ** 53 - 1, ts: 2 ** 32, bid: 0, bidSize: 0, ask: 0, askSize: 0 };
    expect(describeMismatch(m, market.decode(market.encode(m)))).toBeUndefined();
  });

  it("carries every special double exactly: -0, NaN and both infinities", () => {
    const pc = bson.forPayload("medium");
    for (const decimal of [-0, NaN, Infinity, -Infinity]) {
      const m = { text: "a", text2: "b", num: 1, decimal };
      expect(describeMismatch(m, pc.decode(pc.encode(m)))).toBeUndefined();
    }
  });
});
