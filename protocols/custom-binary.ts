import type { Codec, Encoded, PayloadCodec } from "./codec.ts";
import { createCustomBinary, type Message } from "../custom-binary/index.ts";
import type { ObjectShape, UnionShape } from "../custom-binary/infer.ts";
import { inferredCodec } from "../custom-binary/inferred-codec.ts";
import { CodecError } from "./codec-errors.ts";
import { isBuiltIn, type Message as AnyMessage } from "./messages.ts";

/**
 * A user payload's layout, inferred from its messages (custom-binary/infer.ts), or why no layout
 * carries them. `fieldNumbers`: the numbers a .proto written from it gives its top fields, by
 * name (a changed version of a payload keeping its fields' numbers: evolve mode); absent: their order.
 */
export type UserLayout =
  | { layout: ObjectShape | UnionShape; fieldNumbers?: ReadonlyMap<string, number> }
  | { reason: string };

/**
 * The hand-written protocol of custom-binary/ (spec: docs/custom-binary.md):
 * one layout per built-in payload, and for a user's own payloads the layout
 * inferred from their messages (`userLayouts`, type 7), written out as code
 * as a hand-written layout is.
 */
export function customBinaryCodecFor(userLayouts: ReadonlyMap<string, UserLayout> = new Map()): Codec {
  return {
    name: "custom-binary",
    description: "hand-written binary protocol (varints, UTF-8 strings, float64), binary frame",
    frame: "binary",
    family: "schema",
    standard: true,
    library: "",
    // The key sits where the layout puts it, past the header and at most a few length prefixes.
    keyAccess: "offset",
    // Its decoder checks every range, the state, UTF-8 and the length itself (docs/custom-binary.md).
    decodeGuarantees: "all",
    notApplicable: (payload) => {
      if (isBuiltIn(payload)) return undefined;
      const user = userLayouts.get(payload);
      if (!user) return "no layout for your own messages; write one as a codec module (docs/codecs.md)";
      return "reason" in user ? `no layout carries these messages: ${user.reason}` : undefined;
    },
    forPayload: (payload) => {
      const user = userLayouts.get(payload);
      if (user && "layout" in user) {
        const { encode, decode } = inferredCodec(user.layout, payload);
        return {
          encode: (m: AnyMessage): Encoded => encode(m),
          decode: (data: Encoded): AnyMessage => decode(data as Uint8Array) as AnyMessage,
        };
      }
      if (!isBuiltIn(payload)) throw new CodecError("NO_LAYOUT", `custom-binary has no layout for '${payload}'`);
      const { encode, decode, readKey } = createCustomBinary(undefined, payload);
      return {
        encode: (m) => encode(m as Message),
        decode: (data: Encoded) => decode(data as Uint8Array),
        // Handed over as it is, not wrapped: the read-one path is timed, and a binary frame is all it is given.
        readKey: readKey as PayloadCodec["readKey"],
      };
    },
  };
}

/** The built-in custom-binary codec: the built-in payloads only. */
export const customBinary: Codec = customBinaryCodecFor();
