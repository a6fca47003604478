/**
 * An encoder/decoder pair for a layout inferred from a user's messages
 * (infer.ts): the code layout-source.ts writes for it, compiled once, so
 * what is timed is the straight-line code `--emit-codec` hands the user,
 * not an interpreter of the layout.
 */

import { DecodeError, EncodeError } from "./errors.ts";
import type { ObjectShape, UnionShape } from "./infer.ts";
import { layoutSource, SOURCE_PARAMETERS } from "./layout-source.ts";
import { BinaryReader } from "./reader.ts";
import { BinaryWriter, DEFAULT_WRITER_MODE, type WriterMode } from "./writer.ts";

export interface InferredCodec {
  /** One message; the caller owns the bytes. EncodeError for a message the layout cannot carry. */
  encode(message: unknown): Uint8Array;
  /** The message; RangeError (truncated) or DecodeError (malformed), as every layout. */
  decode(bytes: Uint8Array): unknown;
}

type Compiled = {
  encode(w: BinaryWriter, message: unknown): Uint8Array;
  decode(r: BinaryReader, bytes: Uint8Array): unknown;
};

/**
 * Each layout's code, compiled once per process and shared by every pair made of it: a server
 * makes a pair per connection, and code compiled anew for each would start cold in the engine on
 * every connection (interpreted, then compiled again), where the built-in layouts' code is warm.
 */
const compiledOf = new WeakMap<ObjectShape | UnionShape, Map<string, Compiled>>();

export function compiled(layout: ObjectShape | UnionShape, name: string): Compiled {
  let byName = compiledOf.get(layout);
  if (!byName) compiledOf.set(layout, (byName = new Map()));
  let pair = byName.get(name);
  if (pair) return pair;
  const source = layoutSource(layout, name, { typed: false });
  // Field names and the sample's enum and tag values enter the text only as JSON string literals and in comments that cannot be closed early.
  const compile = new Function(...SOURCE_PARAMETERS, `"use strict";\n${source}\nreturn { encode, decode };`) as (
    encodeError: typeof EncodeError,
    decodeError: typeof DecodeError,
  ) => Compiled;
  pair = compile(EncodeError, DecodeError);
  byName.set(name, pair);
  return pair;
}

/** The layout's pair, with its own buffers (not re-entrant, as createCustomBinary's), its code shared (`compiled`). `name`: the payload's. */
export function inferredCodec(
  layout: ObjectShape | UnionShape,
  name: string,
  mode: WriterMode = DEFAULT_WRITER_MODE,
): InferredCodec {
  const { encode, decode } = compiled(layout, name);
  const writer = new BinaryWriter(mode);
  const reader = new BinaryReader();
  return {
    encode: (message) => encode(writer, message),
    decode: (bytes) => decode(reader, bytes),
  };
}
