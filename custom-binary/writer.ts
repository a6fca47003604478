/**
 * BinaryWriter: builds one custom-binary message and hands it out, in one
 * of two ways, chosen by what is cheap in the engine (measured, see
 * docs/performance-notes.md):
 *
 * - "copy" (Bun, JavaScriptCore): build in a reused scratch buffer, return
 *   an exact-size copy. JavaScriptCore allocates small typed arrays inline,
 *   far cheaper than a view.
 * - "views" (V8: browsers, Node): build straight into a 64 KiB slab and
 *   return a view of the message. V8 gives every new typed array its own
 *   backing store, which costs more than a view; a slab region is never
 *   written again, so each view stays valid and belongs to its caller.
 */

import { EncodeError } from "./errors.ts";
import { writeUtf8 } from "./utf8.ts";

const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/** Messages up to this size are copied out by a plain loop, longer ones by `slice` (measured in Bun). */
const LOOP_COPY_MAX = 40;
/** Size of one slab in "views" mode. */
const SLAB_BYTES = 64 * 1024;

export type WriterMode = "copy" | "views";

/** The faster mode for this engine: copies under Bun, views elsewhere. */
export const DEFAULT_WRITER_MODE: WriterMode = (globalThis as { Bun?: unknown }).Bun !== undefined ? "copy" : "views";

export class BinaryWriter {
  private buf: Uint8Array;
  private pos = 0;
  /** Where the current message starts in `buf` (0 in "copy" mode). */
  private start = 0;
  /** Every string written since `begin` was ASCII (one UTF-8 byte per UTF-16 unit). */
  stringsAscii = true;
  private readonly f64 = new Float64Array(1);
  private readonly f64Bytes = new Uint8Array(this.f64.buffer);
  private readonly f32 = new Float32Array(1);
  private readonly f32Bytes = new Uint8Array(this.f32.buffer);

  constructor(readonly mode: WriterMode = DEFAULT_WRITER_MODE) {
    this.buf = new Uint8Array(mode === "views" ? SLAB_BYTES : 1024);
  }

  /** Starts a new message; `maxBytes` is an upper bound on its size. */
  begin(maxBytes: number): void {
    if (this.mode === "copy") {
      if (maxBytes > this.buf.length) this.buf = new Uint8Array(Math.max(maxBytes, this.buf.length * 2));
      this.pos = 0;
    } else if (this.pos + maxBytes > this.buf.length) {
      // A fresh slab: views handed out from the old one stay as they are.
      this.buf = new Uint8Array(Math.max(SLAB_BYTES, maxBytes));
      this.pos = 0;
    }
    this.start = this.pos;
    this.stringsAscii = true;
  }

  /**
   * Room for `bytes` more bytes of the message (a layout whose size is known
   * only as it is written: an inferred one). The message so far moves to a
   * bigger buffer when it must; in "views" mode that is a fresh slab, so
   * views handed out before stay as they are.
   */
  ensure(bytes: number): void {
    if (this.pos + bytes <= this.buf.length) return;
    const written = this.pos - this.start;
    const next = new Uint8Array(Math.max(this.mode === "views" ? SLAB_BYTES : 0, 2 * (written + bytes)));
    next.set(this.buf.subarray(this.start, this.pos));
    this.buf = next;
    this.start = 0;
    this.pos = written;
  }

  u8(value: number): void {
    this.buf[this.pos++] = value;
  }

  /** Unsigned LEB128 of an integer in 0..2^32-1. */
  varUint32(field: string, value: number): void {
    if (value >>> 0 !== value) throw new EncodeError(field, `expected an integer 0..4294967295, got ${String(value)}`);
    this.writeVarint(value);
  }

  /** Zigzag, then unsigned LEB128, of an integer in -2^31..2^31-1. */
  varInt32(field: string, value: number): void {
    if ((value | 0) !== value)
      throw new EncodeError(field, `expected an integer -2147483648..2147483647, got ${String(value)}`);
    this.writeVarint(((value << 1) ^ (value >> 31)) >>> 0);
  }

  /** Unsigned LEB128 of an integer in 0..2^53-1 (timestamps, sequence numbers). */
  varUint53(field: string, value: number): void {
    if (!Number.isSafeInteger(value) || value < 0)
      throw new EncodeError(field, `expected an integer 0..9007199254740991, got ${String(value)}`);
    if (value <= 0x7fffffff) {
      this.writeVarint(value);
      return;
    }
    const buf = this.buf;
    let p = this.pos;
    let v = value;
    while (v > 0x7f) {
      buf[p++] = (v % 128) | 0x80;
      v = Math.floor(v / 128);
    }
    buf[p++] = v;
    this.pos = p;
  }

  /** An integer 0..2^53-1 as varUint53, and never -0 (which it would give back as 0). */
  uint53(field: string, value: number): void {
    if (Object.is(value, -0)) throw new EncodeError(field, "expected an integer 0..9007199254740991, got -0");
    this.varUint53(field, value);
  }

