/**
 * One codec x payload of codec mode in one process: its messages verified
 * (and its loops warmed) in one untimed pass, then timed slice by slice.
 * Each case owns its compiled loops (see loops.ts), so no call site is
 * shared between codecs.
 *
 * A round's slice runs five loops, each on frames no other loop of the
 * slice has just read, and none of them encoded untimed for it: the
 * serialize loop encodes the slice's messages; the deserialize loop decodes
 * exactly those frames; the echo (decode, encode again: the server's work)
 * and validated loops read the frames the serialize loop made one and three
 * rounds before, each read once by its own round's decode and not since; the
 * read-one loop reads the frames of the slices from two rounds before on, as
 * many slices as it takes to last against the clock (a key is read in a few
 * nanoseconds; those frames are read by read-one in that many rounds, a round
 * of every codec's work apart). After the slice, untimed, every echoed frame,
 * key and validated message is checked, and the decode's first, middle and
 * last (every message was verified before timing): a case with one wrong
 * message fails, and none of its figures count.
 */

import { encodedBytes, errorText, type Codec, type Encoded, type PayloadCodec } from "../../protocols/codec.ts";
import { isBuiltIn, ROUTING_KEYS, type Message, type PayloadName } from "../../protocols/messages.ts";
import type { Clock, ClockCalibration } from "./clock.ts";
import { compileEcho, compileLoop, compileValidated, type TimedLoop } from "./loops.ts";
import { ADDED_CHECKS, checksFor } from "../../protocols/validation.ts";
import { summarizeRuns, type BatchPercentiles, type CaseResult, type SliceFigures } from "./results.ts";
import type { ClientKind } from "./settings.ts";
import { percentileSorted } from "./statistics.ts";
import { describeMismatch, ownRoundTrips, sameMessage } from "./verify.ts";
import { inPhase, type TimeLedger } from "./time-account.ts";

/** What every case of one codec-mode run shares. */
export interface CodecCaseContext {
  clock: Clock;
  calibration: ClockCalibration;
  /** Messages per run (the article's loop: 100,000). */
  iterations: number;
  /** Untimed messages through the serialize and deserialize loops before the first timed slice: the verifying pass, then the messages over again, unchecked. */
  warmup: number;
  /**
   * Of those, the first through the echo and validated loops too (`warmup` where absent): they
   * cost a decode and an encode more per message, and each process's warm-up rounds run them as
   * well.
   */
  othersWarmup?: number;
  client: ClientKind;
  clientLibrary: string;
  /** Where the case's time goes: verify, warm-up, the timed loops. */
  ledger?: TimeLedger;
}

type Fn = (x: unknown) => unknown;

/** Frames one serialize loop made: the slice's first message (an index into the case's messages) and the frames. */
interface SliceFrames {
  start: number;
  count: number;
  frames: Encoded[];
}

/** Messages per chunk of the verifying pass: long enough against the clock to estimate a call's cost from. */
const VERIFY_CHUNK = 1024;

/** A power-of-two array (its mask) holding at least `n` results of a loop, so a slice keeps every result to check. */
function resultArray(n: number): { out: unknown[]; mask: number } {
  const size = 2 ** Math.ceil(Math.log2(Math.max(1, n)));
  return { out: new Array<unknown>(size), mask: size - 1 };
}

/** What the untimed passes reuse chunk after chunk: the frames, the decoded messages, the other loops' results. */
interface ChunkBuffers {
  frames: { out: unknown[]; mask: number };
  decoded: { out: unknown[]; mask: number };
  others: { out: unknown[]; mask: number };
  times: Float64Array;
}

function chunkBuffers(): ChunkBuffers {
  return {
    frames: resultArray(VERIFY_CHUNK),
    decoded: resultArray(VERIFY_CHUNK),
    others: resultArray(VERIFY_CHUNK),
    times: new Float64Array(1),
  };
}

/** Node's and Bun's Buffer, where there is one: its equals compares natively. */
const NativeBuffer = (
  globalThis as {
    Buffer?: { from(b: ArrayBufferLike, offset: number, length: number): { equals(o: Uint8Array): boolean } };
  }
).Buffer;

/** Whether two frames hold the same bytes (text: the same string). */
function sameFrame(a: Encoded, b: Encoded): boolean {
  if (typeof a === "string" || typeof b === "string") return a === b;
  if (a.byteLength !== b.byteLength) return false;
  if (NativeBuffer) return NativeBuffer.from(a.buffer, a.byteOffset, a.byteLength).equals(b);
  for (let i = 0; i < a.byteLength; i++) if (a[i] !== b[i]) return false;
  return true;
}

