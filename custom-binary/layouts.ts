/**
 * Message layouts of the custom-binary protocol, version 2: which layout a
 * message is written with, and which one a header byte reads. The wire
 * format is specified in docs/custom-binary.md; this directory is its
 * reference implementation, one file per group of layouts.
 */

import {
  readLarge,
  readMedium,
  readSmall,
  writeLarge,
  writeMedium,
  writeSmall,
  type LargeMessage,
  type MediumMessage,
  type SmallMessage,
} from "./article.ts";
import { readChat, writeChat, type ChatMessage } from "./chat.ts";
import { DecodeError, hexByte } from "./errors.ts";
import { readGameTick, writeGameTick, type GameTickMessage } from "./game-tick.ts";
import { ASCII_FLAG, HEADER, VERSION, type LayoutName } from "./header.ts";
import { readMarket, writeMarket, type MarketMessage } from "./market.ts";
import type { BinaryReader } from "./reader.ts";
import type { BinaryWriter } from "./writer.ts";

/** Any message this protocol carries. */
export type Message = SmallMessage | MediumMessage | LargeMessage | ChatMessage | GameTickMessage | MarketMessage;

type Write = (w: BinaryWriter, m: never) => void;
const WRITERS: Record<LayoutName, Write> = {
  small: writeSmall,
  medium: writeMedium,
  large: writeLarge,
  chat: writeChat,
  "game-tick": writeGameTick,
  market: writeMarket,
};

/**
 * The layout a message is written with when the caller does not name one,
 * from the fields present: `entities` means game-tick, `symbol` market,
 * `sentAt` chat, `text4` large, `text2` medium, otherwise small.
 */
export function layoutOf(m: Message): LayoutName {
  const o = m as unknown as Partial<Record<string, unknown>>;
  if (o.entities !== undefined) return "game-tick";
  if (o.symbol !== undefined) return "market";
  if (o.sentAt !== undefined) return "chat";
  if (o.text4 !== undefined) return "large";
  if (o.text2 !== undefined) return "medium";
  return "small";
}

/**
 * Encodes with a caller-owned writer, in `layout` or the one the fields
 * imply. Fields a layout does not name are not carried (as in Protobuf).
 */
export function encodeWith(w: BinaryWriter, m: Message, layout: LayoutName = layoutOf(m)): Uint8Array {
  (WRITERS[layout] as (w: BinaryWriter, m: Message) => void)(w, m);
  return w.finish();
}

/** Decodes with a caller-owned reader. Throws RangeError or DecodeError only. */
export function decodeWith(r: BinaryReader, bytes: Uint8Array): Message {
  r.reset(bytes);
  const header = r.u8();
  const ascii = (header & ASCII_FLAG) !== 0;
  let m: Message;
  switch (header & ~ASCII_FLAG) {
    case HEADER.small:
      m = readSmall(r, ascii);
      break;
    case HEADER.medium:
      m = readMedium(r, ascii);
      break;
    case HEADER.large:
      m = readLarge(r, ascii);
      break;
    case HEADER.chat:
      m = readChat(r, ascii);
      break;
    case HEADER["game-tick"]:
      m = readGameTick(r, ascii);
      break;
    case HEADER.market:
      m = readMarket(r, ascii);
      break;
    default:
      throw unreadableHeader(header);
  }
  r.finish();
  return m;
}

/**
 * The error for a header no layout of this version (VERSION) reads: another
 * version (UNSUPPORTED_VERSION), or this version with a type it does not have
 * (UNKNOWN_TYPE). The decoder and the key reader (keys.ts) both throw it.
 */
export function unreadableHeader(header: number): DecodeError {
  if (header >> 4 !== VERSION) {
    return new DecodeError(
      "UNSUPPORTED_VERSION",
      0,
      header,
      `unsupported version ${header >> 4} (this decoder reads version ${VERSION})`,
    );
  }
  return new DecodeError(
    "UNKNOWN_TYPE",
    0,
    header,
    `unknown message type ${header & 0x07} in header ${hexByte(header)}`,
  );
}
