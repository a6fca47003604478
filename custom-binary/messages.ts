/**
 * Message layouts of the custom-binary protocol, version 1. The wire format
 * is specified in docs/custom-binary.md; this file is its reference
 * implementation. Each layout is written out by hand: one fixed sequence of
 * reads and writes per message type is what makes a hand-written protocol
 * fast.
 */

import { DecodeError, hexByte } from "./errors.ts";
import { BinaryReader } from "./reader.ts";
import { BinaryWriter } from "./writer.ts";

/** Layout of message type 1: one string, one unsigned integer. */
export interface SmallMessage {
  text: string;
  num: number;
}
/** Layout of message type 2. */
export interface MediumMessage {
  text: string;
  text2: string;
  num: number;
  decimal: number;
}
/** Layout of message type 3. */
export interface LargeMessage {
  text: string;
  text2: string;
  text3: string;
  text4: string;
  num: number;
  decimal: number;
  num2: number;
  decimal2: number;
}
/** Any message this protocol carries. */
export type Message = SmallMessage | MediumMessage | LargeMessage;

/** Protocol version, the high four bits of the header byte. */
export const VERSION = 1;

/** Message types, the low three bits of the header byte. */
export const MESSAGE_TYPE = { small: 1, medium: 2, large: 3 } as const;

/**
 * Bit 3 of the header: every string byte of the message is ASCII. It lets a
 * decoder turn all the strings into text with one native call.
 */
export const ASCII_FLAG = 0x08;

/** Header byte = version << 4 | ASCII flag | message type; here without the flag. */
export const HEADER = {
  small: (VERSION << 4) | MESSAGE_TYPE.small,
  medium: (VERSION << 4) | MESSAGE_TYPE.medium,
  large: (VERSION << 4) | MESSAGE_TYPE.large,
} as const;

/** Worst case for a string: 5-byte length prefix, 3 bytes per UTF-16 unit. */
function maxString(s: unknown): number {
  return typeof s === "string" ? 5 + 3 * s.length : 0;
}

function writeSmall(w: BinaryWriter, m: SmallMessage): void {
  w.begin(1 + maxString(m.text) + 5);
  w.u8(HEADER.small);
  w.string("text", m.text);
  if (w.stringsAscii) w.orAt(0, ASCII_FLAG);
  w.varUint32("num", m.num);
}

function writeMedium(w: BinaryWriter, m: MediumMessage): void {
  w.begin(1 + maxString(m.text) + maxString(m.text2) + 5 + 8);
  w.u8(HEADER.medium);
  w.string("text", m.text);
  w.string("text2", m.text2);
  if (w.stringsAscii) w.orAt(0, ASCII_FLAG);
  w.varUint32("num", m.num);
  w.float64("decimal", m.decimal);
}

function writeLarge(w: BinaryWriter, m: LargeMessage): void {
  w.begin(1 + maxString(m.text) + maxString(m.text2) + maxString(m.text3) + maxString(m.text4) + 5 + 8 + 5 + 8);
  w.u8(HEADER.large);
  w.string("text", m.text);
  w.string("text2", m.text2);
  w.string("text3", m.text3);
  w.string("text4", m.text4);
  if (w.stringsAscii) w.orAt(0, ASCII_FLAG);
  w.varUint32("num", m.num);
  w.float64("decimal", m.decimal);
  w.varInt32("num2", m.num2);
  w.float64("decimal2", m.decimal2);
}

/**
 * Encodes with a caller-owned writer. The layout follows from the fields
 * present: `text4` means large, `text2` medium, otherwise small. Fields a
 * layout does not name are not carried (as in Protobuf).
 */
export function encodeWith(w: BinaryWriter, m: Message): Uint8Array {
  if ((m as LargeMessage).text4 !== undefined) writeLarge(w, m as LargeMessage);
  else if ((m as MediumMessage).text2 !== undefined) writeMedium(w, m as MediumMessage);
  else writeSmall(w, m as SmallMessage);
  return w.finish();
}

/** Decodes with a caller-owned reader. Throws RangeError or DecodeError only. */
export function decodeWith(r: BinaryReader, bytes: Uint8Array): Message {
  r.reset(bytes);
  const header = r.u8();
  const ascii = (header & ASCII_FLAG) !== 0;
  let m: Message;
  const s = r.str;
  switch (header & ~ASCII_FLAG) {
    case HEADER.small:
      r.strings(1, ascii);
      m = { text: s[0]!, num: r.varUint32() };
      break;
    case HEADER.medium:
      r.strings(2, ascii);
      m = { text: s[0]!, text2: s[1]!, num: r.varUint32(), decimal: r.float64() };
      break;
    case HEADER.large:
      r.strings(4, ascii);
      m = {
        text: s[0]!,
        text2: s[1]!,
        text3: s[2]!,
        text4: s[3]!,
        num: r.varUint32(),
        decimal: r.float64(),
        num2: r.varInt32(),
        decimal2: r.float64(),
      };
      break;
    default:
      if (header >> 4 !== VERSION) {
        throw new DecodeError("UNSUPPORTED_VERSION", 0, header, `unsupported version ${header >> 4} (this decoder reads version ${VERSION})`);
      }
      throw new DecodeError("UNKNOWN_TYPE", 0, header, `unknown message type ${header & 0x07} in header ${hexByte(header)}`);
  }
  r.finish();
  return m;
}
