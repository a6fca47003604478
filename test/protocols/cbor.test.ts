/**
 * The cbor codec (protocols/cbor.ts). The checks every codec gets
 * (test/helpers/codec-checks.ts): every built-in payload's messages
 * round-trip exactly into plain objects, encoded bytes outlive later
 * encodes, chat's optional fields stay absent, a frame cut short throws,
 * and a user's own messages are carried. Here: the small message's bytes
 * are the ones RFC 8949 gives for cbor-x's map layout, large integers and
 * integral doubles come back as the same numbers, and -0 is the one
 * special double it loses.
 */
import { describe, expect, it } from "vitest";
import { describeMismatch } from "../../client/harness/verify.ts";
import { cbor } from "../../protocols/cbor.ts";
import { checkCodecBasics, hex } from "../helpers/codec-checks.ts";

describe("cbor", () => {
  checkCodecBasics(cbor, { truncated: {}, userMessages: "carried" });

  it("writes the article's small message as RFC 8949 gives it, with cbor-x's two-byte map size", () => {
    const bytes = cbor.forPayload("small").encode({ text: "Hello World!", num: 123 }) as Uint8Array;
    //   b9 0002                   map (major type 5, 0b101_11001: a uint16 size follows), 2 pairs
    //   64 74657874               text string (major type 3, 0b011_00100), length 4: "text"
    //   6c 48656c6c6f20576f726c6421  text string, length 12: "Hello World!"
    //   63 6e756d                 text string, length 3: "num"
    //   18 7b                     unsigned integer (major type 0, 0b000_11000: one byte follows): 123
    expect(hex(bytes)).toBe("b90002" + "6474657874" + "6c48656c6c6f20576f726c6421" + "636e756d" + "187b");
  });

  it("integers past 2^32 and integral doubles travel as float64 and come back as the same numbers", () => {
    const pc = cbor.forPayload("medium");
    // decimal 3 is an integer on the wire (03); 2^53 + 2 and 2^53 - 1 a float64 (fb ...).
    expect(hex(pc.encode({ text: "", text2: "", num: 0, decimal: 3 }) as Uint8Array).endsWith("03")).toBe(true);
    for (const decimal of [3, 2 ** 53 + 2, 2 ** 53 - 1, 2 ** 32, -(2 ** 32) - 1, 1e21]) {
      const m = { text: "", text2: "", num: 0, decimal };
      expect(describeMismatch(m, pc.decode(pc.encode(m)))).toBeUndefined();
    }
  });

  it("carries NaN and both infinities, but -0 comes back as 0 (cbor-x writes it as the integer 0)", () => {
    const pc = cbor.forPayload("medium");
    for (const decimal of [NaN, Infinity, -Infinity]) {
      const m = { text: "a", text2: "b", num: 1, decimal };
      expect(describeMismatch(m, pc.decode(pc.encode(m)))).toBeUndefined();
    }
    const decoded = pc.decode(pc.encode({ text: "a", text2: "b", num: 1, decimal: -0 })) as { decimal: number };
    expect(Object.is(decoded.decimal, 0)).toBe(true);
  });
});
