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
 * - Read one (readKey, key access "scan"): the frame's tags walked with
 *   protobuf-es's BinaryReader, reading the routing key and stepping over
 *   every other field without building it (keyScan below).
 *
 * Special doubles: all survive. Its writer skips a zero double with
 * Object.is(value, 0), so -0 is written (and read back as -0); NaN and
 * +/-Infinity are written as they are.
 *
 * @bufbuild/protobuf's runtime uses no `new Function`/`eval` (its "compiled"
 * readers and writers are closures).
 */

import { create, fromBinary, ScalarType, toBinary, type DescMessage } from "@bufbuild/protobuf";
import { BinaryReader, type WireType } from "@bufbuild/protobuf/wire";
import { type Codec, type Encoded, type PayloadCodec, uint53 } from "./codec.ts";
import { CodecError } from "./codec-errors.ts";
import {
  ChatSchema,
  GameTickSchema,
  LargeSchema,
  MarketSchema,
  MediumSchema,
  SmallSchema,
} from "./generated/protobuf-es/messages_pb.ts";
import type { ChatMessage, GameTickMessage, MarketMessage } from "./message-sets.ts";
import {
  isBuiltIn,
  ROUTING_KEYS,
  type BuiltInPayload,
  type LargeMessage,
  type MediumMessage,
  type SmallMessage,
} from "./messages.ts";

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
      return {
        text: m.text,
        text2: m.text2,
        text3: m.text3,
        text4: m.text4,
        num: m.num,
        decimal: m.decimal,
        num2: m.num2,
        decimal2: m.decimal2,
      };
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
        match: m.match,
        tick: m.tick,
        entities: m.entities.map((e) => ({
          id: e.id,
          state: e.state,
          x: e.x,
          y: e.y,
          z: e.z,
          vx: e.vx,
          vy: e.vy,
          vz: e.vz,
        })),
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
        create(MarketSchema, {
          symbol: k.symbol,
          seq: BigInt(k.seq),
          ts: BigInt(k.ts),
          bid: k.bid,
          bidSize: k.bidSize,
          ask: k.ask,
          askSize: k.askSize,
        }),
      );
    },
    decode: (data): MarketMessage => {
      const m = fromBinary(MarketSchema, data as Uint8Array);
      return {
        symbol: m.symbol,
        seq: uint53(m.seq),
        ts: uint53(m.ts),
        bid: m.bid,
        bidSize: m.bidSize,
        ask: m.ask,
        askSize: m.askSize,
      };
    },
  };
}

const PAIRS: Record<BuiltInPayload, () => Pair> = { small, medium, large, chat, "game-tick": gameTick, market };
const SCHEMAS: Record<BuiltInPayload, DescMessage> = {
  small: SmallSchema,
  medium: MediumSchema,
  large: LargeSchema,
  chat: ChatSchema,
  "game-tick": GameTickSchema,
  market: MarketSchema,
};

/** Not in the message: skipped by its wire type, as fromBinary skips an unknown field. */
const UNKNOWN = 0;
/** Any varint scalar or enum (uint32, uint64, sint32, bool, ...): read as a uint32 (below). */
const VARINT = 1;
/** double, fixed64, sfixed64: 8 bytes. */
const BIT64 = 2;
/** float, fixed32, sfixed32: 4 bytes. */
const BIT32 = 3;
/** string, bytes: a uint32 length and that many bytes. */
const BYTES = 4;
/** A message, or an item of a list of messages: a uint32 length, then its own fields up to that end. */
const MESSAGE = 5;

/**
 * How fromBinary reads each field of a message, by field number: what
 * readKey must step over exactly as it does. fromBinary reads a known
 * field by its schema type whatever wire type its tag says (Small's num
 * tagged as a double is still read as a varint), and reads a nested
 * message (chat's reactions, game-tick's entities) with a loop that stops
 * once it reaches or passes the message's end, without checking that it
 * stopped exactly there, and goes on from wherever it stopped. So skipping
 * by the wire type, or a nested message by its length, could walk a
 * corrupt frame fromBinary reads another way, to another key. The steps
 * are made from the same descriptors fromBinary reads by.
 */
interface Steps {
  /** Index: field number; value: UNKNOWN ... MESSAGE. */
  readonly steps: Uint8Array;
  /** Index: field number; for a MESSAGE field, the nested message's steps. */
  readonly nested: (Steps | undefined)[];
}

const VARINT_SCALARS = new Set([
  ScalarType.INT32,
  ScalarType.UINT32,
  ScalarType.SINT32,
  ScalarType.INT64,
  ScalarType.UINT64,
  ScalarType.SINT64,
  ScalarType.BOOL,
]);
const BIT64_SCALARS = new Set([ScalarType.DOUBLE, ScalarType.FIXED64, ScalarType.SFIXED64]);
const BIT32_SCALARS = new Set([ScalarType.FLOAT, ScalarType.FIXED32, ScalarType.SFIXED32]);

/**
 * A message's steps, from its descriptor: the field kinds messages.proto
 * has (scalars, enums, messages, lists of messages); a packed list, a map
 * or a group (which fromBinary reads otherwise) throws here, when a
 * PayloadCodec is made, rather than being walked wrongly.
 */
