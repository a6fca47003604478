/**
 * The hand-written DataView-style binary protocol (wire spec:
 * docs/custom-binary.md).
 */

// Encoding and decoding
export { createCustomBinary, type CustomBinary } from "./codec.ts";
export { encodeWith, decodeWith, ASCII_FLAG, HEADER, MESSAGE_TYPE, VERSION } from "./messages.ts";
export type { SmallMessage, MediumMessage, LargeMessage, Message } from "./messages.ts";

// Building blocks
export { BinaryReader } from "./reader.ts";
export { BinaryWriter, DEFAULT_WRITER_MODE, varintSize, type WriterMode } from "./writer.ts";

// Errors
export { DecodeError, EncodeError, type DecodeErrorCode } from "./errors.ts";