export class CodecCase {
  private readonly pc: PayloadCodec;
  private readonly encodeLoop: TimedLoop;
  private readonly decodeLoop: TimedLoop;
  /** Decode a frame, then encode what it gave: the server's echo, in its own compiled loop. */
  private readonly echoLoop: TimedLoop;
  private readonly echo: Fn;
  /**
   * Read-one: the payload's routing key (ROUTING_KEYS) from a frame, by the codec's readKey in its
   * own compiled loop; absent for a user's messages, which name no key. A codec that reads it by
   * a full decode has no loop of its own: its read-one is the decode of the same round (a decode
   * and a property read), so a run does not decode every message once more for it.
   */
  private readonly readOne: { key: string; own?: { read: Fn; loop: TimedLoop } } | undefined;
  /**
   * Validated: a decode and the checks that make its result a well-formed message of the payload
   * (protocols/validation.ts: what is added depends on Codec.decodeGuarantees), in its own
   * compiled loop; absent for a user's messages, which have no schema. Where nothing is added
   * (custom-binary) it is the decode of the same round, with no loop of its own.
   */
  private readonly validated: { run: Fn; loop: TimedLoop | undefined } | undefined;
  /** One call's cost, estimated from the verifying pass, ns (sizes the slices; read-one's, how many slices its loop reads). */
  encodeCallNs = NaN;
  decodeCallNs = NaN;
  readOneCallNs = NaN;
  /** Read-one's untimed reads so far: their time, ms, and count (its cost per read, summed over ticks a single chunk cannot resolve). */
  private readOneTimed = { ms: 0, reads: 0 };
  private bytes = { mean: NaN, min: NaN, max: NaN };
  /** Why the case failed: one line, or undefined while it has not. */
  error: string | undefined;
  /** What each message must decode to: itself, or for a lossy codec timed on request its own round trip. */
  private expected: readonly Message[];
  private readonly runs: SliceFigures[] = [];
  /** Messages per slice (the last slice of a run may hold fewer). */
  private sliceMessages = 0;
  /** The frames of the last slices' serialize loops, newest first: what the echo, read-one and validated loops read. */
  private history: SliceFrames[] = [];

  constructor(
    readonly codec: Codec,
    readonly payload: PayloadName,
    /** The messages this process times, in order; slices are stretches of them. */
    private readonly messages: readonly Message[],
    private readonly ctx: CodecCaseContext,
    /** A lossy codec timed on request (--allow-lossy): each message must decode to what the codec's own round trip gives. */
    private readonly ownRoundTrip = false,
  ) {
    this.expected = messages;
    let pc: PayloadCodec = { encode: () => "", decode: () => ({}) as Message };
    try {
      pc = codec.forPayload(payload);
    } catch (e) {
      this.error = `could not set up: ${errorText(e)}`;
    }
    this.pc = pc;
    this.echo = compileEcho(`${codec.name}_${payload}`, pc);
    this.encodeLoop = compileLoop(`${codec.name}_${payload}_serialize`);
    this.decodeLoop = compileLoop(`${codec.name}_${payload}_deserialize`);
    this.echoLoop = compileLoop(`${codec.name}_${payload}_echo`);
    if (isBuiltIn(payload)) {
      const key = ROUTING_KEYS[payload];
      // A readKey counts where keyAccess says how it reads (offset, lazy, scan); else the key comes from a full decode.
      const own = pc.readKey !== undefined && (codec.keyAccess ?? "decode") !== "decode";
      // Without a readKey of its own, read-one's figure is the round's decode, whose every message is compared.
      this.readOne = own
        ? { key, own: { read: pc.readKey!.bind(pc) as Fn, loop: compileLoop(`${codec.name}_${payload}_read_one`) } }
        : { key };
      const check = checksFor(codec, payload);
      this.validated = check
        ? {
            run: compileValidated(`${codec.name}_${payload}`, pc.decode as (d: never) => unknown, check),
            loop: compileLoop(`${codec.name}_${payload}_validated`),
          }
        : { run: pc.decode as Fn, loop: undefined };
    }
  }

