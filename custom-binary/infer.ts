/**
 * A layout for a user's own messages, inferred from a sample of them
 * (docs/custom-binary.md, "Layouts of your own messages"): at each place of
 * the message, the one type the sample holds there, as narrow as every
 * value of the sample allows. What the layout assumes beyond the sample
 * (an integer stays an integer, a float32 stays exact in 32 bits, a union's
 * tag is one of the sample's) is checked when a message is encoded: a
 * message the layout cannot carry is refused with the place and the value,
 * never carried with a value changed.
 */

/** What a layout holds at one place of a message, and how it is written (docs/custom-binary.md). */
export type Shape =
  /** The sample held no value here (only null, or arrays that were all empty): any value is refused. */
  | { kind: "unseen" }
  /** One of the union's tag values, known from the arm: nothing is written. */
  | { kind: "const"; value: string }
  /** u8, 0 or 1. */
  | { kind: "boolean" }
  /** varuint53: integers 0..2^53-1. */
  | { kind: "uint" }
  /** varint53 (zigzag): integers -2^52..2^52-1. */
  | { kind: "int" }
  /** float32, little-endian: every value of the sample is one exactly (checked again at encode). */
  | { kind: "float32" }
  | { kind: "float64" }
  | { kind: "string" }
  /** varuint32: i + 1 for values[i], 0 for any other string, which follows. */
  | { kind: "enum"; values: readonly string[] }
  /** u8: 0 null, 1 the value follows. */
  | { kind: "nullable"; of: Shape }
  /** varuint32 count, then the items. */
  | { kind: "array"; items: Shape }
  /** Exactly items.length items, no count. */
  | { kind: "tuple"; items: readonly Shape[] }
  /** varuint32 count, then per entry its key (a string) and its value. */
  | { kind: "map"; values: Shape }
  | ObjectShape
  | UnionShape;

/**
 * The fields in the sample's first-seen order; a presence byte for every
 * eight optional or nullable fields (a bit per optional field set when it is
 * there, a bit per nullable field set when it is not null), then each field
 * that is there and not null, in order.
 */
export interface ObjectShape {
  kind: "object";
  fields: readonly Field[];
}

interface Field {
  name: string;
  shape: Shape;
  /** Absent from some message of the sample. */
  optional: boolean;
  /** null in some message of the sample. */
  nullable: boolean;
}

/** Objects told apart by a string field: varuint32 the arm's index, then the arm's object. */
export interface UnionShape {
  kind: "union";
  tag: string;
  arms: readonly { tag: string; shape: ObjectShape }[];
}

/** Why no layout carries the sample: the place, and what it holds there. */
export class LayoutError extends Error {
  override readonly name = "LayoutError";
  constructor(
    readonly path: string,
    readonly reason: string,
  ) {
    super(`${path === "" ? "the message" : path}: ${reason}`);
  }
}

/** Fields whose name says they tell a message's kind, tried first as a union's tag. */
export const TAG_NAMES = ["t", "type", "kind", "op", "event", "action", "cmd", "msg", "msgType", "messageType"];
/** Most arms a union's tag picks between. */
const MAX_ARMS = 32;
/** Most values a string field takes to be written as an enum. */
const MAX_ENUM_VALUES = 32;
/** An enum's values recur: each, on average, at least this many times. */
const ENUM_RECURS = 2;
/** Most different field names at one place before its objects are read as a map (keys that are data). */
const MAX_FIELDS = 64;
/** Longest array read as a tuple when every array at its place has the same length. */
const MAX_TUPLE = 16;
/** Fewest arrays at a place for a common length to make a tuple. */
const MIN_TUPLES = 2;
const INT53_MIN = -(2 ** 52);
const INT53_MAX = 2 ** 52 - 1;

/**
 * The layout of a sample of messages (plain objects as JSON.parse gives
 * them): an object shape, or a union of them when a tag field picks the
 * fields. A LayoutError when a place holds two types (a number in some
 * messages and a string in others), which no layout of one type per place
 * carries.
 */
export function inferLayout(messages: readonly unknown[]): ObjectShape | UnionShape {
  if (messages.length === 0) throw new LayoutError("", "the sample holds no messages");
  const shape = infer(messages, "");
  if (shape.kind !== "object" && shape.kind !== "union")
    throw new LayoutError("", `every message must be an object, and the sample holds ${kindsText(messages)}`);
  return shape;
}

/** The kind of a JSON value, as the errors name it. */
function kindOf(v: unknown): string {
  return v === null ? "null" : Array.isArray(v) ? "array" : typeof v;
}

function kindsText(values: readonly unknown[]): string {
  const counts = new Map<string, number>();
  for (const v of values) counts.set(kindOf(v), (counts.get(kindOf(v)) ?? 0) + 1);
  return [...counts].map(([k, n]) => `${article(k)} in ${n} of ${values.length}`).join(" and ");
}

function article(kind: string): string {
  return kind === "null" ? "null" : /^[aeiou]/.test(kind) ? `an ${kind}` : `a ${kind}`;
}

