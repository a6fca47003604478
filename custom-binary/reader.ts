/**
 * BinaryReader: a bounds-checked cursor over one custom-binary message.
 * Every read checks that its bytes exist before touching them
 * (`Uint8Array[i]` past the end silently gives `undefined`), so truncated
 * input always ends in a RangeError naming the offset, never in garbage.
 */

import { DecodeError, truncated } from "./errors.ts";
import { decodeAscii, readAscii, readUtf8 } from "./utf8.ts";

/** Most strings one message layout holds. */
const MAX_STRINGS = 8;

const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

export class BinaryReader {
  private bytes: Uint8Array = new Uint8Array(0);
  private pos = 0;
  private end = 0;
  private readonly f64 = new Float64Array(1);
  private readonly f64Bytes = new Uint8Array(this.f64.buffer);
  private readonly f32 = new Float32Array(1);
  private readonly f32Bytes = new Uint8Array(this.f32.buffer);
  private readonly starts = new Int32Array(MAX_STRINGS);
  private readonly ends = new Int32Array(MAX_STRINGS);
  /** Filled by `strings(count)`. */
  readonly str: string[] = new Array<string>(MAX_STRINGS).fill("");
  /** A string read by `string()` since `reset` had a byte of 0x80 or more. */
  private sawNonAscii = false;

  /** Points the reader at a new message. */
  reset(bytes: Uint8Array): void {
    this.bytes = bytes;
    this.pos = 0;
    this.end = bytes.length;
    this.sawNonAscii = false;
  }

  /** Where the next read starts. */
  get offset(): number {
    return this.pos;
  }

  u8(): number {
    if (this.pos >= this.end) throw truncated(this.pos, 1, this.end);
    return this.bytes[this.pos++]!;
  }

  /** Unsigned LEB128, at most 5 bytes, value below 2^32, shortest form only. */
  varUint32(): number {
    const bytes = this.bytes;
    const start = this.pos;
    if (start >= this.end) throw truncated(start, 1, this.end);
    let b = bytes[start]!;
    if (b < 0x80) {
      this.pos = start + 1;
      return b;
    }
    // Up to four bytes fit a 28-bit int, so plain bit operations are exact.
    let value = b & 0x7f;
    let p = start + 1;
    for (let shift = 7; ; shift += 7) {
      if (p >= this.end) throw truncated(p, 1, this.end);
      b = bytes[p++]!;
      if (shift === 28) {
        if (b > 0x0f) throw new DecodeError("VARINT_TOO_BIG", p - 1, b, "varint does not fit in 32 bits");
        value += b * 0x10000000;
        break;
      }
      value |= (b & 0x7f) << shift;
      if (b < 0x80) break;
    }
    if (b === 0) throw new DecodeError("VARINT_OVERLONG", p - 1, b, "varint is not in its shortest form");
    this.pos = p;
    return value;
  }

  /**
   * Unsigned LEB128 of an integer 0..2^53-1 (a JavaScript number holds it
   * exactly): at most 8 bytes, the eighth at most 0x0f, shortest form only.
   */
  varUint53(): number {
    const start = this.pos;
    if (start < this.end && this.bytes[start]! < 0x80) {
      this.pos = start + 1;
      return this.bytes[start]!;
    }
    const bytes = this.bytes;
    let value = 0;
    let scale = 1;
    let p = start;
    let b: number;
    for (let i = 0; ; i++) {
      if (p >= this.end) throw truncated(p, 1, this.end);
      b = bytes[p++]!;
      if (i === 7) {
        if (b > 0x0f) throw new DecodeError("VARINT_TOO_BIG", p - 1, b, "varint does not fit in 53 bits");
        value += b * scale;
        break;
      }
      value += (b & 0x7f) * scale;
      scale *= 128;
      if (b < 0x80) break;
    }
    if (b === 0) throw new DecodeError("VARINT_OVERLONG", p - 1, b, "varint is not in its shortest form");
    this.pos = p;
    return value;
  }

  /**
   * A count of array elements, each at least `minBytes` long: a count whose
   * elements cannot fit in the bytes left is a truncated message, found
   * before anything is allocated for it.
   */
  count(minBytes: number): number {
    const n = this.varUint32();
    if (n * minBytes > this.end - this.pos) throw truncated(this.pos, n * minBytes, this.end);
    return n;
  }

  /**
   * One string, its text checked as it is read (layouts 4-6, which read in
   * wire order): with the ASCII flag a byte of 0x80 or more is NOT_ASCII
   * (or INVALID_UTF8); without it, `asciiFlagChecked` at the end of the
   * message requires that some string was not ASCII.
   */
  string(ascii: boolean): string {
    const length = this.varUint32();
    const start = this.pos;
    if (length > this.end - start) throw truncated(start, length, this.end);
    const end = (this.pos = start + length);
    if (ascii) return readAscii(this.bytes, start, end);
    const s = readUtf8(this.bytes, start, end);
    if (s.length !== length) this.sawNonAscii = true;
    return s;
  }

  /**
   * Moves past one string without looking at its text (the key reader's
   * way to the field after it): its length varint and bounds are checked as
   * `strings` checks them, so a cut-off string is the same RangeError.
   */
  skipString(): void {
    const length = this.varUint32();
    const start = this.pos;
    if (length > this.end - start) throw truncated(start, length, this.end);
    this.pos = start + length;
  }

