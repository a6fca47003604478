/**
 * The cbor codec (protocols/cbor.ts): every built-in payload's messages
 * round-trip exactly into plain objects, encoded bytes outlive later
 * encodes, the small message's bytes are the ones RFC 8949 gives for
 * cbor-x's map layout, -0 is the one special double it loses, and a frame
 * cut short throws.
 */
import { describe, expect, it } from "vitest";
import { makeMessages } from "../../bench/harness/generator.ts";
import { describeMismatch } from "../../bench/harness/verify.ts";
import { cbor } from "../../protocols/cbor.ts";
import type { ChatMessage } from "../../protocols/message-sets.ts";
import { EXAMPLE_MESSAGES, PAYLOAD_NAMES, type Message } from "../../protocols/messages.ts";
import { EDGE } from "../helpers/edge-messages.ts";

const hex = (b: Uint8Array): string => Buffer.from(b).toString("hex");

/** Every object in `v` (nested ones too) has Object.prototype as its prototype; arrays are real arrays. */
function plainThroughout(v: unknown): boolean {
  if (Array.isArray(v)) return Object.getPrototypeOf(v) === Array.prototype && v.every(plainThroughout);
  if (typeof v !== "object" || v === null) return typeof v !== "bigint";
  return Object.getPrototypeOf(v) === Object.prototype && Object.values(v).every(plainThroughout);
}

describe("cbor", () => {
  for (const payload of PAYLOAD_NAMES) {
    it(`${payload}: the example, the edge messages and 1,000 generated ones round-trip into plain objects`, () => {
      const pc = cbor.forPayload(payload);
      const messages: Message[] = [EXAMPLE_MESSAGES[payload], ...EDGE[payload]!, ...makeMessages(payload, { count: 1000, seed: 42, fixed: false })];
      for (const m of messages) {
        const encoded = pc.encode(m);
        expect(encoded).toBeInstanceOf(Uint8Array);
        const decoded = pc.decode(encoded);
        expect(describeMismatch(m, decoded)).toBeUndefined();
        expect(plainThroughout(decoded)).toBe(true);
      }
    });

    it(`${payload}: encoded bytes stay as they were after later encodes`, () => {
      const pc = cbor.forPayload(payload);
      const messages = makeMessages(payload, { count: 200, seed: 7, fixed: false });
      const encoded = messages.map((m) => pc.encode(m) as Uint8Array);
      const copies = encoded.map((e) => hex(e));
      for (let i = 0; i < 20; i++) for (const m of [...EDGE[payload]!, ...messages]) pc.encode(m);
      expect(encoded.map((e) => hex(e))).toEqual(copies);
      encoded.forEach((e, i) => expect(describeMismatch(messages[i]!, pc.decode(e))).toBeUndefined());
    });

    it(`${payload}: a frame cut short throws an Error`, () => {
      const pc = cbor.forPayload(payload);
      const bytes = pc.encode(EXAMPLE_MESSAGES[payload]) as Uint8Array;
      for (let n = 0; n < bytes.length; n++) expect(() => pc.decode(bytes.subarray(0, n)), `${n} bytes`).toThrow(Error);
    });
  }

  it("writes the article's small message as RFC 8949 gives it, with cbor-x's two-byte map size", () => {
    const bytes = cbor.forPayload("small").encode({ text: "Hello World!", num: 123 }) as Uint8Array;
    //   b9 0002                   map (major type 5, 0b101_11001: a uint16 size follows), 2 pairs
    //   64 74657874               text string (major type 3, 0b011_00100), length 4: "text"
    //   6c 48656c6c6f20576f726c6421  text string, length 12: "Hello World!"
    //   63 6e756d                 text string, length 3: "num"
    //   18 7b                     unsigned integer (major type 0, 0b000_11000: one byte follows): 123
    expect(hex(bytes)).toBe("b90002" + "6474657874" + "6c48656c6c6f20576f726c6421" + "636e756d" + "187b");
  });

  it("chat: absent optional fields stay absent", () => {
    const pc = cbor.forPayload("chat");
    const base: ChatMessage = { id: 1, room: 2, user: "u", text: "t", sentAt: 2 ** 40, reactions: [] };
    expect(Object.keys(pc.decode(pc.encode(base)))).toEqual(["id", "room", "user", "text", "sentAt", "reactions"]);
    expect(Object.keys(pc.decode(pc.encode({ ...base, editedAt: 3 })))).toEqual([...Object.keys(base), "editedAt"]);
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

  it("carries a user's own messages (schema-less)", () => {
    expect(cbor.notApplicable).toBeUndefined();
    const pc = cbor.forPayload("mine");
    const m = { a: [1, "two", { three: null, four: true }], b: { c: -1.5 } };
    expect(describeMismatch(m, pc.decode(pc.encode(m)))).toBeUndefined();
  });
});
