/**
 * Evolve mode's two versions for the codecs whose code is generated from a
 * schema (pbf, protobuf-es, bebop, flatbuffers, capnp): each version's schema
 * is written from its layout (the .proto of inferred-schemas.ts; Bebop,
 * FlatBuffers and Cap'n Proto schemas of evolution-schemas.ts), the codec's
 * own compiler makes its code, and the version's writer and reader run on
 * that code with the codec's library, as its committed code runs on the
 * built-in payloads' schemas.
 *
 * The compilers are processes and files, which a page cannot run: a client
 * hands them in (SchemaCompilers; the command line's:
 * bench/cli/schema-compilers.ts). All of a run's schemas of one codec go to
 * its compiler at once, each schema once, before evolve mode reads a
 * message; without a compiler, or when it fails, each row says why.
 */

import {
  create,
  createFileRegistry,
  type DescField,
  type DescMessage,
  fromBinary,
  type Registry,
  ScalarType,
  toBinary,
} from "@bufbuild/protobuf";
import { FileDescriptorSetSchema } from "@bufbuild/protobuf/wkt";
import { PbfReader, PbfWriter } from "pbf";
import {
  bebopSchemaOf,
  capnpSchemaOf,
  flatbuffersSchemaOf,
  type VersionCodec,
  type VersionLayout,
  type WrittenSchema,
} from "./evolution-schemas.ts";
import { type ProtoSchema, protoSchemaOf, SchemaError } from "./inferred-schemas.ts";

/** The codecs whose versions a compiler makes, and the compiler, as a user would name it. */
export const COMPILED_CODECS = {
  pbf: "pbf's compiler (pbf/compile)",
  "protobuf-es": "buf",
  bebop: "bebopc",
  flatbuffers: "flatc",
  capnp: "capnp-es with capnpc",
} as const;

export type CompiledCodec = keyof typeof COMPILED_CODECS;

export const isCompiledCodec = (name: string): name is CompiledCodec => Object.hasOwn(COMPILED_CODECS, name);

/**
 * A codec's compiler: schema files (file name without its extension -> text) in, each file's
 * generated module out (protobuf-es: `{ descriptorSet }`, the FileDescriptorSet buf builds of
 * them all). Rejects with the compiler's own words when it fails; `missing`: why it cannot run here.
 */
export type SchemaCompiler =
  | ((files: ReadonlyMap<string, string>) => Promise<ReadonlyMap<string, Record<string, unknown>>>)
  | { missing: string };

export type SchemaCompilers = Partial<Record<CompiledCodec, SchemaCompiler>>;

/**
 * One version to make: its layout, the version it was changed from (the new one's base is the
 * old), and `label`, how a failure names it to the user (its payload, change and version).
 */
export interface VersionRequest extends VersionLayout {
  base?: VersionLayout;
  label?: string;
}

/** A version's writer and reader, or why there is none. */
export type CompiledVersion = { codec: VersionCodec } | { notRun: string };

/** The schema of `v` for `codec`, in file `file` (unique in the run: it names the types too). */
function schemaFor(codec: CompiledCodec, v: VersionRequest, file: string): WrittenSchema {
  const top = file.toUpperCase();
  switch (codec) {
    case "pbf":
    case "protobuf-es": {
      const proto = protoSchemaOf(v.layout, top, v.numbers);
      const text = proto.text.replace(/^syntax = "proto3";\n/m, `syntax = "proto3";\npackage ${file};\n`);
      return {
        text,
        codecFrom: (generated) =>
          codec === "pbf"
            ? pbfCodec(generated, proto.typeName, proto.convert)
            : protobufEsCodec(generated, `${file}.${proto.typeName}`, proto.convert),
      };
    }
    case "bebop":
      return bebopSchemaOf(v, top, v.base);
    case "flatbuffers":
      return flatbuffersSchemaOf(v, top, file, v.base);
    case "capnp":
      return capnpSchemaOf(v, top, file, v.base);
  }
}

type Convert = ProtoSchema["convert"];

/** pbf's compiled read and write functions of the type. */
function pbfCodec(generated: Record<string, unknown>, type: string, convert: Convert): VersionCodec {
  const write = generated[`write${type}`] as (obj: unknown, pbf: PbfWriter) => void;
  const read = generated[`read${type}`] as (pbf: PbfReader) => unknown;
  return {
    encode(m) {
      const writer = new PbfWriter();
      write(convert.toWire(m), writer);
      return writer.finish();
    },
    decode: (d) => convert.fromWire(read(new PbfReader(d))),
  };
}

const registries = new WeakMap<Uint8Array, Registry>();

/** protobuf-es's create/toBinary/fromBinary over the type's descriptor (from buf's FileDescriptorSet). */
function protobufEsCodec(generated: Record<string, unknown>, typeName: string, convert: Convert): VersionCodec {
  const set = generated.descriptorSet as Uint8Array;
  let registry = registries.get(set);
  if (registry === undefined) {
    registry = createFileRegistry(fromBinary(FileDescriptorSetSchema, set));
    registries.set(set, registry);
  }
  const desc = registry.getMessage(typeName);
  if (desc === undefined) throw new Error(`buf built no message type ${typeName}`);
  return {
    encode: (m) => toBinary(desc, create(desc, esInit(desc, convert.toWire(m) as Record<string, unknown>))),
    decode: (d) => convert.fromWire(esPlain(desc, fromBinary(desc, d) as unknown as Record<string, unknown>)),
  };
}

