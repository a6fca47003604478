/**
 * An example codec module: CBOR (RFC 8949) through the cbor-x library.
 *
 *   bun run bench --codec-module docs/codecs/cbor-x.ts
 *
 * Its default export implements the Codec interface of protocols/codec.ts
 * (docs/codecs.md explains each field). It joins every mode beside the
 * built-in codecs, goes through the same verification, and the server and
 * the page load it too. It is the built-in `cbor` codec (protocols/cbor.ts)
 * written as a module, under its own name, so the two can run side by side:
 * a template for a codec of your own.
 */

// cbor-x/encode is the package's pure JavaScript build (Encoder decodes too). Its main
// entry also loads the optional native cbor-extract addon, which under Bun 1.4 returned
// wrong strings for non-ASCII text and then crashed the process; the native path is not
// what a browser runs either.
import { Encoder } from "cbor-x/encode";
import type { Codec, Encoded, PayloadCodec } from "../../protocols/codec.ts";
import type { Message } from "../../protocols/messages.ts";

const cborX: Codec = {
  name: "cbor-x",
  description: "CBOR, RFC 8949 (cbor-x, records off: standard CBOR any decoder reads), binary frame",
  frame: "binary",
  standard: true,
  library: "cbor-x",
  // Schema-less: it carries every payload, so no notApplicable; as its family says, it also runs --modes evolve.
  family: "schemaless",
  forPayload: (): PayloadCodec => {
    // One reused encoder per pair, as a real application keeps one; records off keeps the output standard.
    const cbor = new Encoder({ useRecords: false });
    return {
      encode: (message: Message): Encoded => cbor.encode(message),
      decode: (data: Encoded): Message => cbor.decode(data as Uint8Array) as Message,
    };
  },
};

export default cborX;
