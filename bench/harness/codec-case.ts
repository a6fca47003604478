/**
 * One codec x payload of codec mode: verified once, warmed up once, then
 * timed run by run. Each case owns its compiled loops (see loops.ts), so no
 * call site is shared between codecs.
 */

import { encodedBytes, errorText, type Codec, type Encoded, type PayloadCodec } from "../../protocols/codec.ts";
import { isBuiltIn, ROUTING_KEYS, type Message, type PayloadName } from "../../protocols/messages.ts";
import type { Clock, ClockCalibration } from "./clock.ts";
import { compileEcho, compileLoop, compileValidated, SINK_SIZE, type TimedLoop } from "./loops.ts";
import { ADDED_CHECKS, checksFor } from "../../protocols/validation.ts";
import { summarizeRuns, type BatchPercentiles, type CaseResult, type SliceFigures } from "./results.ts";
import { minBatchNs } from "./schedule.ts";
import type { ClientKind } from "./settings.ts";
import { percentileSorted } from "./statistics.ts";
import { describeMismatch, ownRoundTrips, sameMessage } from "./verify.ts";
import { inPhase, type TimeLedger } from "./time-account.ts";

/** What every case of one codec-mode run shares. */
export interface CodecCaseContext {
  clock: Clock;
  calibration: ClockCalibration;
  iterations: number;
  warmup: number;
  client: ClientKind;
  clientLibrary: string;
  /** Where the case's time goes: verify, warm-up, the timed loops, the frames made between them. */
  ledger?: TimeLedger;
}

type Fn = (x: unknown) => unknown;

/**
 * The messages the loops after the decode run on, each list as long as the case's and never
 * the same messages (the same list where there can be no others: a user's own messages, or
 * --fixed), so no loop decodes a frame another loop has just decoded.
 */
export interface FreshLists {
  echo: readonly Message[];
  readOne: readonly Message[];
  validated: readonly Message[];
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
  private readonly readOne: { key: string; read: Fn; loop: TimedLoop | undefined } | undefined;
  /**
   * Validated: a decode and the checks that make its result a well-formed message of the payload
   * (protocols/validation.ts: what is added depends on Codec.decodeGuarantees), in its own
   * compiled loop; absent for a user's messages, which have no schema. Where nothing is added
   * (custom-binary) it is the decode of the same round, with no loop of its own.
   */
  private readonly validated: { run: Fn; loop: TimedLoop | undefined } | undefined;
  /** One call's cost, estimated after the warm-up, ns (sizes the slices). */
  encodeCallNs = NaN;
  decodeCallNs = NaN;
  private bytes = { mean: NaN, min: NaN, max: NaN };
  /** Why the case failed: one line, or undefined while it has not. */
  error: string | undefined;
  /** What each message must decode to: itself, or for a lossy codec timed on request its own round trip. */
  private expected: readonly Message[];
  private readonly runs: SliceFigures[] = [];
  /** Messages per slice (the last slice of a run may hold fewer). */
  private sliceMessages = 0;

  /** The messages the echo, read-one and validated loops run on (FreshLists). */
  private readonly fresh: FreshLists;

