/**
 * How the codecs and their catalog fail (custom-binary's own decode
 * errors are in custom-binary/errors.ts). Each failure is a CodecError with
 * a stable `code`; its message is one line a user can act on.
 *
 * - NO_LAYOUT: the codec cannot carry this payload (custom-binary has no
 *   layout for a user's messages; protobuf no message type without --proto).
 * - BAD_PROTO: the user's .proto does not parse.
 * - NO_MESSAGE_TYPE: the user's .proto has no message type of the name given.
 * - NAME_TAKEN: a codec's name is taken already in the catalog.
 * - INVALID_MESSAGE: a decoded message is not a well-formed message of its
 *   payload (the validated pattern, validation.ts): a field of the wrong
 *   type, missing, unexpected or out of its range.
 * - OUT_OF_LAYOUT: a message the schema written from a user's sample
 *   (inferred-schemas.ts) cannot carry: a value where the sample had none,
 *   a union's tag it never had.
 */

export type CodecErrorCode =
  | "NO_LAYOUT"
  | "BAD_PROTO"
  | "NO_MESSAGE_TYPE"
  | "NAME_TAKEN"
  | "INVALID_MESSAGE"
  | "OUT_OF_LAYOUT";

export class CodecError extends Error {
  override readonly name = "CodecError";

  constructor(
    readonly code: CodecErrorCode,
    message: string,
  ) {
    super(message);
  }
}
