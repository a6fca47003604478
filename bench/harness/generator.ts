/**
 * A seeded generator that varies the article's messages (protocols/messages.ts).
 *
 * Why vary: 100,000 copies of one object flatter every cache (JSON fast paths,
 * MessagePack key caches, record structures). A varied message keeps the
 * article's shape exactly: the same fields in the same order, every string the
 * same UTF-8 byte length, every number the same decimal length and the same
 * encoded width in every codec. So the byte sizes of a varied run equal the
 * article's, and only the contents (and therefore the caches) change.
 */

import { ARTICLE_MESSAGES, PAYLOAD_NAMES, type LargeMessage, type MediumMessage, type Message, type PayloadName, type SmallMessage } from "../../protocols/messages.ts";

/** mulberry32: small, fast, and the same sequence in every JavaScript engine. */
export function createRng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Rng = () => number;

/** Printable ASCII without `"` and `\`, so JSON never escapes a varied string. */
const ASCII = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789 .,;:!?-_()";
/** Characters of 2, 3 and 4 UTF-8 bytes: Latin accents, Greek, Cyrillic, CJK, emoji. */
const NON_ASCII: Record<2 | 3 | 4, readonly string[]> = {
  2: ["é", "ü", "ñ", "ø", "ß", "λ", "Ж", "ç"],
  3: ["€", "中", "文", "字", "あ", "✓", "한"],
  4: ["😀", "🚀", "🎉", "𝄞", "🌍"],
};

/** Which kind of characters a varied string may hold. */
type Charset = "ascii" | "mixed";

/**
 * A random string of exactly `bytes` UTF-8 bytes. With "mixed", roughly one
 * character in six is non-ASCII (2, 3 or 4 bytes), surrogate pairs included.
 */
export function randomString(rng: Rng, bytes: number, charset: Charset): string {
  // Characters collected and joined once: a string grown with += is a rope
  // of many cells until first read, which makes every garbage collection
  // trace 100,000 messages' worth of them.
  const chars: string[] = [];
  let left = bytes;
  while (left > 0) {
    if (charset === "mixed" && left >= 2 && rng() < 1 / 6) {
      const width = (2 + Math.floor(rng() * 3)) as 2 | 3 | 4;
      if (width <= left) {
        const pool = NON_ASCII[width];
        chars.push(pool[Math.floor(rng() * pool.length)]!);
        left -= width;
        continue;
      }
    }
    chars.push(ASCII[Math.floor(rng() * ASCII.length)]!);
    left -= 1;
  }
  return chars.join("");
}

/** A random integer in [min, max]. */
function randomInt(rng: Rng, min: number, max: number): number {
  return min + Math.floor(rng() * (max - min + 1));
}

/**
 * A random double whose shortest decimal form has exactly `decimals` digits
 * after the point and one before it (like 3.1415926), so its JSON length is
 * fixed. Retries the rare draw that does not print back to the same text.
 */
function randomDecimal(rng: Rng, decimals: number, negative: boolean): number {
  for (;;) {
    let text = String(1 + Math.floor(rng() * 9)) + ".";
    for (let i = 0; i < decimals - 1; i++) text += String(Math.floor(rng() * 10));
    text += String(1 + Math.floor(rng() * 9)); // a trailing zero would shorten it
    const value = Number((negative ? "-" : "") + text);
    if (String(value) === (negative ? "-" : "") + text) return value;
  }
}

/**
 * Integer ranges that keep each codec's encoded width equal to the article's
 * value: small num 100..127 (3 JSON digits, one-byte varint, MessagePack
 * positive fixint); medium 10000..16383 (two-byte varint, uint16); large num
 * 100000000..268435455 (four-byte varint, uint32); num2 -134217728..-100000000
 * (four-byte zigzag varint, int32).
 */
function makeSmall(rng: Rng): SmallMessage {
  return { text: randomString(rng, 12, "ascii"), num: randomInt(rng, 100, 127) };
}
function makeMedium(rng: Rng): MediumMessage {
  return {
    text: randomString(rng, 12, "ascii"),
    text2: randomString(rng, 51, "mixed"),
    num: randomInt(rng, 10000, 16383),
    decimal: randomDecimal(rng, 7, false),
  };
}
function makeLarge(rng: Rng): LargeMessage {
  return {
    text: randomString(rng, 12, "ascii"),
    text2: randomString(rng, 111, "mixed"),
    text3: randomString(rng, 26, "ascii"),
    text4: randomString(rng, 44, "mixed"),
    num: randomInt(rng, 100000000, 268435455),
    decimal: randomDecimal(rng, 15, false),
    num2: randomInt(rng, -134217728, -100000000),
    decimal2: randomDecimal(rng, 15, true),
  };
}
const MAKERS: Record<PayloadName, (rng: Rng) => Message> = {
  small: makeSmall,
  medium: makeMedium,
  large: makeLarge,
};

export interface MessageSetOptions {
  /** How many messages. */
  count: number;
  /** Seed of the generator; the same seed gives the same messages. */
  seed: number;
  /** true: every message is the article's exact message (a fresh copy each). */
  fixed: boolean;
}

/**
 * `count` messages of one payload kind. Each payload kind draws from its own
 * stream (seed mixed with the payload's index), so selecting fewer payloads
 * does not change the messages of the others.
 */
export function makeMessages(payload: PayloadName, options: MessageSetOptions): Message[] {
  const out = new Array<Message>(options.count);
  if (options.fixed) {
    const article = ARTICLE_MESSAGES[payload];
    for (let i = 0; i < options.count; i++) out[i] = { ...article };
    return out;
  }
  const rng = createRng(options.seed ^ Math.imul(PAYLOAD_NAMES.indexOf(payload) + 1, 0x9e3779b1));
  const make = MAKERS[payload];
  for (let i = 0; i < options.count; i++) out[i] = make(rng);
  return out;
}
