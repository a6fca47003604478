/**
 * The shape of every built-in payload's messages: each field's type, in
 * the order the message objects hold them, and which may be absent. The
 * server's shape check walks it (socket/shape.ts), msgpackr's records take
 * their structures from it, and messages.proto follows it.
 */

import type { BuiltInPayload } from "./messages.ts";
import { ENTITY_STATES } from "./message-sets.ts";

/** What a field holds: uint53 is an integer a JavaScript number holds exactly (timestamps). */
export type FieldType =
  | "string"
  | "uint32"
  | "int32"
  | "uint53"
  | "double"
  | { readonly enumOf: readonly string[] }
  | { readonly arrayOf: Shape };

/** The range of each integer field type, inclusive: what the shape check, the range checks and the schema validator hold a value to. */
export const INTEGER_RANGES: Readonly<Record<"uint32" | "int32" | "uint53", readonly [number, number]>> = {
  uint32: [0, 4294967295],
  int32: [-2147483648, 2147483647],
  uint53: [0, Number.MAX_SAFE_INTEGER],
};

interface Field {
  readonly type: FieldType;
  /** The field may be absent (never present with `undefined`). */
  readonly optional?: true;
}

/** A message object's fields, in order. */
export type Shape = Readonly<Record<string, Field>>;

const f = (type: FieldType): Field => ({ type });
const optional = (type: FieldType): Field => ({ type, optional: true });

const REACTION: Shape = { emoji: f("string"), count: f("uint32") };
const ENTITY: Shape = {
  id: f("uint32"),
  state: f({ enumOf: ENTITY_STATES }),
  x: f("double"),
  y: f("double"),
  z: f("double"),
  vx: f("double"),
  vy: f("double"),
  vz: f("double"),
};

export const SHAPES: Readonly<Record<BuiltInPayload, Shape>> = {
  small: { text: f("string"), num: f("uint32") },
  medium: { text: f("string"), text2: f("string"), num: f("uint32"), decimal: f("double") },
  large: {
    text: f("string"),
    text2: f("string"),
    text3: f("string"),
    text4: f("string"),
    num: f("uint32"),
    decimal: f("double"),
    num2: f("int32"),
    decimal2: f("double"),
  },
  chat: {
    id: f("uint32"),
    room: f("uint32"),
    user: f("string"),
    text: f("string"),
    sentAt: f("uint53"),
    reactions: f({ arrayOf: REACTION }),
    replyTo: optional("uint32"),
    editedAt: optional("uint53"),
  },
  "game-tick": { match: f("uint32"), tick: f("uint32"), entities: f({ arrayOf: ENTITY }) },
  market: {
    symbol: f("string"),
    seq: f("uint53"),
    ts: f("uint53"),
    bid: f("double"),
    bidSize: f("double"),
    ask: f("double"),
    askSize: f("double"),
  },
};

/**
 * Every key list an object of `shape` can have, nested shapes included,
 * optional fields in every combination, each in the shape's order:
 * msgpackr's record structures for these messages.
 */
export function keyLists(shape: Shape): string[][] {
  const names = Object.keys(shape);
  const optionals = names.filter((k) => shape[k]!.optional);
  const out: string[][] = [];
  for (let mask = 0; mask < 1 << optionals.length; mask++) {
    out.push(names.filter((k) => !shape[k]!.optional || (mask & (1 << optionals.indexOf(k))) !== 0));
  }
  for (const k of names) {
    const t = shape[k]!.type;
    if (typeof t === "object" && "arrayOf" in t) out.push(...keyLists(t.arrayOf));
  }
  return out;
}
