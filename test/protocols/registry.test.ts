import { Decoder } from "@msgpack/msgpack";
import { describe, expect, it } from "vitest";
import { ARTICLE_MESSAGES, ARTICLE_PAYLOADS, EXAMPLE_MESSAGES, PAYLOAD_NAMES } from "../../protocols/messages.ts";
import { describeMismatch } from "../../client/harness/verify.ts";
import { CODEC_FAMILIES, encodedBytes, utf8Length, type Encoded } from "../../protocols/codec.ts";
import { BUILT_IN } from "../../protocols/registry.ts";
import { EDGE } from "../helpers/edge-messages.ts";

const toHex = (e: Encoded): string => (typeof e === "string" ? Buffer.from(e, "utf8") : Buffer.from(e)).toString("hex");
const ascii = (s: string): string => Buffer.from(s, "latin1").toString("hex");

/**
 * Literal bytes of the article's small message, worked out from each
 * format's specification, not from the codec itself.
 */
const SMALL_VECTORS: Record<string, string> = {
  json: ascii('{"text":"Hello World!","num":123}'),
  "json-bytes": ascii('{"text":"Hello World!","num":123}'),
  // fixmap(2), fixstr(4) "text", fixstr(12) "Hello World!", fixstr(3) "num", positive fixint 123
  msgpack: "82" + "a4" + ascii("text") + "ac" + ascii("Hello World!") + "a3" + ascii("num") + "7b",
  // msgpackr writes map16 (de 0002) for speed
  msgpackr: "de0002" + "a4" + ascii("text") + "ac" + ascii("Hello World!") + "a3" + ascii("num") + "7b",
  // record 0x40 (first shared structure), then the values; 0x40..0x7f are record ids, so 123 is uint8 (cc 7b)
  "msgpackr-records": "40" + "ac" + ascii("Hello World!") + "cc7b",
  // field 1 wire type 2 (0a), length 12; field 2 wire type 0 (10), varint 123
  protobuf: "0a0c" + ascii("Hello World!") + "107b",
  // docs/custom-binary.md
  "custom-binary": "290c" + ascii("Hello World!") + "7b",
  // The same Protobuf bytes from two other libraries.
  pbf: "0a0c" + ascii("Hello World!") + "107b",
  "protobuf-es": "0a0c" + ascii("Hello World!") + "107b",
  // Avro: string length 12 as a zigzag varint (18), the text, num 123 as a zigzag long (f6 01); no header.
  avro: "18" + ascii("Hello World!") + "f601",
  // Bebop struct: uint32 length 12, the text, uint32 123 (little-endian).
  bebop: "0c000000" + ascii("Hello World!") + "7b000000",
  // CBOR map of 2 with a 16-bit size (b9 0002, cbor-x's default), text(4) "text", text(12), text(3) "num", uint8 123.
  cbor: "b90002" + "64" + ascii("text") + "6c" + ascii("Hello World!") + "63" + ascii("num") + "187b",
  // BSON: document length 37, string element "text" (length 13 with its NUL), int32 element "num" 123, end.
  bson:
    "25000000" +
    "02" +
    ascii("text") +
    "00" +
    "0d000000" +
    ascii("Hello World!") +
    "00" +
    "10" +
    ascii("num") +
    "00" +
    "7b000000" +
    "00",
  // FlatBuffers: root offset 12, vtable (8 bytes, table 12, num at 8, text at 4), table (vtable at -8, text offset 8, num 123), string.
  flatbuffers:
    "0c000000" +
    "0800" +
    "0c00" +
    "0800" +
    "0400" +
    "08000000" +
    "7b000000" +
    "04000000" +
    "0c000000" +
    ascii("Hello World!") +
    "00" +
    "000000",
  // Cap'n Proto: segment table (1 segment, 5 words), root struct pointer (1 data word, 1 pointer), num 123, text list pointer (13 bytes), text, NUL, padding.
  capnp:
    "00000000" +
    "05000000" +
    "0000000001000100" +
    "7b00000000000000" +
    "01000000" +
    "6a000000" +
    ascii("Hello World!") +
    "00" +
    "000000",
  // The calibration codecs are JSON (cal-spin only spends known time in decode).
  "cal-json": ascii('{"text":"Hello World!","num":123}'),
  "cal-spin": ascii('{"text":"Hello World!","num":123}'),
};

describe("the catalog", () => {
  it("gives every built-in codec a family, and lists them family by family", () => {
    const families = BUILT_IN.codecs.map((c) => c.family);
    expect(families.every((f) => f !== undefined && CODEC_FAMILIES.includes(f))).toBe(true);
    const order = families.map((f) => CODEC_FAMILIES.indexOf(f!));
    const calibration = BUILT_IN.codecs.findIndex((c) => c.name.startsWith("cal-"));
    expect(order.slice(0, calibration)).toEqual([...order.slice(0, calibration)].sort((a, b) => a - b));
  });

  it("runs the comparison the benchmark grew from by default, and every other codec when asked", () => {
    expect(BUILT_IN.defaults).toEqual([
      "json",
      "json-bytes",
      "custom-binary",
      "protobuf",
      "msgpack",
      "msgpackr",
      "msgpackr-records",
    ]);
    expect(BUILT_IN.family("zero-copy")).toEqual(["flatbuffers", "capnp"]);
  });
});

