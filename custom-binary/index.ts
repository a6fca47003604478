/**
 * The hand-written DataView-style binary protocol (wire spec:
 * docs/custom-binary.md).
 */

// Encoding, decoding, and reading one message's routing key
export { createCustomBinary, type CustomBinary } from "./create-custom-binary.ts";
export { encodeWith, decodeWith, layoutOf, type Message } from "./layouts.ts";
export { readKeyWith } from "./keys.ts";
export { ASCII_FLAG, HEADER, MESSAGE_TYPE, VERSION, type LayoutName } from "./header.ts";
export type { SmallMessage, MediumMessage, LargeMessage } from "./article.ts";
export type { ChatMessage, Reaction } from "./chat.ts";
export type { Entity, GameTickMessage } from "./game-tick.ts";
export type { MarketMessage } from "./market.ts";

// Building blocks
export { BinaryReader } from "./reader.ts";
export { BinaryWriter, DEFAULT_WRITER_MODE, varintSize, type WriterMode } from "./writer.ts";

// Errors
export { DecodeError, EncodeError, type DecodeErrorCode } from "./errors.ts";
