/**
 * Schemas for the codecs whose code a compiler generates from a schema
 * (bebop, flatbuffers, capnp), written from one version of a payload's
 * layout (custom-binary/infer.ts) for evolve mode
 * (docs/schema-evolution.md), and the converters between a message and
 * what that generated code reads and writes.
 *
 * A version that changed keeps what the version it came from (its base)
 * said, as the format's author would edit the schema: each top field keeps
 * its number (FlatBuffers' `id`, Bebop's index, Cap'n Proto's ordinal); a
 * field the change removed stays in the schema, unused (FlatBuffers' and
 * Bebop's `deprecated`; Cap'n Proto: kept, as its docs say a field is never
 * removed); a field added takes the next number. A field some messages
 * leave out has presence in each format's own terms: FlatBuffers' optional
 * scalar (`= null`) or an absent string or table; a Bebop message's field,
 * written only when set; in Cap'n Proto, which has no optional scalars, a
 * union of `none :Void` and `value` (as the built-in chat schema does). A
 * field that becomes optional in Cap'n Proto keeps its ordinal as the
 * union's `value`, and `none` takes the next ordinal, which keeps old
 * writers' messages read as present (Cap'n Proto lets an existing field be
 * wrapped in a new union).
 *
 * A tuple is a struct of its places (v0, v1, ...), as in the .proto and
 * .avsc written for your messages (inferred-schemas.ts). What these schemas
 * cannot say is refused with the place (SchemaError): a union of message
 * kinds, a map, null, a list of lists (FlatBuffers, Cap'n Proto), a list
 * some messages leave out (FlatBuffers), a name the generated code would
 * rewrite (not camelCase, or a word of JavaScript's own). Integers are
 * 64-bit (a bigint in each library: converted from and to a JavaScript
 * number, exact below 2^53); an enum is a string, as in the .proto and
 * .avsc.
 */

import { Message as CapnpMessage, type Struct as CapnpStruct } from "capnp-es";
import { Builder, ByteBuffer } from "flatbuffers";
import type { ObjectShape, Shape } from "../custom-binary/infer.ts";
import { type Layout, SchemaError, tuplePlaces } from "./inferred-schemas.ts";

type Scalar = "bool" | "uint" | "int" | "float32" | "float64" | "string";
/** A struct's type; `tuple`: an array of fixed places, written as a struct of its places (v0, v1, ...). */
type FieldType = { scalar: Scalar } | { list: FieldType } | { struct: Struct; tuple?: true };

interface Field {
  /** The message's key, and the field's name in the schema. */
  key: string;
  /** The top struct's field number (from 1); a nested struct's, its order. */
  number: number;
  type: FieldType;
  optional: boolean;
  /** In the base version, not in this one: kept in the schema, never written or read. */
  retired?: true;
}

interface Struct {
  name: string;
  /** In number order. */
  fields: Field[];
}

/** The formats written here, by the name their codec has. */
type CompiledFormat = "bebop" | "flatbuffers" | "capnp";

const FORMAT_NAMES: Readonly<Record<CompiledFormat, string>> = {
  bebop: "Bebop",
  flatbuffers: "FlatBuffers",
  capnp: "Cap'n Proto",
};

/** One version's layout as these schemas see it: the layout, the top fields' numbers. */
export interface VersionLayout {
  layout: Layout;
  numbers?: ReadonlyMap<string, number>;
}

const capitalized = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);

/**
 * Names the generated code cannot give a field as it is: JavaScript's reserved words and the
 * properties its objects already have (flatc's TypeScript escapes them, capnp-es renames them).
 */
const TAKEN_NAMES: ReadonlySet<string> = new Set(
  (
    "arguments await break case catch class const constructor continue debugger default delete do else enum eval " +
    "export extends false finally for function if implements import in instanceof interface let new null package " +
    "private protected public return static super switch this throw true try typeof var void while with yield"
  ).split(" "),
);

