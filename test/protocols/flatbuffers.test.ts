/**
 * The FlatBuffers codec (protocols/flatbuffers.ts): exact round trips of
 * every built-in payload into plain objects, the bytes of the article's
 * small message worked out from the FlatBuffers format, optional scalars,
 * FlatBuffers' defaults, and what its decoder does with frames it did not write.
 */
import { describe, expect, it } from "vitest";
import { flatbuffersCodec } from "../../protocols/flatbuffers.ts";
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

describe("flatbuffers codec", () => {
  it("names itself", () => {
    expect(flatbuffersCodec.name).toBe("flatbuffers");
    expect(flatbuffersCodec.library).toBe("flatbuffers");
    expect(flatbuffersCodec.frame).toBe("binary");
    expect(flatbuffersCodec.standard).toBe(true);
    expect(flatbuffersCodec.description).toMatch(/zero-copy/);
  });

  for (const payload of PAYLOAD_NAMES) {
    it(`carries ${payload} exactly: the example, the edge messages and 1,000 generated ones, as plain objects`, () => {
      const pc = flatbuffersCodec.forPayload(payload);
      const messages: Message[] = [EXAMPLE_MESSAGES[payload], ...EDGE[payload]!, ...makeMessages(payload, { count: 1000, seed: 42, fixed: false })];
      for (const m of messages) {
        const encoded = pc.encode(m);
        expect(encoded).toBeInstanceOf(Uint8Array);
        const decoded = pc.decode(encoded);
        expect(describeMismatch(m, decoded)).toBeUndefined();
        expect(plain(decoded)).toBe(true);
      }
    });

    it(`returns ${payload} bytes that later encodes do not overwrite`, () => {
      const pc = flatbuffersCodec.forPayload(payload);
      const first = pc.encode(EXAMPLE_MESSAGES[payload]) as Uint8Array;
      const copy = first.slice();
      for (const m of makeMessages(payload, { count: 20, seed: 9, fixed: false })) pc.encode(m);
      expect(hex(first)).toBe(hex(copy));
      expect(first.byteLength).toBe(first.buffer.byteLength); // exactly the message, not the builder's buffer
      expect(describeMismatch(EXAMPLE_MESSAGES[payload], pc.decode(first))).toBeUndefined();
    });
  }

  it("writes the article's small message as the FlatBuffers format lays it out", () => {
    const vector =
      "0c000000" + //   0: uoffset of the root table: at byte 12
      "0800" + //       4: vtable: 8 bytes long (4 + 2 fields x 2)
      "0c00" + //       6:   the table's inline size: 12 bytes
      "0800" + //       8:   field 0 (text) at table + 8
      "0400" + //      10:   field 1 (num) at table + 4
      "08000000" + //  12: root table: soffset to its vtable (12 - 8 = 4)
      "7b000000" + //  16:   num = 123 (uint32, little-endian)
      "04000000" + //  20:   text: uoffset to the string (20 + 4 = 24)
      "0c000000" + //  24: string: 12 bytes of UTF-8
      "48656c6c6f20576f726c6421" + // 28: "Hello World!"
      "00" + //        40: the string's NUL terminator
      "000000"; //     41: padding to the builder's 4-byte alignment
    const pc = flatbuffersCodec.forPayload("small");
    expect(hex(pc.encode({ text: "Hello World!", num: 123 }) as Uint8Array)).toBe(vector);
    expect(pc.decode(bytes(vector))).toEqual({ text: "Hello World!", num: 123 });
  });

  it("keeps chat's absent optional fields absent, and carries a present 0", () => {
    const pc = flatbuffersCodec.forPayload("chat");
    const { replyTo: _r, ...base } = EXAMPLE_MESSAGES.chat as ChatMessage;
    const absent = pc.decode(pc.encode(base));
    expect(Object.hasOwn(absent, "replyTo")).toBe(false);
    expect(Object.hasOwn(absent, "editedAt")).toBe(false);
    expect(Object.keys(absent)).toEqual(["id", "room", "user", "text", "sentAt", "reactions"]);
    // flatc 2.0.8 passes 0 as the default of an optional scalar; the codec still writes a present 0.
    for (const m of [{ ...base, replyTo: 0 }, { ...base, editedAt: 0 }, { ...base, replyTo: 0, editedAt: 0 }]) {
      expect(describeMismatch(m, pc.decode(pc.encode(m)))).toBeUndefined();
    }
    const both = { ...base, replyTo: 0, editedAt: 0 };
    expect(Object.keys(pc.decode(pc.encode(both)))).toEqual(Object.keys(both));
  });

  it("carries zeros and empty strings (defaults are not written, strings always are)", () => {
    const pc = flatbuffersCodec.forPayload("medium");
    const m = { text: "", text2: "", num: 0, decimal: 0 };
    const encoded = pc.encode(m) as Uint8Array;
    expect(pc.decode(encoded)).toEqual(m);
    expect(encoded.byteLength).toBeLessThan((pc.encode({ text: "", text2: "", num: 1, decimal: 1 }) as Uint8Array).byteLength);
  });

  it("carries NaN and the infinities; -0 in a table's double reads back as +0 (a default), in a struct it survives", () => {
    const pc = flatbuffersCodec.forPayload("medium");
    for (const decimal of [NaN, Infinity, -Infinity]) {
      const m = { ...EXAMPLE_MESSAGES.medium, decimal };
      expect(describeMismatch(m, pc.decode(pc.encode(m)))).toBeUndefined();
    }
    const negZero = pc.decode(pc.encode({ ...EXAMPLE_MESSAGES.medium, decimal: -0 })) as { decimal: number };
    expect(Object.is(negZero.decimal, 0)).toBe(true);
    const tick = flatbuffersCodec.forPayload("game-tick");
    const m = { tick: 1, entities: [{ id: 1, state: 2, x: -0, y: NaN, z: Infinity, vx: -Infinity, vy: -0, vz: 0 }] };
    expect(describeMismatch(m, tick.decode(tick.encode(m)))).toBeUndefined();
  });

  it("throws an Error for frames too short to be a FlatBuffer, and for vectors longer than the frame", () => {
    for (const payload of PAYLOAD_NAMES) {
      const pc = flatbuffersCodec.forPayload(payload);
      for (const n of [0, 1, 4, 11]) expect(() => pc.decode(new Uint8Array(n)), `${payload} ${n} bytes`).toThrow(RangeError);
    }
    // game-tick: tick 1 and one entity, then the vector's length set to 2^31 - 1.
    const tick = flatbuffersCodec.forPayload("game-tick");
    const frame = (tick.encode(EXAMPLE_MESSAGES["game-tick"]) as Uint8Array).slice();
    const view = new DataView(frame.buffer);
    const at = frame.length - 56 - 4; // the vector: its length, then one 56-byte entity at the end
    expect(view.getUint32(at, true)).toBe(1);
    view.setUint32(at, 0x7fffffff, true);
    expect(() => tick.decode(frame)).toThrow(/does not fit/);
  });

  it("has no verifier: a truncated frame decodes, or throws, but never hangs", () => {
    // The JavaScript runtime reads past the end as zeros and clamps strings:
    // cutting the small message inside its string gives a shorter string.
    const pc = flatbuffersCodec.forPayload("small");
    expect(pc.decode((pc.encode({ text: "Hello World!", num: 123 }) as Uint8Array).subarray(0, 36))).toEqual({ text: "Hello Wo", num: 123 });
    for (const payload of PAYLOAD_NAMES) {
      const codec = flatbuffersCodec.forPayload(payload);
      const whole = codec.encode(EXAMPLE_MESSAGES[payload]) as Uint8Array;
      for (let n = 0; n < whole.length; n++) {
        try {
          codec.decode(whole.slice(0, n));
        } catch (e) {
          expect(e).toBeInstanceOf(Error);
        }
      }
    }
  });

  it("has no schema for a user's own messages", () => {
    expect(flatbuffersCodec.notApplicable?.("my-messages")).toMatch(/schema/);
    for (const p of PAYLOAD_NAMES) expect(flatbuffersCodec.notApplicable?.(p)).toBeUndefined();
    expect(() => flatbuffersCodec.forPayload("my-messages")).toThrow(CodecError);
  });
});
