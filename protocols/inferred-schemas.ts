/**
 * A .proto and an .avsc for a user's own messages, written from the layout
 * custom-binary infers from them (custom-binary/infer.ts), so protobuf and
 * avro run on those messages without a schema from the user
 * (docs/your-messages-and-codecs.md, "Schemas written for you").
 *
 * The two schemas say what the layout says, in each format's own terms:
 * integers as uint64 / sint64 (Avro: long), floats as float or double as the
 * layout has them, strings as strings (an enum of the layout's is a string
 * here: neither format's enum carries a value outside it, which custom-binary
 * writes out), arrays as repeated fields or arrays, a tuple as a message or
 * record of its places (v0, v1, ...), objects with keys that are data as maps,
 * and a union told apart by a tag as a oneof of one message per arm (Avro: a
 * union of records), the tag itself written by which arm holds the message.
 * A field left out of some messages is `optional` (Avro: a union with null
 * that reads back as left out), as is a field that is null in some; one
 * left out of some and null in others reads back as left out (neither format
 * has two ways to say "no value"), a change the fidelity check names.
 *
 * Each format gets a converter pair: `toWire` from a message to what its
 * library encodes, `fromWire` from what it decodes back to the message, as a
 * hand-written adapter would (their cost is the codec's). What a format
 * cannot say is refused when the schema is written, with the place: null
 * inside a Protobuf list or map, a place the sample never filled.
 */

import type { ObjectShape, Shape, UnionShape } from "../custom-binary/infer.ts";
import { CodecError } from "./codec-errors.ts";
import type { UserLayout } from "./custom-binary.ts";

/** A message's layout, as custom-binary infers it. */
export type Layout = ObjectShape | UnionShape;

/** A converter between a message's value at one place and what a schema library reads and writes there. */
interface Convert {
  toWire(v: unknown): unknown;
  fromWire(w: unknown): unknown;
}

const same: Convert = { toWire: (v) => v, fromWire: (w) => w };

/** A list, item by item (a list the library left out reads back empty). */
const eachItem = (item: Convert): Convert => ({
  toWire: (v) => (v as unknown[]).map(item.toWire),
  fromWire: (w) => ((w as unknown[] | undefined) ?? []).map(item.fromWire),
});

/** A map, value by value (a map the library left out reads back empty). */
function eachValue(value: Convert): Convert {
  const each = (m: unknown, f: (x: unknown) => unknown) =>
    Object.fromEntries(Object.entries((m as Record<string, unknown> | undefined) ?? {}).map(([k, x]) => [k, f(x)]));
  return { toWire: (v) => each(v, value.toWire), fromWire: (w) => each(w, value.fromWire) };
}

/** A tuple's places as the object shape both formats write it as: fields v0, v1, ... */
export const tuplePlaces = (items: readonly Shape[]): ObjectShape => ({
  kind: "object",
  fields: items.map((shape, i) => ({ name: `v${i}`, shape, optional: false, nullable: false })),
});

/** A tuple through the message or record of its places. */
const tupleThrough = (places: Convert): Convert => ({
  toWire: (v) => places.toWire(Object.fromEntries((v as unknown[]).map((x, i) => [`v${i}`, x]))),
  fromWire: (w) => Object.values(places.fromWire(w) as Record<string, unknown>),
});

/** Why a format's schema cannot say what the layout says at a place. */
export class SchemaError extends Error {
  override readonly name = "SchemaError";
  constructor(path: string, reason: string) {
    super(`${path === "" ? "the message" : path}: ${reason}`);
  }
}

/** A name each format accepts for a field, unique among its neighbours: the key itself where it can be. */
function fieldNames(keys: readonly string[]): string[] {
  const taken = new Set<string>();
  return keys.map((key, i) => {
    let name = /^[A-Za-z_][A-Za-z0-9_]*$/.test(key) ? key : `f${i + 1}_${key.replace(/[^A-Za-z0-9_]/g, "_")}`;
    while (taken.has(name)) name = `${name}_`;
    taken.add(name);
    return name;
  });
}

