/**
 * The two ways a custom-binary message can fail to decode (see
 * docs/custom-binary.md, "Errors"):
 *
 * - `RangeError`: the input is a truncated message: a read needs bytes past
 *   the end. The message names the offset, the bytes needed and the length.
 * - `DecodeError`: the bytes are there but wrong (unknown version or type,
 *   overlong or oversized varint, invalid UTF-8, a non-ASCII byte in a message
 *   flagged ASCII or an unflagged message of ASCII strings, reserved bits
 *   set, a value written where its layout says to leave it out, an index
 *   beyond an inferred layout's kinds or values, trailing bytes). It carries a
 *   stable `code`, the `offset` and the offending `byte`.
 */

export type DecodeErrorCode =
  | "UNSUPPORTED_VERSION"
  | "UNKNOWN_TYPE"
  | "VARINT_OVERLONG"
  | "VARINT_TOO_BIG"
  | "INVALID_UTF8"
  | "NOT_ASCII"
  | "ASCII_FLAG_MISSING"
  | "RESERVED_BITS"
  | "NOT_CANONICAL"
  | "OUT_OF_RANGE"
  | "TRAILING_BYTES";

/** A byte as two hex digits with a 0x prefix: 0x0a. */
export function hexByte(byte: number): string {
  return "0x" + byte.toString(16).padStart(2, "0");
}

export class DecodeError extends Error {
  override readonly name = "DecodeError";
  readonly code: DecodeErrorCode;
  /** Byte offset of the problem within the message. */
  readonly offset: number;
  /** The offending byte, or -1 where no single byte is to blame. */
  readonly byte: number;

  constructor(code: DecodeErrorCode, offset: number, byte: number, detail: string) {
    super(`custom-binary: ${detail} at offset ${offset}${byte >= 0 ? ` (byte ${hexByte(byte)})` : ""} [${code}]`);
    this.code = code;
    this.offset = offset;
    this.byte = byte;
  }
}

/** The RangeError a read past the end of the message throws. */
export function truncated(offset: number, needed: number, length: number): RangeError {
  return new RangeError(
    `custom-binary: truncated message: need ${needed} byte(s) at offset ${offset}, but the message is ${length} byte(s) long`,
  );
}

/** Thrown by the encoder for a value its layout cannot carry. */
export class EncodeError extends TypeError {
  override readonly name = "EncodeError";
  constructor(field: string, detail: string) {
    super(`custom-binary: cannot encode field '${field}': ${detail}`);
  }
}
