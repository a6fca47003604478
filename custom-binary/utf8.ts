/**
 * UTF-8 for the custom-binary protocol. Strings are measured in UTF-8 bytes,
 * never in UTF-16 code units (`string.length`), which was the bug in the
 * original article's protocol.
 *
 * Two strategies, chosen once, by measurement (docs/performance-notes.md):
 * - Bun and Node have Node-style Buffer methods (`utf8Slice`, `utf8Write`)
 *   that work on a range without allocating a view; crossing into them costs
 *   less than building a string in JavaScript, so strings go through them
 *   (the reader decodes all of a message's strings with one call when it can).
 * - Browsers have only TextDecoder/TextEncoder, and in V8 each call costs far
 *   more than decoding a short string in JavaScript (about 500 ns in
 *   Chromium), so short strings are decoded and encoded in JavaScript and only
 *   long ones natively; the lengths where native wins were measured in
 *   Chromium (docs/custom-binary-performance.md).
 * Both return the same strings and throw the same errors.
 */

import { DecodeError } from "./errors.ts";

type SliceFn = (this: Uint8Array, start: number, end: number) => string;
type WriteFn = (this: Uint8Array, s: string, offset: number, length: number) => number;
interface BufferMethods {
  utf8Slice?: SliceFn;
  utf8Write?: WriteFn;
}
// Read through globalThis so browser bundles do not pull in a Buffer polyfill.
const bufferProto = (globalThis as { Buffer?: { prototype: BufferMethods } }).Buffer?.prototype;
const utf8Slice: SliceFn | undefined = bufferProto?.utf8Slice;
const utf8Write: WriteFn | undefined = bufferProto?.utf8Write;

/** True where the Buffer strategy is used (Bun, Node). */
export const NATIVE_STRINGS = utf8Slice !== undefined && utf8Write !== undefined;

/**
 * Strings at least this many UTF-16 units long are written by the runtime's
 * native UTF-8 writer; shorter ones by a JavaScript loop. In Chromium,
 * `TextEncoder.encodeInto` overtakes the loop at about 400 units of ASCII
 * and 500 of mixed text.
 */
export const NATIVE_WRITE_MIN_LENGTH = NATIVE_STRINGS ? 16 : 512;
/**
 * Without Buffer methods, strings at least this many bytes long are decoded
 * by TextDecoder. In Chromium it overtakes JavaScript at about 64 bytes of
 * ASCII but only at about 400 of mixed text; 256 keeps the loss on mixed
 * text small and the gain on ASCII large.
 */
const TEXT_DECODER_MIN_BYTES = 256;
/** The same for bytes the header promises are ASCII (checked, not trusted). */
const TEXT_DECODER_MIN_ASCII_BYTES = 64;
/** Shorter strings built by `+=` are flat in V8 (longer ones become ropes, flattened later, off the clock). */
const CONCAT_MAX = 12;

const textEncoder = new TextEncoder();
const textDecoder = new TextDecoder("utf-8", { ignoreBOM: true });

const nativeWrite: WriteFn =
  utf8Write ??
  function (this: Uint8Array, s: string, offset: number): number {
    return textEncoder.encodeInto(s, this.subarray(offset)).written;
  };

/** Decodes with WHATWG replacement (every invalid sequence becomes U+FFFD), unchecked. */
const replacingDecode: SliceFn =
  utf8Slice ??
  function (this: Uint8Array, start: number, end: number): string {
    return textDecoder.decode(this.subarray(start, end));
  };

/**
 * Bytes below 0x80, as a string, built in JavaScript: by `+=` when short,
 * else from an array of the bytes in one `String.fromCharCode` call (a plain
 * array: V8 spreads it far faster than a typed array).
 */
function asciiInJs(bytes: Uint8Array, start: number, end: number): string | undefined {
  if (end - start <= CONCAT_MAX) {
    let s = "";
    for (let i = start; i < end; i++) {
      const b = bytes[i]!;
      if (b >= 0x80) return undefined;
      s += String.fromCharCode(b);
    }
    return s;
  }
  const units = new Array<number>(end - start);
  for (let i = start, n = 0; i < end; i++) {
    const b = bytes[i]!;
    if (b >= 0x80) return undefined;
    units[n++] = b;
  }
  return String.fromCharCode.apply(null, units);
}

/**
 * The text of bytes[start, end) if every byte is ASCII, else undefined.
 * With Buffer methods: one native call, and the text has one unit per byte
 * and no U+FFFD exactly when every byte was ASCII (any multi-byte sequence
 * shortens it; any invalid byte yields U+FFFD).
 */