function infer(values: readonly unknown[], path: string): Shape {
  const present = values.filter((v) => v !== null);
  if (present.length === 0) return { kind: "nullable", of: { kind: "unseen" } };
  const inner = inferPresent(present, path);
  return present.length < values.length ? { kind: "nullable", of: inner } : inner;
}

function inferPresent(values: readonly unknown[], path: string): Shape {
  const kind = kindOf(values[0]);
  if (values.some((v) => kindOf(v) !== kind))
    throw new LayoutError(path, `holds ${kindsText(values)}; a layout holds one type at each place`);
  switch (kind) {
    case "boolean":
      return { kind: "boolean" };
    case "number":
      return numberShape(values as number[]);
    case "string":
      return stringShape(values as string[]);
    case "array":
      return arrayShape(values as unknown[][], path);
    case "object":
      return objectShape(values as Record<string, unknown>[], path);
    default:
      throw new LayoutError(path, `holds ${article(kind)}, which JSON does not carry`);
  }
}

/** An integer, and not -0 (which an integer field would give back as 0). */
function isInteger(v: number): boolean {
  return Number.isInteger(v) && !Object.is(v, -0);
}

function numberShape(values: readonly number[]): Shape {
  if (values.every(isInteger)) {
    let min = Infinity;
    let max = -Infinity;
    for (const v of values) {
      if (v < min) min = v;
      if (v > max) max = v;
    }
    if (min >= 0 && max <= Number.MAX_SAFE_INTEGER) return { kind: "uint" };
    if (min >= INT53_MIN && max <= INT53_MAX) return { kind: "int" };
  }
  return values.every((v) => Object.is(Math.fround(v), v)) ? { kind: "float32" } : { kind: "float64" };
}

function stringShape(values: readonly string[]): Shape {
  const distinct = new Set<string>();
  for (const v of values) {
    distinct.add(v);
    if (distinct.size > MAX_ENUM_VALUES) return { kind: "string" };
  }
  return values.length >= ENUM_RECURS * distinct.size ? { kind: "enum", values: [...distinct] } : { kind: "string" };
}

function arrayShape(arrays: readonly unknown[][], path: string): Shape {
  const length = arrays[0]!.length;
  const sameLength = arrays.every((a) => a.length === length);
  const items = arrays.flat(1);
  if (sameLength && length >= 2 && length <= MAX_TUPLE && arrays.length >= MIN_TUPLES)
    return {
      kind: "tuple",
      items: Array.from({ length }, (_, i) =>
        infer(
          arrays.map((a) => a[i]),
          `${path}[${i}]`,
        ),
      ),
    };
  if (items.length === 0) return { kind: "array", items: { kind: "unseen" } };
  return { kind: "array", items: infer(items, `${path}[]`) };
}

function fieldPath(path: string, name: string): string {
  return path === "" ? name : `${path}.${name}`;
}

function objectShape(objects: readonly Record<string, unknown>[], path: string): Shape {
  const names = new Map<string, number>();
  for (const o of objects) for (const k of Object.keys(o)) names.set(k, (names.get(k) ?? 0) + 1);
  const tag = unionTag(objects, names);
  if (tag !== undefined) {
    const arms = new Map<string, Record<string, unknown>[]>();
    for (const o of objects) {
      const value = o[tag] as string;
      const arm = arms.get(value);
      if (arm) arm.push(o);
      else arms.set(value, [o]);
    }
    return {
      kind: "union",
      tag,
      arms: [...arms].map(([value, members]) => ({
        tag: value,
        shape: fieldsOf(members, `${path}{${tag}=${JSON.stringify(value)}}`, tag, value),
      })),
    };
  }
  if (names.size > MAX_FIELDS)
    return {
      kind: "map",
      values: infer(
        objects.flatMap((o) => Object.values(o)),
        `${path}{}`,
      ),
    };
  return fieldsOf(objects, path);
}

/** The object shape of objects that share one set of fields (and one tag value, when `tag` is given). */
function fieldsOf(
  objects: readonly Record<string, unknown>[],
  path: string,
  tag?: string,
  tagValue?: string,
): ObjectShape {
  const names = fieldOrder(objects);
  const fields: Field[] = names.map((name) => {
    if (name === "__proto__")
      throw new LayoutError(
        fieldPath(path, name),
        "a field named __proto__ cannot be rebuilt as a plain object's field",
      );
    if (name === tag) return { name, shape: { kind: "const", value: tagValue! }, optional: false, nullable: false };
    const values: unknown[] = [];
    for (const o of objects) if (Object.hasOwn(o, name) && o[name] !== undefined) values.push(o[name]);
    const shape = infer(values, fieldPath(path, name));
    const nullable = shape.kind === "nullable";
    return {
      name,
      shape: nullable ? shape.of : shape,
      optional: values.length < objects.length,
      nullable,
    };
  });
  return { kind: "object", fields };
}

/**
 * The order the layout writes the fields in, and decode gives them back in:
 * one that keeps every object's own key order, where one does (each object's
 * keys in its order, the ties broken by first sight), else the order they
 * are first seen in.
 */
