/**
 * CBOR (RFC 8949) through cbor-x, records off: standard CBOR any decoder
 * reads. Schema-less: each message is a map of its field names to values,
 * so it carries every payload, a user's own messages too.
 *
 * The import is cbor-x/encode, the package's pure JavaScript build (its
 * Encoder decodes too): the main entry also loads the optional native
 * cbor-extract addon, which under Bun 1.4 returned wrong strings for
 * non-ASCII text and then crashed the process, and is not what a browser
 * runs either (docs/codecs/cbor-x.ts says the same).
 *
 * What the format does to the messages: cbor-x writes an integral number
 * from 0 to 2^32 - 1 (or down to -2^32) as a CBOR integer and every other
 * number as a float64, so every integer and double comes back as the same
 * JS number, NaN and both infinities too, but -0 becomes the integer 0 and
 * comes back as 0. Maps are written with a two-byte size (cbor-x's default,
 * for speed: valid CBOR, two bytes longer than the shortest form).
 *
 * Decode: cbor-x builds plain objects itself (maps as objects, the default
 * with records off), so there is no copy. Encode: cbor-x writes each message
 * after the previous one in its buffer (a new buffer when full), so the
 * bytes it returns stay as they are.
 *
 * new Function/eval: cbor-x compiles readers with `new Function` for
 * records only, which are off here; at load it probes `new Function('')`
 * in a try/catch (under a strict Content-Security-Policy the probe is
 * refused, reported, and records fall back to plain code).
 */

import { Encoder } from "cbor-x/encode";
import type { Codec, Encoded, PayloadCodec } from "./codec.ts";
import type { Message } from "./messages.ts";

export const cbor: Codec = {
  name: "cbor",
  description: "CBOR, RFC 8949 (cbor-x, records off: standard), binary frame",
  frame: "binary",
  family: "schemaless",
  standard: true,
  library: "cbor-x",
  forPayload: (): PayloadCodec => {
    // One encoder per pair, reused; records off keeps the output standard CBOR.
    const encoder = new Encoder({ useRecords: false });
    return {
      encode: (message: Message): Encoded => encoder.encode(message),
      decode: (data: Encoded): Message => encoder.decode(data as Uint8Array) as Message,
    };
  },
};