export function decodeAscii(bytes: Uint8Array, start: number, end: number): string | undefined {
  if (utf8Slice === undefined || end - start < 8) {
    if (utf8Slice === undefined && end - start >= TEXT_DECODER_MIN_ASCII_BYTES) {
      for (let i = start; i < end; i++) if (bytes[i]! >= 0x80) return undefined;
      return textDecoder.decode(bytes.subarray(start, end));
    }
    return asciiInJs(bytes, start, end);
  }
  const s = utf8Slice.call(bytes, start, end);
  return s.length === end - start && s.indexOf("\uFFFD") === -1 ? s : undefined;
}

/**
 * Valid UTF-8 decoded in JavaScript, or undefined at the first invalid
 * sequence (RFC 3629: no overlong forms, no surrogates, nothing above
 * U+10FFFF); the caller then finds the exact byte with `firstInvalidUtf8`.
 * The UTF-16 units go into a plain array of one slot per byte (never fewer
 * bytes than units), trimmed, then turned into one string by one
 * `String.fromCharCode` call: in V8 that is about twice as fast as spreading
 * a typed array of units, and a reused array would have to change length.
 */
function utf8InJs(bytes: Uint8Array, start: number, end: number): string | undefined {
  const u = new Array<number>(end - start);
  let n = 0;
  let i = start;
  while (i < end) {
    const b = bytes[i]!;
    if (b < 0x80) {
      u[n++] = b;
      i++;
    } else if (b < 0xe0) {
      if (b < 0xc2 || i + 1 >= end) return undefined;
      const c1 = bytes[i + 1]!;
      if ((c1 & 0xc0) !== 0x80) return undefined;
      u[n++] = ((b & 0x1f) << 6) | (c1 & 0x3f);
      i += 2;
    } else if (b < 0xf0) {
      if (i + 2 >= end) return undefined;
      const c1 = bytes[i + 1]!;
      const c2 = bytes[i + 2]!;
      if ((c1 & 0xc0) !== 0x80 || (c2 & 0xc0) !== 0x80) return undefined;
      const c = ((b & 0x0f) << 12) | ((c1 & 0x3f) << 6) | (c2 & 0x3f);
      if (c < 0x800 || (c >= 0xd800 && c <= 0xdfff)) return undefined; // overlong, or a surrogate
      u[n++] = c;
      i += 3;
    } else {
      if (b > 0xf4 || i + 3 >= end) return undefined;
      const c1 = bytes[i + 1]!;
      const c2 = bytes[i + 2]!;
      const c3 = bytes[i + 3]!;
      if ((c1 & 0xc0) !== 0x80 || (c2 & 0xc0) !== 0x80 || (c3 & 0xc0) !== 0x80) return undefined;
      const cp = ((b & 0x07) << 18) | ((c1 & 0x3f) << 12) | ((c2 & 0x3f) << 6) | (c3 & 0x3f);
      if (cp < 0x10000 || cp > 0x10ffff) return undefined; // overlong, or beyond Unicode
      u[n++] = 0xd800 | ((cp - 0x10000) >> 10);
      u[n++] = 0xdc00 | (cp & 0x3ff);
      i += 4;
    }
  }
  u.length = n;
  return String.fromCharCode.apply(null, u);
}

/**
 * Writes `s` as UTF-8 at `pos` and returns the position after it. The caller
 * guarantees room for 3 bytes per UTF-16 unit. A lone surrogate, which UTF-8
 * cannot carry, returns `-1 - index` instead, so the caller can name it.
 */
