/**
 * Every codec the benchmark knows, as one immutable catalog: the built-in
 * ones, the calibration codecs (which run only with --calibrate), then any a
 * user brings as a codec module (docs/codecs.md), in the order tables list
 * them. A run builds its catalog once, in its plan (client/harness/plan.ts),
 * and hands it to whatever needs a codec by name; nothing adds to a
 * catalog afterwards.
 *
 * Adding a built-in codec: its file in protocols/, and one line in
 * BUILT_IN_CODECS below.
 */

import { calJson, calSpin } from "./calibration.ts";
import { CODEC_FAMILIES, DECODE_GUARANTEES, KEY_ACCESSES, type Codec, type CodecFamily } from "./codec.ts";
import { CodecError } from "./codec-errors.ts";
import { customBinary, customBinaryCodecFor, type UserLayout } from "./custom-binary.ts";
import { json, jsonBytes } from "./json.ts";
import { msgpack } from "./msgpack.ts";
import { msgpackr, msgpackrRecords } from "./msgpackr.ts";
import { protobufCodec, protobufCodecFor, type UserProtoType } from "./protobuf.ts";
import { pbfCodec } from "./pbf.ts";
import { protobufEsCodec } from "./protobuf-es.ts";
import { avro, avroCodecFor } from "./avro.ts";
import { bebop } from "./bebop.ts";
import { cbor } from "./cbor.ts";
import { bson } from "./bson.ts";
import { flatbuffersCodec } from "./flatbuffers.ts";
import { capnpCodec } from "./capnp.ts";

/** The built-in codecs and the calibration codecs, in table order: by family (CODEC_FAMILIES), then the calibration codecs. */
const BUILT_IN_CODECS: readonly Codec[] = Object.freeze([
  json,
  jsonBytes,
  customBinary,
  protobufCodec,
  pbfCodec,
  protobufEsCodec,
  avro,
  bebop,
  msgpack,
  msgpackr,
  msgpackrRecords,
  cbor,
  bson,
  flatbuffersCodec,
  capnpCodec,
  calJson,
  calSpin,
]);

/**
 * The built-in codecs a run takes without --codecs: the comparison the
 * benchmark grew from (JSON, the hand-written protocol, protobufjs and the
 * two MessagePack libraries). The others join with --codecs all or by
 * family (--codecs schema,zero-copy): every codec on every payload
 * multiplies a default run's time by about 2.5.
 */
const RUN_BY_DEFAULT: readonly string[] = [
  "json",
  "json-bytes",
  "custom-binary",
  "protobuf",
  "msgpack",
  "msgpackr",
  "msgpackr-records",
];

/** Names --codecs reads as groups of codecs (socket/contract.ts, codecGroups), so no codec may take one. */
const GROUP_NAMES: readonly string[] = ["all", "default", ...CODEC_FAMILIES];

/** Codecs by name, in table order. */
export class CodecCatalog {
  readonly codecs: readonly Codec[];
  readonly names: readonly string[];
  /** The names a run takes without --codecs: RUN_BY_DEFAULT, and every codec a user brought as a module. */
  readonly defaults: readonly string[];

  private constructor(codecs: readonly Codec[], extra: readonly Codec[]) {
    this.codecs = Object.freeze([...codecs]);
    this.names = Object.freeze(codecs.map((c) => c.name));
    this.defaults = Object.freeze(
      this.names.filter((n) => RUN_BY_DEFAULT.includes(n) || extra.some((c) => c.name === n)),
    );
  }

  /** The names of a family's codecs, in table order. */
  family(family: CodecFamily): string[] {
    return this.codecs.filter((c) => c.family === family).map((c) => c.name);
  }

