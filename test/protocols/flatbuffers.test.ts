/**
 * The FlatBuffers codec (protocols/flatbuffers.ts). The checks every codec
 * gets (test/helpers/codec-checks.ts): exact round trips of every built-in
 * payload into plain objects, encoded bytes outliving later encodes, and
 * chat's optional scalars (absent ones stay absent, a present 0 comes
 * back). Here: an encode returns exactly the message's bytes, the bytes of
 * the article's small message worked out from the FlatBuffers format, a
 * present 0 is written, FlatBuffers' defaults, special doubles, and what
 * its decoder does with frames it did not write, and that readKey reads
 * the routing key alone.
 */
import { describe, expect, it } from "vitest";
import { flatbuffersCodec } from "../../protocols/flatbuffers.ts";
import { EXAMPLE_MESSAGES, PAYLOAD_NAMES, type BuiltInPayload } from "../../protocols/messages.ts";
import type { ChatMessage } from "../../protocols/message-sets.ts";
import { makeMessages } from "../../client/harness/generator.ts";
import { describeMismatch } from "../../client/harness/verify.ts";
import { bytes, checkCodecBasics, expectKeyReadLazily, hex } from "../helpers/codec-checks.ts";

describe("flatbuffers codec", () => {
  checkCodecBasics(flatbuffersCodec, { userMessages: { reason: /schema/, error: /no schema/ } });

  it("names itself", () => {
    expect(flatbuffersCodec.name).toBe("flatbuffers");
    expect(flatbuffersCodec.library).toBe("flatbuffers");
    expect(flatbuffersCodec.frame).toBe("binary");
    expect(flatbuffersCodec.standard).toBe(true);
    expect(flatbuffersCodec.description).toMatch(/zero-copy/);
  });

  for (const payload of PAYLOAD_NAMES) {
    it(`${payload}: an encode returns exactly the message, not the builder's buffer`, () => {
      const pc = flatbuffersCodec.forPayload(payload);
      for (const m of [EXAMPLE_MESSAGES[payload], ...makeMessages(payload, { count: 20, seed: 9, fixed: false })]) {
        const encoded = pc.encode(m) as Uint8Array;
        expect(encoded.byteLength).toBe(encoded.buffer.byteLength);
      }
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

  it("chat: a present 0 in an optional scalar is written, though flatc 2.0.8 passes 0 as its default", () => {
    const pc = flatbuffersCodec.forPayload("chat");
    const { replyTo: _r, ...base } = EXAMPLE_MESSAGES.chat as ChatMessage;
    const size = (m: ChatMessage): number => (pc.encode(m) as Uint8Array).byteLength;
    expect(size({ ...base, replyTo: 0 })).toBeGreaterThan(size(base));
    expect(size({ ...base, editedAt: 0 })).toBeGreaterThan(size(base));
  });

  it("carries zeros and empty strings (defaults are not written, strings always are)", () => {
    const pc = flatbuffersCodec.forPayload("medium");
    const m = { text: "", text2: "", num: 0, decimal: 0 };
    const encoded = pc.encode(m) as Uint8Array;
    expect(pc.decode(encoded)).toEqual(m);
    expect(encoded.byteLength).toBeLessThan(
      (pc.encode({ text: "", text2: "", num: 1, decimal: 1 }) as Uint8Array).byteLength,
    );
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
    const m = {
      match: 1,
      tick: 1,
      entities: [{ id: 1, state: 2, x: -0, y: NaN, z: Infinity, vx: -Infinity, vy: -0, vz: 0 }],
    };
    expect(describeMismatch(m, tick.decode(tick.encode(m)))).toBeUndefined();
  });

  it("throws an Error for frames too short to be a FlatBuffer, and for vectors longer than the frame", () => {
    for (const payload of PAYLOAD_NAMES) {
      const pc = flatbuffersCodec.forPayload(payload);
      for (const n of [0, 1, 4, 11])
        expect(() => pc.decode(new Uint8Array(n)), `${payload} ${n} bytes`).toThrow(RangeError);
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

  it("a truncated frame throws a RangeError, or decodes exactly when only its trailing padding was cut", () => {
    // The runtime alone reads past the end as zeros and clamps strings (cut inside its string, the small
    // message would come back as "Hello Wo"); the codec's reads are bounds-checked.
    const pc = flatbuffersCodec.forPayload("small");
    expect(() => pc.decode((pc.encode({ text: "Hello World!", num: 123 }) as Uint8Array).subarray(0, 36))).toThrow(
      RangeError,
    );
    for (const payload of PAYLOAD_NAMES) {
      const codec = flatbuffersCodec.forPayload(payload);
      const whole = codec.encode(EXAMPLE_MESSAGES[payload]) as Uint8Array;
      let threw = 0;
      for (let n = 0; n < whole.length; n++) {
        let decoded: unknown;
        try {
          decoded = codec.decode(whole.slice(0, n));
        } catch (e) {
          expect(e, `${payload} cut to ${n}`).toBeInstanceOf(RangeError);
          threw++;
          continue;
        }
        // Only padding after the last byte read may go: the rest of the frame is read.
        expect(describeMismatch(EXAMPLE_MESSAGES[payload], decoded), `${payload} cut to ${n}`).toBeUndefined();
        expect(whole.length - n, `${payload} cut to ${n}`).toBeLessThanOrEqual(7);
      }
      expect(threw, payload).toBeGreaterThan(whole.length - 8);
    }
  });

  it("readKey reads only the routing key: a frame whose other field decode refuses still gives its key", () => {
    // Where field `field` of the root table lies: the root offset, the table's vtable, the field's slot.
    const fieldAt = (view: DataView, field: number): number => {
      const table = view.getUint32(0, true);
      const vtable = table - view.getInt32(table, true);
      return table + view.getUint16(vtable + 4 + 2 * field, true);
    };
    // A string's or vector's length set far past the frame (decode's bounds checks throw), or a ulong's top byte set beyond 2^53 (uint53 throws).
    const hugeLength = (view: DataView, at: number, value: unknown): void => {
      const target = at + view.getUint32(at, true);
      expect(view.getUint32(target, true)).toBe(
        typeof value === "string" ? Buffer.byteLength(value) : (value as unknown[]).length,
      );
      view.setUint32(target, 0x7fffffff, true);
    };
    const hugeUlong = (view: DataView, at: number, value: unknown): void => {
      expect(view.getBigUint64(at, true)).toBe(BigInt(value as number));
      view.setUint8(at + 7, 0xff);
    };
    // A field other than the key, by its name and its index in the table (the schema's field order).
    const other: Record<BuiltInPayload, [name: string, field: number, corrupt: typeof hugeLength]> = {
      small: ["text", 0, hugeLength],
      medium: ["text", 0, hugeLength],
      large: ["text", 0, hugeLength],
      chat: ["user", 2, hugeLength],
      "game-tick": ["entities", 2, hugeLength],
      market: ["seq", 1, hugeUlong],
    };
    expectKeyReadLazily(
      flatbuffersCodec,
      (payload, view, m) => {
        const [name, field, corrupt] = other[payload];
        corrupt(view, fieldAt(view, field), m[name]);
        return name;
      },
      RangeError,
    );
  });
});
