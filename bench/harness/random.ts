/**
 * Seeded randomness for the message generators: one small generator that
 * gives the same sequence in every JavaScript engine, and strings, integers
 * and decimals drawn from it.
 */

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

export type Rng = () => number;

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
export function randomInt(rng: Rng, min: number, max: number): number {
  return min + Math.floor(rng() * (max - min + 1));
}

/**
 * A random double whose shortest decimal form has exactly `decimals` digits
 * after the point and one before it (like 3.1415926), so its JSON length is
 * fixed. Retries the rare draw that does not print back to the same text.
 */
export function randomDecimal(rng: Rng, decimals: number, negative: boolean): number {
  for (;;) {
    let text = String(1 + Math.floor(rng() * 9)) + ".";
    for (let i = 0; i < decimals - 1; i++) text += String(Math.floor(rng() * 10));
    text += String(1 + Math.floor(rng() * 9)); // a trailing zero would shorten it
    const value = Number((negative ? "-" : "") + text);
    if (String(value) === (negative ? "-" : "") + text) return value;
  }
}

/** One element of `xs`, uniformly. */
export function pick<T>(rng: Rng, xs: readonly T[]): T {
  return xs[Math.floor(rng() * xs.length)]!;
}
