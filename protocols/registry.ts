/**
 * Every codec the benchmark knows, in the order tables list them.
 */

import type { Codec } from "./codec.ts";
import { customBinary } from "./custom-binary.ts";
import { json, jsonBytes } from "./json.ts";
import { msgpack } from "./msgpack.ts";
import { msgpackr, msgpackrRecords } from "./msgpackr.ts";
import { protobufCodec } from "./protobuf.ts";

export const CODECS: readonly Codec[] = [json, jsonBytes, customBinary, protobufCodec, msgpack, msgpackr, msgpackrRecords];

export const CODEC_NAMES: readonly string[] = CODECS.map((c) => c.name);

export function getCodec(name: string): Codec | undefined {
  return CODECS.find((c) => c.name === name);
}
