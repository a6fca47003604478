/**
 * The one small interface every codec implements. A codec names itself,
 * says which WebSocket frame type carries it, and hands out an
 * encoder/decoder pair per payload kind (`forPayload`), because schema-based
 * formats (Protobuf) need to know which message type they are reading.
 */

import type { Message, PayloadName } from "./messages.ts";

/** The WebSocket frame type a codec's output travels in. */
export type Frame = "text" | "binary";

/** Encoded form of one message: a string for text frames, bytes for binary frames. */
export type Encoded = string | Uint8Array;

export interface PayloadCodec {
  /** Turns a plain message object into what goes on the wire. */
  encode(message: Message): Encoded;
  /** Turns what came off the wire back into an equal plain object. */
  decode(data: Encoded): Message;
  /**
   * The payload's routing key (ROUTING_KEYS in messages.ts: market's
   * symbol, chat's room, ...) read from a frame the cheapest correct way
   * the format offers (Codec.keyAccess says which), without building the
   * message. Where decode reads a frame, readKey gives what decode's object
   * holds in that field, or throws; where decode throws, it may still read
   * the key (it is not a validation). Absent: the key is taken from a full
   * decode.
   */
  readKey?(data: Encoded): unknown;
}

/**
 * How a codec's readKey reaches the routing key, cheapest first: at an
 * offset the layout fixes, past a few length prefixes (custom-binary);
 * through the format's lazy accessors, building nothing else (FlatBuffers,
 * Cap'n Proto); by walking the wire format's fields and skipping the rest
 * undecoded (Protobuf's tags, Avro's leading fields); or from a full decode
 * where the format offers nothing better (JSON, MessagePack, CBOR, BSON).
 */
export type KeyAccess = "offset" | "lazy" | "scan" | "decode";

/**
 * What a codec's decoder guarantees of the message it returns, which sets
 * what the validated pattern adds after it (protocols/validation.ts):
 * nothing (any shape the bytes hold: JSON, MessagePack, CBOR, BSON; a full
 * schema check is added), each field's type and presence (a schema
 * codec; the ranges its schema types do not state are added), or
 * everything the payload's shape states (custom-binary; nothing added).
 */
export type DecodeGuarantee = "none" | "types" | "all";
export const DECODE_GUARANTEES: readonly DecodeGuarantee[] = ["none", "types", "all"];
export const KEY_ACCESSES: readonly KeyAccess[] = ["offset", "lazy", "scan", "decode"];

/**
 * What kind of format a codec is, for grouping in tables and charts and for
 * `--codecs`, in the order tables list them: text (JSON); schema binary
 * (both ends share a schema or a hand-written layout: custom-binary,
 * Protobuf, Avro, Bebop); schema-less binary (MessagePack, CBOR, BSON:
 * self-describing, no schema); zero-copy (FlatBuffers, Cap'n Proto: read
 * in place, here timed with the whole object built).
 */
export type CodecFamily = "text" | "schema" | "schemaless" | "zero-copy";
export const CODEC_FAMILIES: readonly CodecFamily[] = ["text", "schema", "schemaless", "zero-copy"];

export interface Codec {
  /** Registry key, used on the command line and in every results file. */
  readonly name: string;
  /** One line for the help text and the README. */
  readonly description: string;
  readonly frame: Frame;
  /** Its family; absent (a codec module may leave it out): listed after the families. */
  readonly family?: CodecFamily;
  /**
   * false for formats that only the same library can read (msgpackr
   * records); every output labels them non-standard.
   */
  readonly standard: boolean;
  /** npm packages that do the work, for the version columns ("" when built in). */
  readonly library: string;
  /** How its PayloadCodecs' readKey reads the routing key; absent: "decode" (and no readKey). */
  readonly keyAccess?: KeyAccess;
  /** What its decoder guarantees of a built-in payload's message; absent: "none" (the validated pattern checks the whole message). */
  readonly decodeGuarantees?: DecodeGuarantee;
  /**
   * Why this codec cannot carry `payload` (a schema codec without a schema
   * for a user's own messages), or undefined when it can. Absent: it
   * carries every payload.
   */
  notApplicable?(payload: PayloadName): string | undefined;
  /**
   * A fresh encoder/decoder pair for one payload kind. Pairs may keep reusable
   * buffers; each pair is used by one loop at a time.
   */
  forPayload(payload: PayloadName): PayloadCodec;
}

/** Bytes on the wire for one encoded message (UTF-8 length for text). */
export function encodedBytes(data: Encoded): number {
  return typeof data === "string" ? utf8Length(data) : data.byteLength;
}

/** UTF-8 byte length of a string, counted without allocating. */
export function utf8Length(s: string): number {
  let bytes = s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) continue;
    if (c < 0x800) bytes += 1;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        bytes += 2; // two UTF-16 units, four bytes
        i++;
      } else bytes += 2;
    } else bytes += 2;
  }
  return bytes;
}

/** One line for an error a codec threw: its class and message. */
export function errorText(e: unknown): string {
  return e instanceof Error ? `${e.name}: ${e.message}` : String(e);
}

/** What a value is, for an error line: null, an array, or its typeof. */
export function kindOf(v: unknown): string {
  return v === null ? "null" : Array.isArray(v) ? "an array" : typeof v;
}

/** 2^53 - 1 as a bigint: the largest uint53 (protocols/shapes.ts). */
const MAX_UINT53 = BigInt(Number.MAX_SAFE_INTEGER);

/**
 * A 64-bit field a schema codec's library hands over as a bigint, as the
 * number the messages hold: exact up to 2^53 - 1; beyond, a RangeError
 * (a value another writer sent that no JavaScript number carries), never a
 * rounded number.
 */
export function uint53(value: bigint): number {
  if (value > MAX_UINT53 || value < 0n)
    throw new RangeError(`a 64-bit field holds ${value}, beyond the 0..2^53 - 1 a JavaScript number carries exactly`);
  return Number(value);
}
