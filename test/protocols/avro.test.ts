/**
 * The avro codec (protocols/avro.ts). The checks every codec gets
 * (test/helpers/codec-checks.ts): every built-in payload's messages
 * round-trip exactly into plain objects (avsc decodes into instances of
 * generated record classes), encoded bytes outlive later encodes and decode
 * from a plain Uint8Array, chat's optional fields stay absent, and a frame
 * cut short or too long throws. Here: the small message's bytes are the
 * ones the Avro specification gives, absent optional fields are the
 * union's null branch, uint53 longs reach 2^53 - 1, every special double
 * survives, and a corrupt array count throws at once.
 */
import { describe, expect, it } from "vitest";
import { describeMismatch } from "../../client/harness/verify.ts";
import { avro } from "../../protocols/avro.ts";
import type { ChatMessage } from "../../protocols/message-sets.ts";
import { checkCodecBasics, hex } from "../helpers/codec-checks.ts";

describe("avro", () => {
  checkCodecBasics(avro, {
    truncated: { byteTooMany: /trailing data/ },
    userMessages: { reason: /schema/, error: /no schema/ },
  });

  it("writes the article's small message as the Avro specification gives it", () => {
    const bytes = avro.forPayload("small").encode({ text: "Hello World!", num: 123 }) as Uint8Array;
    // record Small: the fields back to back, no tags, no length in front.
    //   18                        text: string length 12, zigzag varint (12 * 2 = 24 = 0x18)
    //   48656c6c6f20576f726c6421  "Hello World!" in UTF-8
    //   f601                      num: long 123, zigzag 246 = 0b1_1110110: 0x76 | 0x80 continuation, then 0x01
    expect(hex(bytes)).toBe("18" + "48656c6c6f20576f726c6421" + "f601");
  });

  it("chat: absent optional fields are written as null", () => {
    const pc = avro.forPayload("chat");
    const base: ChatMessage = { id: 1, room: 2, user: "u", text: "t", sentAt: 2 ** 40, reactions: [] };
    // Each absent field is the union's null branch: one byte, index 0.
    expect(hex((pc.encode(base) as Uint8Array).subarray(-2))).toBe("0000");
  });

  it("uint53 longs carry 0 to 2^53 - 1 exactly; a larger number is refused, and a long beyond 2^53 - 1 on the wire throws", () => {
    const pc = avro.forPayload("market");
    const at = (seq: number) => ({ symbol: "X", seq, ts: 1, bid: 0, bidSize: 0, ask: 0, askSize: 0 });
    for (const seq of [0, 1, 2 ** 31, 2 ** 32 - 1, 2 ** 32, 2 ** 53 - 2, 2 ** 53 - 1])
      expect(describeMismatch(at(seq), pc.decode(pc.encode(at(seq))))).toBeUndefined();
    expect(() => pc.encode(at(2 ** 53))).toThrow(Error);
    // symbol "X" (02 58), seq 2^53 (zigzag 2^54 = 32 * 128^7: seven 7-bit groups of 0 with the
    // continuation bit, 0x80, then 32, 0x20), ts 1 (zigzag 2), four doubles of 0.
    const bytes = Uint8Array.from([
      2,
      0x58,
      ...[0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x20],
      2,
      ...new Array(32).fill(0),
    ]);
    expect(() => pc.decode(bytes)).toThrow(/2\^53/);
  });

  it("carries every special double exactly: -0, NaN and both infinities (doubles, never floats)", () => {
    const pc = avro.forPayload("medium");
    for (const decimal of [-0, NaN, Infinity, -Infinity]) {
      const m = { text: "a", text2: "b", num: 1, decimal };
      expect(describeMismatch(m, pc.decode(pc.encode(m)))).toBeUndefined();
    }
  });

  it("a corrupt array count throws at once instead of reading billions of items past the frame's end", () => {
    // game-tick: match 0, tick 0, then an entities block claiming 2^31 - 1 items (zigzag varint fe ff ff ff 0f) in a 7-byte frame.
    expect(() =>
      avro.forPayload("game-tick").decode(Uint8Array.from([0x00, 0x00, 0xfe, 0xff, 0xff, 0xff, 0x0f])),
    ).toThrow(/array block of 2147483647 items/);
    // chat: every field empty or zero, then a reactions block of 1,000 items with nothing left.
    const chat = avro.forPayload("chat").decode;
    expect(() => chat(Uint8Array.from([0, 0, 0, 0, 0, 0xd0, 0x0f]))).toThrow(/array block of 1000 items/);
  });
});
