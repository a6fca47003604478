/**
 * The checks the built-in payload codecs' tests share (test/protocols/
 * pbf, protobuf-es, avro, bebop, cbor, bson, flatbuffers and capnp):
 * `checkCodecBasics` registers, inside the caller's describe, what every
 * one of them must do (exact round trips into plain objects, encoded bytes
 * outliving later encodes, chat's optional fields, and its answer for a
 * user's own messages), and `checkProtobufWire` what the two Protobuf
 * codecs share (protobufjs's bytes and truncations, the article's small
 * message, proto3 optional presence). Each test file keeps what is its
 * codec's own.
 */
import { expect, it } from "vitest";
import { makeMessages } from "../../client/harness/generator.ts";
import { describeMismatch } from "../../client/harness/verify.ts";
import type { Codec } from "../../protocols/codec.ts";
import { CodecError } from "../../protocols/codec-errors.ts";
import type { ChatMessage } from "../../protocols/message-sets.ts";
import {
  EXAMPLE_MESSAGES,
  PAYLOAD_NAMES,
  ROUTING_KEYS,
  type BuiltInPayload,
  type Message,
} from "../../protocols/messages.ts";
import { protobufCodec } from "../../protocols/protobuf.ts";
import { EDGE } from "./edge-messages.ts";

export const hex = (b: Uint8Array): string => Buffer.from(b).toString("hex");

/** The bytes a hex string (whitespace allowed) spells, as a plain Uint8Array. */
export const bytes = (h: string): Uint8Array => Uint8Array.from(Buffer.from(h.replace(/\s+/g, ""), "hex"));

/** Every object in `v` (nested ones too) has Object.prototype as its prototype; arrays are real arrays; no nulls, no bigints. */
function plainThroughout(v: unknown): boolean {
  if (Array.isArray(v)) return Object.getPrototypeOf(v) === Array.prototype && v.every(plainThroughout);
  if (typeof v !== "object" || v === null) return v !== null && typeof v !== "bigint";
  return Object.getPrototypeOf(v) === Object.prototype && Object.values(v).every(plainThroughout);
}

/** The example, the edge messages and 1,000 generated messages of a payload. */
const allMessages = (payload: BuiltInPayload): Message[] => [
  EXAMPLE_MESSAGES[payload],
  ...EDGE[payload]!,
  ...makeMessages(payload, { count: 1000, seed: 42, fixed: false }),
];

export interface CodecCheckOptions {
  /**
   * Every frame cut short throws an Error, and with `byteTooMany` a frame
   * with one more byte throws too (matching it). Left out: the test file
   * checks its codec's truncations itself.
   */
  truncated?: { byteTooMany?: RegExp | typeof Error };
  /** "carried" (schema-less), or why a schema codec refuses them (notApplicable) and what forPayload's CodecError says. */
  userMessages: "carried" | { reason: RegExp; error: RegExp };
}

