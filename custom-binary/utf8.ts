/**
 * UTF-8 for the custom-binary protocol. Strings are measured in UTF-8 bytes,
 * never in UTF-16 code units (`string.length`), which was the bug in the
 * original article's protocol.
 *
 * Building strings one character at a time is slow in every engine, so
 * decoding always goes through the runtime's native UTF-8 decoder; the
 * reader (reader.ts) calls it once for all the strings of a message when it
 * can. Both the Buffer path (Bun, Node) and the TextDecoder path (browsers)
 * return the same strings and throw the same errors.
 */

import { DecodeError } from "./errors.ts";

/**
 * Strings at least this many UTF-16 units long are written by the runtime's
 * native UTF-8 writer; shorter ones by a JavaScript loop, which beats the cost
 * of crossing into native code for a dozen characters.
 */
export const NATIVE_WRITE_MIN_LENGTH = 16;

const textEncoder = new TextEncoder();
const textDecoder = new TextDecoder("utf-8", { ignoreBOM: true });

type SliceFn = (this: Uint8Array, start: number, end: number) => string;
type WriteFn = (this: Uint8Array, s: string, offset: number, length: number) => number;
interface BufferMethods {
  utf8Slice?: SliceFn;
  utf8Write?: WriteFn;
}
// Node-style Buffer methods (Bun, Node) decode and encode a range without
// allocating a view. Read through globalThis so browser bundles do not pull in
// a Buffer polyfill; browsers use TextDecoder/TextEncoder instead.
const bufferProto = (globalThis as { Buffer?: { prototype: BufferMethods } }).Buffer?.prototype;
const nativeSlice: SliceFn =
  bufferProto?.utf8Slice ??
  function (this: Uint8Array, start: number, end: number): string {
    return textDecoder.decode(this.subarray(start, end));
  };
const nativeWrite: WriteFn =
  bufferProto?.utf8Write ??
  function (this: Uint8Array, s: string, offset: number): number {
    return textEncoder.encodeInto(s, this.subarray(offset)).written;
  };

/**
 * Decodes bytes[start, end) with the runtime's UTF-8 decoder, which follows
 * the WHATWG rules: every invalid sequence becomes U+FFFD. The result is
 * not checked; see `readUtf8` for the checked form.
 */
export function decodeUtf8Unchecked(bytes: Uint8Array, start: number, end: number): string {
  return nativeSlice.call(bytes, start, end);
}

/**
 * Writes `s` as UTF-8 at `pos` and returns the position after it. The caller
 * guarantees room for 3 bytes per UTF-16 unit. A lone surrogate, which UTF-8
 * cannot carry, returns `-1 - index` instead, so the caller can name it.
 */
export function writeUtf8(s: string, buf: Uint8Array, pos: number): number {
  const n = s.length;
  if (n >= NATIVE_WRITE_MIN_LENGTH) {
    // The native writer would silently turn a lone surrogate into U+FFFD, so check first.
    if (!s.isWellFormed()) return -1 - firstLoneSurrogate(s);
    return pos + nativeWrite.call(buf, s, pos, buf.length - pos);
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
 * INVALID_UTF8 naming the first bad byte. A U+FFFD in the decoded text means
 * either a real U+FFFD or an invalid sequence, and only then are the bytes
 * checked one by one.
 */
export function readUtf8(bytes: Uint8Array, start: number, end: number): string {
  const s = nativeSlice.call(bytes, start, end);
  if (s.indexOf("\uFFFD") !== -1) throwIfInvalidUtf8(bytes, start, end);
  return s;
}

/**
 * Decodes bytes[start, end), which the message's header says are all ASCII.
 * A byte of 0x80 or more throws DecodeError: INVALID_UTF8 if the bytes are
 * not UTF-8 at all, NOT_ASCII if they are valid UTF-8 but break the promise.
 */
export function readAscii(bytes: Uint8Array, start: number, end: number): string {
  const s = nativeSlice.call(bytes, start, end);
  if (s.length === end - start && s.indexOf("\uFFFD") === -1) return s;
  throwIfInvalidUtf8(bytes, start, end);
  let i = start;
  while (bytes[i]! < 0x80) i++;
  throw new DecodeError("NOT_ASCII", i, bytes[i]!, "non-ASCII byte in a message whose header flags its strings as ASCII");
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
