/**
 * Each built-in codec's own module, imported on demand. Cold mode
 * (cold-start.ts) times a codec's import in a fresh process, so it must
 * reach one codec's code without the registry (protocols/registry.ts),
 * which imports every codec at once.
 */

import type { Codec } from "../../protocols/codec.ts";
import type { UserLayout } from "../../protocols/custom-binary.ts";
import type { UserProtoType } from "../../protocols/protobuf.ts";

/** What a schema codec needs, beyond its module, to carry one of the user's payloads: its inferred layout, and the user's .proto where one was given. */
export interface UserPayloadSchemas {
  payload: string;
  layout: UserLayout;
  proto?: UserProtoType;
}

/**
 * Imports a codec's module (what cold mode times as its import); the function it gives makes
 * the codec (what it times as its set-up, with forPayload). On a user's payload the schema
 * codecs are made for it, as the registry makes them (CodecCatalog.of).
 */
export type CodecLoader = (user?: UserPayloadSchemas) => Promise<() => Codec>;

const only = (user: UserPayloadSchemas): ReadonlyMap<string, UserLayout> => new Map([[user.payload, user.layout]]);

/** A built-in codec's own module: its file in protocols/ and the export that holds the codec. */
export interface CodecModule {
  file: string;
  name: string;
}

/** By codec name: every built-in codec but the calibration codecs (which cold mode does not run). */
export const CODEC_MODULES: Readonly<Record<string, CodecModule>> = {
  json: { file: "json.ts", name: "json" },
  "json-bytes": { file: "json.ts", name: "jsonBytes" },
  "custom-binary": { file: "custom-binary.ts", name: "customBinary" },
  protobuf: { file: "protobuf.ts", name: "protobufCodec" },
  pbf: { file: "pbf.ts", name: "pbfCodec" },
  "protobuf-es": { file: "protobuf-es.ts", name: "protobufEsCodec" },
  avro: { file: "avro.ts", name: "avro" },
  bebop: { file: "bebop.ts", name: "bebop" },
  msgpack: { file: "msgpack.ts", name: "msgpack" },
  msgpackr: { file: "msgpackr.ts", name: "msgpackr" },
  "msgpackr-records": { file: "msgpackr.ts", name: "msgpackrRecords" },
  cbor: { file: "cbor.ts", name: "cbor" },
  bson: { file: "bson.ts", name: "bson" },
  flatbuffers: { file: "flatbuffers.ts", name: "flatbuffersCodec" },
  capnp: { file: "capnp.ts", name: "capnpCodec" },
};

/** Where a built-in codec's module is, as an import specifier. */
export function codecModuleUrl(m: CodecModule): string {
  return new URL(`../../protocols/${m.file}`, import.meta.url).href;
}

/** The schema codecs made for a user's payload, as the registry makes them (CodecCatalog.of), by the export that makes them. */
const FOR_USER: Readonly<Record<string, (mod: Record<string, unknown>, user: UserPayloadSchemas) => Codec>> = {
  "custom-binary": (m, user) => (m.customBinaryCodecFor as (l: ReadonlyMap<string, UserLayout>) => Codec)(only(user)),
  protobuf: (m, user) =>
    (m.protobufCodecFor as (p: UserProtoType | undefined, l: ReadonlyMap<string, UserLayout>) => Codec)(
      user.proto,
      only(user),
    ),
  avro: (m, user) => (m.avroCodecFor as (l: ReadonlyMap<string, UserLayout>) => Codec)(only(user)),
};

/** How a loader reaches a codec's module: in Bun, by importing its file; in the page, by importing the codec's own bundle. */
export type ModuleImporter = () => Promise<Record<string, unknown>>;

/**
 * The loader of a codec: a built-in one's by name, or a codec module's (--codec-module FILE),
 * whose default export is the codec (checked when the run's plan was made). `importModule`
 * reaches the module where it is not a file to import (the page: the codec's bundle, whose
 * exports are the module's).
 */
export function codecLoader(name: string, moduleFile?: string, importModule?: ModuleImporter): CodecLoader | undefined {
  if (moduleFile !== undefined) {
    const load = importModule ?? (() => import(moduleFile) as Promise<Record<string, unknown>>);
    return async () => {
      const m = await load();
      return () => m.default as Codec;
    };
  }
  if (!Object.hasOwn(CODEC_MODULES, name)) return undefined;
  const m = CODEC_MODULES[name]!;
  const load = importModule ?? (() => import(codecModuleUrl(m)) as Promise<Record<string, unknown>>);
  return async (user) => {
    const mod = await load();
    const forUser = FOR_USER[name];
    return user && forUser ? () => forUser(mod, user) : () => mod[m.name] as Codec;
  };
}
