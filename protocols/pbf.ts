/**
 * Protocol Buffers through pbf (Mapbox's small Protobuf library), with the
 * read/write functions pbf's own compiler generates from
 * protocols/messages.proto (protocols/generated/pbf/messages.ts, `npm run
 * codegen`). The bytes are standard Protobuf: protobufjs and any other
 * Protobuf library read them, and pbf reads theirs.
 *
 * What pbf's generated code does, and what this module adds:
 *
 * - Decode: a generated `readX` builds a plain object literal with every
 *   field in the schema's order (= protocols/shapes.ts's order), filled with
 *   its proto3 default, then overwritten by the fields on the wire. uint64
 *   fields come back as JS numbers (exact below 2^53), enums as numbers,
 *   sint32 unzigzagged, doubles as float64. So the read IS the plain object:
 *   no copy afterwards.
 * - Encode: a generated `writeX` writes fields in field-number order and
 *   skips every field whose value is falsy (proto3 implicit presence: 0, ""
 *   and empty lists are not written, as protobufjs and protobuf-es do too),
 *   so its bytes equal protobufjs's for every message the benchmark sends.
 * - Chat's proto3 `optional` fields (replyTo, editedAt): pbf's .proto
 *   parser (protocol-buffers-schema) drops the `optional` keyword, so the
 *   generated readChat sets both to 0 when absent and writeChat skips them
 *   when 0: it cannot tell absent from 0. This module therefore reads and
 *   writes Chat itself (readChat/writeChat below, the generated code's loop
 *   with presence: absent stays absent, a present 0 is written and read
 *   back), using the generated readReaction/writeReaction for reactions.
 * - The writer (one PbfWriter per PayloadCodec) is reused: pos is reset to
 *   0 and the message's bytes are copied out with slice(), so later encodes
 *   do not overwrite them. (pbf's finish() is not used: it shrinks the
 *   writer's recorded capacity, so a reused writer would reallocate.)
 * - After a read, the reader must have stopped exactly at the frame's end;
 *   otherwise (a truncated frame: a length or varint running past the end)
 *   decode throws. pbf itself does not check bounds.
 *
 * - Read one (readKey, key access "scan"): the frame's fields walked with
 *   pbf's own nextField, reading the routing key and stepping over every
 *   other field without building it (keyScan below).
 *
 * Special doubles: the generated writer's `if (obj.x)` skips -0 and NaN
 * like 0, so both decode as 0 (lost; protobufjs and protobuf-es write
 * them); +Infinity and -Infinity survive.
 *
 * pbf's runtime (index.js) uses no `new Function`/`eval`; only its
 * compile() helper does, which this module does not load (the code is
 * generated ahead of time).
 */

import { PbfReader, PbfWriter } from "pbf";
import type { Codec, Encoded, PayloadCodec } from "./codec.ts";
import { CodecError } from "./codec-errors.ts";
import {
  readGameTick,
  readLarge,
  readMarket,
  readMedium,
  readReaction,
  readSmall,
  writeGameTick,
  writeLarge,
  writeMarket,
  writeMedium,
  writeReaction,
  writeSmall,
} from "./generated/pbf/messages.ts";
import type { ChatMessage, Reaction } from "./message-sets.ts";
import { isBuiltIn, type BuiltInPayload, type Message } from "./messages.ts";

type Read = (pbf: PbfReader, end?: number) => Message;
type Write = (message: Message, pbf: PbfWriter) => void;

/** Chat with field presence for replyTo (7) and editedAt (8): the generated readChat's loop, minus its defaults for them. */
function readChat(pbf: PbfReader, end?: number): ChatMessage {
  let id = 0;
  let room = 0;
  let user = "";
  let text = "";
  let sentAt = 0;
  const reactions: Reaction[] = [];
  let replyTo: number | undefined;
  let editedAt: number | undefined;
  let field;
  while ((field = pbf.nextField(end))) {
    if (field === 1) id = pbf.readVarint();
    else if (field === 2) room = pbf.readVarint();
    else if (field === 3) user = pbf.readString();
    else if (field === 4) text = pbf.readString();
    else if (field === 5) sentAt = pbf.readVarint();
    else if (field === 6) reactions.push(readReaction(pbf, pbf.readVarint() + pbf.pos) as Reaction);
    else if (field === 7) replyTo = pbf.readVarint();
    else if (field === 8) editedAt = pbf.readVarint();
  }
  const out: ChatMessage = { id, room, user, text, sentAt, reactions };
  if (replyTo !== undefined) out.replyTo = replyTo;
  if (editedAt !== undefined) out.editedAt = editedAt;
  return out;
}

