/**
 * How a client encodes what it sends and checks what comes back, for every
 * socket codec; `raw` sends custom-binary bytes prepared before timing and
 * expects them back byte for byte.
 */

import { ownRoundTrips, sameMessage } from "../harness/verify.ts";
import type { Encoded, Frame, PayloadCodec } from "../../protocols/codec.ts";
import { isBuiltIn, type Message, type PayloadName } from "../../protocols/messages.ts";
import { customBinary } from "../../protocols/custom-binary.ts";
import type { CodecCatalog } from "../../protocols/registry.ts";
import { RAW_CODEC_NAME } from "../../protocols/contract.ts";
import { ClientError } from "../client-errors.ts";

/** What a message event's data is under binaryType "arraybuffer" (or a Node Buffer view). */
export type MessageData = string | ArrayBuffer | ArrayBufferView;

/** Bytes of a binary message, respecting byteOffset when a runtime hands over a view. */
export function toBytes(data: ArrayBuffer | ArrayBufferView): Uint8Array {
  if (data instanceof ArrayBuffer) return new Uint8Array(data);
  return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
}

/**
 * The encoder/decoder a client uses for a socket codec. `raw` sends each
 * message's custom-binary bytes, prepared before timing, and checks that the
 * echo is byte-identical.
 */
export interface ClientCodec {
  frame: Frame;
  /** Prepares message i for sending (timed as serialization). */
  encode(i: number): Encoded;
  /** Decodes a reply (timed as deserialization). */
  decode(data: MessageData): unknown;
  /** True when a decoded reply equals message i. */
  matches(i: number, decoded: unknown): boolean;
}

export function clientCodec(
  catalog: CodecCatalog,
  codec: string,
  payload: PayloadName,
  messages: readonly Message[],
  ownRoundTrip = false,
): ClientCodec {
  if (codec === RAW_CODEC_NAME) {
    const prepared = rawBytes(payload, messages);
    return {
      frame: "binary",
      encode: (i) => prepared[i]!,
      decode: (data) => (typeof data === "string" ? data : toBytes(data)),
      matches: (i, decoded) => sameBytes(prepared[i]!, decoded),
    };
  }
  const c = catalog.get(codec);
  if (!c) throw new ClientError("UNKNOWN_CODEC", `unknown codec '${codec}'`);
  const pc: PayloadCodec = c.forPayload(payload);
  const expected = ownRoundTrip ? ownRoundTrips(c.forPayload(payload), messages) : messages;
  return {
    frame: c.frame,
    encode: (i) => pc.encode(messages[i]!),
    decode: (data) => pc.decode(typeof data === "string" ? data : toBytes(data)),
    matches: (i, decoded) => sameMessage(expected[i]!, decoded),
  };
}

/** raw's bytes of each list of messages, made once: every server process's connection and every mode sends the same list. */
const rawBytesOf = new WeakMap<readonly Message[], Uint8Array[]>();

/**
 * What `raw` sends: each message's custom-binary bytes, the smallest a
 * codec here writes; a user's own messages, which custom-binary has no
 * layout for, as their JSON in UTF-8.
 */
function rawBytes(payload: PayloadName, messages: readonly Message[]): Uint8Array[] {
  const made = rawBytesOf.get(messages);
  if (made) return made;
  let encode: (m: Message) => Uint8Array;
  if (isBuiltIn(payload)) {
    const cb = customBinary.forPayload(payload);
    encode = (m) => cb.encode(m) as Uint8Array;
  } else {
    const utf8 = new TextEncoder();
    encode = (m) => utf8.encode(JSON.stringify(m));
  }
  // A list that holds a message more than once (a shared list cycled: schedule.ts) holds its bytes once.
  const byMessage = new Map<Message, Uint8Array>();
  const bytes = messages.map((m) => {
    let b = byMessage.get(m);
    if (!b) byMessage.set(m, (b = encode(m)));
    return b;
  });
  rawBytesOf.set(messages, bytes);
  return bytes;
}

function sameBytes(a: Uint8Array, b: unknown): boolean {
  if (!(b instanceof Uint8Array) || a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
