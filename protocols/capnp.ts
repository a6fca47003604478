/**
 * Cap'n Proto through capnp-es and the code its compiler generates from
 * protocols/schemas/capnp/ (protocols/generated/capnp/, `npm run codegen`;
 * docs/schemas.md).
 *
 * Encode: a new Message per encode (capnp-es's single-segment arena: one
 * 4 KiB segment that grows in place, so a message never spills into a
 * second segment), filled through the generated setters, then
 * `toArrayBuffer()`: the standard stream framing (an 8-byte segment table:
 * one segment, its length in words) and the segment, UNPACKED. Packing
 * (toPackedArrayBuffer) would shrink the zero bytes of pointers and padding,
 * but it is an extra pass both ways and the packed form is no longer
 * readable in place; the unpacked form is Cap'n Proto's zero-copy one, the
 * one this benchmark measures. The ArrayBuffer is the message's own, so
 * later encodes never touch it.
 *
 * Decode: `new Message(bytes, false)` (unpacked, framed) and getRoot; capnp-es
 * copies the segment out of the frame and reads it in place through
 * accessors, so decode then reads every field into a new plain object (part
 * of the timed decode): UInt64 getters give bigints, turned into numbers
 * (exact below 2^53); list items come back as struct views, copied field by
 * field.
 *
 * What the format changes:
 * - Cap'n Proto has no optional scalars: chat's replyTo and editedAt are
 *   each a union of `none :Void` (the default) and `value`, so the union's
 *   discriminant says whether the field is there and a present 0 stays 0;
 *   the encoder sets `value` only when the field is present, the decoder
 *   adds the key only when the union holds `value`.
 * - Scalars are stored XORed with their default (0), so every bit pattern
 *   survives: -0, NaN and the infinities round-trip exactly.
 * - Text is NUL-terminated on the wire but its length is in the pointer, so
 *   strings holding U+0000 and "" come back exactly.
 * - capnp-es bounds-checks every pointer against its segment and stops after
 *   reading 64 MiB (its traversal limit), so a truncated or corrupt frame
 *   throws an Error. Two checks here keep a corrupt frame from costing
 *   seconds first: the segment table must fit in the frame, and a list may
 *   not claim more items than the frame has bytes.
 *
 * Read one (readKey, keyAccess "lazy"): the frame is opened as decode opens
 * it (messageOf's checks, the same Message and getRoot, so the segment is
 * copied out and the root pointer checked as in decode), and the routing key
 * is read through its one generated getter, the other fields never
 * touched: a data-section read for num, room and match, market's symbol
 * through its Text pointer, as decode reads it.
 */

import { Message as CapnpMessage, type Struct } from "capnp-es";
import { type Codec, type Encoded, type PayloadCodec, uint53 } from "./codec.ts";
import { CodecError } from "./codec-errors.ts";
import type { ChatMessage, Entity, GameTickMessage, MarketMessage, Reaction } from "./message-sets.ts";
import {
  isBuiltIn,
  type BuiltInPayload,
  type LargeMessage,
  type MediumMessage,
  type Message,
  type SmallMessage,
} from "./messages.ts";
import { Small } from "./generated/capnp/small.ts";
import { Medium } from "./generated/capnp/medium.ts";
import { Large } from "./generated/capnp/large.ts";
import { Chat, Chat_EditedAt, Chat_ReplyTo } from "./generated/capnp/chat.ts";
import { GameTick } from "./generated/capnp/game-tick.ts";
import { Market } from "./generated/capnp/market.ts";

/** The encoded message: the framed, unpacked single segment, in an ArrayBuffer of its own. */
function bytesOf(message: CapnpMessage): Uint8Array {
  return new Uint8Array(message.toArrayBuffer());
}

/**
 * The message to read. capnp-es copies a view's bytes into a new
 * ArrayBuffer before reading; a view over the whole of its ArrayBuffer
 * goes in as that ArrayBuffer (read, never written), saving that copy.
 */