function stepsOf(desc: DescMessage): Steps {
  const max = desc.fields.reduce((m, f) => Math.max(m, f.number), 0);
  const out: Steps = { steps: new Uint8Array(max + 1), nested: [] };
  for (const f of desc.fields) {
    let step: number | undefined;
    if (f.fieldKind === "scalar") {
      const t = f.scalar;
      step = VARINT_SCALARS.has(t) ? VARINT : BIT64_SCALARS.has(t) ? BIT64 : BIT32_SCALARS.has(t) ? BIT32 : BYTES;
    } else if (f.fieldKind === "enum") step = VARINT;
    else if (
      (f.fieldKind === "message" || (f.fieldKind === "list" && f.listKind === "message")) &&
      !f.delimitedEncoding
    ) {
      step = MESSAGE;
      out.nested[f.number] = stepsOf(f.message);
    }
    if (step === undefined)
      throw new Error(`protobuf-es: readKey cannot step over ${desc.typeName}.${f.name} (a ${f.fieldKind} field)`);
    out.steps[f.number] = step;
  }
  return out;
}

/** fromBinary's default recursionLimit: the depth its skip of an unknown group may go to, less the message's own depth. */
const RECURSION_LIMIT = 100;

/** A position past the frame's end, where BinaryReader's bytes(), double() and float() throw a RangeError too. */
function premature(): never {
  throw new RangeError("premature EOF");
}

/**
 * Moves the reader past one field of a message at `depth` (1: the frame's
 * own) the way fromBinary reads it: the same uint32() for a varint (where
 * fromBinary reads a uint64 or bool, its varint64 read takes the same
 * bytes and fails on the same ones), a string's bytes without decoding
 * them, a nested message with fromBinary's loop (up to its length, or
 * past it), an unknown field with skip().
 */
function stepOver(r: BinaryReader, of: Steps, no: number, wireType: WireType, depth: number): void {
  const step = no < of.steps.length ? of.steps[no] : UNKNOWN;
  if (step === VARINT) r.uint32();
  else if (step === BYTES) {
    const n = r.uint32();
    if ((r.pos += n) > r.len) premature();
  } else if (step === BIT64) {
    if ((r.pos += 8) > r.len) premature();
  } else if (step === BIT32) {
    if ((r.pos += 4) > r.len) premature();
  } else if (step === MESSAGE) {
    const nested = of.nested[no]!;
    const end = r.uint32() + r.pos;
    if (depth + 1 > RECURSION_LIMIT)
      throw new Error(`protobuf-es: maximum recursion depth of ${RECURSION_LIMIT} reached`);
    while (r.pos < end) {
      const [n, wt] = r.tag();
      stepOver(r, nested, n, wt, depth + 1);
    }
  } else r.skip(wireType, no, RECURSION_LIMIT - depth);
}

/**
 * readKey: fromBinary's loop over the whole frame with a BinaryReader of
 * its own (a reader's buffer and bounds are read-only, so one per frame,
 * as fromBinary makes), reading the key's field as fromBinary does, by its
 * type whatever the wire type (uint32() for the uint32 keys, string() with
 * the field's UTF-8 validation for market's symbol), and stepping over the
 * rest. The walk goes to the end of the frame: a field repeated later
 * wins, as in fromBinary, and a key the frame leaves out reads as its
 * proto3 default (0, ""). BinaryReader throws Errors (RangeError "premature
 * EOF" past the end, Error on a bad tag or varint).
 */
function keyScan(payload: BuiltInPayload): (data: Encoded) => unknown {
  const desc = SCHEMAS[payload];
  const of = stepsOf(desc);
  const field = desc.field[ROUTING_KEYS[payload]];
  if (field?.fieldKind !== "scalar" || (field.scalar !== ScalarType.UINT32 && field.scalar !== ScalarType.STRING)) {
    throw new Error(
      `protobuf-es: the routing key ${desc.typeName}.${ROUTING_KEYS[payload]} is not a uint32 or string field`,
    );
  }
  const keyNo = field.number;
  if (field.scalar === ScalarType.STRING) {
    const strict = field.utf8Validation;
    return (data) => {
      const r = new BinaryReader(data as Uint8Array);
      let key = "";
      while (r.pos < r.len) {
        const [no, wireType] = r.tag();
        if (no === keyNo) key = r.string(strict);
        else stepOver(r, of, no, wireType, 1);
      }
      return key;
    };
  }
  return (data) => {
    const r = new BinaryReader(data as Uint8Array);
    let key = 0;
    while (r.pos < r.len) {
      const [no, wireType] = r.tag();
      if (no === keyNo) key = r.uint32();
      else stepOver(r, of, no, wireType, 1);
    }
    return key;
  };
}

export const protobufEsCodec: Codec = {
  name: "protobuf-es",
  description:
    "Protocol Buffers (protobuf-es, code generated by protoc-gen-es from protocols/messages.proto), binary frame",
  frame: "binary",
  family: "schema",
  standard: true,
  library: "@bufbuild/protobuf",
  keyAccess: "scan",
  decodeGuarantees: "types",
  notApplicable: (payload) =>
    isBuiltIn(payload)
      ? undefined
      : "no message type for your own messages (protobuf-es's code is generated from protocols/messages.proto)",
  forPayload: (payload): PayloadCodec => {
    if (!isBuiltIn(payload)) throw new CodecError("NO_LAYOUT", `protobuf-es has no message type for '${payload}'`);
    return { ...PAIRS[payload](), readKey: keyScan(payload) };
  },
};
