/**
 * BSON (bsonspec.org, MongoDB's format) through js-bson (the `bson`
 * package). Schema-less: each message is a BSON document of its field
 * names and values (a document must be an object at the top level, and
 * every message is), so it carries every payload, a user's own too.
 *
 * What the format does to the messages: js-bson writes an integral number
 * in the int32 range as an int32 and every other number (uint32 above
 * 2^31 - 1, uint53 timestamps, doubles, -0) as a float64 double; it never
 * writes an int64 for a JS number. Both read back as JS numbers, so every
 * field comes back as the same number: integers, integral doubles such as
 * 3 or 2^53 + 2, and all special doubles, -0, NaN and the infinities, too.
 * Strings are UTF-8; arrays are documents keyed "0", "1", ...
 *
 * Decode: js-bson builds plain objects and arrays itself, in the wire's
 * (the message's) key order, so there is no copy. Its defaults are the
 * right options: promoteValues (numbers, not Int32/Double wrappers),
 * promoteLongs and useBigInt64 false (an int64 another writer sent comes
 * back as a number), and UTF-8 validation, which measured no slower than
 * `validation: { utf8: false }` here. Encode: `serialize` writes into
 * js-bson's shared buffer and returns a fresh copy of exactly the
 * document's bytes (writing into a buffer of our own with
 * serializeWithBufferAndIndex and copying out measured the same).
 *
 * No `new Function` or `eval`: js-bson 7 has none (it reads code
 * elements as strings and never runs them).
 */

import { deserialize, serialize } from "bson";
import type { Codec, Encoded, PayloadCodec } from "./codec.ts";
import type { Message } from "./messages.ts";

export const bson: Codec = {
  name: "bson",
  description: "BSON (js-bson), binary frame",
  frame: "binary",
  family: "schemaless",
  standard: true,
  library: "bson",
  forPayload: (): PayloadCodec => ({
    encode: (message: Message): Encoded => serialize(message as Record<string, unknown>),
    decode: (data: Encoded): Message => deserialize(data as Uint8Array) as Message,
  }),
};