function messageOf(data: Encoded): CapnpMessage {
  const bytes = data as Uint8Array;
  // capnp-es makes an array of the segment count the header claims before it
  // checks the header against the frame's length: a corrupt count would
  // take minutes. The segment table must fit in the frame.
  if (bytes.length < 8) throw new RangeError(`capnp: ${bytes.length} bytes is too short for a framed message`);
  const segments = (bytes[0]! | (bytes[1]! << 8) | (bytes[2]! << 16) | (bytes[3]! << 24)) >>> 0;
  if (8 + 4 * segments > bytes.length)
    throw new RangeError(`capnp: a segment table of ${segments + 1} segments does not fit in ${bytes.length} bytes`);
  const whole =
    bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength && bytes.buffer instanceof ArrayBuffer;
  return new CapnpMessage(whole ? bytes.buffer : bytes, false);
}

interface StructClass<T extends Struct> {
  new (...args: never[]): T;
}

/**
 * A list's length, refused when it claims more items than the frame has
 * bytes: capnp-es does not check the item count of a list pointer that a
 * corrupt frame turned into another kind, and would read a million phantom
 * items (up to its traversal limit) before throwing.
 */
function items(length: number, frameBytes: number): number {
  if (length > frameBytes) throw new RangeError(`capnp: a list of ${length} items does not fit in ${frameBytes} bytes`);
  return length;
}

/**
 * A codec pair from the root struct type, its setters, its reader (given
 * the frame's length in bytes) and the getter of its routing key.
 */
function pair<T extends Struct>(
  Root: StructClass<T>,
  write: (root: T, message: Message) => void,
  read: (root: T, frameBytes: number) => Message,
  key: (root: T) => unknown,
): PayloadCodec {
  return {
    encode(message: Message): Encoded {
      const m = new CapnpMessage();
      write(m.initRoot(Root as never) as T, message);
      return bytesOf(m);
    },
    decode: (data: Encoded): Message => read(messageOf(data).getRoot(Root as never) as T, (data as Uint8Array).length),
    readKey: (data: Encoded): unknown => key(messageOf(data).getRoot(Root as never) as T),
  };
}

function small(): PayloadCodec {
  return pair(
    Small,
    (r, message) => {
      const m = message as SmallMessage;
      r.text = m.text;
      r.num = m.num;
    },
    (r) => ({ text: r.text, num: r.num }) satisfies SmallMessage,
    (r) => r.num,
  );
}

function medium(): PayloadCodec {
  return pair(
    Medium,
    (r, message) => {
      const m = message as MediumMessage;
      r.text = m.text;
      r.text2 = m.text2;
      r.num = m.num;
      r.decimal = m.decimal;
    },
    (r) => ({ text: r.text, text2: r.text2, num: r.num, decimal: r.decimal }) satisfies MediumMessage,
    (r) => r.num,
  );
}

function large(): PayloadCodec {
  return pair(
    Large,
    (r, message) => {
      const m = message as LargeMessage;
      r.text = m.text;
      r.text2 = m.text2;
      r.text3 = m.text3;
      r.text4 = m.text4;
      r.num = m.num;
      r.decimal = m.decimal;
      r.num2 = m.num2;
      r.decimal2 = m.decimal2;
    },
    (r) =>
      ({
        text: r.text,
        text2: r.text2,
        text3: r.text3,
        text4: r.text4,
        num: r.num,
        decimal: r.decimal,
        num2: r.num2,
        decimal2: r.decimal2,
      }) satisfies LargeMessage,
    (r) => r.num,
  );
}