/** The structs of `v`'s messages, the top one first named `top`; a SchemaError where `format` cannot say them. */
function structsOf(format: CompiledFormat, v: VersionLayout, top: string): Struct {
  const said = FORMAT_NAMES[format];
  if (v.layout.kind === "union")
    throw new SchemaError(
      "",
      `a union of message kinds (told apart by '${v.layout.tag}'), for which evolve mode writes no ${said} schema`,
    );
  const typeOf = (shape: Shape, path: string, name: string): FieldType => {
    switch (shape.kind) {
      case "boolean":
        return { scalar: "bool" };
      case "uint":
      case "int":
      case "float32":
      case "float64":
      case "string":
        return { scalar: shape.kind };
      case "enum":
        return { scalar: "string" };
      case "array": {
        const item = typeOf(shape.items, `${path}[]`, `${name}Item`);
        if ("list" in item && format !== "bebop")
          throw new SchemaError(path, `a list of lists, for which evolve mode writes no ${said} schema`);
        return { list: item };
      }
      case "object":
        return { struct: objectStruct(shape, path, name) };
      case "tuple":
        return { struct: objectStruct(tuplePlaces(shape.items), path, name), tuple: true };
      case "unseen":
        throw new SchemaError(path, "no value in any message of the sample, so no type to give it");
      default:
        throw new SchemaError(
          path,
          `${shape.kind === "nullable" ? "null in some messages" : `a ${shape.kind}`}, for which evolve mode writes no ${said} schema`,
        );
    }
  };
  // Each struct's type name once in the schema: a nested name that another already took gets a number.
  const names = new Set<string>();
  const unique = (name: string): string => {
    let n = 1;
    let made = name;
    while (names.has(made)) made = `${name}${++n}`;
    names.add(made);
    return made;
  };
  const objectStruct = (shape: ObjectShape, path: string, wanted: string, numbers?: ReadonlyMap<string, number>) => {
    const name = unique(wanted);
    let next = Math.max(0, ...(numbers?.values() ?? []));
    const fields = shape.fields
      .filter((f) => !(f.shape.kind === "unseen" && f.optional))
      .map((f, i): Field => {
        const at = path === "" ? f.name : `${path}.${f.name}`;
        if (!/^[a-z][A-Za-z0-9]*$/.test(f.name) || TAKEN_NAMES.has(f.name))
          throw new SchemaError(
            at,
            `a name ${said}'s generated code would rewrite (evolve mode writes ${said} schemas for camelCase names that are not JavaScript's own words)`,
          );
        if (f.nullable)
          throw new SchemaError(at, `null in some messages, for which evolve mode writes no ${said} schema`);
        const type = typeOf(f.shape, at, `${name}${capitalized(f.name)}`);
        if (f.optional && format === "flatbuffers" && "list" in type)
          throw new SchemaError(at, "a list some messages leave out, which FlatBuffers' object API writes as empty");
        return {
          key: f.name,
          number: numbers ? (numbers.get(f.name) ?? ++next) : i + 1,
          type,
          optional: f.optional,
        };
      });
    return { name, fields: fields.sort((a, b) => a.number - b.number) };
  };
  return objectStruct(v.layout, "", top, v.numbers);
}

/** `v`'s top struct, with the fields of its base's that it lost kept as retired (`base`: the version it was changed from). */
function versionStruct(format: CompiledFormat, v: VersionLayout, top: string, base?: VersionLayout): Struct {
  const own = structsOf(format, v, top);
  if (base === undefined) return own;
  const was = structsOf(format, base, top);
  const numbers = new Set(own.fields.map((f) => f.number));
  const retired = was.fields.filter((f) => !numbers.has(f.number)).map((f): Field => ({ ...f, retired: true }));
  // A retired field keeps its name, unless the version took it for a field of its own.
  const keys = new Set(own.fields.map((f) => f.key));
  for (const f of retired) while (keys.has(f.key)) f.key = `${f.key}Retired`;
  return { name: top, fields: [...own.fields, ...retired].sort((a, b) => a.number - b.number) };
}

/** Every struct under `s`, `s` first, each once. */
function allStructs(s: Struct): Struct[] {
  const out: Struct[] = [];
  const visit = (t: FieldType): void => {
    if ("struct" in t) walk(t.struct);
    else if ("list" in t) visit(t.list);
  };
  const walk = (x: Struct): void => {
    out.push(x);
    for (const f of x.fields) visit(f.type);
  };
  walk(s);
  return out;
}

/** Every struct's declaration in a schema, the nested ones first, each by `declare`. */
const declared = (root: Struct, declare: (s: Struct) => string): string =>
  allStructs(root).reverse().map(declare).join("\n\n");

// ---------------------------------------------------------------- converters