function fieldOrder(objects: readonly Record<string, unknown>[]): string[] {
  const firstSeen: string[] = [];
  const after = new Map<string, Set<string>>();
  const before = new Map<string, number>();
  for (const o of objects) {
    const keys = Object.keys(o);
    for (const k of keys)
      if (!after.has(k)) {
        firstSeen.push(k);
        after.set(k, new Set());
        before.set(k, 0);
      }
    keys.forEach((k, i) => {
      const next = keys[i + 1];
      if (next !== undefined && !after.get(k)!.has(next)) {
        after.get(k)!.add(next);
        before.set(next, (before.get(next) ?? 0) + 1);
      }
    });
  }
  const order: string[] = [];
  const waiting = new Map(before);
  while (order.length < firstSeen.length) {
    const ready = firstSeen.find((k) => waiting.get(k) === 0);
    if (ready === undefined) return firstSeen; // the objects disagree on an order
    waiting.set(ready, -1);
    order.push(ready);
    for (const next of after.get(ready)!) waiting.set(next, waiting.get(next)! - 1);
  }
  return order;
}

/**
 * The field that tells the objects' kinds apart: a string in every object,
 * taking 2 to MAX_ARMS - 1 values, whose values come with different sets of
 * fields (a plain enum field that changes nothing else is no tag). A field
 * named as tags are (TAG_NAMES) is enough so; any other field must look like
 * one beyond doubt, so a name or an id is never taken for a kind: each of its
 * values seen at least twice, and always with the same fields.
 */
function unionTag(objects: readonly Record<string, unknown>[], names: ReadonlyMap<string, number>): string | undefined {
  const everywhere = [...names].filter(([, n]) => n === objects.length).map(([k]) => k);
  const candidates = [
    ...TAG_NAMES.filter((k) => everywhere.includes(k)),
    ...everywhere.filter((k) => !TAG_NAMES.includes(k)),
  ];
  for (const tag of candidates) {
    if (!objects.every((o) => typeof o[tag] === "string")) continue;
    const named = TAG_NAMES.includes(tag);
    const keySets = new Map<string, { keys: string; seen: number; same: boolean }>();
    for (const o of objects) {
      const value = o[tag] as string;
      const keys = Object.keys(o).sort().join("\u0000");
      const arm = keySets.get(value);
      if (arm) {
        arm.seen++;
        if (arm.keys !== keys) arm.same = false;
      } else {
        if (keySets.size === MAX_ARMS) break;
        keySets.set(value, { keys, seen: 1, same: true });
      }
    }
    if (keySets.size < 2 || keySets.size === MAX_ARMS) continue;
    const arms = [...keySets.values()];
    if (new Set(arms.map((a) => a.keys)).size < 2) continue;
    if (named || arms.every((a) => a.seen >= 2 && a.same)) return tag;
  }
  return undefined;
}

/** One line per place of the layout: its path and what it holds there, as the emitted module's header and the docs list them. */
export function describeLayout(layout: Shape): string[] {
  const lines: string[] = [];
  const walk = (shape: Shape, path: string, notes: string): void => {
    const at = path === "" ? "the message" : path;
    switch (shape.kind) {
      case "object":
        for (const f of shape.fields)
          walk(
            f.shape,
            path === "" ? f.name : `${path}.${f.name}`,
            [f.optional ? "optional" : "", f.nullable ? "or null" : ""].filter(Boolean).join(", "),
          );
        return;
      case "union":
        lines.push(
          `${path === "" ? shape.tag : `${path}.${shape.tag}`}: one of ${shape.arms.map((a) => JSON.stringify(a.tag)).join(", ")}, each kind with its own fields`,
        );
        for (const a of shape.arms) walk(a.shape, `${path}{${shape.tag}=${JSON.stringify(a.tag)}}`, "");
        return;
      case "const":
        return;
      case "nullable":
        walk(shape.of, path, notes ? `${notes}, or null` : "or null");
        return;
      case "array":
        lines.push(`${at}: an array${suffix(notes)}`);
        walk(shape.items, `${path}[]`, "");
        return;
      case "tuple":
        lines.push(`${at}: exactly ${shape.items.length} items${suffix(notes)}`);
        shape.items.forEach((s, i) => walk(s, `${path}[${i}]`, ""));
        return;
      case "map":
        lines.push(`${at}: an object whose keys are data${suffix(notes)}`);
        walk(shape.values, `${path}{}`, "");
        return;
      default:
        lines.push(
          `${at}: ${HOLDS[shape.kind]}${shape.kind === "enum" ? ` (${shape.values.length} known value${shape.values.length === 1 ? "" : "s"}, written as an index; any other written out)` : ""}${suffix(notes)}`,
        );
    }
  };
  walk(layout, "", "");
  return lines;
}

function suffix(notes: string): string {
  return notes ? `; ${notes}` : "";
}

const HOLDS: Record<"unseen" | "boolean" | "uint" | "int" | "float32" | "float64" | "string" | "enum", string> = {
  unseen: "no value (the sample held none here)",
  boolean: "true or false",
  uint: "an integer 0..2^53-1",
  int: "an integer -2^52..2^52-1",
  float32: "a number exact in 32 bits (float32)",
  float64: "any number (float64)",
  string: "any string",
  enum: "a string",
};
