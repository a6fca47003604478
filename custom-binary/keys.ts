/**
 * The read-one path of the custom-binary protocol: one message's routing
 * key (the field a router or filter looks at: small, medium and large's
 * num, chat's room, game-tick's match, market's symbol) read where its
 * layout puts it, without building the message (docs/custom-binary.md,
 * "Reading the routing key without decoding"). The header is checked, and
 * every byte read on the way to the key by the decoder's own rules, so a
 * frame the decoder reads gives the decoder's key; nothing after the key
 * is looked at: checking the whole frame is what decode is for.
 */

import { DecodeError, hexByte } from "./errors.ts";
import { ASCII_FLAG, HEADER, MESSAGE_TYPE, VERSION, type LayoutName } from "./header.ts";
import { unreadableHeader } from "./layouts.ts";
import type { BinaryReader } from "./reader.ts";

/** A layout's name by its message type (the header's low three bits); undefined for 0 and 7. */
const LAYOUT_OF_TYPE: (LayoutName | undefined)[] = new Array<LayoutName | undefined>(8).fill(undefined);
for (const [name, type] of Object.entries(MESSAGE_TYPE)) LAYOUT_OF_TYPE[type] = name as LayoutName;

/**
 * Throws unless `header` (flag aside) is `expected`, one layout's header. A
 * frame of another layout's type is refused rather than read at this
 * layout's offsets: the decoder would read it as that other message, where
 * the bytes at those offsets are some other field. Kept apart from
 * `wrongHeader` so that the check, on every call, stays small enough to inline.
 */
function expectHeader(header: number, expected: number): void {
  if ((header & ~ASCII_FLAG) !== expected) throw wrongHeader(header, expected);
}

/** The decoder's error for a header it cannot read; UNKNOWN_TYPE, naming both, for another layout's. */
function wrongHeader(header: number, expected: number): DecodeError {
  const found = header >> 4 === VERSION ? LAYOUT_OF_TYPE[header & 0x07] : undefined;
  if (found === undefined) return unreadableHeader(header);
  const wanted = LAYOUT_OF_TYPE[expected & 0x07]!;
  return new DecodeError(
    "UNKNOWN_TYPE",
    0,
    header,
    `header ${hexByte(header)} is a ${found} message (type ${header & 0x07}), not the ${wanted} message (type ${expected & 0x07}) whose key is read`,
  );
}

/** small (type 1): num, after the one string. */
function smallKey(r: BinaryReader, bytes: Uint8Array): number {
  r.reset(bytes);
  expectHeader(r.u8(), HEADER.small);
  r.skipString();
  return r.varUint32();
}

/** medium (type 2): num, after the two strings. */
function mediumKey(r: BinaryReader, bytes: Uint8Array): number {
  r.reset(bytes);
  expectHeader(r.u8(), HEADER.medium);
  r.skipString();
  r.skipString();
  return r.varUint32();
}

/** large (type 3): num, after the four strings. */
function largeKey(r: BinaryReader, bytes: Uint8Array): number {
  r.reset(bytes);
  expectHeader(r.u8(), HEADER.large);
  r.skipString();
  r.skipString();
  r.skipString();
  r.skipString();
  return r.varUint32();
}

/**
 * chat (type 4): room, after the presence byte (not checked: it only says
 * what follows room) and the id, which is read, not skipped, so an overlong
 * or oversized id is the decoder's error rather than a room read at the
 * wrong offset.
 */
function chatKey(r: BinaryReader, bytes: Uint8Array): number {
  r.reset(bytes);
  expectHeader(r.u8(), HEADER.chat);
  r.u8();
  r.varUint32();
  return r.varUint32();
}

/** game-tick (type 5): match, right after the header, which must carry the ASCII flag (the decoder's first check). */
function gameTickKey(r: BinaryReader, bytes: Uint8Array): number {
  r.reset(bytes);
  const header = r.u8();
  expectHeader(header, HEADER["game-tick"]);
  r.asciiFlagChecked((header & ASCII_FLAG) !== 0);
  return r.varUint32();
}

/**
 * market (type 6): symbol, right after the header, decoded as the decoder
 * decodes it: checked as ASCII under the flag, else as UTF-8 that must not
 * be all ASCII (the symbol is the message's only string).
 */
function marketKey(r: BinaryReader, bytes: Uint8Array): string {
  r.reset(bytes);
  const header = r.u8();
  expectHeader(header, HEADER.market);
  const ascii = (header & ASCII_FLAG) !== 0;
  const symbol = r.string(ascii);
  r.asciiFlagChecked(ascii);
  return symbol;
}

const KEY_READERS: Record<LayoutName, (r: BinaryReader, bytes: Uint8Array) => number | string> = {
  small: smallKey,
  medium: mediumKey,
  large: largeKey,
  chat: chatKey,
  "game-tick": gameTickKey,
  market: marketKey,
};

/**
 * The routing key of one message, read with a caller-owned reader: of a
 * `layout` message (another layout's header is a DecodeError), or without
 * one, of the layout its header names. Throws RangeError (cut off before
 * the key's last byte) or DecodeError only.
 */
export function readKeyWith(r: BinaryReader, bytes: Uint8Array, layout?: LayoutName): number | string {
  if (layout === undefined) {
    r.reset(bytes);
    const header = r.u8();
    layout = header >> 4 === VERSION ? LAYOUT_OF_TYPE[header & 0x07] : undefined;
    if (layout === undefined) throw unreadableHeader(header);
  }
  return KEY_READERS[layout](r, bytes);
}

/**
 * `readKeyWith(r, bytes, layout)` as a function of the bytes alone, for a
 * reader kept for one layout. One function per layout, each calling its
 * layout's reader: a call that always meets the same callee gets inlined,
 * where one closure shared by every layout would see all six.
 */
export function keyReader(r: BinaryReader, layout: LayoutName): (bytes: Uint8Array) => number | string {
  switch (layout) {
    case "small":
      return (bytes) => smallKey(r, bytes);
    case "medium":
      return (bytes) => mediumKey(r, bytes);
    case "large":
      return (bytes) => largeKey(r, bytes);
    case "chat":
      return (bytes) => chatKey(r, bytes);
    case "game-tick":
      return (bytes) => gameTickKey(r, bytes);
    case "market":
      return (bytes) => marketKey(r, bytes);
  }
}
