/**
 * The codec contract on bad input, for every codec in the registry: a
 * decoder throws an Error (custom-binary: only RangeError or DecodeError),
 * or returns a value the server's shape check refuses; it never hangs or
 * crashes, and keeps working afterwards. And the read-one path of every
 * built-in codec (PayloadCodec.readKey): the routing key of each built-in
 * payload, read from the frame the way the codec says it does
 * (Codec.keyAccess), equal to the original's for the example, the edge
 * messages and 1,000 generated ones; and on frames cut short or with a
 * byte changed, never a different key from the one a full decode reads:
 * where decode reads the frame, readKey gives decode's key or throws; it
 * throws Errors only.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { makeMessages } from "../../client/harness/generator.ts";
import {
  EXAMPLE_MESSAGES,
  PAYLOAD_NAMES,
  ROUTING_KEYS,
  type BuiltInPayload,
  type Message,
} from "../../protocols/messages.ts";
import { DecodeError } from "../../custom-binary/index.ts";
import { BUILT_IN } from "../../protocols/registry.ts";
import { KEY_ACCESSES, uint53, type Encoded, type PayloadCodec } from "../../protocols/codec.ts";
import { shapeError } from "../../server/shape.ts";
import { badFrames } from "../helpers/frames.ts";
import { EDGE } from "../helpers/edge-messages.ts";

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
        if (frame.codec === "custom-binary")
          expect(e instanceof RangeError || e instanceof DecodeError, String(e)).toBe(true);
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

const allMessages = (payload: BuiltInPayload): Message[] => [
  EXAMPLE_MESSAGES[payload],
  ...EDGE[payload]!,
  ...makeMessages(payload, { count: 1000, seed: 42, fixed: false }),
];

/** The key a full decode reads from `frame`, or undefined where decode refuses the frame. */
function decodedKey(pc: PayloadCodec, frame: Encoded, key: string): { key: unknown } | undefined {
  try {
    return { key: (pc.decode(frame) as Record<string, unknown>)[key] };
  } catch {
    return undefined;
  }
}

/** Frames near a good one: every prefix, and the frame with each byte (each character of a text frame) changed. */
function nearFrames(frame: Encoded): Encoded[] {
  const out: Encoded[] = [];
  if (typeof frame === "string") {
    for (let n = 0; n < frame.length; n++) out.push(frame.slice(0, n));
    for (let i = 0; i < frame.length; i++)
      out.push(frame.slice(0, i) + String.fromCharCode(frame.charCodeAt(i) ^ 0x01) + frame.slice(i + 1));
    return out;
  }
  for (let n = 0; n < frame.length; n++) out.push(frame.slice(0, n));
  for (let i = 0; i < frame.length; i++) {
    for (const flip of [0x01, 0x80, 0xff]) {
      const changed = frame.slice();
      changed[i]! ^= flip;
      out.push(changed);
    }
  }
  return out;
}

/** docs/access-patterns.md's table of how each codec reads the key: codec name to its "reads by". */
function documentedAccess(): Map<string, string> {
  const doc = readFileSync(path.resolve(import.meta.dirname, "../../docs/access-patterns.md"), "utf8");
  const out = new Map<string, string>();
  for (const m of doc.matchAll(/^\| ([a-z0-9, -]+) \| (offset|lazy|scan|decode) \|/gm))
    for (const name of m[1]!.split(", ")) out.set(name, m[2]!);
  return out;
}

describe("read-one: each codec's readKey", () => {
  it("docs/access-patterns.md says how every built-in codec reads the key, as the codec does", () => {
    const documented = documentedAccess();
    for (const codec of BUILT_IN.codecs.filter((c) => !c.name.startsWith("cal-")))
      expect(documented.get(codec.name), codec.name).toBe(codec.keyAccess ?? "decode");
  });

  for (const codec of BUILT_IN.codecs.filter((c) => c.name !== "raw" && !c.name.startsWith("cal-"))) {
    it(`${codec.name}: says how it reads the key (${codec.keyAccess ?? "decode"}), and has a readKey exactly when that is not a full decode`, () => {
      expect(KEY_ACCESSES).toContain(codec.keyAccess ?? "decode");
      for (const payload of PAYLOAD_NAMES) {
        if (codec.notApplicable?.(payload) !== undefined) continue;
        expect(codec.forPayload(payload).readKey === undefined, payload).toBe(
          (codec.keyAccess ?? "decode") === "decode",
        );
      }
    });

    for (const payload of PAYLOAD_NAMES) {
      const key = ROUTING_KEYS[payload];
      it(`${codec.name} ${payload}: reads ${key} of every message; on frames cut short or changed, decode's ${key} or an Error`, () => {
        const pc = codec.forPayload(payload);
        const readKey = pc.readKey?.bind(pc) ?? ((f: Encoded) => (pc.decode(f) as Record<string, unknown>)[key]);
        for (const m of allMessages(payload)) {
          const frame = pc.encode(m);
          expect(
            Object.is(readKey(frame), (m as Record<string, unknown>)[key]),
            `${key} of ${JSON.stringify(m).slice(0, 80)}`,
          ).toBe(true);
        }
        for (const m of [EXAMPLE_MESSAGES[payload], ...EDGE[payload]!.slice(0, 3)]) {
          const whole = pc.encode(m);
          // A plain copy: a Buffer's slice is a view, and every changed frame must be its own bytes.
          for (const frame of nearFrames(typeof whole === "string" ? whole : new Uint8Array(whole as Uint8Array))) {
            const decoded = decodedKey(pc, frame, key);
            let read: { key: unknown } | { error: unknown };
            try {
              read = { key: readKey(frame) };
            } catch (error) {
              read = { error };
            }
            if ("error" in read) expect(read.error).toBeInstanceOf(Error);
            // Recursively by Object.is: a changed frame a schema-less decode still reads may hold an object where the key was, a fresh one per decode.
            else if (decoded !== undefined)
              expect(read.key, `a frame decode reads as ${String(decoded.key)}`).toStrictEqual(decoded.key);
          }
        }
      });
    }
  }
});