/** A type's name from where it sits: Message, Message_Pts, Message_Cur ... */
function typeName(path: readonly string[]): string {
  return path
    .map((p) =>
      p
        .replace(/[^A-Za-z0-9]/g, "_")
        .replace(/^(\d)/, "_$1")
        .replace(/^./, (c) => c.toUpperCase()),
    )
    .join("_");
}

const at = (path: readonly string[]): string => path.slice(1).join(".");

/** The object fields a union's arm writes: every field but the tag, which the arm stands for. */
function armFields(shape: ObjectShape, tag: string): ObjectShape["fields"] {
  return shape.fields.filter((f) => !(f.name === tag && f.shape.kind === "const"));
}

/** A field no message of the sample gave a value: left out of the schema, and a value there refused at encode. */
const neverSet = (f: ObjectShape["fields"][number]): boolean => f.shape.kind === "unseen" && (f.optional || f.nullable);

function noValueThere(path: readonly string[], name: string): never {
  throw new CodecError(
    "OUT_OF_LAYOUT",
    `${[...path.slice(1), name].join(".")}: a value where every message of the sample had none`,
  );
}

/** The union's arm for a message's tag; a CodecError for a tag the sample never had. */
function armOf<T>(byTag: ReadonlyMap<string, T>, tag: string, v: unknown): T {
  const value = (v as Record<string, unknown>)[tag];
  const arm = byTag.get(value as string);
  if (arm === undefined)
    throw new CodecError("OUT_OF_LAYOUT", `${tag}: ${JSON.stringify(value)}, a tag no message of the sample had`);
  return arm;
}

/**
 * What a field the format did not write reads back as: null where the sample only ever had null
 * for "no value", left out where it left the field out (and where it did both: neither format
 * tells the two apart, and the fidelity check names each message that changed).
 */
const noValue = (f: ObjectShape["fields"][number]): null | undefined => (f.nullable && !f.optional ? null : undefined);

/** `make`'s answer for each payload that has a layout, made on first asking and kept for the run. */
export function writtenOnce<W>(
  layoutOf: (payload: string) => UserLayout | undefined,
  make: (payload: string, layout: UserLayout) => W,
): (payload: string) => W | undefined {
  const made = new Map<string, W>();
  return (payload) => {
    const layout = layoutOf(payload);
    if (!layout) return undefined;
    if (!made.has(payload)) made.set(payload, make(payload, layout));
    return made.get(payload);
  };
}

// ---------------------------------------------------------------- Protobuf

/** A .proto (proto3) for the messages, its top message type's name, and the converter pair. */
export interface ProtoSchema {
  text: string;
  typeName: string;
  convert: Convert;
}

/**
 * A .proto for a layout; a SchemaError naming the place it cannot say. `numbers`: the top
 * message's field numbers by field name (a top union's: each arm's) (a version of a payload whose fields changed keeps its
 * other fields' numbers: schema evolution); a field it does not name takes the next number after
 * the highest. Absent: the fields' order, from 1.
 */
