import type { Codec, Encoded, PayloadCodec } from "./codec.ts";
import { createCustomBinary, type Message } from "../custom-binary/index.ts";
import { CodecError } from "./codec-errors.ts";
import { isBuiltIn } from "./messages.ts";

/**
 * The hand-written protocol of custom-binary/ (spec: docs/custom-binary.md):
 * one layout per built-in payload, none for a user's own messages (a codec
 * module of one's own is the way to hand-write one: docs/codecs.md).
 */
export const customBinary: Codec = {
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
  notApplicable: (payload) =>
    isBuiltIn(payload) ? undefined : "no layout for your own messages; write one as a codec module (docs/codecs.md)",
  forPayload: (payload) => {
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
