import { Decoder, Encoder } from "@msgpack/msgpack";
import type { Codec, Encoded } from "./codec.ts";
import type { Message } from "./messages.ts";

/**
 * MessagePack through the official JavaScript library, with reused Encoder
 * and Decoder instances (their buffers and key cache live across calls).
 * `encode` returns a copy, which a caller may keep.
 */
export const msgpack: Codec = {
  name: "msgpack",
  description: "MessagePack (@msgpack/msgpack, reused Encoder/Decoder), binary frame",
  frame: "binary",
  family: "schemaless",
  standard: true,
  library: "@msgpack/msgpack",
  forPayload: () => {
    const encoder = new Encoder();
    const decoder = new Decoder();
    return {
      encode: (message: Message): Encoded => encoder.encode(message),
      decode: (data: Encoded): Message => decoder.decode(data as Uint8Array) as Message,
    };
  },
};
