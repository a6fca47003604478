/**
 * The bson codec (protocols/bson.ts): every built-in payload's messages
 * round-trip exactly into plain objects, every number type the payloads
 * hold comes back as the same JS number (int32 on the wire where it fits,
 * double otherwise), encoded bytes outlive later encodes, the small
 * message's bytes are the ones the BSON specification gives, and a frame
 * cut short or too long throws.
 */
import { describe, expect, it } from "vitest";
import { makeMessages } from "../../bench/harness/generator.ts";
import { describeMismatch } from "../../bench/harness/verify.ts";
import { bson } from "../../protocols/bson.ts";
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

describe("bson", () => {
  for (const payload of PAYLOAD_NAMES) {
    it(`${payload}: the example, the edge messages and 1,000 generated ones round-trip into plain objects`, () => {
      const pc = bson.forPayload(payload);
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
      const pc = bson.forPayload(payload);
      const messages = makeMessages(payload, { count: 50, seed: 7, fixed: false });
      const encoded = messages.map((m) => pc.encode(m) as Uint8Array);
      const copies = encoded.map((e) => hex(e));
      for (const m of [...EDGE[payload]!, ...messages]) pc.encode(m);
      expect(encoded.map((e) => hex(e))).toEqual(copies);
      encoded.forEach((e, i) => expect(describeMismatch(messages[i]!, pc.decode(e))).toBeUndefined());
    });

    it(`${payload}: a frame cut short or with a byte too many throws an Error`, () => {
      const pc = bson.forPayload(payload);
      const bytes = pc.encode(EXAMPLE_MESSAGES[payload]) as Uint8Array;
      for (let n = 0; n < bytes.length; n++) expect(() => pc.decode(bytes.subarray(0, n)), `${n} bytes`).toThrow(Error);
      const longer = new Uint8Array(bytes.length + 1);
      longer.set(bytes);
      expect(() => pc.decode(longer)).toThrow(Error);
    });
  }

  it("writes the article's small message as the BSON specification gives it", () => {
    const bytes = bson.forPayload("small").encode({ text: "Hello World!", num: 123 }) as Uint8Array;
    //   25000000                  document: its size, 37 bytes, int32 little-endian
    //   02 7465787400             element of type 0x02 (string), name "text" and a NUL
    //   0d000000                  the string's size with its NUL: 13, int32 little-endian
    //   48656c6c6f20576f726c6421 00  "Hello World!" in UTF-8, then NUL
    //   10 6e756d00               element of type 0x10 (int32), name "num" and a NUL
    //   7b000000                  123, int32 little-endian
    //   00                        end of the document
    expect(hex(bytes)).toBe("25000000" + "027465787400" + "0d000000" + "48656c6c6f20576f726c642100" + "106e756d00" + "7b000000" + "00");
  });

  it("writes int32-range integers as int32 and every other number as a double, each read back as the same number", () => {
    const pc = bson.forPayload("medium");
    // The element type byte of `num` (a uint32) and of `decimal`, in order.
    const types = (num: number, decimal: number): string => {
      const b = pc.encode({ text: "", text2: "", num, decimal }) as Uint8Array;
      return hex(b.subarray(4)).match(/(10|01)6e756d00|(10|01)646563696d616c00/g)!.map((s) => s.slice(0, 2)).join(",");
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

  it("chat: absent optional fields stay absent", () => {
    const pc = bson.forPayload("chat");
    const base: ChatMessage = { id: 1, room: 2, user: "u", text: "t", sentAt: 2 ** 40, reactions: [] };
    expect(Object.keys(pc.decode(pc.encode(base)))).toEqual(["id", "room", "user", "text", "sentAt", "reactions"]);
    expect(Object.keys(pc.decode(pc.encode({ ...base, replyTo: 3 })))).toEqual([...Object.keys(base), "replyTo"]);
  });

  it("carries a user's own messages (schema-less)", () => {
    expect(bson.notApplicable).toBeUndefined();
    const pc = bson.forPayload("mine");
    const m = { a: [1, "two", { three: null, four: true }], b: { c: -1.5 } };
    expect(describeMismatch(m, pc.decode(pc.encode(m)))).toBeUndefined();
  });
});