  constructor(
    readonly codec: Codec,
    readonly payload: PayloadName,
    private readonly messages: Message[],
    private readonly ctx: CodecCaseContext,
    /** A lossy codec timed on request (--allow-lossy): each message must decode to what the codec's own round trip gives. */
    private readonly ownRoundTrip = false,
    fresh?: FreshLists,
  ) {
    this.expected = messages;
    this.fresh = fresh ?? { echo: messages, readOne: messages, validated: messages };
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
      this.readOne = own
        ? { key, read: pc.readKey!.bind(pc) as Fn, loop: compileLoop(`${codec.name}_${payload}_read_one`) }
        : // Untimed (its figure is the round's decode): read only to check every message's key before timing.
          { key, read: (frame) => (pc.decode(frame as Encoded) as Record<string, unknown>)[key], loop: undefined };
      const check = checksFor(codec, payload);
      this.validated = check
        ? { run: compileValidated(`${codec.name}_${payload}`, pc.decode as (d: never) => unknown, check), loop: compileLoop(`${codec.name}_${payload}_validated`) }
        : { run: pc.decode as Fn, loop: undefined };
    }
  }

  /** Verifies every message, then warms up; sets `error` on failure. `onStage` hears each step begin. */
  prepare(onStage: (stage: "verify" | "warmup") => void): void {
    const ledger = this.ctx.ledger;
    onStage("verify");
    this.error = inPhase(ledger, "verify", () => this.verify());
    if (this.error === undefined) {
      onStage("warmup");
      this.error = inPhase(ledger, "warmup", () => this.warmUp());
    }
  }

  /** Round-trips every message; why one is not exact (one line), or undefined when all are. */
  private verify(): string | undefined {
    const { pc, messages } = this;
    if (this.ownRoundTrip && isBuiltIn(this.payload)) return "a codec's own round trip is expected on a user's messages only";
    if (this.ownRoundTrip) {
      try {
        this.expected = ownRoundTrips(this.codec.forPayload(this.payload), messages);
      } catch (e) {
        return `could not round-trip the messages: ${errorText(e)}`;
      }
    }
    const expected = this.expected;
    let sum = 0;
    let min = Infinity;
    let max = 0;
    for (let i = 0; i < messages.length; i++) {
      const message = messages[i]!;
      let encoded: Encoded;
      let decoded: unknown;
      try {
        encoded = pc.encode(message);
        decoded = pc.decode(encoded);
      } catch (e) {
        return `message #${i} did not round-trip: ${errorText(e)}`;
      }
      if (!sameMessage(expected[i]!, decoded)) return `message #${i} did not round-trip: ${describeMismatch(expected[i]!, decoded) ?? "not equal"}`;
      const wrongKey = this.readOneMismatch(expected[i]!, encoded);
      if (wrongKey !== undefined) return `message #${i}: ${wrongKey}`;
      if (this.validated) {
        try {
          this.validated.run(encoded);
        } catch (e) {
          return `message #${i} was refused by the validated decode: ${errorText(e)}`;
        }
      }
      const size = encodedBytes(encoded);
      sum += size;
      if (size < min) min = size;
      if (size > max) max = size;
    }
    this.bytes = { mean: sum / messages.length, min, max };
    return this.verifyFresh();
  }

  /** The echo, read-one and validated loops' own messages, checked as the case's are (when they are other messages). */
  private verifyFresh(): string | undefined {
    const { pc, fresh, messages } = this;
    const lists = [
      ["echo", fresh.echo, true],
      ["read-one", fresh.readOne, this.readOne?.loop !== undefined],
      ["validated", fresh.validated, this.validated?.loop !== undefined],
    ] as const;
    for (const [what, list, timed] of lists) {
      if (list === messages || !timed) continue;
      for (let i = 0; i < list.length; i++) {
        const message = list[i]!;
        try {
          const encoded = pc.encode(message);
          const decoded = what === "validated" ? this.validated!.run(encoded) : pc.decode(encoded);
          if (!sameMessage(message, decoded)) return `${what} message #${i} did not round-trip: ${describeMismatch(message, decoded) ?? "not equal"}`;
          const wrongKey = what === "read-one" ? this.readOneMismatch(message, encoded) : undefined;
          if (wrongKey !== undefined) return `${what} message #${i}: ${wrongKey}`;
        } catch (e) {
          return `${what} message #${i} did not round-trip: ${errorText(e)}`;
        }
      }
    }
    return undefined;
  }

  /** How read-one's key of `frame` differs from `message`'s (one line), or undefined when it is the same or the case has no read-one. */
  private readOneMismatch(message: Message, frame: Encoded): string | undefined {
    if (this.readOne === undefined) return undefined;
    const { key, read } = this.readOne;
    const want = (message as Record<string, unknown>)[key];
    let got: unknown;
    try {
      got = read(frame);
    } catch (e) {
      return `read-one of ${key} threw: ${errorText(e)}`;
    }
    return Object.is(got, want) ? undefined : `read-one gave ${key} = ${JSON.stringify(got)}, the message holds ${JSON.stringify(want)}`;
  }

  /**
   * Untimed warm-up over `warmup` messages, twice, so the loops and the codec
   * reach the engine's optimising tiers; then the cost of one call is
   * estimated to size the batches.
   */
  private warmUp(): string | undefined {
    const n = Math.min(Math.max(this.ctx.warmup, 1), this.messages.length);
    const ring = new Array<unknown>(SINK_SIZE);
    const one = new Float64Array(1);
    const now = this.ctx.clock.now;
    try {
      const encoded = this.encodeAll();
      for (let pass = 0; pass < 2; pass++) {
        this.encodeLoop(now, this.pc.encode as Fn, this.messages, ring, SINK_SIZE - 1, n, n, one);
        this.decodeLoop(now, this.pc.decode as Fn, encoded, ring, SINK_SIZE - 1, n, n, one);
        this.echoLoop(now, this.echo, encoded, ring, SINK_SIZE - 1, n, n, one);
        this.readOne?.loop?.(now, this.readOne.read, encoded, ring, SINK_SIZE - 1, n, n, one);
        this.validated?.loop?.(now, this.validated.run, encoded, ring, SINK_SIZE - 1, n, n, one);
      }
      this.encodeCallNs = this.estimateCallNs(this.encodeLoop, this.pc.encode as Fn, this.messages);
      this.decodeCallNs = this.estimateCallNs(this.decodeLoop, this.pc.decode as Fn, encoded);
    } catch (e) {
      return `warm-up threw: ${errorText(e)}`;
    }
    return undefined;
  }

  /** Messages encoded (untimed), by default every message of the case. */
  private encodeAll(messages: readonly Message[] = this.messages): Encoded[] {
    const out = new Array<Encoded>(messages.length);
    for (let i = 0; i < messages.length; i++) out[i] = this.pc.encode(messages[i]!);
    return out;
  }

  /**
   * Cost of one call, from a stretch of calls long enough for the clock: the
   * count grows fourfold until the stretch lasts the minimum batch time or
   * covers every message. A short warm-up under a coarse clock (a browser's
   * 100 µs) would otherwise misjudge it by whole ticks.
   */
  private estimateCallNs(loop: TimedLoop, fn: Fn, inputs: readonly unknown[]): number {
    const ring = new Array<unknown>(SINK_SIZE);
    const one = new Float64Array(1);
    const target = minBatchNs(this.ctx.calibration);
    for (let k = Math.min(64, inputs.length); ; k = Math.min(k * 4, inputs.length)) {
      const ns = loop(this.ctx.clock.now, fn, inputs, ring, SINK_SIZE - 1, k, k, one) * 1e6;
      if (ns >= target || k === inputs.length) return ns / k;
    }
  }

  /**
   * One timed slice: a serialize loop over messages [start, start + count),
   * then a deserialize loop over their encodings (made in between, untimed,
   * and dropped after the slice), then an echo loop (decode, and encode what
   * it gave, as the server does), then, for a built-in payload, a read-one
   * loop (the routing key of each) and a validated loop (decode and the
   * checks), each where it is not the decode itself. Each loop after the
   * deserialize loop runs on the same positions of its own messages
   * (FreshLists), encoded untimed before it; sets `error` on failure.
   */
  timeSlice(slice: { run: number; round: number; position: number; start: number; count: number }): void {
    const { count } = slice;
    const now = this.ctx.clock.now;
    const overheadNs = this.ctx.calibration.overheadNs;
    const inputs = this.messages.slice(slice.start, slice.start + count);
    const encodedRing = new Array<unknown>(SINK_SIZE);
    const decodedRing = new Array<unknown>(SINK_SIZE);
    const echoedRing = new Array<unknown>(SINK_SIZE);
    const keyRing = new Array<unknown>(SINK_SIZE);
    const validatedRing = new Array<unknown>(SINK_SIZE);
    const times = new Float64Array(1);
    let encMs: number;
    let decMs: number;
    let echoMs: number;
    let readMs = NaN;
    let validatedMs = NaN;
    const ledger = this.ctx.ledger;
    let framesMs = 0;
    try {
      encMs = this.encodeLoop(now, this.pc.encode as Fn, inputs, encodedRing, SINK_SIZE - 1, count, count, times);
      let t0 = now();
      const encoded = this.encodeAll(inputs);
      framesMs += now() - t0;
      decMs = this.decodeLoop(now, this.pc.decode as Fn, encoded, decodedRing, SINK_SIZE - 1, count, count, times);
      // Each loop after the decode gets frames of its own messages, none decoded before: a decoder's caches
      // (JavaScriptCore's JSON.parse keeps the strings it has just read) would make a second pass over the
      // same frames cheaper than a server's one pass over each message.
      const framesOf = (list: readonly Message[]): Encoded[] => {
        if (list === this.messages) return encoded;
        t0 = now();
        const frames = this.encodeAll(list.slice(slice.start, slice.start + count));
        framesMs += now() - t0;
        return frames;
      };
      echoMs = this.echoLoop(now, this.echo, framesOf(this.fresh.echo), echoedRing, SINK_SIZE - 1, count, count, times);
      if (this.readOne?.loop) readMs = this.readOne.loop(now, this.readOne.read, framesOf(this.fresh.readOne), keyRing, SINK_SIZE - 1, count, count, times);
      if (this.validated?.loop) validatedMs = this.validated.loop(now, this.validated.run, framesOf(this.fresh.validated), validatedRing, SINK_SIZE - 1, count, count, times);
    } catch (e) {
      this.error = `round ${slice.round + 1} threw: ${errorText(e)}`;
      return;
    } finally {
      ledger?.add("messages", framesMs);
    }
    ledger?.add("timed", encMs + decMs + echoMs + (Number.isNaN(readMs) ? 0 : readMs) + (Number.isNaN(validatedMs) ? 0 : validatedMs));
    const rings = { encoded: encodedRing, decoded: decodedRing, echoed: echoedRing, keys: keyRing, validated: validatedRing };
    this.error = inPhase(ledger, "verify", () => this.spotCheck(count, slice.start, rings));
    if (this.error !== undefined) return;
    // The one batch reads the clock twice inside the whole-loop interval.
    const perMessage = (ms: number): number => Math.max(0, ms * 1e6 - 2 * overheadNs) / count;
    const serializeNs = perMessage(encMs);
    const deserializeNs = perMessage(decMs);
    this.runs.push({
      run: slice.run,
      round: slice.round,
      position: slice.position,
      serializeNs,
      deserializeNs,
      totalNs: serializeNs + deserializeNs,
      echoNs: perMessage(echoMs),
      ...(this.readOne ? { readOneNs: this.readOne.loop ? perMessage(readMs) : deserializeNs } : {}),
      ...(this.validated ? { validatedNs: this.validated.loop ? perMessage(validatedMs) : deserializeNs } : {}),
    });
    this.sliceMessages = Math.max(this.sliceMessages, count);
  }

  /**
   * Checks what a timed slice left in its result rings: a few of its last
   * encoded and echoed messages must decode (untimed) to the original, the
   * last decoded and validated ones must equal the originals, and the last
   * keys read must be theirs.
   */
  private spotCheck(n: number, start: number, rings: Record<"encoded" | "decoded" | "echoed" | "keys" | "validated", unknown[]>): string | undefined {
    const last = Math.min(n, SINK_SIZE);
    const { fresh } = this;
    // The echo, read-one and validated loops ran on their own messages (their lists' index start + i).
    const expectedOf = (list: readonly Message[], i: number): Message => (list === this.messages ? this.expected[start + i]! : list[start + i]!);
    // A slice can hold a single message (the last of a run): never look before its first.
    for (const back of new Set([1, 2, Math.ceil(last / 2), last].filter((b) => b >= 1 && b <= n))) {
      const i = n - back;
      const message = this.expected[start + i]!;
      const slot = i & (SINK_SIZE - 1);
      const mismatch = describeMismatch(message, rings.decoded[slot]);
      if (mismatch !== undefined) return `timed slice decoded message #${start + i} wrongly: ${mismatch}`;
      const keyed = expectedOf(fresh.readOne, i) as Record<string, unknown>;
      if (this.readOne?.loop && !Object.is(rings.keys[slot], keyed[this.readOne.key])) {
        return `timed slice read ${this.readOne.key} of message #${start + i} as ${JSON.stringify(rings.keys[slot])}, not ${JSON.stringify(keyed[this.readOne.key])}`;
      }
      const wrongValidated = this.validated?.loop && describeMismatch(expectedOf(fresh.validated, i), rings.validated[slot]);
      if (wrongValidated) return `timed slice validated message #${start + i} wrongly: ${wrongValidated}`;
      for (const [what, ring, list] of [["encoded", rings.encoded, this.messages], ["echoed", rings.echoed, fresh.echo]] as const) {
        const wrong = this.decodeMismatch(expectedOf(list, i), ring[slot] as Encoded);
        if (wrong !== undefined) return `timed slice ${what} message #${start + i} wrongly: ${wrong}`;
      }
    }
    return undefined;
  }

  /** How `frame` fails to decode (untimed) to `message`, or undefined when it does. */
  private decodeMismatch(message: Message, frame: Encoded): string | undefined {
    try {
      return describeMismatch(message, this.pc.decode(frame));
    } catch (e) {
      return errorText(e);
    }
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
    if (ok && (summaries.serialize.median < 2 * loopFloorNs || summaries.deserialize.median < 2 * loopFloorNs)) flags.push("near-empty-loop");
    if (!this.codec.standard) flags.push("non-standard");
    if (ok && runs.length < plannedRounds) flags.push("partial");
    return {
      client: this.ctx.client,
      clientLibrary: this.ctx.clientLibrary,
      mode: "codec",
      codec: this.codec.name,
      standard: this.codec.standard,
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
      msgsPerS: ok ? 1e9 / summaries.total.mean : NaN,
      serializeBatches: batchPercentiles(runs.map((r) => r.serializeNs), this.sliceMessages),
      deserializeBatches: batchPercentiles(runs.map((r) => r.deserializeNs), this.sliceMessages),
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
