/**
 * Protocol Buffers through protobuf-es (@bufbuild/protobuf v2), with the
 * schemas protoc-gen-es generates from protocols/messages.proto through
 * `buf generate` (protocols/generated/protobuf-es/messages_pb.ts, `npm run
 * codegen`). Standard Protobuf bytes: protobufjs, pbf and any other
 * Protobuf library read them.
 *
 * protobuf-es's messages are not our plain objects: each carries a
 * `$typeName` (toBinary throws "ForeignFieldError" without it, nested
 * messages included), and uint64 fields are bigints. So:
 *
 * - Encode: create(Schema, init) builds the library's message from ours
 *   (nested reactions and entities included), with the uint64 fields
 *   (chat's sentAt/editedAt, market's seq/ts) converted to bigint first as
 *   the generated types require; then toBinary. That create() and the
 *   BigInt() conversions are part of the timed encode: a user of
 *   protobuf-es pays them. toBinary makes a fresh writer per call and
 *   returns a copy of its bytes (later encodes cannot touch them).
 * - Decode: fromBinary, then a copy of our fields into a plain object in
 *   protocols/shapes.ts's order, uint64 bigints turned into numbers (exact:
 *   every value is below 2^53), no `$typeName` or `$unknown`. Chat's proto3
 *   `optional` fields (replyTo, editedAt) have explicit presence in
 *   protobuf-es: absent on the wire, absent (undefined) on its message, and
 *   then left out of ours; a present 0 is written and read back.
 * - Fields go out in field-number order; proto3 implicit presence: fields
 *   at their zero value (0, "", empty lists, enum IDLE) are not written,
 *   as protobufjs and pbf do too, so its bytes equal protobufjs's.
 * - fromBinary checks bounds: a truncated frame throws a RangeError
 *   ("premature EOF").
 *
 * Special doubles: all survive. Its writer skips a zero double with
 * Object.is(value, 0), so -0 is written (and read back as -0); NaN and
 * +/-Infinity are written as they are.
 *
 * @bufbuild/protobuf's runtime uses no `new Function`/`eval` (its "compiled"
 * readers and writers are closures).
 */

import { create, fromBinary, toBinary } from "@bufbuild/protobuf";
import { type Codec, type PayloadCodec, uint53 } from "./codec.ts";
import { CodecError } from "./codec-errors.ts";
import { ChatSchema, GameTickSchema, LargeSchema, MarketSchema, MediumSchema, SmallSchema } from "./generated/protobuf-es/messages_pb.ts";
import type { ChatMessage, GameTickMessage, MarketMessage } from "./message-sets.ts";
import { isBuiltIn, type BuiltInPayload, type LargeMessage, type MediumMessage, type SmallMessage } from "./messages.ts";

/** An encoder/decoder pair: encode returns toBinary's fresh bytes; decode takes the binary frame. */
type Pair = PayloadCodec;

function small(): Pair {
  return {
    encode: (message) => toBinary(SmallSchema, create(SmallSchema, message as SmallMessage)),
    decode: (data): SmallMessage => {
      const m = fromBinary(SmallSchema, data as Uint8Array);
      return { text: m.text, num: m.num };
    },
  };
}

function medium(): Pair {
  return {
    encode: (message) => toBinary(MediumSchema, create(MediumSchema, message as MediumMessage)),
    decode: (data): MediumMessage => {
      const m = fromBinary(MediumSchema, data as Uint8Array);
      return { text: m.text, text2: m.text2, num: m.num, decimal: m.decimal };
    },
  };
}

function large(): Pair {
  return {
    encode: (message) => toBinary(LargeSchema, create(LargeSchema, message as LargeMessage)),
    decode: (data): LargeMessage => {
      const m = fromBinary(LargeSchema, data as Uint8Array);
      return { text: m.text, text2: m.text2, text3: m.text3, text4: m.text4, num: m.num, decimal: m.decimal, num2: m.num2, decimal2: m.decimal2 };
    },
  };
}

function chat(): Pair {
  return {
    encode: (message) => {
      const c = message as ChatMessage;
      return toBinary(
        ChatSchema,
        create(ChatSchema, {
          id: c.id,
          room: c.room,
          user: c.user,
          text: c.text,
          sentAt: BigInt(c.sentAt),
          reactions: c.reactions,
          replyTo: c.replyTo,
          editedAt: c.editedAt === undefined ? undefined : BigInt(c.editedAt),
        }),
      );
    },
    decode: (data): ChatMessage => {
      const m = fromBinary(ChatSchema, data as Uint8Array);
      const out: ChatMessage = {
        id: m.id,
        room: m.room,
        user: m.user,
        text: m.text,
        sentAt: uint53(m.sentAt),
        reactions: m.reactions.map((r) => ({ emoji: r.emoji, count: r.count })),
      };
      if (m.replyTo !== undefined) out.replyTo = m.replyTo;
      if (m.editedAt !== undefined) out.editedAt = uint53(m.editedAt);
      return out;
    },
  };
}

function gameTick(): Pair {
  return {
    encode: (message) => toBinary(GameTickSchema, create(GameTickSchema, message as GameTickMessage)),
    decode: (data): GameTickMessage => {
      const m = fromBinary(GameTickSchema, data as Uint8Array);
      return {
        tick: m.tick,
        entities: m.entities.map((e) => ({ id: e.id, state: e.state, x: e.x, y: e.y, z: e.z, vx: e.vx, vy: e.vy, vz: e.vz })),
      };
    },
  };
}

function market(): Pair {
  return {
    encode: (message) => {
      const k = message as MarketMessage;
      return toBinary(
        MarketSchema,
        create(MarketSchema, { symbol: k.symbol, seq: BigInt(k.seq), ts: BigInt(k.ts), bid: k.bid, bidSize: k.bidSize, ask: k.ask, askSize: k.askSize }),
      );
    },
    decode: (data): MarketMessage => {
      const m = fromBinary(MarketSchema, data as Uint8Array);
      return { symbol: m.symbol, seq: uint53(m.seq), ts: uint53(m.ts), bid: m.bid, bidSize: m.bidSize, ask: m.ask, askSize: m.askSize };
    },
  };
}

const PAIRS: Record<BuiltInPayload, () => Pair> = { small, medium, large, chat, "game-tick": gameTick, market };

export const protobufEsCodec: Codec = {
  name: "protobuf-es",
  description: "Protocol Buffers (protobuf-es, code generated by protoc-gen-es from protocols/messages.proto), binary frame",
  frame: "binary",
  family: "schema",
  standard: true,
  library: "@bufbuild/protobuf",
  notApplicable: (payload) => (isBuiltIn(payload) ? undefined : "no message type for your own messages (protobuf-es's code is generated from protocols/messages.proto)"),
  forPayload: (payload): PayloadCodec => {
    if (!isBuiltIn(payload)) throw new CodecError("NO_LAYOUT", `protobuf-es has no message type for '${payload}'`);
    return PAIRS[payload]();
  },
};
