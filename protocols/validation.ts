/**
 * The validated access pattern: a decode, plus the checks that make what it
 * gave a well-formed message of its payload (protocols/shapes.ts: each
 * field's type, which fields must be there, the ranges the types state), so
 * a server facing the internet can trust it. What is added depends on what
 * the codec's decoder already guarantees (Codec.decodeGuarantees):
 *
 * - "none" (JSON, MessagePack, CBOR, BSON): the decoder returns whatever
 *   the bytes hold, any shape; the whole message is checked by a schema
 *   validator built from SHAPES (shapeValidator).
 * - "types" (Protobuf, Avro, Bebop, FlatBuffers, Cap'n Proto): the schema
 *   fixes every field's type and presence (a field missing from the bytes
 *   reads as its default, a well-formed value), but not every range the
 *   message states: an entity's state is 0..3 where the schemas carry a
 *   byte or an open enum, and Avro's longs carry any 64-bit integer. Only
 *   the ranges are checked (rangeChecker).
 * - "all" (custom-binary): the decoder checks every field's range, the
 *   state, the strings' UTF-8 and the frame's length itself; nothing is
 *   added.
 */

import { Type, type TSchema } from "@sinclair/typebox";
import { TypeCompiler } from "@sinclair/typebox/compiler";
import { TypeSystemPolicy } from "@sinclair/typebox/system";
import { Value } from "@sinclair/typebox/value";
import type { Codec, DecodeGuarantee } from "./codec.ts";
import { CodecError } from "./codec-errors.ts";
import type { BuiltInPayload } from "./messages.ts";
import { INTEGER_RANGES, SHAPES, type FieldType, type Shape } from "./shapes.ts";

/** The checks the validated pattern adds after a decode: a schema validator, the ranges alone, or none. */
export type AddedChecks = "validator" | "ranges" | "none";
export const ADDED_CHECKS: Readonly<Record<DecodeGuarantee, AddedChecks>> = {
  none: "validator",
  types: "ranges",
  all: "none",
};

/** Throws a CodecError (INVALID_MESSAGE) naming the field when a decoded value is not a well-formed message; returns nothing. */
export type MessageCheck = (message: unknown) => void;

function invalid(path: string, what: string): never {
  throw new CodecError("INVALID_MESSAGE", `field '${path}' ${what}`);
}

/** The ranges of one shape's integer and enum fields, checked on an object whose types a schema decoder fixed. */
function checkRanges(shape: Shape, o: Record<string, unknown>, path: string): void {
  for (const key in shape) {
    const t: FieldType = shape[key]!.type;
    const v = o[key];
    if (v === undefined) continue; // an absent optional field: the schema's presence is the decoder's
    if (typeof t === "object") {
      if ("enumOf" in t) {
        if (!(Number.isInteger(v) && (v as number) >= 0 && (v as number) < t.enumOf.length))
          invalid(`${path}${key}`, `is ${String(v)}, not an integer 0..${t.enumOf.length - 1}`);
      } else {
        const items = v as Record<string, unknown>[];
        for (let i = 0; i < items.length; i++) checkRanges(t.arrayOf, items[i]!, `${path}${key}[${i}].`);
      }
      continue;
    }
    const range = t === "string" || t === "double" ? undefined : INTEGER_RANGES[t];
    if (range !== undefined && !(Number.isInteger(v) && (v as number) >= range[0] && (v as number) <= range[1]))
      invalid(`${path}${key}`, `is ${String(v)}, outside ${t}'s ${range[0]}..${range[1]}`);
  }
}

/** The range checks of a payload's integer and enum fields, for a decoder that fixed their types. */
export function rangeChecker(payload: BuiltInPayload): MessageCheck {
  const shape = SHAPES[payload];
  return (message) => checkRanges(shape, message as Record<string, unknown>, "");
}

/**
 * TypeBox's reading of the shapes: a double is any number (NaN and the
 * infinities too: MessagePack, CBOR and BSON carry them, and the shapes
 * allow them), and an optional field is absent, never present as
 * undefined. Set once for the process; nothing else here uses TypeBox.
 */
TypeSystemPolicy.AllowNaN = true;
TypeSystemPolicy.ExactOptionalPropertyTypes = true;

/** A shape as a TypeBox schema (JSON Schema): every field's type and range, required unless optional, no other field. */
function schemaOf(shape: Shape): TSchema {
  const properties: Record<string, TSchema> = {};
  for (const [key, field] of Object.entries(shape)) {
    const t = field.type;
    let schema: TSchema;
    if (typeof t === "object")
      schema =
        "enumOf" in t ? Type.Integer({ minimum: 0, maximum: t.enumOf.length - 1 }) : Type.Array(schemaOf(t.arrayOf));
    else if (t === "string") schema = Type.String();
    else if (t === "double") schema = Type.Number();
    else schema = Type.Integer({ minimum: INTEGER_RANGES[t][0], maximum: INTEGER_RANGES[t][1] });
    properties[key] = field.optional ? Type.Optional(schema) : schema;
  }
  return Type.Object(properties, { additionalProperties: false });
}

/**
 * The whole message checked against its payload's schema by TypeBox,
 * compiled to a function where the page or runtime allows code from strings
 * (new Function), else its interpreter (Value.Check; a page under a strict
 * Content-Security-Policy): docs/access-patterns.md says why TypeBox.
 */
export function shapeValidator(payload: BuiltInPayload): MessageCheck {
  const schema = schemaOf(SHAPES[payload]);
  let check: (value: unknown) => boolean;
  try {
    const compiled = TypeCompiler.Compile(schema);
    check = (value) => compiled.Check(value);
  } catch {
    check = (value) => Value.Check(schema, value);
  }
  return (message) => {
    if (check(message)) return;
    const first = Value.Errors(schema, message).First();
    throw new CodecError(
      "INVALID_MESSAGE",
      first ? `${first.path || "the message"}: ${first.message}` : "not a well-formed message",
    );
  };
}

/** The checks the validated pattern adds after `codec`'s decode of a `payload` message, by what its decoder guarantees; undefined: none. */
export function checksFor(codec: Pick<Codec, "decodeGuarantees">, payload: BuiltInPayload): MessageCheck | undefined {
  switch (ADDED_CHECKS[codec.decodeGuarantees ?? "none"]) {
    case "validator":
      return shapeValidator(payload);
    case "ranges":
      return rangeChecker(payload);
    case "none":
      return undefined;
  }
}
