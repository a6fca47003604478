/**
 * The Cap'n Proto codec (protocols/capnp.ts): exact round trips of every
 * built-in payload into plain objects, the bytes of the article's small
 * message worked out from the Cap'n Proto encoding spec, chat's optional
 * fields as unions, special doubles, and truncated or corrupt frames.
 */
import { describe, expect, it } from "vitest";
import { capnpCodec } from "../../protocols/capnp.ts";
import { CodecError } from "../../protocols/codec-errors.ts";
import { EXAMPLE_MESSAGES, PAYLOAD_NAMES, type Message } from "../../protocols/messages.ts";
import type { ChatMessage } from "../../protocols/message-sets.ts";
import { makeMessages } from "../../bench/harness/generator.ts";
import { describeMismatch } from "../../bench/harness/verify.ts";
import { EDGE } from "../helpers/edge-messages.ts";

const hex = (b: Uint8Array): string => Buffer.from(b).toString("hex");
const bytes = (h: string): Uint8Array => Uint8Array.from(Buffer.from(h.replace(/\s+/g, ""), "hex"));

/** Every object in `v` is a plain object (prototype Object.prototype), every array an Array. */
function plain(v: unknown): boolean {
  if (Array.isArray(v)) return Object.getPrototypeOf(v) === Array.prototype && v.every(plain);
  if (v !== null && typeof v === "object") return Object.getPrototypeOf(v) === Object.prototype && Object.values(v).every(plain);
  return true;
}

