/**
 * The avro codec (protocols/avro.ts): every built-in payload's messages
 * round-trip exactly into plain objects (avsc decodes into instances of
 * generated record classes), encoded bytes outlive later encodes, the small
 * message's bytes are the ones the Avro specification gives, chat's
 * optional fields stay absent, uint53 longs reach 2^53 - 1, and a frame
 * cut short or too long throws.
 */
import { describe, expect, it } from "vitest";
import { makeMessages } from "../../bench/harness/generator.ts";
import { describeMismatch } from "../../bench/harness/verify.ts";
import { avro } from "../../protocols/avro.ts";
import type { ChatMessage } from "../../protocols/message-sets.ts";
import { EXAMPLE_MESSAGES, PAYLOAD_NAMES, type Message } from "../../protocols/messages.ts";
import { EDGE } from "../helpers/edge-messages.ts";

const hex = (b: Uint8Array): string => Buffer.from(b).toString("hex");

/** Every object in `v` (nested ones too) has Object.prototype as its prototype; arrays are real arrays. */
function plainThroughout(v: unknown): boolean {
  if (Array.isArray(v)) return Object.getPrototypeOf(v) === Array.prototype && v.every(plainThroughout);
  if (typeof v !== "object" || v === null) return v !== null && typeof v !== "bigint";
  return Object.getPrototypeOf(v) === Object.prototype && Object.values(v).every(plainThroughout);
}

describe("avro", () => {
  for (const payload of PAYLOAD_NAMES) {
    it(`${payload}: the example, the edge messages and 1,000 generated ones round-trip into plain objects`, () => {
      const pc = avro.forPayload(payload);
      const messages: Message[] = [EXAMPLE_MESSAGES[payload], ...EDGE[payload]!, ...makeMessages(payload, { count: 1000, seed: 42, fixed: false })];
      for (const m of messages) {
        const encoded = pc.encode(m);
        expect(encoded).toBeInstanceOf(Uint8Array);
        const decoded = pc.decode(encoded);
        expect(describeMismatch(m, decoded)).toBeUndefined();
        expect(plainThroughout(decoded)).toBe(true);
      }
    });

    it(`${payload}: encoded bytes stay as they were after later encodes, and a plain Uint8Array decodes too`, () => {
      const pc = avro.forPayload(payload);
      const messages = makeMessages(payload, { count: 50, seed: 7, fixed: false });
      const encoded = messages.map((m) => pc.encode(m) as Uint8Array);
      const copies = encoded.map((e) => hex(e));
      for (const m of [...EDGE[payload]!, EXAMPLE_MESSAGES[payload]]) pc.encode(m);
      expect(encoded.map((e) => hex(e))).toEqual(copies);
      // A browser's frame is a Uint8Array (not a Buffer), here at an offset into a larger buffer.
      encoded.forEach((e, i) => {
        const larger = new Uint8Array(e.length + 3);
        larger.set(e, 3);
        expect(describeMismatch(messages[i]!, pc.decode(larger.subarray(3)))).toBeUndefined();
      });
    });

    it(`${payload}: a frame cut short or with a byte too many throws an Error`, () => {
      const pc = avro.forPayload(payload);
      const bytes = pc.encode(EXAMPLE_MESSAGES[payload]) as Uint8Array;
      for (let n = 0; n < bytes.length; n++) expect(() => pc.decode(bytes.subarray(0, n)), `${n} bytes`).toThrow(Error);
      const longer = new Uint8Array(bytes.length + 1);
      longer.set(bytes);
      expect(() => pc.decode(longer)).toThrow(/trailing data/);
    });
  }

  it("writes the article's small message as the Avro specification gives it", () => {
    const bytes = avro.forPayload("small").encode({ text: "Hello World!", num: 123 }) as Uint8Array;
    // record Small: the fields back to back, no tags, no length in front.
    //   18                        text: string length 12, zigzag varint (12 * 2 = 24 = 0x18)
    //   48656c6c6f20576f726c6421  "Hello World!" in UTF-8
    //   f601                      num: long 123, zigzag 246 = 0b1_1110110: 0x76 | 0x80 continuation, then 0x01
    expect(hex(bytes)).toBe("18" + "48656c6c6f20576f726c6421" + "f601");
  });

  it("chat: absent optional fields are written as null and come back absent; present ones come back", () => {
    const pc = avro.forPayload("chat");
    const base: ChatMessage = { id: 1, room: 2, user: "u", text: "t", sentAt: 2 ** 40, reactions: [] };
    const bare = pc.decode(pc.encode(base));
    expect(Object.keys(bare)).toEqual(["id", "room", "user", "text", "sentAt", "reactions"]);
    // Each absent field is the union's null branch: one byte, index 0.
    expect(hex((pc.encode(base) as Uint8Array).subarray(-2))).toBe("0000");
    const onlyReply: ChatMessage = { ...base, replyTo: 4294967295 };
    expect(Object.keys(pc.decode(pc.encode(onlyReply)))).toEqual([...Object.keys(base), "replyTo"]);
    const full: ChatMessage = { ...base, replyTo: 0, editedAt: 0 };
    expect(describeMismatch(full, pc.decode(pc.encode(full)))).toBeUndefined();
  });

  it("uint53 longs carry 0 to 2^53 - 1 exactly; a larger number is refused, and a long beyond 2^53 - 1 on the wire throws", () => {
    const pc = avro.forPayload("market");
    const at = (seq: number) => ({ symbol: "X", seq, ts: 1, bid: 0, bidSize: 0, ask: 0, askSize: 0 });
    for (const seq of [0, 1, 2 ** 31, 2 ** 32 - 1, 2 ** 32, 2 ** 53 - 2, 2 ** 53 - 1]) expect(describeMismatch(at(seq), pc.decode(pc.encode(at(seq))))).toBeUndefined();
    expect(() => pc.encode(at(2 ** 53))).toThrow(Error);
    // symbol "X" (02 58), seq 2^53 (zigzag 2^54 = 32 * 128^7: seven 7-bit groups of 0 with the
    // continuation bit, 0x80, then 32, 0x20), ts 1 (zigzag 2), four doubles of 0.
    const bytes = Uint8Array.from([2, 0x58, ...[0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x20], 2, ...new Array(32).fill(0)]);
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
    // game-tick: tick 0, then an entities block claiming 2^31 - 1 items (zigzag varint fe ff ff ff 0f) in a 6-byte frame.
    expect(() => avro.forPayload("game-tick").decode(Uint8Array.from([0x00, 0xfe, 0xff, 0xff, 0xff, 0x0f]))).toThrow(/array block of 2147483647 items/);
    // chat: every field empty or zero, then a reactions block of 1,000 items with nothing left.
    const chat = avro.forPayload("chat").decode;
    expect(() => chat(Uint8Array.from([0, 0, 0, 0, 0, 0xd0, 0x0f]))).toThrow(/array block of 1000 items/);
  });

  it("has no schema for a user's own messages", () => {
    expect(avro.notApplicable?.("mine")).toMatch(/schema/);
    expect(avro.notApplicable?.("small")).toBeUndefined();
    expect(() => avro.forPayload("mine")).toThrow(/no schema/);
  });
});