/** Chat: the generated writeChat, except that replyTo and editedAt are written whenever present (0 included). */
function writeChat(m: ChatMessage, pbf: PbfWriter): void {
  if (m.id) pbf.writeVarintField(1, m.id);
  if (m.room) pbf.writeVarintField(2, m.room);
  if (m.user) pbf.writeStringField(3, m.user);
  if (m.text) pbf.writeStringField(4, m.text);
  if (m.sentAt) pbf.writeVarintField(5, m.sentAt);
  for (const r of m.reactions) pbf.writeMessage(6, writeReaction, r);
  if (m.replyTo !== undefined) pbf.writeVarintField(7, m.replyTo);
  if (m.editedAt !== undefined) pbf.writeVarintField(8, m.editedAt);
}

const TYPES: Record<BuiltInPayload, { read: Read; write: Write }> = {
  small: { read: readSmall as Read, write: writeSmall as Write },
  medium: { read: readMedium as Read, write: writeMedium as Write },
  large: { read: readLarge as Read, write: writeLarge as Write },
  chat: { read: readChat as Read, write: writeChat as Write },
  "game-tick": { read: readGameTick as Read, write: writeGameTick as Write },
  market: { read: readMarket as Read, write: writeMarket as Write },
};

/** Not in the schema: nextField skips it by its wire type, as in the readers. */
const UNKNOWN = 0;
/** readVarint (uint32, uint64, the enum) or readSVarint (sint32): one varint. */
const VARINT = 1;
/** readString: a varint length and that many bytes. */
const STRING = 2;
/** readDouble: 8 bytes. */
const DOUBLE = 3;
/** A nested message: a varint length, then its own fields up to that end. */
const MESSAGE = 4;

/**
 * How the generated readers read each field, by field number: what readKey
 * must step over exactly as they do. pbf's generated code reads a known
 * field by its schema type whatever wire type its tag says (a field 2 of
 * Small tagged as a double is still read as a varint), and reads a nested
 * message with a loop that stops once it reaches or passes the message's
 * end, without checking that it stopped exactly there, and goes on from
 * wherever it stopped. So skipping by the wire type, or a nested message
 * by its length, could walk a corrupt frame the generated code reads
 * another way, to another key. The walk takes the readers' steps instead,
 * reading no string and building nothing.
 */
interface Steps {
  /** Index: field number; value: UNKNOWN ... MESSAGE. */
  readonly steps: readonly number[];
  /** For a MESSAGE field, the nested message's steps. */
  readonly nested?: Steps;
}

const REACTION: Steps = { steps: [UNKNOWN, STRING, VARINT] };
const ENTITY: Steps = { steps: [UNKNOWN, VARINT, VARINT, DOUBLE, DOUBLE, DOUBLE, DOUBLE, DOUBLE, DOUBLE] };

/** Each payload's steps, mirroring generated/pbf/messages.ts's readX (and readChat above); readKey reads the key's field instead. */
const STEPS: Record<BuiltInPayload, Steps> = {
  small: { steps: [UNKNOWN, STRING, VARINT] },
  medium: { steps: [UNKNOWN, STRING, STRING, VARINT, DOUBLE] },
  large: { steps: [UNKNOWN, STRING, STRING, STRING, STRING, VARINT, DOUBLE, VARINT, DOUBLE] },
  chat: { steps: [UNKNOWN, VARINT, VARINT, STRING, STRING, VARINT, MESSAGE, VARINT, VARINT], nested: REACTION },
  "game-tick": { steps: [UNKNOWN, VARINT, VARINT, MESSAGE], nested: ENTITY },
  market: { steps: [UNKNOWN, STRING, VARINT, VARINT, DOUBLE, DOUBLE, DOUBLE, DOUBLE] },
};

