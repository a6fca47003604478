import { Packr, Unpackr } from "msgpackr";
import type { Codec, Encoded } from "./codec.ts";
import { PAYLOAD_FIELDS, PAYLOAD_NAMES, type Message } from "./messages.ts";

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
 * The record structures both ends agree on up front, one per message shape,
 * like a schema: each message then carries a one-byte record id instead of
 * its keys, and decodes on its own (no state carried between messages).
 */
function recordStructures(): string[][] {
  return PAYLOAD_NAMES.map((p) => [...PAYLOAD_FIELDS[p]]);
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
  standard: false,
  library: "msgpackr",
  forPayload: () => {
    const packr = new Packr({ useRecords: true, structures: recordStructures() });
    const unpackr = new Unpackr({ useRecords: true, structures: recordStructures() });
    return {
      encode: (message: Message): Encoded => packr.pack(message),
      decode: (data: Encoded): Message => unpackr.unpack(data as Uint8Array) as Message,
    };
  },
};