  /**
   * Before any timing: every message through the compiled serialize and deserialize loops and
   * compared with what it must decode to (its size taken on the way), and its routing key read
   * (where read-one has a loop of its own); the echo and validated loops over the first
   * `othersWarmup` of those frames, every output checked. The pass is the loops' warm-up too; with `warmup` above
   * the messages, it goes round them again. Sets `error` on failure; `onStage` hears each step
   * begin.
   */
  prepare(onStage: (stage: "verify" | "warmup") => void): void {
    const ledger = this.ctx.ledger;
    onStage("verify");
    this.error = inPhase(ledger, "verify", () => this.verify());
    const verified = Math.min(this.messages.length, this.ctx.iterations);
    if (this.error === undefined && this.ctx.warmup > verified) {
      onStage("warmup");
      this.error = inPhase(ledger, "warmup", () => this.warmUpMore(this.ctx.warmup - verified));
    }
  }

  /** The verifying pass (see prepare); why a message failed (one line), or undefined when every one held. */
  private verify(): string | undefined {
    const { messages } = this;
    if (this.ownRoundTrip && isBuiltIn(this.payload))
      return "a codec's own round trip is expected on a user's messages only";
    if (this.ownRoundTrip) {
      try {
        this.expected = ownRoundTrips(this.codec.forPayload(this.payload), messages);
      } catch (e) {
        return `could not round-trip the messages: ${errorText(e)}`;
      }
    }
    /** Each chunk's loop times, ms, and its messages. */
    const chunks: { encodeMs: number; decodeMs: number; count: number }[] = [];
    let sum = 0;
    let min = Infinity;
    let max = 0;
    const buffers = chunkBuffers();
    // Past one run's messages they repeat (the same objects): each is checked once.
    const distinct = Math.min(messages.length, this.ctx.iterations);
    for (let start = 0; start < distinct; start += VERIFY_CHUNK) {
      const passed = this.throughLoops(start, Math.min(VERIFY_CHUNK, distinct - start), buffers, "did not round-trip");
      if (typeof passed === "string") return passed;
      const { chunk } = passed;
      chunks.push({ encodeMs: passed.encodeMs, decodeMs: passed.decodeMs, count: chunk.count });
      for (const frame of chunk.frames) {
        const size = encodedBytes(frame);
        sum += size;
        if (size < min) min = size;
        if (size > max) max = size;
      }
      // Every routing key read and checked; the echo and validated loops warm up on the frames of the first `othersWarmup` messages.
      const others = Math.min(chunk.count, (this.ctx.othersWarmup ?? this.ctx.warmup) - start);
      const wrong =
        this.readKeys(chunk, buffers.others, "") ??
        (others > 0
          ? this.echoAndValidate(
              others < chunk.count ? { start, count: others, frames: chunk.frames.slice(0, others) } : chunk,
              buffers.others,
            )
          : undefined);
      if (wrong !== undefined) return wrong;
    }
    this.bytes = { mean: sum / distinct, min, max };
    // The cost of a call once the loops are warm: the second half of the pass, its chunks' times
    // summed (each chunk's reading is off by up to a tick; on a coarse clock, a browser's, the sum
    // is not).
    const warm = chunks.slice(chunks.length >> 1);
    const messagesTimed = warm.reduce((n, c) => n + c.count, 0);
    this.encodeCallNs = (warm.reduce((ms, c) => ms + c.encodeMs, 0) * 1e6) / messagesTimed;
    this.decodeCallNs = (warm.reduce((ms, c) => ms + c.decodeMs, 0) * 1e6) / messagesTimed;
    return undefined;
  }

  /**
   * Warm-up beyond the verifying pass: `n` more messages through the serialize and deserialize
   * loops (the messages over again), nothing else. Every message has been checked once by then,
   * and every timed slice's outputs are checked; checking these too would double the warm-up's
   * cost, and a codec needs many calls to reach its steady state (docs/performance-notes.md, "Warm-up").
   */
  private warmUpMore(n: number): string | undefined {
    const b = chunkBuffers();
    const now = this.ctx.clock.now;
    for (let done = 0, count = 0; done < n; done += count) {
      const start = done % this.messages.length;
      count = Math.min(VERIFY_CHUNK, n - done, this.messages.length - start);
      try {
        const inputs = this.messages.slice(start, start + count);
        this.encodeLoop(now, this.pc.encode as Fn, inputs, b.frames.out, b.frames.mask, count, count, b.times);
        this.decodeLoop(now, this.pc.decode as Fn, b.frames.out, b.decoded.out, b.decoded.mask, count, count, b.times);
      } catch (e) {
        return `a message from #${start} to #${start + count - 1} threw in the warm-up: ${errorText(e)}`;
      }
    }
    return undefined;
  }

