/**
 * Bebop (bebop.sh) through the `bebop` runtime package and the code bebopc
 * generates from protocols/schemas/bebop/ (protocols/generated/bebop/,
 * `npm run codegen`; docs/schemas.md).
 *
 * The format: structs are their fields back to back, no tags (strings and
 * arrays: a uint32 little-endian length first; numbers little-endian, fixed
 * width); chat is a `message` (its fields tagged by index, a length in
 * front), so its optional fields can be absent. Doubles are float64, so
 * every double survives, -0, NaN and the infinities too.
 *
 * Encode: the generated `encode` writes into the runtime's one shared
 * BebopView. Up to 256 bytes that is the runtime's static buffer, which the
 * next encode overwrites, so those bytes are copied out; a longer message
 * grows into a fresh buffer the runtime then drops, returned as it is.
 * uint53 fields (bebop uint64: a bigint in the generated code) are turned
 * into bigints first.
 *
 * Decode: the generated `readFrom` on the shared view, not `decode`, which
 * would wrap the result in a frozen record with an `encode` method. A
 * struct's readFrom already returns a plain object literal, fields in the
 * schema's order (protocols/shapes.ts's); chat and market are copied into a
 * new object, uint64 bigints turned into numbers (exact below 2^53), chat's
 * optional fields set only when present. The runtime does not check lengths:
 * a DataView read past the end throws a RangeError, but a string running
 * past it reads garbage, so a frame whose fields do not end exactly at its
 * end throws an Error.
 *
 * Pure JavaScript: no `new Function` or `eval` (the runtime has none).
 */

import { BebopView } from "bebop";
import { type Codec, type Encoded, type PayloadCodec, uint53 } from "./codec.ts";
import { CodecError } from "./codec-errors.ts";
import type { ChatMessage, GameTickMessage, MarketMessage, Reaction } from "./message-sets.ts";
import {
  isBuiltIn,
  type BuiltInPayload,
  type LargeMessage,
  type MediumMessage,
  type Message,
  type SmallMessage,
} from "./messages.ts";
import { Chat } from "./generated/bebop/chat.ts";
import { GameTick } from "./generated/bebop/game-tick.ts";
import { Large } from "./generated/bebop/large.ts";
import { Market } from "./generated/bebop/market.ts";
import { Medium } from "./generated/bebop/medium.ts";
import { Small } from "./generated/bebop/small.ts";

/** The runtime's one view: every generated encode and decode goes through it. */
const view = BebopView.getInstance();
/** The static buffer every encode starts in (startWriting points the view at it), reused by the next encode. */
view.startWriting();
const sharedBuffer = view.toArray().buffer;

/** The bytes the last encode wrote: copied when they sit in the shared buffer, else the runtime's own grown buffer (never written again). */
function written(bytes: Uint8Array): Uint8Array {
  return bytes.buffer === sharedBuffer ? bytes.slice() : bytes;
}

/** Reads one record of the frame; throws when its fields do not end exactly where the frame ends. */
function read<T>(data: Encoded, readFrom: (v: BebopView) => T): T {
  const bytes = data as Uint8Array;
  view.startReading(bytes);
  const record = readFrom(view);
  if (view.index !== bytes.length) {
    throw new RangeError(`bebop: the record ends at byte ${view.index} of a ${bytes.length}-byte frame`);
  }
  return record;
}

function encodeChat(m: ChatMessage): Uint8Array {
  return written(
    Chat.encode({
      id: m.id,
      room: m.room,
      user: m.user,
      text: m.text,
      sentAt: BigInt(m.sentAt),
      reactions: m.reactions,
      replyTo: m.replyTo,
      editedAt: m.editedAt === undefined ? undefined : BigInt(m.editedAt),
    }),
  );
}

function decodeChat(data: Encoded): ChatMessage {
  const m = read(data, Chat.readFrom);
  // Every field of a Bebop message may be absent on the wire; the chat's required ones must be there.
  if (
    m.id === undefined ||
    m.room === undefined ||
    m.user === undefined ||
    m.text === undefined ||
    m.sentAt === undefined ||
    m.reactions === undefined
  ) {
    throw new RangeError("bebop: a chat message without one of id, room, user, text, sentAt, reactions");
  }
  const out: ChatMessage = {
    id: m.id,
    room: m.room,
    user: m.user,
    text: m.text,
    sentAt: uint53(m.sentAt),
    // readFrom builds each Reaction as a plain object literal: { emoji, count }.
    reactions: m.reactions as Reaction[],
  };
  if (m.replyTo !== undefined) out.replyTo = m.replyTo;
  if (m.editedAt !== undefined) out.editedAt = uint53(m.editedAt);
  return out;
}

function encodeMarket(m: MarketMessage): Uint8Array {
  return written(
    Market.encode({
      symbol: m.symbol,
      seq: BigInt(m.seq),
      ts: BigInt(m.ts),
      bid: m.bid,
      bidSize: m.bidSize,
      ask: m.ask,
      askSize: m.askSize,
    }),
  );
}

function decodeMarket(data: Encoded): MarketMessage {
  const m = read(data, Market.readFrom);
  return {
    symbol: m.symbol,
    seq: uint53(m.seq),
    ts: uint53(m.ts),
    bid: m.bid,
    bidSize: m.bidSize,
    ask: m.ask,
    askSize: m.askSize,
  };
}

/** Each built-in payload's encode and decode (the structs' readFrom results are plain already). */
const PAIRS: Record<BuiltInPayload, PayloadCodec> = {
  small: {
    encode: (m) => written(Small.encode(m as SmallMessage)),
    decode: (data) => read(data, Small.readFrom) as SmallMessage,
  },
  medium: {
    encode: (m) => written(Medium.encode(m as MediumMessage)),
    decode: (data) => read(data, Medium.readFrom) as MediumMessage,
  },
  large: {
    encode: (m) => written(Large.encode(m as LargeMessage)),
    decode: (data) => read(data, Large.readFrom) as LargeMessage,
  },
  chat: { encode: (m) => encodeChat(m as ChatMessage), decode: decodeChat },
  "game-tick": {
    // The state enum is the message's number (EntityState's values are 0-3).
    encode: (m) => written(GameTick.encode(m as GameTickMessage)),
    decode: (data) => read(data, GameTick.readFrom) as GameTickMessage,
  },
  market: { encode: (m) => encodeMarket(m as MarketMessage), decode: decodeMarket },
};

export const bebop: Codec = {
  name: "bebop",
  description: "Bebop (bebop, code generated by bebopc from protocols/schemas/bebop/), binary frame",
  frame: "binary",
  family: "schema",
  standard: true,
  library: "bebop",
  decodeGuarantees: "types",
  notApplicable: (payload) =>
    isBuiltIn(payload)
      ? undefined
      : "no Bebop schema for your own messages (protocols/schemas/bebop/ has the built-in payloads')",
  forPayload: (payload): PayloadCodec => {
    if (!isBuiltIn(payload)) throw new CodecError("NO_LAYOUT", `bebop has no schema for '${payload}'`);
    const { encode, decode } = PAIRS[payload];
    return { encode: (message: Message): Encoded => encode(message), decode: (data: Encoded): Message => decode(data) };
  },
};