function chat(): PayloadCodec {
  return pair(
    Chat,
    (r, message) => {
      const m = message as ChatMessage;
      r.id = m.id;
      r.room = m.room;
      r.user = m.user;
      r.text = m.text;
      r.sentAt = BigInt(m.sentAt);
      const n = m.reactions.length;
      const list = r._initReactions(n);
      for (let i = 0; i < n; i++) {
        const from = m.reactions[i]!;
        const to = list.get(i);
        to.emoji = from.emoji;
        to.count = from.count;
      }
      // Absent: the unions stay at their default, `none`.
      if (m.replyTo !== undefined) r.replyTo.value = m.replyTo;
      if (m.editedAt !== undefined) r.editedAt.value = BigInt(m.editedAt);
    },
    (r, frameBytes) => {
      const list = r.reactions;
      const n = items(list.length, frameBytes);
      const reactions = new Array<Reaction>(n);
      for (let i = 0; i < n; i++) {
        const item = list.get(i);
        reactions[i] = { emoji: item.emoji, count: item.count };
      }
      const out: ChatMessage = {
        id: r.id,
        room: r.room,
        user: r.user,
        text: r.text,
        sentAt: uint53(r.sentAt),
        reactions,
      };
      const replyTo = r.replyTo;
      if (replyTo.which() === Chat_ReplyTo.VALUE) out.replyTo = replyTo.value;
      const editedAt = r.editedAt;
      if (editedAt.which() === Chat_EditedAt.VALUE) out.editedAt = uint53(editedAt.value);
      return out;
    },
    // A data-section read: the reactions list (its item check included) is decode's alone.
    (r) => r.room,
  );
}

function gameTick(): PayloadCodec {
  return pair(
    GameTick,
    (r, message) => {
      const m = message as GameTickMessage;
      r.match = m.match;
      r.tick = m.tick;
      const n = m.entities.length;
      const list = r._initEntities(n);
      for (let i = 0; i < n; i++) {
        const from = m.entities[i]!;
        const to = list.get(i);
        to.id = from.id;
        to.state = from.state as 0 | 1 | 2 | 3;
        to.x = from.x;
        to.y = from.y;
        to.z = from.z;
        to.vx = from.vx;
        to.vy = from.vy;
        to.vz = from.vz;
      }
    },
    (r, frameBytes) => {
      const list = r.entities;
      const n = items(list.length, frameBytes);
      const entities = new Array<Entity>(n);
      for (let i = 0; i < n; i++) {
        const e = list.get(i);
        entities[i] = { id: e.id, state: e.state, x: e.x, y: e.y, z: e.z, vx: e.vx, vy: e.vy, vz: e.vz };
      }
      return { match: r.match, tick: r.tick, entities } satisfies GameTickMessage;
    },
    // A data-section read: the entities list (its item check included) is decode's alone.
    (r) => r.match,
  );
}

function market(): PayloadCodec {
  return pair(
    Market,
    (r, message) => {
      const m = message as MarketMessage;
      r.symbol = m.symbol;
      r.seq = BigInt(m.seq);
      r.ts = BigInt(m.ts);
      r.bid = m.bid;
      r.bidSize = m.bidSize;
      r.ask = m.ask;
      r.askSize = m.askSize;
    },
    (r) =>
      ({
        symbol: r.symbol,
        seq: uint53(r.seq),
        ts: uint53(r.ts),
        bid: r.bid,
        bidSize: r.bidSize,
        ask: r.ask,
        askSize: r.askSize,
      }) satisfies MarketMessage,
    (r) => r.symbol,
  );
}

const PAIRS: Record<BuiltInPayload, () => PayloadCodec> = { small, medium, large, chat, "game-tick": gameTick, market };

export const capnpCodec: Codec = {
  name: "capnp",
  description:
    "Cap'n Proto (capnp-es, protocols/schemas/capnp/), unpacked single segment, zero-copy; decode here materialises the whole object, binary frame",
  frame: "binary",
  family: "zero-copy",
  standard: true,
  library: "capnp-es",
  keyAccess: "lazy",
  decodeGuarantees: "types",
  notApplicable: (payload) =>
    isBuiltIn(payload) ? undefined : "Cap'n Proto needs a schema, and your own messages have none",
  forPayload: (payload): PayloadCodec => {
    if (!isBuiltIn(payload)) throw new CodecError("NO_LAYOUT", `capnp has no schema for '${payload}'`);
    return PAIRS[payload]();
  },
};
