/**
 * Each codec's writer and reader across a change to a payload's messages
 * (evolve mode: client/harness/evolve.ts, docs/schema-evolution.md), made
 * with the codec's own mechanism:
 *
 * - the schemaless and text codecs (json, msgpack, cbor, bson, ...) need no
 *   schema: the writer and the reader are two fresh instances of the codec;
 * - custom-binary: each end with its own version's layout, inferred from
 *   that version's messages (custom-binary/infer.ts), as custom-binary makes
 *   a layout for your own messages;
 * - protobuf: each end with the .proto written from its version's layout
 *   (inferred-schemas.ts), whose field numbers follow the fields' order, so a
 *   field keeps its number across a change that keeps the order (a field
 *   added last, the last removed, one renamed in place);
 * - avro: the writer's schema and the reader's, resolved as Avro's
 *   specification says (avroEvolution);
 * - a codec whose code is generated from a schema (pbf, protobuf-es, bebop,
 *   flatbuffers, capnp): each end on the code its own compiler made from
 *   its version's schema (compiled-versions.ts), made before the mode runs.
 */

import { avroEvolution } from "./avro.ts";
import type { Codec, Encoded } from "./codec.ts";
import { type CompiledVersion, isCompiledCodec } from "./compiled-versions.ts";
import { customBinaryCodecFor, type UserLayout } from "./custom-binary.ts";
import { SchemaError } from "./inferred-schemas.ts";
import type { Message, PayloadName } from "./messages.ts";
import { protobufCodecFor } from "./protobuf.ts";

/** One version of a payload: a name of its own (not a built-in payload's), its messages and the layout inferred from them. */
export interface PayloadVersion {
  name: string;
  messages: readonly Message[];
  layout: UserLayout;
  /** The version this one was changed from (the new version's: the old). */
  base?: PayloadVersion;
}

/** A writer and a reader of two versions: what the writer encodes, the reader decodes. */
export interface EvolvingPair {
  encode(message: Message): Encoded;
  decode(data: Encoded): unknown;
}

/**
 * The pair, or why the codec has none: `notRun` (it cannot make a second version here: no layout
 * carries the messages, or its compiler could not make its code), `refused` (the reader's schema
 * refuses the writer's before any message: an error of the format's own).
 */
export type PairOutcome = { pair: EvolvingPair } | { notRun: string } | { refused: string };

/** A codec for one version of the payload, from the version's layout: the registry's way for your own messages. */
function layoutCodec(make: (layouts: ReadonlyMap<string, UserLayout>) => Codec, v: PayloadVersion): Codec {
  return make(new Map([[v.name, v.layout]]));
}

/**
 * The writer (of `writer`'s version) and the reader (of `reader`'s) of `codec` on `payload`;
 * `renamed`: a field the change renamed, by its name in the writer's version and in the reader's;
 * `compiled`: a version's writer and reader on its compiled code, for the codecs whose code is
 * generated from a schema (compileVersions, run before).
 */
export function evolvingPair(
  codec: Codec,
  payload: PayloadName,
  writer: PayloadVersion,
  reader: PayloadVersion,
  renamed?: { writer: string; reader: string },
  compiled?: (v: PayloadVersion) => CompiledVersion | undefined,
): PairOutcome {
  if (codec.family === "schemaless" || codec.family === "text") {
    const why = codec.notApplicable?.(payload);
    if (why !== undefined) return { notRun: why };
    const w = codec.forPayload(payload);
    const r = codec.forPayload(payload);
    return { pair: { encode: (m) => w.encode(m), decode: (d) => r.decode(d) } };
  }
  for (const v of [writer, reader])
    if ("reason" in v.layout)
      return { notRun: `no schema carries the ${v === writer ? "writer's" : "reader's"} messages: ${v.layout.reason}` };
  if (isCompiledCodec(codec.name)) {
    const [w, r] = [compiled?.(writer), compiled?.(reader)];
    if (w === undefined || r === undefined) return { notRun: "its versions' code was not made before the mode" };
    if ("notRun" in w) return { notRun: w.notRun };
    if ("notRun" in r) return { notRun: r.notRun };
    return { pair: { encode: (m) => w.codec.encode(m), decode: (d) => r.codec.decode(d as Uint8Array) } };
  }
  if (codec.name === "custom-binary" || codec.name === "protobuf") {
    const make =
      codec.name === "custom-binary"
        ? customBinaryCodecFor
        : (layouts: ReadonlyMap<string, UserLayout>) => protobufCodecFor(undefined, layouts);
    const [w, r] = [layoutCodec(make, writer), layoutCodec(make, reader)];
    const why = w.notApplicable?.(writer.name) ?? r.notApplicable?.(reader.name);
    if (why !== undefined) return { notRun: why };
    const wp = w.forPayload(writer.name);
    const rp = r.forPayload(reader.name);
    return { pair: { encode: (m) => wp.encode(m), decode: (d) => rp.decode(d) } };
  }
  if (codec.name === "avro") {
    const layoutOf = (v: PayloadVersion) => (v.layout as Extract<UserLayout, { layout: unknown }>).layout;
    try {
      return { pair: avroEvolution(payload, layoutOf(writer), layoutOf(reader), renamed) };
    } catch (e) {
      if (e instanceof SchemaError) return { notRun: `no Avro schema written for the messages: ${e.message}` };
      return { refused: (e as Error).message.split("\n")[0]! };
    }
  }
  return {
    notRun: `a schema codec (family ${codec.family ?? "not given"}) with no way to make a second version of its schema: evolve mode runs schemaless and text codecs of yours (docs/codecs.md)`,
  };
}