/** A struct's value by its fields' keys: a tuple's places as v0, v1, ... */
const fieldsOf = (t: { tuple?: true }, v: unknown): Record<string, unknown> =>
  t.tuple ? Object.fromEntries((v as unknown[]).map((x, i) => [`v${i}`, x])) : (v as Record<string, unknown>);

/** A message's value at a place, as the generated code takes it: integers as bigints. */
function plainToWire(t: FieldType, v: unknown, struct: (s: Struct, v: Record<string, unknown>) => unknown): unknown {
  if ("scalar" in t) return t.scalar === "uint" || t.scalar === "int" ? BigInt(v as number) : v;
  if ("list" in t) return (v as unknown[]).map((x) => plainToWire(t.list, x, struct));
  return struct(t.struct, fieldsOf(t, v));
}

/** The generated code's value at a place back as the message's: bigints as numbers. */
function plainFromWire(t: FieldType, w: unknown, struct: (s: Struct, w: unknown) => Record<string, unknown>): unknown {
  if ("scalar" in t) return typeof w === "bigint" ? Number(w) : w;
  if ("list" in t)
    return [...((w as Iterable<unknown> | null | undefined) ?? [])].map((x) => plainFromWire(t.list, x, struct));
  const read = struct(t.struct, w);
  return t.tuple ? t.struct.fields.map((f) => read[f.key]) : read;
}

/**
 * A struct read from an object of the generated code: each field that is not retired, by `read`
 * (undefined or null: the library read nothing there, and the field is left out; where a library
 * reads a default for a field not written, as FlatBuffers' scalars and Cap'n Proto's do, that is
 * what the message gets).
 */
function readStruct(
  s: Struct,
  read: (f: Field) => unknown,
  nested: (s: Struct, w: unknown) => Record<string, unknown>,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of s.fields) {
    if (f.retired) continue;
    const w = read(f);
    if (w !== undefined && w !== null) out[f.key] = plainFromWire(f.type, w, nested);
  }
  return out;
}

/** A struct read from a plain object of the generated code's (Bebop's record, FlatBuffers' unpacked object), field by field. */
const fromObject = (s: Struct, w: unknown): Record<string, unknown> =>
  readStruct(s, (f) => (w as Record<string, unknown>)[f.key], fromObject);

/** A writer and a reader of one version, over the generated code of its schema. */
export interface VersionCodec {
  encode(message: unknown): Uint8Array;
  decode(data: Uint8Array): unknown;
}

/** A schema written for one version, and how to make its codec from the module its compiler generates. */
export interface WrittenSchema {
  /** The schema file's text. */
  text: string;
  /** The codec, from the generated module. */
  codecFrom(generated: Record<string, unknown>): VersionCodec;
}

/** A field's type in a schema's own words: a scalar by `scalars`, a list as `listOf` writes one, a struct by its name. */
function typeIn(t: FieldType, scalars: Readonly<Record<Scalar, string>>, listOf: (item: string) => string): string {
  if ("scalar" in t) return scalars[t.scalar];
  if ("list" in t) return listOf(typeIn(t.list, scalars, listOf));
  return t.struct.name;
}

// ---------------------------------------------------------------- Bebop

const BEBOP_TYPES: Readonly<Record<Scalar, string>> = {
  bool: "bool",
  uint: "uint64",
  int: "int64",
  float32: "float32",
  float64: "float64",
  string: "string",
};

const bebopType = (t: FieldType): string => typeIn(t, BEBOP_TYPES, (item) => `${item}[]`);

/**
 * A Bebop schema for a version: every struct a `message` (Bebop's record that can change: each field
 * written with its index, only when set; an index it does not know ends the reader's message). A
 * removed field stays, `deprecated`: bebopc refuses an index above the message's field count.
 */
export function bebopSchemaOf(v: VersionLayout, top: string, base?: VersionLayout): WrittenSchema {
  const root = versionStruct("bebop", v, top, base);
  const text = declared(
    root,
    (s) =>
      `message ${s.name} {\n${s.fields
        .map(
          (f) =>
            `  ${f.retired ? '@deprecated("not in this version")\n  ' : ""}${f.number} -> ${bebopType(f.type)} ${f.key};`,
        )
        .join("\n")}\n}`,
  );
  const toWire = (s: Struct, m: Record<string, unknown>): Record<string, unknown> => {
    const out: Record<string, unknown> = {};
    for (const f of s.fields)
      if (!f.retired && m[f.key] !== undefined) out[f.key] = plainToWire(f.type, m[f.key], toWire);
    return out;
  };
  return {
    text: `// Written from the layout inferred from the messages (evolve mode).\n${text}\n`,
    codecFrom(generated) {
      const T = generated[root.name] as { encode(r: unknown): Uint8Array; decode(b: Uint8Array): unknown };
      return {
        encode: (m) => T.encode(toWire(root, m as Record<string, unknown>)),
        decode: (d) => fromObject(root, T.decode(d)),
      };
    },
  };
}