  /** After the last field read by `string()`: an unflagged message needs a non-ASCII string. */
  asciiFlagChecked(ascii: boolean): void {
    if (!ascii && !this.sawNonAscii) {
      throw new DecodeError(
        "ASCII_FLAG_MISSING",
        0,
        this.bytes[0]!,
        "all strings are ASCII but the header lacks the ASCII flag",
      );
    }
  }

  /** Zigzag varint back to -2^31..2^31-1. */
  varInt32(): number {
    const z = this.varUint32();
    return (z >>> 1) ^ -(z & 1);
  }

  /** Zigzag varUint53 back to -2^52..2^52-1. */
  varInt53(): number {
    const z = this.varUint53();
    return z % 2 === 0 ? z / 2 : -(z + 1) / 2;
  }

  /** One byte, 0 (false) or 1 (true); any other is OUT_OF_RANGE. */
  boolean(): boolean {
    const b = this.u8();
    if (b > 1) throw new DecodeError("OUT_OF_RANGE", this.pos - 1, b, "a boolean byte other than 0 or 1");
    return b === 1;
  }

  float32(): number {
    const p = this.pos;
    if (p + 4 > this.end) throw truncated(p, 4, this.end);
    const b = this.bytes;
    const f = this.f32Bytes;
    if (LITTLE_ENDIAN) {
      f[0] = b[p]!;
      f[1] = b[p + 1]!;
      f[2] = b[p + 2]!;
      f[3] = b[p + 3]!;
    } else {
      f[3] = b[p]!;
      f[2] = b[p + 1]!;
      f[1] = b[p + 2]!;
      f[0] = b[p + 3]!;
    }
    this.pos = p + 4;
    return this.f32[0]!;
  }

  float64(): number {
    const p = this.pos;
    if (p + 8 > this.end) throw truncated(p, 8, this.end);
    const b = this.bytes;
    const f = this.f64Bytes;
    if (LITTLE_ENDIAN) {
      f[0] = b[p]!;
      f[1] = b[p + 1]!;
      f[2] = b[p + 2]!;
      f[3] = b[p + 3]!;
      f[4] = b[p + 4]!;
      f[5] = b[p + 5]!;
      f[6] = b[p + 6]!;
      f[7] = b[p + 7]!;
    } else {
      f[7] = b[p]!;
      f[6] = b[p + 1]!;
      f[5] = b[p + 2]!;
      f[4] = b[p + 3]!;
      f[3] = b[p + 4]!;
      f[2] = b[p + 5]!;
      f[1] = b[p + 6]!;
      f[0] = b[p + 7]!;
    }
    this.pos = p + 8;
    return this.f64[0]!;
  }

  /**
   * Reads `count` consecutive strings into `this.str[0..count-1]`.
   *
   * `ascii` is the header's ASCII flag: the encoder promises every string
   * byte is below 0x80. Crossing into native code costs more than decoding a
   * short string, so then the bytes from the first string to the end of the
   * last (one-byte length prefixes included, which are ASCII too) are
   * decoded at once (`decodeAscii`, which checks the promise rather than
   * trusting it) and the strings cut out of that text by byte offset.
   * Without the flag, each string is decoded and checked alone, and at least
   * one must be non-ASCII (the flag is not optional).
   */
  strings(count: number, ascii: boolean): void {
    const starts = this.starts;
    const ends = this.ends;
    let shortPrefixes = true;
    for (let i = 0; i < count; i++) {
      const length = this.varUint32();
      if (length >= 0x80) shortPrefixes = false;
      const start = this.pos;
      if (length > this.end - start) throw truncated(start, length, this.end);
      starts[i] = start;
      ends[i] = this.pos = start + length;
    }
    const bytes = this.bytes;
    const str = this.str;
    if (!ascii) {
      let asciiOnly = true;
      for (let i = 0; i < count; i++) {
        const s = (str[i] = readUtf8(bytes, starts[i]!, ends[i]!));
        if (s.length !== ends[i]! - starts[i]!) asciiOnly = false;
      }
      // One message, one encoding: all-ASCII strings must carry the flag.
      if (asciiOnly)
        throw new DecodeError(
          "ASCII_FLAG_MISSING",
          0,
          bytes[0]!,
          "all strings are ASCII but the header lacks the ASCII flag",
        );
      return;
    }
    if (!shortPrefixes) {
      for (let i = 0; i < count; i++) str[i] = readAscii(bytes, starts[i]!, ends[i]!);
      return;
    }
    const spanStart = starts[0]!;
    const span = decodeAscii(bytes, spanStart, this.pos);
    if (span === undefined) {
      for (let i = 0; i < count; i++) readAscii(bytes, starts[i]!, ends[i]!); // throws, naming the byte
    }
    for (let i = 0; i < count; i++) str[i] = span!.substring(starts[i]! - spanStart, ends[i]! - spanStart);
  }

  /** Every byte must have been read: leftovers are an error, not ignored. */
  finish(): void {
    if (this.pos !== this.end) {
      throw new DecodeError(
        "TRAILING_BYTES",
        this.pos,
        this.bytes[this.pos]!,
        `extra ${this.end - this.pos} of ${this.end} byte(s) after the message`,
      );
    }
  }
}
