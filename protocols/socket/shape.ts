/**
 * The shape each payload's messages must have. A decoder may accept
 * well-formed data of another shape (JSON `1`, a MessagePack array, a
 * Protobuf message with fields missing); the server checks the decoded
 * value against this and refuses anything else with close code 1007, so a
 * wrongly shaped message is never echoed as if it were the benchmark's.
 */

import { FIELD_KINDS, PAYLOAD_FIELDS, type FieldKind, type PayloadName } from "../messages.ts";

const KIND_TEXT: Record<FieldKind, string> = {
  string: "a string",
  uint32: "an integer 0..4294967295",
  int32: "an integer -2147483648..2147483647",
  double: "a number",
};

function fits(kind: FieldKind, v: unknown): boolean {
  switch (kind) {
    case "string":
      return typeof v === "string";
    case "uint32":
      return typeof v === "number" && v >>> 0 === v;
    case "int32":
      return typeof v === "number" && (v | 0) === v;
    case "double":
      return typeof v === "number";
  }
}

/** undefined when `value` is a `payload` message, else what is wrong with it. */
export function shapeError(payload: PayloadName, value: unknown): string | undefined {
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    return `expected a ${payload} message object, got ${value === null ? "null" : Array.isArray(value) ? "an array" : typeof value}`;
  }
  const fields = PAYLOAD_FIELDS[payload];
  const o = value as Record<string, unknown>;
  const keys = Object.keys(o);
  for (const key of fields) {
    if (!(key in o)) return `field '${key}' is missing`;
    const kind = FIELD_KINDS[key]!;
    if (!fits(kind, o[key])) return `field '${key}' is not ${KIND_TEXT[kind]}`;
  }
  if (keys.length !== fields.length) {
    const extra = keys.find((k) => !fields.includes(k));
    return `unexpected field '${extra}'`;
  }
  return undefined;
}
