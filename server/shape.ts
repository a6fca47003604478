/**
 * The shape each payload's messages must have. A decoder may accept
 * well-formed data of another shape (JSON `1`, a MessagePack array, a
 * Protobuf message with fields missing); the server checks the decoded
 * value against this and refuses anything else with close code 1007, so a
 * wrongly shaped message is never echoed as if it were the benchmark's.
 * A user's own messages (`--messages`) have no shape but "an object".
 */

import { kindOf } from "../protocols/codec.ts";
import { isBuiltIn, type PayloadName } from "../protocols/messages.ts";
import { INTEGER_RANGES, SHAPES, type FieldType, type Shape } from "../protocols/shapes.ts";

function kindText(t: FieldType): string {
  if (typeof t === "object") return "enumOf" in t ? `an integer 0..${t.enumOf.length - 1}` : "an array";
  switch (t) {
    case "string":
      return "a string";
    case "double":
      return "a number";
    default:
      return `an integer ${INTEGER_RANGES[t][0]}..${INTEGER_RANGES[t][1]}`;
  }
}

function fits(t: FieldType, v: unknown): boolean {
  if (typeof t === "object")
    return "enumOf" in t
      ? typeof v === "number" && Number.isInteger(v) && v >= 0 && v < t.enumOf.length
      : Array.isArray(v);
  switch (t) {
    case "string":
      return typeof v === "string";
    case "uint32":
      return typeof v === "number" && v >>> 0 === v;
    case "int32":
      return typeof v === "number" && (v | 0) === v;
    case "uint53":
      return typeof v === "number" && Number.isSafeInteger(v) && v >= 0;
    case "double":
      return typeof v === "number";
  }
}

/** undefined when `value` is an object of `shape`, else what is wrong, naming the field's path. */
function objectError(shape: Shape, value: unknown, what: string, path: string): string | undefined {
  if (value === null || typeof value !== "object" || Array.isArray(value))
    return `expected ${what}, got ${kindOf(value)}`;
  const o = value as Record<string, unknown>;
  let present = 0;
  for (const key in shape) {
    const field = shape[key]!;
    if (!Object.hasOwn(o, key)) {
      if (field.optional) continue;
      return `field '${path}${key}' is missing`;
    }
    present++;
    const v = o[key];
    if (!fits(field.type, v)) return `field '${path}${key}' is not ${kindText(field.type)}`;
    const t = field.type;
    if (typeof t === "object" && "arrayOf" in t) {
      const items = v as unknown[];
      for (let i = 0; i < items.length; i++) {
        const wrong = objectError(t.arrayOf, items[i], `an object in '${path}${key}'`, `${path}${key}[${i}].`);
        if (wrong !== undefined) return wrong;
      }
    }
  }
  if (Object.keys(o).length !== present)
    return `unexpected field '${path}${Object.keys(o).find((k) => !Object.hasOwn(shape, k))}'`;
  return undefined;
}

/** undefined when `value` is a `payload` message, else what is wrong with it. */
export function shapeError(payload: PayloadName, value: unknown): string | undefined {
  if (!isBuiltIn(payload)) {
    return value !== null && typeof value === "object" && !Array.isArray(value)
      ? undefined
      : `expected an object (a message of ${payload}), got ${kindOf(value)}`;
  }
  return objectError(SHAPES[payload], value, `a ${payload} message object`, "");
}
