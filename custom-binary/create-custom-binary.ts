import type { LayoutName } from "./header.ts";
import { keyReader, readKeyWith } from "./keys.ts";
import { decodeWith, encodeWith, layoutOf, type Message } from "./layouts.ts";
import { BinaryReader } from "./reader.ts";
import { BinaryWriter, DEFAULT_WRITER_MODE, type WriterMode } from "./writer.ts";

export interface CustomBinary {
  /** One message; the caller owns it (a copy, or a view nothing else writes to). */
  encode(message: Message): Uint8Array;
  /** A plain object; throws RangeError (truncated) or DecodeError (malformed). */
  decode(bytes: Uint8Array): Message;
  /**
   * The message's routing key (small, medium and large's num, chat's room,
   * game-tick's match, market's symbol), read in place without building the
   * message: of the layout the pair was created for (another layout's
   * header is a DecodeError), or without one, of the layout the header
   * names. Checks the header and the bytes up to the key only; throws
   * RangeError (cut off before the key's end) or DecodeError.
   */
  readKey(bytes: Uint8Array): number | string;
}

/**
 * An encoder/decoder pair with its own buffers. Not re-entrant, like any
 * codec with reused buffers; one per thread of work is plenty. `mode`: see
 * BinaryWriter (the engine's faster one by default). `layout`: the one
 * every message is written with; without it, each message's fields choose
 * (`layoutOf`). The decoder reads every layout; the key reader, that
 * layout's, when there is one.
 */
export function createCustomBinary(mode: WriterMode = DEFAULT_WRITER_MODE, layout?: LayoutName): CustomBinary {
  const writer = new BinaryWriter(mode);
  const reader = new BinaryReader();
  return {
    encode:
      layout === undefined
        ? (message) => encodeWith(writer, message, layoutOf(message))
        : (message) => encodeWith(writer, message, layout),
    decode: (bytes) => decodeWith(reader, bytes),
    readKey: layout === undefined ? (bytes) => readKeyWith(reader, bytes) : keyReader(reader, layout),
  };
}
