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

export const pbfCodec: Codec = {
  name: "pbf",
  description: "Protocol Buffers (pbf, code generated from protocols/messages.proto), binary frame",
  frame: "binary",
  family: "schema",
  standard: true,
  library: "pbf",
  notApplicable: (payload) => (isBuiltIn(payload) ? undefined : "no message type for your own messages (pbf's code is generated from protocols/messages.proto)"),
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
        if (reader.pos !== reader.length) throw new Error(`pbf: malformed or truncated frame (read to byte ${reader.pos} of ${reader.length})`);
        return message;
      },
    };
  },
};
