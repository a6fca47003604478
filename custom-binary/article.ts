/**
 * Layouts 1-3: the article's small, medium and large messages
 * (docs/custom-binary.md, "Message layouts"). Each is written out by hand:
 * one fixed sequence of reads and writes per message type is what makes a
 * hand-written protocol fast. Their strings come first, so the reader
 * decodes them all with one call when they are ASCII.
 */

import { ASCII_FLAG, HEADER, maxString } from "./header.ts";
import type { BinaryReader } from "./reader.ts";
import type { BinaryWriter } from "./writer.ts";

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

export function writeSmall(w: BinaryWriter, m: SmallMessage): void {
  w.begin(1 + maxString(m.text) + 5);
  w.u8(HEADER.small);
  w.string("text", m.text);
  if (w.stringsAscii) w.orAt(0, ASCII_FLAG);
  w.varUint32("num", m.num);
}

export function writeMedium(w: BinaryWriter, m: MediumMessage): void {
  w.begin(1 + maxString(m.text) + maxString(m.text2) + 5 + 8);
  w.u8(HEADER.medium);
  w.string("text", m.text);
  w.string("text2", m.text2);
  if (w.stringsAscii) w.orAt(0, ASCII_FLAG);
  w.varUint32("num", m.num);
  w.float64("decimal", m.decimal);
}

export function writeLarge(w: BinaryWriter, m: LargeMessage): void {
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

export function readSmall(r: BinaryReader, ascii: boolean): SmallMessage {
  r.strings(1, ascii);
  return { text: r.str[0]!, num: r.varUint32() };
}

export function readMedium(r: BinaryReader, ascii: boolean): MediumMessage {
  r.strings(2, ascii);
  const s = r.str;
  return { text: s[0]!, text2: s[1]!, num: r.varUint32(), decimal: r.float64() };
}

export function readLarge(r: BinaryReader, ascii: boolean): LargeMessage {
  r.strings(4, ascii);
  const s = r.str;
  return {
    text: s[0]!,
    text2: s[1]!,
    text3: s[2]!,
    text4: s[3]!,
    num: r.varUint32(),
    decimal: r.float64(),
    num2: r.varInt32(),
    decimal2: r.float64(),
  };
}