export function protoSchemaOf(layout: Layout, name: string, numbers?: ReadonlyMap<string, number>): ProtoSchema {
  const messages: string[] = [];
  const top = typeName([name]);

  /** A field's proto type and converter for a shape; `path` names where it sits (and the message types made for it). */
  const typeOf = (
    shape: Shape,
    path: string[],
  ): { type: string; repeated?: boolean; map?: string; convert: Convert } => {
    switch (shape.kind) {
      case "boolean":
        return { type: "bool", convert: same };
      case "uint":
        return { type: "uint64", convert: same };
      case "int":
        return { type: "sint64", convert: same };
      case "float32":
        return { type: "float", convert: same };
      case "float64":
        return { type: "double", convert: same };
      case "string":
      case "enum":
        return { type: "string", convert: same };
      case "array": {
        if (shape.items.kind === "nullable")
          throw new SchemaError(at(path), "null inside an array, which a repeated field cannot hold");
        const item = fieldType(shape.items, [...path, "item"]);
        return { type: item.type, repeated: true, convert: eachItem(item.convert) };
      }
      case "map": {
        if (shape.values.kind === "nullable")
          throw new SchemaError(at(path), "null among a map's values, which a map field cannot hold");
        const value = fieldType(shape.values, [...path, "value"]);
        return { type: value.type, map: "string", convert: eachValue(value.convert) };
      }
      case "tuple": {
        const message = objectMessage(tuplePlaces(shape.items), path);
        return { type: message.type, convert: tupleThrough(message.convert) };
      }
      case "object":
        return objectMessage(shape, path);
      case "union":
        return unionMessage(shape, path);
      case "nullable":
        throw new SchemaError(at(path), "null where no optional field can stand for it");
      case "const":
        throw new SchemaError(at(path), "a union's tag outside its union");
      case "unseen":
        throw new SchemaError(at(path), "no value in any message of the sample, so no type to give it");
    }
  };

  /** As typeOf, for a place a repeated field or a map holds: another list or map goes into a message of its own. */
  const fieldType = (shape: Shape, path: string[]): { type: string; convert: Convert } => {
    const t = typeOf(shape, path);
    if (!t.repeated && !t.map) return t;
    const type = typeName([top, ...path.slice(1)]);
    messages.push(
      `message ${type} {\n  ${t.repeated ? "repeated " : `map<${t.map}, `}${t.type}${t.map ? ">" : ""} value = 1;\n}`,
    );
    return {
      type,
      convert: {
        toWire: (v) => ({ value: t.convert.toWire(v) }),
        fromWire: (w) => t.convert.fromWire((w as { value?: unknown }).value),
      },
    };
  };

  const objectMessage = (shape: ObjectShape, path: string[], tag?: string): { type: string; convert: Convert } => {
    const type = typeName([top, ...path.slice(1)]);
    const fields = (tag === undefined ? shape.fields : armFields(shape, tag)).filter((f) => !neverSet(f));
    const names = fieldNames(fields.map((f) => f.name));
    const lines: string[] = [];
    // The top message's fields, or a top union's arms' (each arm a message of its own, numbered alike).
    const own =
      (path.length === 1 && tag === undefined) || (path.length === 2 && layout.kind === "union") ? numbers : undefined;
    let next = Math.max(0, ...(own?.values() ?? []));
    const numberOf = (field: string, i: number): number => (own ? (own.get(field) ?? ++next) : i + 1);
    const converts = fields.map((f, i) => {
      const presence = f.optional || f.nullable;
      // A list or map that can be missing goes into a message of its own, which can: a repeated or map field cannot tell missing from empty.
      const t: { type: string; repeated?: boolean; map?: string; convert: Convert } =
        presence && (f.shape.kind === "array" || f.shape.kind === "map")
          ? fieldType(f.shape, [...path, f.name])
          : typeOf(f.shape, [...path, f.name]);
      const label = t.map
        ? `map<${t.map}, ${t.type}>`
        : `${t.repeated ? "repeated " : presence ? "optional " : ""}${t.type}`;
      lines.push(`  ${label} ${names[i]} = ${numberOf(f.name, i)};`);
      return t.convert;
    });
    messages.push(`message ${type} {\n${lines.join("\n")}${lines.length > 0 ? "\n" : ""}}`);
    const constants = tag === undefined ? [] : shape.fields.filter((f) => f.name === tag && f.shape.kind === "const");
    const unset = shape.fields.filter(neverSet);
    return {
      type,
      convert: {
        toWire: (v) => {
          const m = v as Record<string, unknown>;
          const out: Record<string, unknown> = {};
          for (const f of unset) if (m[f.name] !== undefined && m[f.name] !== null) noValueThere(path, f.name);
          fields.forEach((f, i) => {
            const x = m[f.name];
            if (x !== undefined && x !== null) out[names[i]!] = converts[i]!.toWire(x);
          });
          return out;
        },
        fromWire: (w) => {
          const d = w as Record<string, unknown>;
          const out: Record<string, unknown> = {};
          for (const f of shape.fields) {
            if (constants.includes(f)) {
              out[f.name] = (f.shape as { value: string }).value;
              continue;
            }
            const i = fields.indexOf(f);
            const x = i < 0 ? undefined : d[names[i]!];
            if (x === undefined || x === null) {
              if (f.optional || f.nullable) {
                if (noValue(f) === null) out[f.name] = null;
              } else out[f.name] = converts[i]!.fromWire(defaultOf(f.shape));
            } else out[f.name] = converts[i]!.fromWire(x);
          }
          return out;
        },
      },
    };
  };

  const unionMessage = (shape: UnionShape, path: string[]): { type: string; convert: Convert } => {
    const type = typeName([top, ...path.slice(1)]);
    const armNames = fieldNames(shape.arms.map((a) => a.tag));
    const arms = shape.arms.map((arm, i) => ({
      tag: arm.tag,
      name: armNames[i]!,
      message: objectMessage(arm.shape, [...path, armNames[i]!], shape.tag),
    }));
    messages.push(
      `message ${type} {\n  // Which arm: the message's ${JSON.stringify(shape.tag)}.\n  oneof ${shape.tag.replace(/[^A-Za-z0-9_]/g, "_")}_arm {\n${arms.map((a, i) => `    ${a.message.type} ${a.name} = ${i + 1}; // ${shape.tag} = ${JSON.stringify(a.tag)}`).join("\n")}\n  }\n}`,
    );
    const byTag = new Map(arms.map((a) => [a.tag, a]));
    return {
      type,
      convert: {
        toWire: (v) => {
          const arm = armOf(byTag, shape.tag, v);
          return { [arm.name]: arm.message.convert.toWire(v) };
        },
        fromWire: (w) => {
          const d = w as Record<string, unknown>;
          const arm = arms.find((a) => d[a.name] !== undefined && d[a.name] !== null)!;
          return arm.message.convert.fromWire(d[arm.name]);
        },
      },
    };
  };

  const root = layout.kind === "union" ? unionMessage(layout, [top]) : objectMessage(layout, [top]);
  return {
    text: `// Written from the layout inferred from your messages (${name}); edit it as you would your own.\nsyntax = "proto3";\n\n${messages.reverse().join("\n\n")}\n`,
    typeName: root.type,
    convert: root.convert,
  };
}

