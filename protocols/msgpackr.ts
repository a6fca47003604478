import { Packr, Unpackr } from "msgpackr";
import type { Codec, Encoded } from "./codec.ts";
import { isBuiltIn, PAYLOAD_NAMES, type Message } from "./messages.ts";
import { keyLists, SHAPES } from "./shapes.ts";

/**
 * Standard MessagePack through msgpackr, records off: any MessagePack
 * decoder reads it. msgpackr's default writes maps with a 16-bit size
 * (map16) for speed, so its messages are 2 bytes longer than the most
 * compact form; that is what a user of `new Packr({ useRecords: false })` gets.
 */
export const msgpackr: Codec = {
  name: "msgpackr",
  description: "MessagePack (msgpackr, records off: standard), binary frame",
  frame: "binary",
  family: "schemaless",
  standard: true,
  library: "msgpackr",
  forPayload: () => {
    const packr = new Packr({ useRecords: false });
    return {
      encode: (message: Message): Encoded => packr.pack(message),
      decode: (data: Encoded): Message => packr.unpack(data as Uint8Array) as Message,
    };
  },
};

/**
 * The record structures both ends agree on up front, one per key list an
 * object of a built-in payload can have (optional fields in every
 * combination, nested objects too), like a schema: each object then carries
 * a one-byte record id instead of its keys, and a message decodes on its
 * own (no state carried between messages).
 */
function recordStructures(): string[][] {
  return PAYLOAD_NAMES.flatMap((p) => keyLists(SHAPES[p]));
}

/**
 * msgpackr's records extension: NOT standard MessagePack (other decoders
 * cannot read it), labelled so in every output. Encoder and decoder are
 * separate instances with their own copy of the structures, as the two ends
 * of a socket would be.
 */
export const msgpackrRecords: Codec = {
  name: "msgpackr-records",
  description: "msgpackr records extension, shared structures (NON-STANDARD MessagePack), binary frame",
  frame: "binary",
  family: "schemaless",
  standard: false,
  library: "msgpackr",
  notApplicable: (payload) =>
    isBuiltIn(payload)
      ? undefined
      : "its record structures are agreed before the first message, from a schema your messages do not have (learnt from a stream instead, one message would not decode alone)",
  forPayload: () => {
    const packr = new Packr({ useRecords: true, structures: recordStructures() });
    const unpackr = new Unpackr({ useRecords: true, structures: recordStructures() });
    return {
      encode: (message: Message): Encoded => packr.pack(message),
      decode: (data: Encoded): Message => unpackr.unpack(data as Uint8Array) as Message,
    };
  },
};
