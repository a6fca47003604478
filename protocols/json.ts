import type { Codec, Encoded } from "./codec.ts";
import type { Message } from "./messages.ts";

/**
 * JSON as WebSocket text frames: what most applications send. Its size is the
 * UTF-8 byte length of the string, which is what goes on the wire; the
 * UTF-8 encoding itself happens inside `send()` and is not on this codec's
 * clock (see `json-bytes` for JSON with that cost included).
 */
export const json: Codec = {
  name: "json",
  description: "JSON.stringify / JSON.parse, sent as a text frame",
  frame: "text",
  family: "text",
  standard: true,
  library: "",
  forPayload: () => ({
    encode: (message: Message): Encoded => JSON.stringify(message),
    decode: (data: Encoded): Message => JSON.parse(data as string) as Message,
  }),
};

/**
 * JSON carried as UTF-8 bytes (TextEncoder + JSON.stringify, TextDecoder +
 * JSON.parse): the same work a binary codec is charged for, so the comparison
 * with binary codecs is like for like.
 */
export const jsonBytes: Codec = {
  name: "json-bytes",
  description: "JSON with its UTF-8 encoding on the clock (TextEncoder/TextDecoder), binary frame",
  frame: "binary",
  family: "text",
  standard: true,
  library: "",
  forPayload: () => {
    const encoder = new TextEncoder();
    const decoder = new TextDecoder();
    return {
      encode: (message: Message): Encoded => encoder.encode(JSON.stringify(message)),
      decode: (data: Encoded): Message => JSON.parse(decoder.decode(data as Uint8Array)) as Message,
    };
  },
};