// ---------------------------------------------------------------- FlatBuffers

const FBS_TYPES: Readonly<Record<Scalar, string>> = {
  bool: "bool",
  uint: "ulong",
  int: "long",
  float32: "float",
  float64: "double",
  string: "string",
};

const fbsType = (t: FieldType): string => typeIn(t, FBS_TYPES, (item) => `[${item}]`);

/**
 * A FlatBuffers schema for a version, in a namespace of its own (`namespace`): every struct a
 * table, each field with its `id` (the field's number less one), a removed field `deprecated`; a
 * scalar some messages leave out an optional scalar (`= null`). The codec uses the object API
 * (flatc --gen-object-api): `XT` objects packed into a builder, and unpacked back.
 */
export function flatbuffersSchemaOf(
  v: VersionLayout,
  top: string,
  namespace: string,
  base?: VersionLayout,
): WrittenSchema {
  const root = versionStruct("flatbuffers", v, top, base);
  const text = declared(
    root,
    (s) =>
      `table ${s.name} {\n${s.fields
        .map((f) => {
          const optionalScalar = f.optional && "scalar" in f.type && f.type.scalar !== "string";
          return `  ${f.key}:${fbsType(f.type)}${optionalScalar ? " = null" : ""} (id: ${f.number - 1}${f.retired ? ", deprecated" : ""});`;
        })
        .join("\n")}\n}`,
  );
  return {
    text: `// Written from the layout inferred from the messages (evolve mode).\nnamespace ${namespace};\n\n${text}\n\nroot_type ${root.name};\n`,
    codecFrom(generated) {
      const toWire = (s: Struct, m: Record<string, unknown>): unknown => {
        const o = new (generated[`${s.name}T`] as new () => Record<string, unknown>)();
        for (const f of s.fields)
          if (!f.retired && m[f.key] !== undefined) o[f.key] = plainToWire(f.type, m[f.key], toWire);
        return o;
      };
      const T = generated[root.name] as Record<string, (bb: unknown) => { unpack(): unknown }>;
      const rootOf = T[`getRootAs${root.name}`]!;
      return {
        encode(m) {
          const builder = new Builder(256);
          builder.finish((toWire(root, m as Record<string, unknown>) as { pack(b: Builder): number }).pack(builder));
          return builder.asUint8Array();
        },
        decode: (d) => fromObject(root, rootOf(new ByteBuffer(d)).unpack()),
      };
    },
  };
}

// ---------------------------------------------------------------- Cap'n Proto

const CAPNP_TYPES: Readonly<Record<Scalar, string>> = {
  bool: "Bool",
  uint: "UInt64",
  int: "Int64",
  float32: "Float32",
  float64: "Float64",
  string: "Text",
};

const capnpType = (t: FieldType): string => typeIn(t, CAPNP_TYPES, (item) => `List(${item})`);

/** A file id Cap'n Proto takes (the top bit set), from the file's name. */
function capnpFileId(name: string): string {
  let h = 0xcbf29ce484222325n;
  for (const c of new TextEncoder().encode(name)) h = ((h ^ BigInt(c)) * 0x100000001b3n) & 0xffffffffffffffffn;
  return `0x${(h | 0x8000000000000000n).toString(16)}`;
}

/**
 * How each field of a struct is declared, by ordinal: a plain field takes one; a field some
 * messages leave out a union of `none` (first: the default, absent) and `value`. A version with a
 * base keeps the base's ordinals: a field that became optional keeps its ordinal as `value`, its
 * `none` and any field added take ordinals after the base's last.
 */
