/**
 * The Cap'n Proto codec (protocols/capnp.ts). The checks every codec gets
 * (test/helpers/codec-checks.ts): exact round trips of every built-in
 * payload into plain objects, encoded bytes outliving later encodes and
 * decoding from a view into a larger buffer, chat's optional fields
 * (absent ones stay absent, a present 0 comes back), and every truncated
 * frame throwing. Here: an encode is one unpacked segment, the bytes of
 * the article's small message worked out from the Cap'n Proto encoding
 * spec, chat's optional fields as unions, special doubles, corrupt
 * frames, and that readKey reads the routing key alone.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { capnpCodec } from "../../protocols/capnp.ts";
import { parseSchedstat } from "../../server/stolen-time.ts";
import { EXAMPLE_MESSAGES, PAYLOAD_NAMES, type BuiltInPayload } from "../../protocols/messages.ts";
import type { ChatMessage } from "../../protocols/message-sets.ts";
import { makeMessages } from "../../client/harness/generator.ts";
import { describeMismatch } from "../../client/harness/verify.ts";
import { bytes, checkCodecBasics, expectKeyReadLazily, hex } from "../helpers/codec-checks.ts";

/** This thread's CPU time so far, ms (Linux: /proc/thread-self/schedstat's first field). */
function threadCpuMs(): number {
  const text = readFileSync("/proc/thread-self/schedstat");
  return parseSchedstat(text, text.length)[0] / 1e6;
}

describe("capnp codec", () => {
  checkCodecBasics(capnpCodec, { truncated: {}, userMessages: { reason: /schema/, error: /no schema/ } });

  it("names itself", () => {
    expect(capnpCodec.name).toBe("capnp");
    expect(capnpCodec.library).toBe("capnp-es");
    expect(capnpCodec.frame).toBe("binary");
    expect(capnpCodec.standard).toBe(true);
  });

  for (const payload of PAYLOAD_NAMES) {
    it(`${payload}: an encode is one unpacked segment`, () => {
      const pc = capnpCodec.forPayload(payload);
      for (const m of [EXAMPLE_MESSAGES[payload], ...makeMessages(payload, { count: 20, seed: 9, fixed: false })]) {
        const encoded = pc.encode(m) as Uint8Array;
        const view = new DataView(encoded.buffer, encoded.byteOffset, encoded.byteLength);
        expect(view.getUint32(0, true)).toBe(0); // one segment
        expect(8 + view.getUint32(4, true) * 8).toBe(encoded.byteLength); // framing header + the segment, nothing else
      }
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

  it("chat: the optional fields are unions of none and value, costing no bytes beyond their discriminants", () => {
    const pc = capnpCodec.forPayload("chat");
    const { replyTo: _r, ...base } = EXAMPLE_MESSAGES.chat as ChatMessage;
    // Present or not, the message is as long.
    expect((pc.encode({ ...base, replyTo: 5, editedAt: 6 }) as Uint8Array).byteLength).toBe(
      (pc.encode(base) as Uint8Array).byteLength,
    );
  });

  it("carries every special double exactly: -0, NaN, +Infinity, -Infinity", () => {
    const pc = capnpCodec.forPayload("medium");
    for (const decimal of [-0, NaN, Infinity, -Infinity]) {
      const m = { ...EXAMPLE_MESSAGES.medium, decimal };
      expect(describeMismatch(m, pc.decode(pc.encode(m)))).toBeUndefined();
    }
    const tick = capnpCodec.forPayload("game-tick");
    const m = {
      match: 1,
      tick: 1,
      entities: [{ id: 1, state: 2, x: -0, y: NaN, z: Infinity, vx: -Infinity, vy: -0, vz: 0 }],
    };
    expect(describeMismatch(m, tick.decode(tick.encode(m)))).toBeUndefined();
  });

  it("refuses a segment table larger than the frame, and a list claiming more items than the frame has bytes, at once", () => {
    const pc = capnpCodec.forPayload("chat");
    const huge = Uint8Array.from([
      0x00, 0xff, 0xff, 0xff, 0xff, 0x0f, 0xdb, 0xff, 0xff, 0xff, 0x7f, 0xc6, 0xff, 0xff, 0xff, 0xff,
    ]);
    // CPU time of this thread, not wall time: a busy machine stretches the one, not the other.
    const cpu0 = threadCpuMs();
    expect(() => pc.decode(huge)).toThrow(/segment table/);
    // The reactions pointer (a composite list, tag 0x0d) turned into another kind by one bit flip.
    const frame = (pc.encode(EXAMPLE_MESSAGES.chat) as Uint8Array).slice();
    const at = hex(frame).indexOf("0d00000017000000") / 2;
    expect(at).toBeGreaterThan(0);
    frame[at] = 0x0f;
    expect(() => pc.decode(frame)).toThrow(/does not fit/);
    expect(threadCpuMs() - cpu0).toBeLessThan(1000);
  });

  it("readKey reads only the routing key: a frame whose other field decode refuses still gives its key", () => {
    // The root struct: the root pointer (the segment's first word, after the 8-byte segment table) holds its offset
    // in words (bits 2-31, from the pointer's end) and its data section's length in words (bytes 4-5).
    const rootAt = (view: DataView): number => 16 + (view.getInt32(8, true) >> 2) * 8;
    const pointerAt = (view: DataView, i: number): number => rootAt(view) + view.getUint16(12, true) * 8 + 8 * i;
    // A list pointer (Text, or the composite list of entities) aimed 2^28 words past the segment: reading it throws.
    const aimedAway =
      (elementSize: number) =>
      (view: DataView, i: number): void => {
        const at = pointerAt(view, i);
        expect(view.getUint32(at, true) & 3).toBe(1); // a list pointer
        expect(view.getUint32(at + 4, true) & 7).toBe(elementSize);
        view.setUint32(at, 0x3ffffffc | 1, true);
      };
    // A UInt64 at byte i of the data section set beyond 2^53: uint53 throws.
    const beyond53 = (view: DataView, i: number, value: unknown): void => {
      expect(view.getBigUint64(rootAt(view) + i, true)).toBe(BigInt(value as number));
      view.setUint8(rootAt(view) + i + 7, 0xff);
    };
    const text = aimedAway(2); // byte elements
    const composite = aimedAway(7);
    // A field other than the key, by its name and its pointer index (its byte offset in the data section for seq).
    const other: Record<
      BuiltInPayload,
      [name: string, index: number, corrupt: (view: DataView, index: number, value: unknown) => void]
    > = {
      small: ["text", 0, text],
      medium: ["text", 0, text],
      large: ["text", 0, text],
      chat: ["user", 0, text],
      "game-tick": ["entities", 0, composite],
      market: ["seq", 0, beyond53],
    };
    expectKeyReadLazily(capnpCodec, (payload, view, m) => {
      const [name, index, corrupt] = other[payload];
      corrupt(view, index, m[name]);
      return name;
    });
  });
});
