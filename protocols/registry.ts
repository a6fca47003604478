/**
 * Every codec the benchmark knows, in the order tables list them: the
 * built-in ones, the calibration codecs (which run only with --calibrate),
 * then any a user brings as a codec module (docs/codecs.md).
 */

import { calJson, calSpin } from "./calibration.ts";
import type { Codec } from "./codec.ts";
import { customBinary } from "./custom-binary.ts";
import { json, jsonBytes } from "./json.ts";
import { msgpack } from "./msgpack.ts";
import { msgpackr, msgpackrRecords } from "./msgpackr.ts";
import { protobufCodec } from "./protobuf.ts";

const codecs: Codec[] = [json, jsonBytes, customBinary, protobufCodec, msgpack, msgpackr, msgpackrRecords, calJson, calSpin];
export const CODECS: readonly Codec[] = codecs;

const names: string[] = codecs.map((c) => c.name);
export const CODEC_NAMES: readonly string[] = names;

export function getCodec(name: string): Codec | undefined {
  return CODECS.find((c) => c.name === name);
}

/** Adds a codec module's codec after the built-in ones (socket/contract.ts's registerCodec adds it to the socket codecs too). */
export function addCodec(codec: Codec): void {
  codecs.push(codec);
  names.push(codec.name);
}

/**
 * Why `value` is not a codec this benchmark can run (one line), or
 * undefined: the Codec interface's fields, checked at run time, as a
 * module's default export comes with no types.
 */
export function codecShapeError(value: unknown): string | undefined {
  if (value === null || typeof value !== "object") return `its default export is ${value === null ? "null" : typeof value}, not a codec object`;
  const c = value as Record<string, unknown>;
  if (typeof c.name !== "string" || !/^[a-z0-9][a-z0-9._-]{0,39}$/i.test(c.name)) return "its codec needs a name: 1-40 letters, digits, '.', '_' or '-'";
  if (typeof c.description !== "string") return `codec '${c.name}' needs a description (a string)`;
  if (c.frame !== "text" && c.frame !== "binary") return `codec '${c.name}' needs frame: "text" or "binary"`;
  if (typeof c.standard !== "boolean") return `codec '${c.name}' needs standard: true or false`;
  if (typeof c.library !== "string") return `codec '${c.name}' needs library: the npm package it uses, or ""`;
  if (typeof c.forPayload !== "function") return `codec '${c.name}' needs forPayload(payload), returning { encode, decode }`;
  if (c.notApplicable !== undefined && typeof c.notApplicable !== "function") return `codec '${c.name}': notApplicable must be a function when given`;
  return undefined;
}