describe("literal bytes of the small message", () => {
  it("every codec has a vector", () => {
    expect(Object.keys(SMALL_VECTORS).sort()).toEqual(BUILT_IN.codecs.map((c) => c.name).sort());
  });
  for (const codec of BUILT_IN.codecs) {
    it(`${codec.name} encodes to the expected bytes and decodes them`, () => {
      const pc = codec.forPayload("small");
      const expected = SMALL_VECTORS[codec.name]!;
      expect(toHex(pc.encode(ARTICLE_MESSAGES.small))).toBe(expected);
      const wire: Encoded =
        codec.frame === "text"
          ? Buffer.from(expected, "hex").toString("utf8")
          : new Uint8Array(Buffer.from(expected, "hex"));
      expect(pc.decode(wire)).toEqual(ARTICLE_MESSAGES.small);
    });
  }

  it("standard MessagePack from msgpackr is readable by another MessagePack library", () => {
    const bytes = BUILT_IN.get("msgpackr")!.forPayload("large").encode(ARTICLE_MESSAGES.large) as Uint8Array;
    expect(new Decoder().decode(bytes)).toEqual(ARTICLE_MESSAGES.large);
  });
});

describe("byte sizes of the article's messages and the sets' examples", () => {
  const sizes = (name: string): number[] =>
    PAYLOAD_NAMES.map((p) => encodedBytes(BUILT_IN.get(name)!.forPayload(p).encode(EXAMPLE_MESSAGES[p])));
  it("JSON 33 / 117 / 329 and @msgpack/msgpack 24 / 102 / 277, as in the article", () => {
    expect(sizes("json").slice(0, ARTICLE_PAYLOADS.length)).toEqual([33, 117, 329]);
    expect(sizes("msgpack").slice(0, ARTICLE_PAYLOADS.length)).toEqual([24, 102, 277]);
  });
  it("custom-binary is the smallest on every payload but for Avro, which carries no header byte: within that byte of it", () => {
    const custom = sizes("custom-binary");
    for (const codec of BUILT_IN.codecs) {
      if (codec.name === "custom-binary") continue;
      // Avro's message is its fields alone; custom-binary's first byte names the version and the message type.
      const headerless = codec.name === "avro" ? 1 : 0;
      sizes(codec.name).forEach((size, i) =>
        expect(custom[i]! - headerless, `${codec.name} ${PAYLOAD_NAMES[i]}`).toBeLessThan(size + headerless),
      );
    }
  });
  it("text size is UTF-8 bytes, not string length", () => {
    expect(utf8Length("é😀中")).toBe(2 + 4 + 3);
    expect(encodedBytes('{"text":"é"}')).toBe(13);
  });
});

/**
 * Doubles outside the messages' ranges that some formats lose, as a user of
 * each library would see: JSON writes -0 as 0 and NaN and the infinities as
 * null; both MessagePack libraries write -0 as the integer 0. The README
 * lists these. The generator never produces them, so benchmark runs are
 * unaffected, but a codec must not lose anything else.
 */
const SPECIAL_DOUBLES = [-0, Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY];
const LOSES: Record<string, number[]> = {
  json: SPECIAL_DOUBLES,
  "json-bytes": SPECIAL_DOUBLES,
  msgpack: [-0],
  msgpackr: [-0],
  "msgpackr-records": [-0],
  protobuf: [],
  "custom-binary": [],
  // pbf's generated writer skips a falsy value, so -0 and NaN are not written and read back as 0.
  pbf: [-0, Number.NaN],
  "protobuf-es": [],
  avro: [],
  bebop: [],
  // cbor-x writes -0 as the integer 0, as both MessagePack libraries do.
  cbor: [-0],
  bson: [],
  // -0 equals a table double's default (0), so it is not written.
  flatbuffers: [-0],
  capnp: [],
  "cal-json": SPECIAL_DOUBLES,
  "cal-spin": SPECIAL_DOUBLES,
};

describe("every codec round-trips every payload exactly", () => {
  for (const codec of BUILT_IN.codecs) {
    for (const payload of PAYLOAD_NAMES) {
      it(`${codec.name} ${payload}: example message and edge values`, () => {
        const pc = codec.forPayload(payload);
        for (const message of [EXAMPLE_MESSAGES[payload], ...EDGE[payload]!]) {
          expect(describeMismatch(message, pc.decode(pc.encode(message)))).toBeUndefined();
        }
      });
    }
    it(`${codec.name}: -0, NaN and infinities survive, except the documented losses`, () => {
      const pc = codec.forPayload("medium");
      for (const decimal of SPECIAL_DOUBLES) {
        const message = { ...ARTICLE_MESSAGES.medium, decimal };
        const mismatch = describeMismatch(message, pc.decode(pc.encode(message)));
        const lost = LOSES[codec.name]!.some((v) => Object.is(v, decimal));
        expect(mismatch === undefined, `${codec.name} decimal ${Object.is(decimal, -0) ? "-0" : decimal}`).toBe(!lost);
      }
    });
  }

  it("decoders hand back plain objects, not library classes", () => {
    for (const codec of BUILT_IN.codecs) {
      for (const payload of PAYLOAD_NAMES) {
        const pc = codec.forPayload(payload);
        const decoded = pc.decode(pc.encode(EXAMPLE_MESSAGES[payload])) as Record<string, unknown>;
        expect(Object.getPrototypeOf(decoded), `${codec.name} ${payload}`).toBe(Object.prototype);
        for (const v of Object.values(decoded)) {
          if (Array.isArray(v))
            for (const item of v)
              expect(Object.getPrototypeOf(item), `${codec.name} ${payload} item`).toBe(Object.prototype);
        }
      }
    }
  });

  it("msgpackr records decode on a separate instance with only the agreed structures", () => {
    const codec = BUILT_IN.get("msgpackr-records")!;
    const sender = codec.forPayload("large");
    const receiver = codec.forPayload("large");
    for (let i = 0; i < 3; i++) {
      expect(receiver.decode(sender.encode(ARTICLE_MESSAGES.large))).toEqual(ARTICLE_MESSAGES.large);
    }
  });
});
