/**
 * The codec contract on bad input, for every codec in the registry: a
 * decoder throws an Error (custom-binary: only RangeError or DecodeError),
 * or returns a value the server's shape check refuses; it never hangs or
 * crashes, and keeps working afterwards.
 */
import { describe, expect, it } from "vitest";
import { EXAMPLE_MESSAGES, PAYLOAD_NAMES } from "../../protocols/messages.ts";
import { DecodeError } from "../../custom-binary/index.ts";
import { BUILT_IN } from "../../protocols/registry.ts";
import { uint53 } from "../../protocols/codec.ts";
import { shapeError } from "../../protocols/socket/shape.ts";
import { badFrames } from "../helpers/frames.ts";

describe("decoders on bad frames", () => {
  it("throw Errors only (custom-binary: RangeError or DecodeError), and still decode afterwards", () => {
    const thrown = new Map<string, number>();
    for (const frame of badFrames(30_000, 77)) {
      const codec = BUILT_IN.codecs.find((c) => c.name === frame.codec)!;
      const pc = codec.forPayload(frame.payload);
      const data = frame.data;
      // The server refuses the wrong frame type before decoding; decoders see only their own type.
      if ((codec.frame === "text") !== (typeof data === "string")) continue;
      try {
        const value = pc.decode(data);
        // Decoded: fine if the server's shape check settles it either way.
        void shapeError(frame.payload, value);
      } catch (e) {
        expect(e, `${frame.codec} ${frame.kind}`).toBeInstanceOf(Error);
        if (frame.codec === "custom-binary") expect(e instanceof RangeError || e instanceof DecodeError, String(e)).toBe(true);
        thrown.set(frame.codec, (thrown.get(frame.codec) ?? 0) + 1);
      }
    }
    for (const codec of BUILT_IN.codecs) expect(thrown.get(codec.name) ?? 0, codec.name).toBeGreaterThan(100);
    for (const codec of BUILT_IN.codecs) {
      for (const payload of PAYLOAD_NAMES) {
        const pc = codec.forPayload(payload);
        expect(pc.decode(pc.encode(EXAMPLE_MESSAGES[payload]))).toEqual(EXAMPLE_MESSAGES[payload]);
      }
    }
  });
});

describe("uint53: a 64-bit field as the number the messages hold", () => {
  it("is exact up to 2^53 - 1 and refuses what no number carries, never rounding", () => {
    expect(uint53(0n)).toBe(0);
    expect(uint53(2n ** 53n - 1n)).toBe(Number.MAX_SAFE_INTEGER);
    expect(() => uint53(2n ** 53n)).toThrow(RangeError);
    expect(() => uint53(2n ** 64n - 1n)).toThrow(/beyond the 0..2\^53 - 1/);
    expect(() => uint53(-1n)).toThrow(RangeError);
  });

  it("a uint64 of 2^53 on the wire fails the decode of every schema codec that reads bigints", () => {
    // A market message whose seq is 2^53, written by each codec's own library.
    const beyond = { ...EXAMPLE_MESSAGES.market, seq: 2 ** 53 };
    for (const name of ["protobuf-es", "bebop", "flatbuffers", "capnp"]) {
      const pc = BUILT_IN.get(name)!.forPayload("market");
      expect(() => pc.decode(pc.encode(beyond)), name).toThrow(RangeError);
    }
  });
});
