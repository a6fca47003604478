/**
 * The header byte every custom-binary message starts with (docs/custom-binary.md,
 * "Header byte"): version << 4 | ASCII flag | message type.
 */

/**
 * Protocol version, the high four bits of the header byte. 2: game-tick
 * (type 5) carries its match before the tick, which a version-1 decoder
 * would read as the tick (docs/custom-binary.md, "Changes"). A decoder reads
 * its own version only.
 */
export const VERSION = 2;

/** Message types, the low three bits of the header byte. */
export const MESSAGE_TYPE = { small: 1, medium: 2, large: 3, chat: 4, "game-tick": 5, market: 6 } as const;

/** A layout's name: the article's three messages and the three message sets. */
export type LayoutName = keyof typeof MESSAGE_TYPE;

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
  chat: (VERSION << 4) | MESSAGE_TYPE.chat,
  "game-tick": (VERSION << 4) | MESSAGE_TYPE["game-tick"],
  market: (VERSION << 4) | MESSAGE_TYPE.market,
} as const;

/** Worst case for a string: 5-byte length prefix, 3 bytes per UTF-16 unit. */
export function maxString(s: unknown): number {
  return typeof s === "string" ? 5 + 3 * s.length : 0;
}