describe("capnp codec", () => {
  it("names itself", () => {
    expect(capnpCodec.name).toBe("capnp");
    expect(capnpCodec.library).toBe("capnp-es");
    expect(capnpCodec.frame).toBe("binary");
    expect(capnpCodec.standard).toBe(true);
  });

  for (const payload of PAYLOAD_NAMES) {
    it(`carries ${payload} exactly: the example, the edge messages and 1,000 generated ones, as plain objects`, () => {
      const pc = capnpCodec.forPayload(payload);
      const messages: Message[] = [EXAMPLE_MESSAGES[payload], ...EDGE[payload]!, ...makeMessages(payload, { count: 1000, seed: 42, fixed: false })];
      for (const m of messages) {
        const encoded = pc.encode(m);
        expect(encoded).toBeInstanceOf(Uint8Array);
        const decoded = pc.decode(encoded);
        expect(describeMismatch(m, decoded)).toBeUndefined();
        expect(plain(decoded)).toBe(true);
      }
    });

    it(`returns ${payload} bytes that later encodes do not overwrite, as one unpacked segment`, () => {
      const pc = capnpCodec.forPayload(payload);
      const first = pc.encode(EXAMPLE_MESSAGES[payload]) as Uint8Array;
      const copy = first.slice();
      for (const m of makeMessages(payload, { count: 20, seed: 9, fixed: false })) pc.encode(m);
      expect(hex(first)).toBe(hex(copy));
      const view = new DataView(first.buffer, first.byteOffset, first.byteLength);
      expect(view.getUint32(0, true)).toBe(0); // one segment
      expect(8 + view.getUint32(4, true) * 8).toBe(first.byteLength); // framing header + the segment, nothing else
      expect(describeMismatch(EXAMPLE_MESSAGES[payload], pc.decode(first))).toBeUndefined();
    });

    it(`decodes ${payload} from a view into a larger buffer`, () => {
      const pc = capnpCodec.forPayload(payload);
      const encoded = pc.encode(EXAMPLE_MESSAGES[payload]) as Uint8Array;
      const big = new Uint8Array(encoded.length + 16);
      big.set(encoded, 8);
      expect(describeMismatch(EXAMPLE_MESSAGES[payload], pc.decode(big.subarray(8, 8 + encoded.length)))).toBeUndefined();
    });
  }

  it("writes the article's small message as the Cap'n Proto encoding spec lays it out", () => {
    const vector =
      "00000000" + //          0: segment table: segment count - 1 = 0
      "05000000" + //          4:   segment 0 is 5 words (40 bytes)
      "0000000001000100" + //  8: word 0, root struct pointer: offset 0, 1 data word, 1 pointer
      "7b00000000000000" + // 16: word 1, data section: num = 123 (UInt32 at byte 0), 4 bytes unused
      "01000000" + //         24: word 2, pointer section: text, a list pointer (tag 1) with offset 0 (word 3)
      "6a000000" + //         28:   element size 2 (bytes), 13 elements (0x6a = 13 << 3 | 2): 12 + NUL
      "48656c6c6f20576f726c6421" + // 32: words 3-4: "Hello World!"
      "00" + //               44:   the NUL terminator Text carries
      "000000"; //            45:   padding to the word
    const pc = capnpCodec.forPayload("small");
    expect(hex(pc.encode({ text: "Hello World!", num: 123 }) as Uint8Array)).toBe(vector);
    expect(pc.decode(bytes(vector))).toEqual({ text: "Hello World!", num: 123 });
  });

  it("keeps chat's absent optional fields absent, and carries a present 0 (unions of none and value)", () => {
    const pc = capnpCodec.forPayload("chat");
    const { replyTo: _r, ...base } = EXAMPLE_MESSAGES.chat as ChatMessage;
    const absent = pc.decode(pc.encode(base));
    expect(Object.keys(absent)).toEqual(["id", "room", "user", "text", "sentAt", "reactions"]);
    for (const m of [{ ...base, replyTo: 0 }, { ...base, editedAt: 0 }, { ...base, replyTo: 0, editedAt: 0 }, { ...base, editedAt: 2 ** 53 - 1 }]) {
      const decoded = pc.decode(pc.encode(m));
      expect(describeMismatch(m, decoded)).toBeUndefined();
      expect(Object.keys(decoded)).toEqual(Object.keys(m));
    }
    // The unions cost no bytes beyond their discriminants: present or not, the message is as long.
    expect((pc.encode({ ...base, replyTo: 5, editedAt: 6 }) as Uint8Array).byteLength).toBe((pc.encode(base) as Uint8Array).byteLength);
  });

  it("carries every special double exactly: -0, NaN, +Infinity, -Infinity", () => {
    const pc = capnpCodec.forPayload("medium");
    for (const decimal of [-0, NaN, Infinity, -Infinity]) {
      const m = { ...EXAMPLE_MESSAGES.medium, decimal };
      expect(describeMismatch(m, pc.decode(pc.encode(m)))).toBeUndefined();
    }
    const tick = capnpCodec.forPayload("game-tick");
    const m = { tick: 1, entities: [{ id: 1, state: 2, x: -0, y: NaN, z: Infinity, vx: -Infinity, vy: -0, vz: 0 }] };
    expect(describeMismatch(m, tick.decode(tick.encode(m)))).toBeUndefined();
  });

  it("throws an Error for every truncation of every payload's message", () => {
    for (const payload of PAYLOAD_NAMES) {
      const pc = capnpCodec.forPayload(payload);
      const whole = pc.encode(EXAMPLE_MESSAGES[payload]) as Uint8Array;
      for (let n = 0; n < whole.length; n++) expect(() => pc.decode(whole.slice(0, n)), `${payload} cut to ${n} bytes`).toThrow(Error);
    }
  });

  it("refuses a segment table larger than the frame, and a list claiming more items than the frame has bytes, at once", () => {
    const pc = capnpCodec.forPayload("chat");
    const huge = Uint8Array.from([0x00, 0xff, 0xff, 0xff, 0xff, 0x0f, 0xdb, 0xff, 0xff, 0xff, 0x7f, 0xc6, 0xff, 0xff, 0xff, 0xff]);
    const t0 = performance.now();
    expect(() => pc.decode(huge)).toThrow(/segment table/);
    // The reactions pointer (a composite list, tag 0x0d) turned into another kind by one bit flip.
    const frame = (pc.encode(EXAMPLE_MESSAGES.chat) as Uint8Array).slice();
    const at = hex(frame).indexOf("0d00000017000000") / 2;
    expect(at).toBeGreaterThan(0);
    frame[at] = 0x0f;
    expect(() => pc.decode(frame)).toThrow(/does not fit/);
    expect(performance.now() - t0).toBeLessThan(1000);
  });

  it("has no schema for a user's own messages", () => {
    expect(capnpCodec.notApplicable?.("my-messages")).toMatch(/schema/);
    for (const p of PAYLOAD_NAMES) expect(capnpCodec.notApplicable?.(p)).toBeUndefined();
    expect(() => capnpCodec.forPayload("my-messages")).toThrow(CodecError);
  });
});