/** Registers the tests every built-in payload codec must pass; call it inside the codec's describe. */
export function checkCodecBasics(codec: Codec, options: CodecCheckOptions): void {
  for (const payload of PAYLOAD_NAMES) {
    it(`${payload}: the example, the edge messages and 1,000 generated ones round-trip into plain objects`, () => {
      const pc = codec.forPayload(payload);
      for (const m of allMessages(payload)) {
        const encoded = pc.encode(m);
        expect(encoded).toBeInstanceOf(Uint8Array);
        const decoded = pc.decode(encoded);
        expect(describeMismatch(m, decoded)).toBeUndefined();
        expect(plainThroughout(decoded)).toBe(true);
      }
    });

    it(`${payload}: encoded bytes stay as they were after later encodes, short and long, and decode from a plain Uint8Array at an offset`, () => {
      const pc = codec.forPayload(payload);
      const messages = [EXAMPLE_MESSAGES[payload], ...makeMessages(payload, { count: 200, seed: 7, fixed: false })];
      const encoded = messages.map((m) => pc.encode(m) as Uint8Array);
      const copies = encoded.map((e) => hex(e));
      for (let i = 0; i < 20; i++) for (const m of [...EDGE[payload]!, ...messages]) pc.encode(m);
      expect(encoded.map((e) => hex(e))).toEqual(copies);
      encoded.forEach((e, i) => {
        expect(describeMismatch(messages[i]!, pc.decode(e))).toBeUndefined();
        // A browser's frame is a Uint8Array (not a Buffer), here a view into a larger buffer, at an odd offset and a word-aligned one.
        for (const offset of [3, 8]) {
          const larger = new Uint8Array(e.length + 16);
          larger.set(e, offset);
          expect(
            describeMismatch(messages[i]!, pc.decode(larger.subarray(offset, offset + e.length))),
            `offset ${offset}`,
          ).toBeUndefined();
        }
      });
    });

    const { truncated } = options;
    if (truncated) {
      const tooMany = truncated.byteTooMany ? " or with a byte too many" : "";
      it(`${payload}: a frame cut short${tooMany} throws an Error`, () => {
        const pc = codec.forPayload(payload);
        const whole = pc.encode(EXAMPLE_MESSAGES[payload]) as Uint8Array;
        for (let n = 0; n < whole.length; n++)
          expect(() => pc.decode(whole.subarray(0, n)), `${n} bytes`).toThrow(Error);
        if (truncated.byteTooMany) {
          const longer = new Uint8Array(whole.length + 1);
          longer.set(whole);
          expect(() => pc.decode(longer)).toThrow(truncated.byteTooMany);
        }
      });
    }
  }

  it("chat: absent optional fields stay absent; present ones come back, 0 included, alone or together", () => {
    const pc = codec.forPayload("chat");
    const { replyTo: _r, editedAt: _e, ...example } = EXAMPLE_MESSAGES.chat as ChatMessage;
    const bare: ChatMessage = { id: 1, room: 2, user: "u", text: "t", sentAt: 2 ** 40, reactions: [] };
    for (const base of [bare, example]) {
      const absent = pc.decode(pc.encode(base));
      expect(Object.hasOwn(absent, "replyTo")).toBe(false);
      expect(Object.hasOwn(absent, "editedAt")).toBe(false);
      expect(Object.keys(absent)).toEqual(["id", "room", "user", "text", "sentAt", "reactions"]);
      const extras = [
        { replyTo: 0 },
        { editedAt: 0 },
        { replyTo: 0, editedAt: 0 },
        { replyTo: 4294967295, editedAt: 2 ** 53 - 1 },
        { replyTo: 3 },
        { editedAt: 5 },
        { editedAt: 2 ** 53 - 1 },
      ];
      for (const extra of extras) {
        const m: ChatMessage = { ...base, ...extra };
        const decoded = pc.decode(pc.encode(m));
        expect(describeMismatch(m, decoded)).toBeUndefined();
        expect(Object.keys(decoded)).toEqual(Object.keys(m));
      }
    }
  });

  const { userMessages } = options;
  if (userMessages === "carried") {
    it("carries a user's own messages (schema-less)", () => {
      expect(codec.notApplicable).toBeUndefined();
      const pc = codec.forPayload("mine");
      const m = { a: [1, "two", { three: null, four: true }], b: { c: -1.5 } };
      expect(describeMismatch(m, pc.decode(pc.encode(m)))).toBeUndefined();
    });
  } else {
    it("refuses a user's own messages (it has a schema for the built-in payloads only)", () => {
      for (const p of PAYLOAD_NAMES) expect(codec.notApplicable?.(p)).toBeUndefined();
      for (const mine of ["mine", "my-messages"]) {
        expect(codec.notApplicable?.(mine)).toMatch(userMessages.reason);
        expect(() => codec.forPayload(mine)).toThrow(CodecError);
        expect(() => codec.forPayload(mine)).toThrow(userMessages.error);
      }
    });
  }
}

