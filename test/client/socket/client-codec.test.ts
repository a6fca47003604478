/** How a client encodes what it sends and checks what comes back, for every socket codec and raw. */
import { BUILT_IN } from "../../../protocols/registry.ts";
import { describe, expect, it } from "vitest";
import { makeMessages } from "../../../client/harness/generator.ts";
import { clientCodec } from "../../../client/socket/client-codec.ts";
import { createCustomBinary } from "../../../custom-binary/index.ts";
import { PAYLOAD_NAMES } from "../../../protocols/messages.ts";
import { RAW_CODEC_NAME, socketCodecNames, frameOf } from "../../../protocols/contract.ts";

const SCHEMA_CODECS = socketCodecNames(BUILT_IN).filter((c) => c !== RAW_CODEC_NAME);

/** A copy of the bytes inside a larger buffer, at an offset, as a runtime may hand over a view. */
function offsetView(bytes: Uint8Array): Uint8Array {
  const big = new Uint8Array(bytes.length + 16);
  big.set(bytes, 7);
  return big.subarray(7, 7 + bytes.length);
}

describe("clientCodec: schema codecs", () => {
  for (const codec of SCHEMA_CODECS) {
    for (const payload of PAYLOAD_NAMES) {
      it(`${codec} ${payload}: encode(i) decodes back to message i, and to no other`, () => {
        const messages = makeMessages(payload, { count: 4, seed: 11, fixed: false });
        const c = clientCodec(BUILT_IN, codec, payload, messages);
        expect(c.frame).toBe(frameOf(codec, BUILT_IN));
        for (let i = 0; i < 3; i++) {
          const encoded = c.encode(i);
          expect(typeof encoded === "string").toBe(c.frame === "text");
          // As the socket delivers it: a string, or an ArrayBuffer of its own under binaryType "arraybuffer".
          const data = typeof encoded === "string" ? encoded : new Uint8Array(encoded).buffer;
          const decoded = c.decode(data);
          expect(c.matches(i, decoded)).toBe(true);
          expect(c.matches(i + 1, decoded)).toBe(false);
        }
      });
    }
  }

  it("decodes a view that starts inside a larger buffer (a Node Buffer)", () => {
    const messages = makeMessages("medium", { count: 2, seed: 3, fixed: false });
    const c = clientCodec(BUILT_IN, "custom-binary", "medium", messages);
    const encoded = c.encode(1) as Uint8Array;
    expect(c.matches(1, c.decode(offsetView(encoded)))).toBe(true);
  });

  it("does not match something that is not a message", () => {
    const c = clientCodec(BUILT_IN, "json", "small", makeMessages("small", { count: 1, seed: 1, fixed: true }));
    expect(c.matches(0, null)).toBe(false);
    expect(c.matches(0, "Hello World!")).toBe(false);
    expect(c.matches(0, {})).toBe(false);
  });
});

describe("clientCodec: raw", () => {
  const messages = makeMessages("large", { count: 3, seed: 8, fixed: false });
  const raw = clientCodec(BUILT_IN, RAW_CODEC_NAME, "large", messages);
  const cb = createCustomBinary();

  it("sends each message's custom-binary bytes in binary frames", () => {
    expect(raw.frame).toBe("binary");
    expect(Array.from(raw.encode(2) as Uint8Array)).toEqual(Array.from(cb.encode(messages[2]!)));
  });

  it("hands the same prepared bytes back for the same message", () => {
    expect(raw.encode(0)).toBe(raw.encode(0));
  });

  it("prepares a message a cycled list holds twice once", () => {
    const cycled = clientCodec(BUILT_IN, RAW_CODEC_NAME, "large", [messages[0]!, messages[1]!, messages[0]!]);
    expect(cycled.encode(2)).toBe(cycled.encode(0));
    expect(cycled.encode(1)).not.toBe(cycled.encode(0));
    expect(cycled.matches(2, cycled.decode(cycled.encode(0)))).toBe(true);
  });

  it("decodes a string to the string itself", () => {
    expect(raw.decode("hello")).toBe("hello");
    expect(raw.matches(0, raw.decode("hello"))).toBe(false);
  });

  it("decodes an ArrayBuffer or a view to its bytes", () => {
    const bytes = raw.encode(1) as Uint8Array;
    const fromBuffer = raw.decode(new Uint8Array(bytes).buffer);
    expect(fromBuffer).toBeInstanceOf(Uint8Array);
    expect(Array.from(fromBuffer as Uint8Array)).toEqual(Array.from(bytes));
    const fromView = raw.decode(offsetView(bytes)) as Uint8Array;
    expect(fromView.byteLength).toBe(bytes.byteLength);
    expect(raw.matches(1, fromView)).toBe(true);
  });

  it("matches the exact bytes only: one changed byte, one byte more or less, or another message fail", () => {
    const bytes = (raw.encode(0) as Uint8Array).slice();
    expect(raw.matches(0, bytes)).toBe(true);
    expect(raw.matches(1, bytes)).toBe(false);
    const changed = bytes.slice();
    changed[changed.length >> 1]! ^= 0x01;
    expect(raw.matches(0, changed)).toBe(false);
    expect(raw.matches(0, bytes.subarray(0, bytes.length - 1))).toBe(false);
    const longer = new Uint8Array(bytes.length + 1);
    longer.set(bytes);
    expect(raw.matches(0, longer)).toBe(false);
    expect(raw.matches(0, Array.from(bytes))).toBe(false);
  });
});

describe("clientCodec: unknown names", () => {
  it("throws naming the codec", () => {
    expect(() => clientCodec(BUILT_IN, "yaml", "small", [])).toThrow("unknown codec 'yaml'");
  });
});
