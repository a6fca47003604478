import { Decoder } from "@msgpack/msgpack";
import { describe, expect, it } from "vitest";
import { ARTICLE_MESSAGES, ARTICLE_PAYLOADS, EXAMPLE_MESSAGES, PAYLOAD_NAMES, type Message } from "../../protocols/messages.ts";
import { describeMismatch } from "../../bench/harness/verify.ts";
import { encodedBytes, utf8Length, type Encoded } from "../../protocols/codec.ts";
import { BUILT_IN } from "../../protocols/registry.ts";

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
  "custom-binary": "190c" + ascii("Hello World!") + "7b",
  // The calibration codecs are JSON (cal-spin only spends known time in decode).
  "cal-json": ascii('{"text":"Hello World!","num":123}'),
  "cal-spin": ascii('{"text":"Hello World!","num":123}'),
};

describe("literal bytes of the small message", () => {
  it("every codec has a vector", () => {
    expect(Object.keys(SMALL_VECTORS).sort()).toEqual(BUILT_IN.codecs.map((c) => c.name).sort());
  });
  for (const codec of BUILT_IN.codecs) {
    it(`${codec.name} encodes to the expected bytes and decodes them`, () => {
      const pc = codec.forPayload("small");
      const expected = SMALL_VECTORS[codec.name]!;
      expect(toHex(pc.encode(ARTICLE_MESSAGES.small))).toBe(expected);
      const wire: Encoded = codec.frame === "text" ? Buffer.from(expected, "hex").toString("utf8") : new Uint8Array(Buffer.from(expected, "hex"));
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
  it("custom-binary is the smallest of all codecs on every payload", () => {
    const custom = sizes("custom-binary");
    for (const codec of BUILT_IN.codecs) {
      if (codec.name === "custom-binary") continue;
      sizes(codec.name).forEach((size, i) => expect(custom[i], `${codec.name} ${PAYLOAD_NAMES[i]}`).toBeLessThan(size));
    }
  });
  it("text size is UTF-8 bytes, not string length", () => {
    expect(utf8Length("é😀中")).toBe(2 + 4 + 3);
    expect(encodedBytes('{"text":"é"}')).toBe(13);
  });
});

/** Edge values every codec must carry exactly. */
const EDGE: Record<string, Message[]> = {
  small: [
    { text: "", num: 0 },
    { text: "ünïcödé 中文 🚀👩‍👩‍👧", num: 4294967295 },
    { text: "\u0000\u001f\"\\/\u2028", num: 2147483648 },
  ],
  medium: [
    { text: "", text2: "", num: 0, decimal: 0 },
    { text: "é", text2: "x".repeat(300), num: 4294967295, decimal: Number.MAX_VALUE },
    { text: "a", text2: "b", num: 1, decimal: 5e-324 },
    { text: "a", text2: "b", num: 1, decimal: -1.7976931348623157e308 },
    { text: "a", text2: "b", num: 1, decimal: 0.1 + 0.2 },
    { text: "a", text2: "b", num: 1, decimal: 3 },
    { text: "a", text2: "b", num: 1, decimal: 2 ** 53 + 2 },
    { text: "a", text2: "b", num: 1, decimal: 1e21 },
  ],
  large: [
    { text: "", text2: "", text3: "", text4: "", num: 0, decimal: -1e-7, num2: -2147483648, decimal2: 2 ** -1074 },
    { text: "🎉", text2: "ß".repeat(100), text3: "€", text4: "𝄞", num: 4294967295, decimal: Math.PI, num2: 2147483647, decimal2: -Math.E },
    { text: "a", text2: "b", text3: "c", text4: "d", num: 65536, decimal: Number.EPSILON, num2: -1, decimal2: 123456789.123456789 },
  ],
  chat: [
    { id: 0, room: 0, user: "", text: "", sentAt: 0, reactions: [] },
    { id: 4294967295, room: 1, user: "李娜", text: "x".repeat(2000) + "👋🏽\n\"", sentAt: 2 ** 53 - 1, reactions: [{ emoji: "", count: 0 }], replyTo: 4294967295, editedAt: 2 ** 32 },
    { id: 1, room: 2, user: "a", text: "b", sentAt: 2 ** 32, reactions: [{ emoji: "❤️", count: 4294967295 }, { emoji: "🎉", count: 1 }], editedAt: 1 },
  ],
  "game-tick": [
    { tick: 0, entities: [] },
    {
      tick: 4294967295,
      entities: [
        { id: 0, state: 3, x: Number.MAX_VALUE, y: 5e-324, z: 0, vx: -1e-300, vy: 0.1 + 0.2, vz: -Number.MAX_VALUE },
        { id: 4294967295, state: 0, x: 1, y: 2, z: 3, vx: 4, vy: 5, vz: 6 },
      ],
    },
  ],
  market: [
    { symbol: "", seq: 0, ts: 0, bid: 0, bidSize: 0, ask: 0, askSize: 0 },
    { symbol: "EUR/USD €", seq: 2 ** 53 - 1, ts: 2 ** 53 - 1, bid: 1.08453, bidSize: 1e-8, ask: 1e21, askSize: 123456789.123 },
  ],
};

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
          if (Array.isArray(v)) for (const item of v) expect(Object.getPrototypeOf(item), `${codec.name} ${payload} item`).toBe(Object.prototype);
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
