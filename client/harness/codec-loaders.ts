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

/** By codec name: every built-in codec but the calibration codecs (which cold mode does not run). */
const LOADERS: Readonly<Record<string, CodecLoader>> = {
  json: async () => {
    const m = await import("../../protocols/json.ts");
    return () => m.json;
  },
  "json-bytes": async () => {
    const m = await import("../../protocols/json.ts");
    return () => m.jsonBytes;
  },
  "custom-binary": async (user) => {
    const m = await import("../../protocols/custom-binary.ts");
    return user ? () => m.customBinaryCodecFor(only(user)) : () => m.customBinary;
  },
  protobuf: async (user) => {
    const m = await import("../../protocols/protobuf.ts");
    return user ? () => m.protobufCodecFor(user.proto, only(user)) : () => m.protobufCodec;
  },
  pbf: async () => {
    const m = await import("../../protocols/pbf.ts");
    return () => m.pbfCodec;
  },
  "protobuf-es": async () => {
    const m = await import("../../protocols/protobuf-es.ts");
    return () => m.protobufEsCodec;
  },
  avro: async (user) => {
    const m = await import("../../protocols/avro.ts");
    return user ? () => m.avroCodecFor(only(user)) : () => m.avro;
  },
  bebop: async () => {
    const m = await import("../../protocols/bebop.ts");
    return () => m.bebop;
  },
  msgpack: async () => {
    const m = await import("../../protocols/msgpack.ts");
    return () => m.msgpack;
  },
  msgpackr: async () => {
    const m = await import("../../protocols/msgpackr.ts");
    return () => m.msgpackr;
  },
  "msgpackr-records": async () => {
    const m = await import("../../protocols/msgpackr.ts");
    return () => m.msgpackrRecords;
  },
  cbor: async () => {
    const m = await import("../../protocols/cbor.ts");
    return () => m.cbor;
  },
  bson: async () => {
    const m = await import("../../protocols/bson.ts");
    return () => m.bson;
  },
  flatbuffers: async () => {
    const m = await import("../../protocols/flatbuffers.ts");
    return () => m.flatbuffersCodec;
  },
  capnp: async () => {
    const m = await import("../../protocols/capnp.ts");
    return () => m.capnpCodec;
  },
};

/**
 * The loader of a codec: a built-in one's by name, or a codec module's (--codec-module FILE),
 * whose default export is the codec (checked when the run's plan was made).
 */
export function codecLoader(name: string, moduleFile?: string): CodecLoader | undefined {
  if (moduleFile !== undefined)
    return async () => {
      const m = (await import(moduleFile)) as { default: Codec };
      return () => m.default;
    };
  return Object.hasOwn(LOADERS, name) ? LOADERS[name] : undefined;
}
