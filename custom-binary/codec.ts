import type { Message } from "../bench/payloads.ts";
import { decodeWith, encodeWith } from "./messages.ts";
import { BinaryReader } from "./reader.ts";
import { BinaryWriter } from "./writer.ts";

export interface CustomBinary {
  /** A new Uint8Array holding one message; the caller owns it. */
  encode(message: Message): Uint8Array;
  /** A plain object; throws RangeError (truncated) or DecodeError (malformed). */
  decode(bytes: Uint8Array): Message;
}

/**
 * An encoder/decoder pair with its own scratch buffers. Not re-entrant, like
 * any codec with reused buffers; one per thread of work is plenty.
 */
export function createCustomBinary(): CustomBinary {
  const writer = new BinaryWriter();
  const reader = new BinaryReader();
  return {
    encode: (message) => encodeWith(writer, message),
    decode: (bytes) => decodeWith(reader, bytes),
  };
}
