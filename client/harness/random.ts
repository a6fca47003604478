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
/** The same characters as UTF-16 code units (a 4-byte character is a surrogate pair). */
const ASCII_UNITS = Array.from(ASCII, (c) => c.charCodeAt(0));
const NON_ASCII_UNITS: Record<2 | 3 | 4, readonly (readonly number[])[]> = {
  2: NON_ASCII[2].map(unitsOf),
  3: NON_ASCII[3].map(unitsOf),
  4: NON_ASCII[4].map(unitsOf),
};
function unitsOf(s: string): number[] {
  return Array.from({ length: s.length }, (_, i) => s.charCodeAt(i));
}

/** Which kind of characters a varied string may hold. */
type Charset = "ascii" | "mixed";

/** The code units of the string being drawn, reused from one string to the next. */
const units: number[] = [];

/**
 * A random string of exactly `bytes` UTF-8 bytes. With "mixed", roughly one
 * character in six is non-ASCII (2, 3 or 4 bytes), surrogate pairs included.
 */
export function randomString(rng: Rng, bytes: number, charset: Charset): string {
  // Code units collected and made into a string once: a string grown with += is a rope of many
  // cells until first read, which makes every garbage collection trace 100,000 messages' worth
  // of them; one array of units and one fromCharCode make a flat string at half the cost of
  // joining an array of one-character strings.
  units.length = 0;
  let left = bytes;
  while (left > 0) {
    if (charset === "mixed" && left >= 2 && rng() < 1 / 6) {
      const width = (2 + Math.floor(rng() * 3)) as 2 | 3 | 4;
      if (width <= left) {
        const pool = NON_ASCII_UNITS[width];
        const char = pool[Math.floor(rng() * pool.length)]!;
        for (let i = 0; i < char.length; i++) units.push(char[i]!);
        left -= width;
        continue;
      }
    }
    units.push(ASCII_UNITS[Math.floor(rng() * ASCII_UNITS.length)]!);
    left -= 1;
  }
  return String.fromCharCode.apply(null, units);
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