  /**
   * Messages [start, start + count) through the compiled serialize and deserialize loops, untimed,
   * every one compared with what it must decode to: the loops' times and the chunk's frames, or why
   * a message failed (one line: "message #N `failed`: ...").
   */
  private throughLoops(
    start: number,
    count: number,
    b: ChunkBuffers,
    failed: string,
  ): { encodeMs: number; decodeMs: number; chunk: SliceFrames } | string {
    const now = this.ctx.clock.now;
    let encodeMs: number;
    let decodeMs: number;
    try {
      encodeMs = this.encodeLoop(
        now,
        this.pc.encode as Fn,
        this.messages.slice(start, start + count),
        b.frames.out,
        b.frames.mask,
        count,
        count,
        b.times,
      );
      decodeMs = this.decodeLoop(
        now,
        this.pc.decode as Fn,
        b.frames.out,
        b.decoded.out,
        b.decoded.mask,
        count,
        count,
        b.times,
      );
    } catch (e) {
      return `a message from #${start} to #${start + count - 1} ${failed}: ${errorText(e)}`;
    }
    for (let i = 0; i < count; i++) {
      const expected = this.expected[start + i]!;
      if (!sameMessage(expected, b.decoded.out[i]))
        return `message #${start + i} ${failed}: ${describeMismatch(expected, b.decoded.out[i]) ?? "not equal"}`;
    }
    return { encodeMs, decodeMs, chunk: { start, count, frames: b.frames.out.slice(0, count) as Encoded[] } };
  }

  /**
   * The read-one loop over one chunk's frames, untimed, every key checked (and its cost per read
   * estimated); nothing where read-one is the decode, whose every message was compared.
   */
  private readKeys(from: SliceFrames, results: { out: unknown[]; mask: number }, what: string): string | undefined {
    const own = this.readOne?.own;
    if (!own) return undefined;
    const { count, frames } = from;
    try {
      this.readOneTimed.ms += own.loop(
        this.ctx.clock.now,
        own.read,
        frames,
        results.out,
        results.mask,
        count,
        count,
        new Float64Array(1),
      );
      this.readOneTimed.reads += count;
      this.readOneCallNs = (this.readOneTimed.ms * 1e6) / this.readOneTimed.reads;
    } catch (e) {
      return `${what}read-one of a message from #${from.start} to #${from.start + count - 1} threw: ${errorText(e)}`;
    }
    return this.checkKeys(from, results.out, `${what}read-one`);
  }

  /** The echo and validated loops over one chunk's frames, untimed, outputs checked. */
  private echoAndValidate(from: SliceFrames, results: { out: unknown[]; mask: number }): string | undefined {
    const now = this.ctx.clock.now;
    const times = new Float64Array(1);
    const { count, frames } = from;
    const mask = results.mask;
    try {
      this.echoLoop(now, this.echo, frames, results.out, mask, count, count, times);
      const wrongEcho = this.checkEchoed(from, results.out, "warm-up");
      if (wrongEcho !== undefined) return wrongEcho;
      if (this.validated?.loop) {
        this.validated.loop(now, this.validated.run, frames, results.out, mask, count, count, times);
        const wrong = this.checkDecoded(from.start, count, results.out, "warm-up's validated decode");
        if (wrong !== undefined) return wrong;
      } else if (this.validated) {
        for (let i = 0; i < count; i++) this.validated.run(frames[i]);
      }
    } catch (e) {
      return `message #${from.start} to #${from.start + count - 1}: ${errorText(e)}`;
    }
    return undefined;
  }

  /** How decoded messages [start, start + count) differ from what they must be (one line), or undefined. */
  private checkDecoded(
    start: number,
    count: number,
    decoded: readonly unknown[],
    what: string,
    only?: readonly number[],
  ): string | undefined {
    for (const i of only ?? Array.from({ length: count }, (_, k) => k)) {
      const expected = this.expected[start + i]!;
      if (!sameMessage(expected, decoded[i]))
        return `${what} gave message #${start + i} wrongly: ${describeMismatch(expected, decoded[i]) ?? "not equal"}`;
    }
    return undefined;
  }