function capnpOrdinals(s: Struct, base?: Struct): Map<Field, { value: number; none?: number }> {
  const out = new Map<Field, { value: number; none?: number }>();
  const was = base ? capnpOrdinals(base) : undefined;
  let next = was ? Math.max(-1, ...[...was.values()].flatMap((o) => [o.value, o.none ?? -1])) + 1 : 0;
  for (const f of s.fields) {
    const old = base && was ? [...was].find(([b]) => b.number === f.number)?.[1] : undefined;
    // A union stays one; a field that became optional is wrapped in one, keeping its ordinal.
    if (old !== undefined) out.set(f, f.optional && old.none === undefined ? { value: old.value, none: next++ } : old);
    else if (f.optional) {
      const none = next++;
      out.set(f, { none, value: next++ });
    } else out.set(f, { value: next++ });
  }
  return out;
}

/** A Cap'n Proto schema for a version, in a file of its own (`file`: its name, which gives its id). */
export function capnpSchemaOf(v: VersionLayout, top: string, file: string, base?: VersionLayout): WrittenSchema {
  const root = versionStruct("capnp", v, top, base);
  const baseRoot = base === undefined ? undefined : structsOf("capnp", base, top);
  const ordinals = new Map<Struct, Map<Field, { value: number; none?: number }>>();
  const text = declared(root, (s) => {
    const o = capnpOrdinals(s, s === root ? baseRoot : undefined);
    ordinals.set(s, o);
    const lines = s.fields.map((f) => {
      const { value, none } = o.get(f)!;
      if (none === undefined) return `  ${f.key} @${value} :${capnpType(f.type)};`;
      const members = [`none @${none} :Void;`, `value @${value} :${capnpType(f.type)};`];
      // The member of the lower ordinal is the union's default.
      if (value < none) members.reverse();
      return `  ${f.key} :union {\n    ${members.join("\n    ")}\n  }`;
    });
    return `struct ${s.name} {\n${lines.join("\n")}\n}`;
  });
  type CapStruct = Record<string, unknown>;
  const init = (s: CapStruct, key: string, n?: number): CapStruct =>
    (s[`_init${capitalized(key)}`] as (n?: number) => CapStruct).call(s, n);
  const setValue = (s: CapStruct, key: string, t: FieldType, v: unknown): void => {
    if ("scalar" in t) s[key] = plainToWire(t, v, () => undefined);
    else if ("struct" in t) fill(t.struct, init(s, key), fieldsOf(t, v));
    else {
      const items = v as unknown[];
      const list = init(s, key, items.length) as { set(i: number, x: unknown): void; get(i: number): CapStruct };
      items.forEach((x, i) => {
        if ("struct" in t.list) fill(t.list.struct, list.get(i), fieldsOf(t.list, x));
        else
          list.set(
            i,
            plainToWire(t.list, x, () => undefined),
          );
      });
    }
  };
  const fill = (s: Struct, c: CapStruct, m: Record<string, unknown>): void => {
    const o = ordinals.get(s)!;
    for (const f of s.fields) {
      if (f.retired) continue;
      const x = m[f.key];
      if (o.get(f)!.none === undefined) {
        if (x !== undefined) setValue(c, f.key, f.type, x);
      } else {
        const group = c[f.key] as CapStruct;
        if (x === undefined) group.none = true;
        else setValue(group, "value", f.type, x);
      }
    }
  };
  const listItems = (l: unknown): unknown[] => {
    const list = l as { length: number; get(i: number): unknown };
    return Array.from({ length: list.length }, (_, i) => list.get(i));
  };
  const read = (s: Struct, c: unknown): Record<string, unknown> => {
    const o = ordinals.get(s)!;
    const cap = c as CapStruct;
    const valueOf = (f: Field, holder: CapStruct, key: string): unknown => {
      const w = holder[key];
      return "list" in f.type ? listItems(w) : w;
    };
    return readStruct(
      s,
      (f) => {
        if (o.get(f)!.none === undefined) return valueOf(f, cap, f.key);
        const group = cap[f.key] as CapStruct;
        return group._isValue ? valueOf(f, group, "value") : undefined;
      },
      read,
    );
  };
  return {
    text: `# Written from the layout inferred from the messages (evolve mode).\n@${capnpFileId(file)};\n\n${text}\n`,
    codecFrom(generated) {
      const Root = generated[root.name] as new (...args: never[]) => CapnpStruct;
      return {
        encode(m) {
          const message = new CapnpMessage();
          fill(root, message.initRoot(Root as never) as unknown as CapStruct, m as Record<string, unknown>);
          return new Uint8Array(message.toArrayBuffer());
        },
        decode: (d) => read(root, new CapnpMessage(d, false).getRoot(Root as never)),
      };
    },
  };
}