/** protobuf-es's init object of a message, from the .proto-shaped object (fields by their .proto names). */
function esInit(desc: DescMessage, m: Record<string, unknown>): Record<string, unknown> {
  const init: Record<string, unknown> = {};
  for (const f of desc.fields) {
    const v = m[f.name];
    if (v === undefined || v === null) continue;
    const value = esValue(f, v, (d, x) => esInit(d, x as Record<string, unknown>), toBig);
    if (f.oneof) init[f.oneof.localName] = { case: f.localName, value };
    else init[f.localName] = value;
  }
  return init;
}

/** A protobuf-es message back as the .proto-shaped object: fields by their .proto names, 64-bit integers as numbers. */
function esPlain(desc: DescMessage, m: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of desc.fields) {
    let v: unknown;
    if (f.oneof) {
      const o = m[f.oneof.localName] as { case?: string; value?: unknown };
      v = o.case === f.localName ? o.value : undefined;
    } else v = m[f.localName];
    if (v === undefined) continue;
    out[f.name] = esValue(f, v, (d, x) => esPlain(d, x as Record<string, unknown>), fromBig);
  }
  return out;
}

/** The 64-bit integer types, which protobuf-es holds as bigints. */
const INT64: ReadonlySet<ScalarType> = new Set([
  ScalarType.INT64,
  ScalarType.UINT64,
  ScalarType.SINT64,
  ScalarType.FIXED64,
  ScalarType.SFIXED64,
]);
const toBig = (f: DescField, v: unknown): unknown => (is64(f) ? BigInt(v as number) : v);
const fromBig = (_f: DescField, v: unknown): unknown => (typeof v === "bigint" ? Number(v) : v);

/** Whether a scalar place of the field holds a 64-bit integer. */
const is64 = (f: DescField): boolean => {
  const scalar = (f as { scalar?: ScalarType }).scalar;
  return scalar !== undefined && INT64.has(scalar);
};

/** A field's value, its messages by `message` and its scalars by `scalar`, place by place. */
function esValue(
  f: DescField,
  v: unknown,
  message: (d: DescMessage, x: unknown) => unknown,
  scalar: (f: DescField, x: unknown) => unknown,
): unknown {
  const one = (x: unknown): unknown => (f.message !== undefined ? message(f.message, x) : scalar(f, x));
  switch (f.fieldKind) {
    case "list":
      return (v as unknown[]).map(one);
    case "map":
      return Object.fromEntries(Object.entries(v as Record<string, unknown>).map(([k, x]) => [k, one(x)]));
    default:
      return one(v);
  }
}

/**
 * Every version's writer and reader for `codec`: each distinct schema written once, all compiled
 * at once. A version whose schema cannot be written, or a compiler that is missing or fails, gives
 * `notRun` with the reason.
 */
export async function compileVersions(
  codec: CompiledCodec,
  versions: readonly VersionRequest[],
  compiler: SchemaCompiler | undefined,
): Promise<Map<VersionRequest, CompiledVersion>> {
  const out = new Map<VersionRequest, CompiledVersion>();
  const tool = COMPILED_CODECS[codec];
  if (compiler === undefined || "missing" in compiler) {
    const why =
      compiler === undefined
        ? `${tool} makes its code from each version's schema, which this client cannot run (the command line runs it: bun run bench --modes evolve)`
        : compiler.missing;
    for (const v of versions) out.set(v, { notRun: why });
    return out;
  }
  // One file per distinct schema (the text written under a placeholder name tells them apart);
  // each version keeps its own converters, written against that file's types.
  const files = new Map<string, { text: string; versions: { v: VersionRequest; schema: WrittenSchema }[] }>();
  const byText = new Map<string, string>();
  for (const v of versions) {
    try {
      const text = schemaFor(codec, v, "ex").text;
      let file = byText.get(text);
      if (file === undefined) {
        file = `e${files.size}`;
        byText.set(text, file);
        files.set(file, { text: "", versions: [] });
      }
      const schema = schemaFor(codec, v, file);
      const f = files.get(file)!;
      f.text = schema.text;
      f.versions.push({ v, schema });
    } catch (e) {
      const why = e instanceof SchemaError ? "no schema written for the messages" : "writing its schema failed";
      out.set(v, { notRun: `${why}: ${(e as Error).message.split("\n")[0]}` });
    }
  }
  if (files.size === 0) return out;
  const texts = (names: readonly string[]) => new Map(names.map((f) => [f, files.get(f)!.text]));
  const modules = new Map<string, Record<string, unknown>>();
  const failed = new Map<string, string>();
  try {
    // Every schema at once; when the compiler refuses one, each on its own, so only that one is lost.
    for (const [f, m] of await compiler(texts([...files.keys()]))) modules.set(f, m);
  } catch {
    for (const f of files.keys())
      try {
        const m = (await compiler(texts([f]))).get(f);
        if (m !== undefined) modules.set(f, m);
      } catch (e) {
        const of = files.get(f)!.versions.find(({ v }) => v.label !== undefined)?.v.label;
        failed.set(f, `${tool} failed${of ? ` on the schema of ${of}` : ""}: ${(e as Error).message.split("\n")[0]}`);
      }
  }
  for (const [file, f] of files)
    for (const { v, schema } of f.versions) {
      const generated = modules.get(file);
      const why = failed.get(file);
      try {
        if (why !== undefined) out.set(v, { notRun: why });
        else if (generated === undefined) throw new Error(`no code for ${file}`);
        else out.set(v, { codec: schema.codecFrom(generated) });
      } catch (e) {
        out.set(v, { notRun: `${tool}'s code: ${(e as Error).message.split("\n")[0]}` });
      }
    }
  return out;
}