  /** Echoed frames must be the frames read, byte for byte, or decode to the same message (a codec free to encode differently). */
  private checkEchoed(from: SliceFrames, echoed: readonly unknown[], what: string): string | undefined {
    for (let i = 0; i < from.count; i++) {
      const frame = echoed[i] as Encoded;
      if (sameFrame(frame, from.frames[i]!)) continue;
      let mismatch: string | undefined;
      try {
        mismatch = describeMismatch(this.expected[from.start + i]!, this.pc.decode(frame));
      } catch (e) {
        mismatch = errorText(e);
      }
      if (mismatch !== undefined) return `${what} echoed message #${from.start + i} wrongly: ${mismatch}`;
    }
    return undefined;
  }

  /** The keys read must be the messages' own; `keys[at + i]` is message i of `from`'s. */
  private checkKeys(from: SliceFrames, keys: readonly unknown[], what: string, at = 0): string | undefined {
    const key = this.readOne!.key;
    for (let i = 0; i < from.count; i++) {
      const want = (this.expected[from.start + i] as Record<string, unknown>)[key];
      if (!Object.is(keys[at + i], want))
        return `${what} read ${key} of message #${from.start + i} as ${JSON.stringify(keys[at + i])}, not ${JSON.stringify(want)}`;
    }
    return undefined;
  }

  /** The keys one read-one loop read, slice after slice. */
  private checkReadOne(slices: readonly SliceFrames[], keys: readonly unknown[], what: string): string | undefined {
    let at = 0;
    for (const s of slices) {
      const wrong = this.checkKeys(s, keys, what, at);
      if (wrong !== undefined) return wrong;
      at += s.count;
    }
    return undefined;
  }

  /**
   * One timed slice of messages [start, start + count): the serialize loop, the deserialize loop
   * over exactly its frames, then the echo loop over the frames of the slice before, the read-one
   * loop over those of the `readOneSlices` slices from two before, and the validated loop over those
   * of three before (each where it has a loop of its own and those slices exist), then, untimed,
   * the outputs checked (see the top of this file). Sets `error` on failure.
   */
  timeSlice(slice: {
    run: number;
    round: number;
    position: number;
    start: number;
    count: number;
    readOneSlices: number;
    /** A warm-up round (codec-mode.ts): run and checked as a timed one, its figures not kept. */
    warmup?: boolean;
  }): void {
    const { count, start } = slice;
    const now = this.ctx.clock.now;
    const ledger = this.ctx.ledger;
    const overheadNs = this.ctx.calibration.overheadNs;
    const inputs = this.messages.slice(start, start + count);
    const encoded = resultArray(count);
    const decoded = resultArray(count);
    const [h1, , h3] = this.history;
    // Read-one's slices: from two before, as many as asked, all there or none.
    const h2s = this.history.length >= 1 + slice.readOneSlices ? this.history.slice(1, 1 + slice.readOneSlices) : [];
    const h2 =
      h2s.length > 0
        ? { start: -1, count: h2s.reduce((n, h) => n + h.count, 0), frames: h2s.flatMap((h) => h.frames) }
        : undefined;
    const echoed = resultArray(h1?.count ?? 0);
    const keys = resultArray(h2?.count ?? 0);
    const validated = resultArray(h3?.count ?? 0);
    const times = new Float64Array(1);
    let encMs: number;
    let decMs: number;
    let echoMs = NaN;
    let readMs = NaN;
    let validatedMs = NaN;
    try {
      encMs = this.encodeLoop(now, this.pc.encode as Fn, inputs, encoded.out, encoded.mask, count, count, times);
      decMs = this.decodeLoop(now, this.pc.decode as Fn, encoded.out, decoded.out, decoded.mask, count, count, times);
      if (h1) echoMs = this.echoLoop(now, this.echo, h1.frames, echoed.out, echoed.mask, h1.count, h1.count, times);
      const own = this.readOne?.own;
      if (h2 && own) readMs = own.loop(now, own.read, h2.frames, keys.out, keys.mask, h2.count, h2.count, times);
      if (h3 && this.validated?.loop)
        validatedMs = this.validated.loop(
          now,
          this.validated.run,
          h3.frames,
          validated.out,
          validated.mask,
          h3.count,
          h3.count,
          times,
        );
    } catch (e) {
      this.error = `${slice.warmup ? "warm-up " : ""}round ${slice.round + 1} threw: ${errorText(e)}`;
      return;
    }
    const timedMs =
      encMs + decMs + [echoMs, readMs, validatedMs].reduce((sum, ms) => (Number.isNaN(ms) ? sum : sum + ms), 0);
    ledger?.add(slice.warmup ? "warmup" : "timed", timedMs);
    const frames: SliceFrames = { start, count, frames: encoded.out.slice(0, count) as Encoded[] };
    this.error = inPhase(ledger, "verify", () => {
      const where = `${slice.warmup ? "warm-up " : ""}round ${slice.round + 1}`;
      return (
        // Every one of these messages was verified before timing: the decode's first, middle and last are checked again.
        this.checkDecoded(start, count, decoded.out, `${where}'s decode`, [...new Set([0, count >> 1, count - 1])]) ??
        (h1 ? this.checkEchoed(h1, echoed.out, where) : undefined) ??
        (h2 && this.readOne?.own ? this.checkReadOne(h2s, keys.out, where) : undefined) ??
        (h3 && this.validated?.loop
          ? this.checkDecoded(h3.start, h3.count, validated.out, `${where}'s validated decode`)
          : undefined)
      );
    });
    if (this.error !== undefined) return;
    this.history = [frames, ...this.history.slice(0, Math.max(2, slice.readOneSlices))];
    if (slice.warmup) return;
    // The one batch reads the clock twice inside the whole-loop interval.
    const perMessage = (ms: number, n: number): number => Math.max(0, ms * 1e6 - 2 * overheadNs) / n;
    const serializeNs = perMessage(encMs, count);
    const deserializeNs = perMessage(decMs, count);
    this.runs.push({
      run: slice.run,
      round: slice.round,
      position: slice.position,
      serializeNs,
      deserializeNs,
      totalNs: serializeNs + deserializeNs,
      ...(h1 ? { echoNs: perMessage(echoMs, h1.count) } : {}),
      ...(this.readOne && (this.readOne.own ? h2 : true)
        ? { readOneNs: this.readOne.own ? perMessage(readMs, h2!.count) : deserializeNs }
        : {}),
      ...(this.validated && (this.validated.loop ? h3 : true)
        ? { validatedNs: this.validated.loop ? perMessage(validatedMs, h3!.count) : deserializeNs }
        : {}),
    });
    this.sliceMessages = Math.max(this.sliceMessages, count);
  }