export function writeUtf8(s: string, buf: Uint8Array, pos: number): number {
  const n = s.length;
  if (n >= NATIVE_WRITE_MIN_LENGTH) {
    const written = nativeWrite.call(buf, s, pos, buf.length - pos);
    // One byte per unit: all ASCII, so no surrogate. Otherwise the native
    // writer may have turned a lone surrogate into U+FFFD silently: check.
    if (written !== n && !s.isWellFormed()) return -1 - firstLoneSurrogate(s);
    return pos + written;
  }
  let p = pos;
  for (let i = 0; i < n; i++) {
    let c = s.charCodeAt(i);
    if (c < 0x80) {
      buf[p++] = c;
    } else if (c < 0x800) {
      buf[p++] = 0xc0 | (c >> 6);
      buf[p++] = 0x80 | (c & 0x3f);
    } else if (c < 0xd800 || c > 0xdfff) {
      buf[p++] = 0xe0 | (c >> 12);
      buf[p++] = 0x80 | ((c >> 6) & 0x3f);
      buf[p++] = 0x80 | (c & 0x3f);
    } else {
      const next = i + 1 < n ? s.charCodeAt(i + 1) : 0;
      if (c > 0xdbff || next < 0xdc00 || next > 0xdfff) return -1 - i;
      c = 0x10000 + ((c - 0xd800) << 10) + (next - 0xdc00);
      i++;
      buf[p++] = 0xf0 | (c >> 18);
      buf[p++] = 0x80 | ((c >> 12) & 0x3f);
      buf[p++] = 0x80 | ((c >> 6) & 0x3f);
      buf[p++] = 0x80 | (c & 0x3f);
    }
  }
  return p;
}

function firstLoneSurrogate(s: string): number {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const next = s.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        i++;
        continue;
      }
      return i;
    }
    if (c >= 0xdc00 && c <= 0xdfff) return i;
  }
  return -1;
}

/**
 * Decodes bytes[start, end) as UTF-8; invalid UTF-8 throws DecodeError
 * INVALID_UTF8 naming the first bad byte. With the replacing native decoder,
 * a U+FFFD in the text means a real U+FFFD or an invalid sequence, and only
 * then are the bytes checked one by one.
 */
export function readUtf8(bytes: Uint8Array, start: number, end: number): string {
  if (utf8Slice === undefined && end - start < TEXT_DECODER_MIN_BYTES) {
    const s = utf8InJs(bytes, start, end);
    if (s === undefined) throwIfInvalidUtf8(bytes, start, end);
    return s!;
  }
  const s = replacingDecode.call(bytes, start, end);
  if (s.indexOf("\uFFFD") !== -1) throwIfInvalidUtf8(bytes, start, end);
  return s;
}

/**
 * Decodes bytes[start, end), which the message's header says are all ASCII.
 * A byte of 0x80 or more throws DecodeError: INVALID_UTF8 if the bytes are
 * not UTF-8 at all, NOT_ASCII if they are valid UTF-8 but break the promise.
 */
export function readAscii(bytes: Uint8Array, start: number, end: number): string {
  const s = decodeAscii(bytes, start, end);
  if (s !== undefined) return s;
  throwIfInvalidUtf8(bytes, start, end);
  let i = start;
  while (bytes[i]! < 0x80) i++;
  throw new DecodeError(
    "NOT_ASCII",
    i,
    bytes[i]!,
    "non-ASCII byte in a message whose header flags its strings as ASCII",
  );
}

export function throwIfInvalidUtf8(bytes: Uint8Array, start: number, end: number): void {
  const bad = firstInvalidUtf8(bytes, start, end);
  if (bad !== -1) throw new DecodeError("INVALID_UTF8", bad, bytes[bad]!, "invalid UTF-8 in a string");
}

/**
 * Offset of the first byte that makes bytes[from, end) invalid UTF-8
 * (RFC 3629: no overlong forms, no surrogates, nothing above U+10FFFF, no
 * sequence cut short by the end of the string).
 */
export function firstInvalidUtf8(bytes: Uint8Array, from: number, end: number): number {
  let i = from;
  while (i < end) {
    const b = bytes[i]!;
    if (b < 0x80) {
      i++;
      continue;
    }
    let need: number;
    let min: number;
    let max = 0xbf;
    if (b >= 0xc2 && b <= 0xdf) {
      need = 1;
      min = 0x80;
    } else if (b >= 0xe0 && b <= 0xef) {
      need = 2;
      min = b === 0xe0 ? 0xa0 : 0x80;
      if (b === 0xed) max = 0x9f; // no UTF-16 surrogates
    } else if (b >= 0xf0 && b <= 0xf4) {
      need = 3;
      min = b === 0xf0 ? 0x90 : 0x80;
      if (b === 0xf4) max = 0x8f; // nothing above U+10FFFF
    } else {
      return i;
    }
    const second = i + 1;
    if (second >= end) return i;
    const b1 = bytes[second]!;
    if (b1 < min || b1 > max) return second;
    for (let k = 2; k <= need; k++) {
      if (i + k >= end) return i;
      const bk = bytes[i + k]!;
      if (bk < 0x80 || bk > 0xbf) return i + k;
    }
    i += need + 1;
  }
  return -1;
}