/** What a format's library reads back for a required field it did not write (a default of its type). */
function defaultOf(shape: Shape): unknown {
  switch (shape.kind) {
    case "boolean":
      return false;
    case "uint":
    case "int":
    case "float32":
    case "float64":
      return 0;
    case "string":
    case "enum":
      return "";
    case "array":
      return [];
    case "map":
      return {};
    default:
      return {};
  }
}

// ---------------------------------------------------------------- Avro

/** An .avsc for the messages (avsc parses it with wrapUnions), and the converter pair. */
export interface AvroSchema {
  schema: unknown;
  convert: Convert;
}

/** An Avro schema for a layout; a SchemaError naming the place it cannot say. */
export function avroSchemaOf(layout: Layout, name: string): AvroSchema {
  const top = typeName([name]);
  /** Each union branch's name as avsc's wrapped unions key it. */
  const branch = (schema: unknown): string =>
    typeof schema === "string"
      ? schema
      : ((schema as { name?: string; type: string }).name ?? (schema as { type: string }).type);

  const typeOf = (shape: Shape, path: string[]): { schema: unknown; convert: Convert } => {
    switch (shape.kind) {
      case "boolean":
        return { schema: "boolean", convert: same };
      case "uint":
      case "int":
        return { schema: "long", convert: same };
      case "float32":
        return { schema: "float", convert: same };
      case "float64":
        return { schema: "double", convert: same };
      case "string":
      case "enum":
        return { schema: "string", convert: same };
      case "nullable": {
        const of = typeOf(shape.of, path);
        const key = branch(of.schema);
        return {
          schema: ["null", of.schema],
          convert: {
            toWire: (v) => (v === null ? null : { [key]: of.convert.toWire(v) }),
            fromWire: (w) => (w === null ? null : of.convert.fromWire((w as Record<string, unknown>)[key])),
          },
        };
      }
      case "array": {
        const item = typeOf(shape.items, [...path, "item"]);
        return { schema: { type: "array", items: item.schema }, convert: eachItem(item.convert) };
      }
      case "map": {
        const value = typeOf(shape.values, [...path, "value"]);
        return { schema: { type: "map", values: value.schema }, convert: eachValue(value.convert) };
      }
      case "tuple": {
        const record = objectRecord(tuplePlaces(shape.items), path);
        return { schema: record.schema, convert: tupleThrough(record.convert) };
      }
      case "object":
        return objectRecord(shape, path);
      case "union":
        return unionOf(shape, path);
      case "const":
        throw new SchemaError(at(path), "a union's tag outside its union");
      case "unseen":
        throw new SchemaError(at(path), "no value in any message of the sample, so no type to give it");
    }
  };

  const objectRecord = (shape: ObjectShape, path: string[], tag?: string): { schema: unknown; convert: Convert } => {
    const fields = (tag === undefined ? shape.fields : armFields(shape, tag)).filter((f) => !neverSet(f));
    const names = fieldNames(fields.map((f) => f.name));
    const types = fields.map((f) => {
      const of = typeOf(f.shape, [...path, f.name]);
      if (!f.optional && !f.nullable) return of;
      // Left out of some messages, or null in some: a union with null, read back as left out or as null.
      const key = branch(of.schema);
      const none = noValue(f);
      return {
        schema: ["null", of.schema],
        convert: {
          toWire: (v: unknown) => (v === undefined || v === null ? null : { [key]: of.convert.toWire(v) }),
          fromWire: (w: unknown) => (w === null ? none : of.convert.fromWire((w as Record<string, unknown>)[key])),
        },
      };
    });
    const constants = tag === undefined ? [] : shape.fields.filter((f) => f.name === tag && f.shape.kind === "const");
    const unset = shape.fields.filter(neverSet);
    return {
      schema: {
        type: "record",
        name: typeName([top, ...path.slice(1)]),
        fields: fields.map((f, i) => ({
          name: names[i],
          type: types[i]!.schema,
          ...(f.optional || f.nullable ? { default: null } : {}),
        })),
      },
      convert: {
        toWire: (v) => {
          const m = v as Record<string, unknown>;
          const out: Record<string, unknown> = {};
          for (const f of unset) if (m[f.name] !== undefined && m[f.name] !== null) noValueThere(path, f.name);
          fields.forEach((f, i) => {
            out[names[i]!] = types[i]!.convert.toWire(m[f.name]);
          });
          return out;
        },
        fromWire: (w) => {
          const d = w as Record<string, unknown>;
          const out: Record<string, unknown> = {};
          for (const f of shape.fields) {
            if (constants.includes(f)) out[f.name] = (f.shape as { value: string }).value;
            else if (neverSet(f)) {
              if (noValue(f) === null) out[f.name] = null;
            } else {
              const i = fields.indexOf(f);
              const x = types[i]!.convert.fromWire(d[names[i]!]);
              if (x !== undefined) out[f.name] = x;
            }
          }
          return out;
        },
      },
    };
  };

  const unionOf = (shape: UnionShape, path: string[]): { schema: unknown; convert: Convert } => {
    const armNames = fieldNames(shape.arms.map((a) => a.tag));
    const arms = shape.arms.map((arm, i) => {
      const record = objectRecord(arm.shape, [...path, armNames[i]!], shape.tag);
      return { tag: arm.tag, key: branch(record.schema), record };
    });
    const byTag = new Map(arms.map((a) => [a.tag, a]));
    return {
      schema: arms.map((a) => ({ ...(a.record.schema as object), doc: `${shape.tag} = ${JSON.stringify(a.tag)}` })),
      convert: {
        toWire: (v) => {
          const arm = armOf(byTag, shape.tag, v);
          return { [arm.key]: arm.record.convert.toWire(v) };
        },
        fromWire: (w) => {
          const d = w as Record<string, unknown>;
          const arm = arms.find((a) => d[a.key] !== undefined)!;
          return arm.record.convert.fromWire(d[arm.key]);
        },
      },
    };
  };

  const root = layout.kind === "union" ? unionOf(layout, [top]) : objectRecord(layout, [top]);
  return { schema: root.schema, convert: root.convert };
}