/** Registers the checks of a Protobuf codec against protobufjs (protocols/protobuf.ts) and the Protobuf encoding; call it inside the codec's describe. */
export function checkProtobufWire(codec: Codec, options: { chatNote?: string } = {}): void {
  for (const payload of PAYLOAD_NAMES) {
    it(`${payload}: the bytes are protobufjs's, and each reads the other's`, () => {
      const ours = codec.forPayload(payload);
      const theirs = protobufCodec.forPayload(payload);
      expect(hex(ours.encode(EXAMPLE_MESSAGES[payload]) as Uint8Array)).toBe(
        hex(theirs.encode(EXAMPLE_MESSAGES[payload]) as Uint8Array),
      );
      for (const m of allMessages(payload)) {
        const a = ours.encode(m) as Uint8Array;
        const b = theirs.encode(m) as Uint8Array;
        expect(hex(a)).toBe(hex(b));
        expect(describeMismatch(m, theirs.decode(a))).toBeUndefined();
        expect(describeMismatch(m, ours.decode(b))).toBeUndefined();
      }
    });

    it(`${payload}: a frame cut inside a field throws an Error; cut between fields it reads as protobufjs reads it`, () => {
      const pc = codec.forPayload(payload);
      const ref = protobufCodec.forPayload(payload);
      const whole = pc.encode(EXAMPLE_MESSAGES[payload]) as Uint8Array;
      let threw = 0;
      for (let n = 0; n < whole.length; n++) {
        const cut = whole.slice(0, n);
        let expected: Message | undefined;
        try {
          expected = ref.decode(cut);
        } catch {
          expected = undefined;
        }
        // A Protobuf message cut between two fields is a valid message without the rest.
        if (expected === undefined) {
          expect(() => pc.decode(cut), `${n} bytes`).toThrow(Error);
          threw++;
        } else expect(describeMismatch(expected, pc.decode(cut)), `${n} bytes`).toBeUndefined();
      }
      expect(threw).toBeGreaterThan(whole.length / 2);
    });
  }

  it("writes the article's small message as the Protobuf encoding gives it", () => {
    const encoded = codec.forPayload("small").encode({ text: "Hello World!", num: 123 }) as Uint8Array;
    // 0a                        key of field 1 (text): (1 << 3) | wire type 2 (length-delimited)
    // 0c                        length 12, a varint
    // 48656c6c6f20576f726c6421  "Hello World!" in UTF-8
    // 10                        key of field 2 (num): (2 << 3) | wire type 0 (varint)
    // 7b                        123, a one-byte varint
    expect(hex(encoded)).toBe("0a0c" + "48656c6c6f20576f726c6421" + "107b");
  });

  it(`chat: proto3 optional fields keep their presence: a present 0 is written, an absent field is not${options.chatNote ? ` (${options.chatNote})` : ""}`, () => {
    const pc = codec.forPayload("chat");
    const base: ChatMessage = { id: 1, room: 2, user: "u", text: "t", sentAt: 2 ** 40, reactions: [] };
    // A present 0 is written: key 0x38 (field 7, varint) then 0x00; key 0x40 (field 8) then 0x00.
    const written = (m: ChatMessage): string => hex(pc.encode(m) as Uint8Array);
    expect(written({ ...base, replyTo: 0, editedAt: 0 })).toBe(written(base) + "3800" + "4000");
  });

  it("game-tick: the state enum travels as a varint and comes back as the message's number", () => {
    const pc = codec.forPayload("game-tick");
    for (const state of [0, 1, 2, 3]) {
      const m = { match: 1, tick: 1, entities: [{ id: 1, state, x: 1, y: 0, z: 0, vx: 0, vy: 0, vz: 0 }] };
      expect(describeMismatch(m, pc.decode(pc.encode(m)))).toBeUndefined();
    }
  });

  it("large: num2 is a sint32 (zigzag), so -1 is one byte", () => {
    const pc = codec.forPayload("large");
    const m = { text: "", text2: "", text3: "", text4: "", num: 0, decimal: 0, num2: -1, decimal2: 0 };
    // key 0x38 (field 7, varint), zigzag(-1) = 1.
    expect(hex(pc.encode(m) as Uint8Array)).toBe("3801");
  });
}

/**
 * A lazy codec's readKey reads only the routing key: for each payload's
 * example, `breakOther` corrupts one field other than the key in a copy of
 * its frame (checking first that it found that field) and names it; decode
 * then throws `decodeError`, and readKey still gives the key.
 */
export function expectKeyReadLazily(
  codec: Codec,
  breakOther: (payload: BuiltInPayload, view: DataView, message: Record<string, unknown>) => string,
  decodeError: typeof Error = Error,
): void {
  expect(codec.keyAccess).toBe("lazy");
  for (const payload of PAYLOAD_NAMES) {
    const pc = codec.forPayload(payload);
    const m = EXAMPLE_MESSAGES[payload] as Message as Record<string, unknown>;
    const key = ROUTING_KEYS[payload];
    const frame = (pc.encode(m) as Uint8Array).slice();
    expect(pc.readKey!(frame), payload).toBe(m[key]);
    const name = breakOther(payload, new DataView(frame.buffer), m);
    expect(() => pc.decode(frame), `${payload}: decode with ${name} corrupted`).toThrow(decodeError);
    expect(pc.readKey!(frame), `${payload}: readKey with ${name} corrupted`).toBe(m[key]);
  }
}