  /** Zigzag (0, -1, 1, -2 as 0, 1, 2, 3), then varUint53, of an integer -2^52..2^52-1; never -0. */
  int53(field: string, value: number): void {
    if (!Number.isSafeInteger(value) || value < -(2 ** 52) || value >= 2 ** 52 || Object.is(value, -0))
      throw new EncodeError(field, `expected an integer -4503599627370496..4503599627370495, got ${String(value)}`);
    this.varUint53(field, value >= 0 ? value * 2 : -value * 2 - 1);
  }

  /** IEEE 754 binary32, little-endian, of a number it holds exactly (NaN, infinities and -0 included). */
  float32(field: string, value: number): void {
    if (typeof value !== "number") throw new EncodeError(field, `expected a number, got ${typeof value}`);
    const f = this.f32Bytes;
    this.f32[0] = value;
    if (!Object.is(this.f32[0], value) && value === value)
      throw new EncodeError(field, `${String(value)} is not exactly a float32 (the layout holds float32 here)`);
    const buf = this.buf;
    const p = this.pos;
    if (LITTLE_ENDIAN) {
      buf[p] = f[0]!;
      buf[p + 1] = f[1]!;
      buf[p + 2] = f[2]!;
      buf[p + 3] = f[3]!;
    } else {
      buf[p] = f[3]!;
      buf[p + 1] = f[2]!;
      buf[p + 2] = f[1]!;
      buf[p + 3] = f[0]!;
    }
    this.pos = p + 4;
  }

  /** One byte holding an enum's value 0..max. */
  enumU8(field: string, value: number, max: number): void {
    if (!Number.isInteger(value) || value < 0 || value > max)
      throw new EncodeError(field, `expected an integer 0..${max}, got ${String(value)}`);
    this.buf[this.pos++] = value;
  }

  private writeVarint(v: number): void {
    const buf = this.buf;
    let p = this.pos;
    while (v > 0x7f) {
      buf[p++] = (v & 0x7f) | 0x80;
      v >>>= 7;
    }
    buf[p++] = v;
    this.pos = p;
  }

  /** IEEE 754 binary64, little-endian: every double, NaN and -0 included. */
  float64(field: string, value: number): void {
    if (typeof value !== "number") throw new EncodeError(field, `expected a number, got ${typeof value}`);
    const f = this.f64Bytes;
    this.f64[0] = value;
    const buf = this.buf;
    const p = this.pos;
    if (LITTLE_ENDIAN) {
      buf[p] = f[0]!;
      buf[p + 1] = f[1]!;
      buf[p + 2] = f[2]!;
      buf[p + 3] = f[3]!;
      buf[p + 4] = f[4]!;
      buf[p + 5] = f[5]!;
      buf[p + 6] = f[6]!;
      buf[p + 7] = f[7]!;
    } else {
      buf[p] = f[7]!;
      buf[p + 1] = f[6]!;
      buf[p + 2] = f[5]!;
      buf[p + 3] = f[4]!;
      buf[p + 4] = f[3]!;
      buf[p + 5] = f[2]!;
      buf[p + 6] = f[1]!;
      buf[p + 7] = f[0]!;
    }
    this.pos = p + 8;
  }

  /**
   * A varint byte length, then the UTF-8 bytes. The length is guessed to fit
   * one byte (strings under 128 bytes, the usual case); a longer string is
   * moved up once to make room for its longer prefix.
   */
  string(field: string, value: string): void {
    if (typeof value !== "string") throw new EncodeError(field, `expected a string, got ${typeof value}`);
    const at = this.pos;
    const end = writeUtf8(value, this.buf, at + 1);
    if (end < 0) throw new EncodeError(field, `lone UTF-16 surrogate at index ${-1 - end}; UTF-8 cannot carry it`);
    const length = end - at - 1;
    // Any non-ASCII character takes more UTF-8 bytes than UTF-16 units.
    if (length !== value.length) this.stringsAscii = false;
    if (length < 0x80) {
      this.buf[at] = length;
      this.pos = end;
      return;
    }
    const prefix = varintSize(length);
    this.buf.copyWithin(at + prefix, at + 1, end);
    this.pos = at;
    this.writeVarint(length);
    this.pos = end + prefix - 1;
  }

  /** ORs `bits` into the message's byte at `offset` (a header flag known only after the fields). */
  orAt(offset: number, bits: number): void {
    this.buf[this.start + offset]! |= bits;
  }

  /** The message written since `begin`: a copy ("copy") or a view of the slab ("views"). */
  finish(): Uint8Array {
    const buf = this.buf;
    if (this.mode === "views") return buf.subarray(this.start, this.pos);
    const n = this.pos;
    if (n > LOOP_COPY_MAX) return buf.slice(0, n);
    const out = new Uint8Array(n);
    for (let i = 0; i < n; i++) out[i] = buf[i]!;
    return out;
  }
}

export function varintSize(v: number): number {
  return v < 0x80 ? 1 : v < 0x4000 ? 2 : v < 0x200000 ? 3 : v < 0x10000000 ? 4 : 5;
}