  /**
   * The built-in codecs, then `extra` (a user's codec modules); with
   * `userProto`, the protobuf codec also carries the user's payloads, and
   * with `userLayouts` (each user payload's inferred layout) custom-binary
   * does, and protobuf and avro in the schemas written from those layouts
   * (protobuf on the payloads `userProto` leaves to them). Throws when an extra codec takes a name already used (`reserved`:
   * names the catalog does not hold but a socket accepts, such as raw).
   */
  static of(
    extra: readonly Codec[] = [],
    userProto?: UserProtoType,
    reserved: readonly string[] = [],
    userLayouts?: ReadonlyMap<string, UserLayout>,
  ): CodecCatalog {
    const own = userLayouts && userLayouts.size > 0 ? userLayouts : undefined;
    const codecs = BUILT_IN_CODECS.map((c) =>
      c === protobufCodec && (userProto || own)
        ? protobufCodecFor(userProto, own)
        : c === customBinary && own
          ? customBinaryCodecFor(own)
          : c === avro && own
            ? avroCodecFor(own)
            : c,
    );
    for (const codec of extra) {
      if (codecs.some((c) => c.name === codec.name) || reserved.includes(codec.name))
        throw new CodecError("NAME_TAKEN", `a codec named '${codec.name}' exists already; name yours differently`);
      if (GROUP_NAMES.includes(codec.name))
        throw new CodecError(
          "NAME_TAKEN",
          `'${codec.name}' names a group of codecs in --codecs (${GROUP_NAMES.join(", ")}); name yours differently`,
        );
      codecs.push(codec);
    }
    return new CodecCatalog(codecs, extra);
  }

  get(name: string): Codec | undefined {
    return this.codecs.find((c) => c.name === name);
  }

  /** The codecs among `names`, in table order. */
  pick(names: readonly string[]): Codec[] {
    return this.codecs.filter((c) => names.includes(c.name));
  }
}

/** The built-in catalog: what a run without codec modules or --proto uses. */
export const BUILT_IN = CodecCatalog.of();

/**
 * Why `value` is not a codec this benchmark can run (one line), or
 * undefined: the Codec interface's fields, checked at run time, as a
 * module's default export comes with no types.
 */
export function codecShapeError(value: unknown): string | undefined {
  if (value === null || typeof value !== "object")
    return `its default export is ${value === null ? "null" : typeof value}, not a codec object`;
  const c = value as Record<string, unknown>;
  if (typeof c.name !== "string" || !/^[a-z0-9][a-z0-9._-]{0,39}$/i.test(c.name))
    return "its codec needs a name: 1-40 letters, digits, '.', '_' or '-'";
  if (typeof c.description !== "string") return `codec '${c.name}' needs a description (a string)`;
  if (c.frame !== "text" && c.frame !== "binary") return `codec '${c.name}' needs frame: "text" or "binary"`;
  if (typeof c.standard !== "boolean") return `codec '${c.name}' needs standard: true or false`;
  if (typeof c.library !== "string") return `codec '${c.name}' needs library: the npm package it uses, or ""`;
  if (typeof c.forPayload !== "function")
    return `codec '${c.name}' needs forPayload(payload), returning { encode, decode }`;
  if (c.family !== undefined && !(CODEC_FAMILIES as readonly unknown[]).includes(c.family))
    return `codec '${c.name}': family must be one of ${CODEC_FAMILIES.join(", ")} when given`;
  if (c.keyAccess !== undefined && !(KEY_ACCESSES as readonly unknown[]).includes(c.keyAccess))
    return `codec '${c.name}': keyAccess must be one of ${KEY_ACCESSES.join(", ")} when given`;
  if (c.decodeGuarantees !== undefined && !(DECODE_GUARANTEES as readonly unknown[]).includes(c.decodeGuarantees))
    return `codec '${c.name}': decodeGuarantees must be one of ${DECODE_GUARANTEES.join(", ")} when given`;
  if (c.notApplicable !== undefined && typeof c.notApplicable !== "function")
    return `codec '${c.name}': notApplicable must be a function when given`;
  return undefined;
}