/** Moves the reader past one field the way the generated reader reads it (UNKNOWN: left to nextField, which skips it). */
function step(pbf: PbfReader, of: Steps, field: number): void {
  const s = field < of.steps.length ? of.steps[field] : UNKNOWN;
  if (s === VARINT) pbf.readVarint();
  else if (s === STRING) pbf.pos = pbf.readVarint() + pbf.pos;
  else if (s === DOUBLE) pbf.pos += 8;
  else if (s === MESSAGE) {
    const nested = of.nested!;
    const end = pbf.readVarint() + pbf.pos;
    let f;
    while ((f = pbf.nextField(end))) step(pbf, nested, f);
  }
}

/**
 * The key's read for a payload: its field number, and whether it is a
 * string (readString: market's symbol) or a varint (readVarint: the uint32
 * keys). Read with the generated readers' own calls, so the value is the
 * one decode puts in the object (a uint32 field holding a larger varint
 * comes back as that larger number, as in decode).
 */
const KEYS: Record<BuiltInPayload, { field: number; string: boolean }> = {
  small: { field: 2, string: false },
  medium: { field: 3, string: false },
  large: { field: 5, string: false },
  chat: { field: 2, string: false },
  "game-tick": { field: 1, string: false }, // match
  market: { field: 1, string: true },
};

/**
 * readKey: the generated reader's loop over the whole frame (a field
 * repeated later wins, as in decode; a key the frame leaves out reads as
 * the readers' default, 0 or ""), reading only the key and stepping over
 * the rest; then decode's own check that the read stopped exactly at the
 * frame's end. One PbfReader per PayloadCodec, pointed at each frame in
 * turn (pbf's reader is plain public fields). Its dataView stays over the
 * empty array it was made with: the walk reads no fixed-width value (it
 * steps over doubles), and any that a later change added would throw
 * rather than read another frame's bytes.
 */
function keyScan(payload: BuiltInPayload): (data: Encoded) => unknown {
  const of = STEPS[payload];
  const { field: keyField, string } = KEYS[payload];
  const pbf = new PbfReader(new Uint8Array(0));
  return (data: Encoded): unknown => {
    const bytes = data as Uint8Array;
    pbf.buf = bytes;
    pbf.length = bytes.length;
    pbf.pos = 0;
    pbf.type = 0;
    pbf._valueStart = -1; // a fresh reader's: nextField has no value left to skip
    let key: number | string = string ? "" : 0;
    let field;
    while ((field = pbf.nextField())) {
      if (field === keyField) key = string ? pbf.readString() : pbf.readVarint();
      else step(pbf, of, field);
    }
    if (pbf.pos !== pbf.length)
      throw new Error(`pbf: malformed or truncated frame (read to byte ${pbf.pos} of ${pbf.length})`);
    return key;
  };
}

export const pbfCodec: Codec = {
  name: "pbf",
  description: "Protocol Buffers (pbf, code generated from protocols/messages.proto), binary frame",
  frame: "binary",
  family: "schema",
  standard: true,
  library: "pbf",
  keyAccess: "scan",
  decodeGuarantees: "types",
  notApplicable: (payload) =>
    isBuiltIn(payload)
      ? undefined
      : "no message type for your own messages (pbf's code is generated from protocols/messages.proto)",
  forPayload: (payload): PayloadCodec => {
    if (!isBuiltIn(payload)) throw new CodecError("NO_LAYOUT", `pbf has no message type for '${payload}'`);
    const { read, write } = TYPES[payload];
    const writer = new PbfWriter();
    return {
      encode: (message: Message): Encoded => {
        writer.pos = 0;
        write(message, writer);
        return writer.buf.slice(0, writer.pos);
      },
      decode: (data: Encoded): Message => {
        const reader = new PbfReader(data as Uint8Array);
        const message = read(reader);
        if (reader.pos !== reader.length)
          throw new Error(`pbf: malformed or truncated frame (read to byte ${reader.pos} of ${reader.length})`);
        return message;
      },
      readKey: keyScan(payload),
    };
  },
};