  /**
   * The case's results so far, with its loop floor (the same loop around an
   * identity function) and the rounds it was meant to run.
   */
  result(loopFloorNs: number, libraryVersion: string, plannedRounds: number): CaseResult {
    const ok = this.error === undefined && this.runs.length > 0;
    const runs = this.runs;
    const summaries = summarizeRuns(runs, this.ctx.iterations);
    const flags: string[] = [];
    if (ok && (summaries.serialize.median < 2 * loopFloorNs || summaries.deserialize.median < 2 * loopFloorNs))
      flags.push("near-empty-loop");
    if (!this.codec.standard) flags.push("non-standard");
    if (ok && runs.length < plannedRounds) flags.push("partial");
    return {
      client: this.ctx.client,
      clientLibrary: this.ctx.clientLibrary,
      mode: "codec",
      codec: this.codec.name,
      standard: this.codec.standard,
      ...(this.codec.family ? { family: this.codec.family } : {}),
      frame: this.codec.frame,
      library: this.codec.library,
      libraryVersion,
      payload: this.payload,
      iterations: this.ctx.iterations,
      runs: new Set(runs.map((r) => r.run)).size,
      rounds: runs.length,
      warmup: this.ctx.warmup,
      bytes: this.bytes.mean,
      bytesMin: this.bytes.min,
      bytesMax: this.bytes.max,
      verified: ok,
      error: this.error ?? (runs.length === 0 ? "no timed round finished" : ""),
      ...summaries,
      ...(this.readOne ? { keyAccess: this.codec.keyAccess ?? "decode" } : {}),
      ...(this.validated ? { addedChecks: ADDED_CHECKS[this.codec.decodeGuarantees ?? "none"] } : {}),
      msgsPerS: ok ? 1e9 / summaries.total.median : NaN,
      serializeBatches: batchPercentiles(
        runs.map((r) => r.serializeNs),
        this.sliceMessages,
      ),
      deserializeBatches: batchPercentiles(
        runs.map((r) => r.deserializeNs),
        this.sliceMessages,
      ),
      loopFloorNs,
      flags,
      raw: runs,
    };
  }
}

export function batchPercentiles(samples: number[], batch: number): BatchPercentiles {
  const sorted = Float64Array.from(samples).sort();
  return {
    batch,
    samples: sorted.length,
    p50: percentileSorted(sorted, 50),
    p90: percentileSorted(sorted, 90),
    p99: percentileSorted(sorted, 99),
  };
}
