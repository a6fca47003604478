import type { Codec, Encoded } from "./codec.ts";
import { createCustomBinary } from "../custom-binary/index.ts";

/** The hand-written protocol of custom-binary/ (spec: docs/custom-binary.md). */
export const customBinary: Codec = {
  name: "custom-binary",
  description: "hand-written binary protocol (varints, UTF-8 strings, float64), binary frame",
  frame: "binary",
  standard: true,
  library: "",
  forPayload: () => {
    const { encode, decode } = createCustomBinary();
    return { encode, decode: (data: Encoded) => decode(data as Uint8Array) };
  },
};
