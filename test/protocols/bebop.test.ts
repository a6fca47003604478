/**
 * The bebop codec (protocols/bebop.ts): every built-in payload's messages
 * round-trip exactly into plain objects, encoded bytes outlive later
 * encodes (the runtime writes into one shared buffer), the small message's
 * bytes are the ones Bebop's wire format gives, and a frame cut short or
 * too long throws.
 */
import { describe, expect, it } from "vitest";
import { makeMessages } from "../../bench/harness/generator.ts";
import { describeMismatch } from "../../bench/harness/verify.ts";
import { bebop } from "../../protocols/bebop.ts";
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

describe("bebop", () => {
  for (const payload of PAYLOAD_NAMES) {
    it(`${payload}: the example, the edge messages and 1,000 generated ones round-trip into plain objects`, () => {
      const pc = bebop.forPayload(payload);
      const messages: Message[] = [EXAMPLE_MESSAGES[payload], ...EDGE[payload]!, ...makeMessages(payload, { count: 1000, seed: 42, fixed: false })];
      for (const m of messages) {
        const decoded = pc.decode(pc.encode(m));
        expect(describeMismatch(m, decoded)).toBeUndefined();
        expect(plainThroughout(decoded)).toBe(true);
      }
    });

    it(`${payload}: encoded bytes stay as they were after later encodes, short and long`, () => {
      const pc = bebop.forPayload(payload);
      const messages = makeMessages(payload, { count: 50, seed: 7, fixed: false });
      const encoded = messages.map((m) => pc.encode(m) as Uint8Array);
      const copies = encoded.map((e) => hex(e));
      for (const m of [...EDGE[payload]!, EXAMPLE_MESSAGES[payload]]) pc.encode(m);
      expect(encoded.map((e) => hex(e))).toEqual(copies);
      encoded.forEach((e, i) => expect(describeMismatch(messages[i]!, pc.decode(e))).toBeUndefined());
    });

    it(`${payload}: a frame cut short or with a byte too many throws an Error`, () => {
      const pc = bebop.forPayload(payload);
      const bytes = pc.encode(EXAMPLE_MESSAGES[payload]) as Uint8Array;
      for (let n = 0; n < bytes.length; n++) expect(() => pc.decode(bytes.subarray(0, n)), `${n} bytes`).toThrow(Error);
      const longer = new Uint8Array(bytes.length + 1);
      longer.set(bytes);
      expect(() => pc.decode(longer)).toThrow(Error);
    });
  }

  it("writes the article's small message as Bebop's struct layout gives it", () => {
    const bytes = bebop.forPayload("small").encode({ text: "Hello World!", num: 123 }) as Uint8Array;
    // struct Small: the fields back to back, no tags, no length in front.
    //   0c000000                  text: byte length 12, uint32 little-endian
    //   48656c6c6f20576f726c6421  "Hello World!" in UTF-8
    //   7b000000                  num: 123, uint32 little-endian
    expect(hex(bytes)).toBe("0c000000" + "48656c6c6f20576f726c6421" + "7b000000");
  });

  it("chat (a Bebop message): absent optional fields stay absent, present ones come back, and only present ones are written", () => {
    const pc = bebop.forPayload("chat");
    const base: ChatMessage = { id: 1, room: 2, user: "u", text: "t", sentAt: 2 ** 40, reactions: [] };
    const bare = pc.decode(pc.encode(base));
    expect(Object.keys(bare)).toEqual(["id", "room", "user", "text", "sentAt", "reactions"]);
    const full: ChatMessage = { ...base, replyTo: 4294967295, editedAt: 2 ** 53 - 1 };
    expect(describeMismatch(full, pc.decode(pc.encode(full)))).toBeUndefined();
    const onlyEdited: ChatMessage = { ...base, editedAt: 5 };
    expect(Object.keys(pc.decode(pc.encode(onlyEdited)))).toEqual([...Object.keys(base), "editedAt"]);
    // A present field costs its index byte and its value: replyTo 1 + 4, editedAt 1 + 8.
    const size = (m: ChatMessage): number => (pc.encode(m) as Uint8Array).length;
    expect(size(full) - size(base)).toBe(14);
  });

  it("game-tick's state enum is one byte, decoded as the message's number", () => {
    const pc = bebop.forPayload("game-tick");
    const one = { tick: 1, entities: [{ id: 1, state: 2, x: 0, y: 0, z: 0, vx: 0, vy: 0, vz: 0 }] };
    // tick 4 + entity count 4 + (id 4 + state 1 + six doubles 48).
    expect((pc.encode(one) as Uint8Array).length).toBe(61);
    expect(describeMismatch(one, pc.decode(pc.encode(one)))).toBeUndefined();
  });

  it("carries every special double exactly: -0, NaN and both infinities (float64 on the wire)", () => {
    const pc = bebop.forPayload("medium");
    for (const decimal of [-0, NaN, Infinity, -Infinity]) {
      const m = { text: "a", text2: "b", num: 1, decimal };
      expect(describeMismatch(m, pc.decode(pc.encode(m)))).toBeUndefined();
    }
  });

  it("has no schema for a user's own messages", () => {
    expect(bebop.notApplicable?.("mine")).toMatch(/schema/);
    expect(bebop.notApplicable?.("small")).toBeUndefined();
    expect(() => bebop.forPayload("mine")).toThrow(/no schema/);
  });
});
