/**
 * `codec` mode: serialize and deserialize in process, no socket. A process
 * times a share of the run's messages (its span: codec-mode-spans.ts
 * spreads a run over several processes), for every codec x payload (a
 * "case", codec-case.ts):
 *
 *  1. make only the messages of its span;
 *  2. verify: every message goes through the codec's compiled loops and must
 *     round-trip exactly, or the case is reported as failed and never timed;
 *     then the serialize and deserialize loops go round the messages again,
 *     unchecked, until they have had --warmup of them (100,000 by default:
 *     a codec's steady state takes that many calls, whatever the span);
 *  3. warm-up rounds (WARMUP_ROUNDS): the first slices timed as below, their
 *     figures not kept: a process's first rounds read every codec high
 *     against JSON, whatever the warm-up before them;
 *  4. time the span's messages, cut into short slices and interleaved: in
 *     each round every codec of the payload times one slice (the same
 *     messages for all), in an order shuffled per round, each codec in its
 *     own compiled loops. The machine's speed drifts over milliseconds to
 *     seconds; codecs measured in the same round see the same drift, so
 *     their ratio, taken round by round, holds.
 *
 * A full collection runs before each run; within it collections land
 * where they fall, as in an application (the median per slice shrugs them
 * off, the mean includes them). Nothing here prints.
 */

import type { Codec } from "../../protocols/codec.ts";
import type { Message, PayloadName } from "../../protocols/messages.ts";
import type { Clock, ClockCalibration } from "./clock.ts";
import { CodecCase } from "./codec-case.ts";
import { isExcluded } from "./exclusions.ts";
import { messagesFor } from "./generator.ts";
import { createRng } from "./random.ts";
import { compileLoop, SINK_SIZE } from "./loops.ts";
import type { BenchmarkHooks } from "./progress.ts";
import type { CaseResult } from "./results.ts";
import { minBatchNs, readOneSlices, shuffled, sliceSize } from "./schedule.ts";
import { checksOwnRoundTrip, type ClientKind, type Settings } from "./settings.ts";
import { inPhase } from "./time-account.ts";

/** A share of codec mode's work, in runs: positions [from x iterations, to x iterations) of the messages, run after run. */
export interface CodecModeSpan {
  from: number;
  to: number;
  /**
   * Messages each codec goes through before the timed rounds, at least (the verifying pass, then
   * the messages over again): where each span is a process of its own, every process of a run
   * warms up alike, however long its span (codec-mode-spans.ts). 0: the span's process has warmed
   * these codecs up already (an earlier span in the same process): the verifying pass only.
   */
  warmup?: number;
}

/** What codec mode needs besides the settings. */
export interface CodecModeContext extends BenchmarkHooks {
  /** The codecs to measure (usually the registry's, picked by `settings.codecs`). */
  codecs: readonly Codec[];
  clock: Clock;
  calibration: ClockCalibration;
  /** Who runs the codecs: "inprocess" from the CLI, "browser" in the page. */
  client?: ClientKind;
  /** For the browser: its user agent. */
  clientLibrary?: string;
  /** The share of the runs this process times (codec-mode-spans.ts); absent: every run. */
  span?: CodecModeSpan;
  /** The payloads to time, of the settings' (a span that extends the imprecise ones only); absent: all of them. */
  payloads?: readonly PayloadName[];
}

/**
 * Resident memory past which a full collection follows a case's verifying pass. Each pass leaves
 * its garbage (every message encoded and decoded once); a dozen codecs' passes back to back, on
 * the game tick's large messages, held a process at 850 MiB where its rounds need 350-500.
 */
const RESIDENT_BUDGET = 400 * 1048576;

export interface CodecModeResult {
  /** The cases that ran (every case of the payloads reached; a stop leaves the rest out). */
  cases: CaseResult[];
  /** shouldStop ended the run early. */
  stopped: boolean;
  /** order[payloadIndex][round] = codec names in the order they ran (the settings' payloads; a payload not timed has no rounds). */
  order: string[][][];
  minBatchNs: number;
  /** Messages per slice, by payload. */
  slices: Record<string, number>;
  /** Wall time per payload in this span, ms: what the next span of that payload is expected to take. */
  payloadMs: Record<string, number>;
  /** Of that, the time before its rounds (its messages made, verified and warmed up), ms: a fresh process's fixed cost. */
  prepareMs: Record<string, number>;
}

/**
 * Rounds each process runs, per payload, before its timed ones: scheduled and checked as timed
 * rounds, not kept. In five codec-mode runs here (3 to 10 processes each, a warm-up of 5,000 to
 * 300,000 messages a codec), a process's first three rounds read the codecs 15-23% higher
 * against JSON than its rounds from the 20th on, rounds 4 to 6 0-11% higher, later ones within
 * the noise: the verifying pass, run a codec at a time, does not bring the interleaved rounds to
 * their steady state. docs/methodology.md has the figures.
 */
export const WARMUP_ROUNDS = 8;

/**
 * Messages the echo and validated loops warm up on, at most, in the verifying pass: each costs a
 * decode and an encode more per message than the serialize and deserialize loops, and each
 * process's warm-up rounds run them as well.
 */
const OTHERS_WARMUP = 5_000;

/** One turn of the event loop (a signal handler may run): setImmediate where there is one, a timer in a browser. */
const yieldToEventLoop = (): Promise<void> =>
  new Promise((resolve) => (typeof setImmediate === "function" ? setImmediate(resolve) : setTimeout(resolve, 0)));

/** The time per message of the timed loop around an identity function, over `inputs`. */
function loopFloor(inputs: readonly Message[], label: string, ctx: CodecModeContext): number {
  const n = inputs.length;
  const loop = compileLoop(`floor_${label}`);
  const out = new Array<unknown>(SINK_SIZE);
  const times = new Float64Array(1);
  const identity = (x: unknown): unknown => x;
  loop(ctx.clock.now, identity, inputs, out, SINK_SIZE - 1, n, n, times);
  const ms = loop(ctx.clock.now, identity, inputs, out, SINK_SIZE - 1, n, n, times);
  return Math.max(0, ms * 1e6 - ctx.calibration.overheadNs) / Math.max(1, n);
}

/** A span's first and last position (exclusive) of the messages, run after run: a run is `iterations` positions. */
function spanPositions(span: CodecModeSpan, iterations: number): { first: number; end: number } {
  return { first: Math.round(span.from * iterations), end: Math.round(span.to * iterations) };
}

/**
 * The messages at positions [first, end): position q holds message q mod `iterations` of the
 * run's sequence, so a span longer than a run holds each message more than once (the same
 * object). Only the messages the span holds are made.
 */
function spanMessages(settings: Settings, payload: PayloadName, first: number, end: number): Message[] {
  const n = settings.iterations.codec;
  const count = end - first;
  const from = first % n;
  if (count >= n) {
    const all = messagesFor(settings, payload, n);
    return Array.from({ length: count }, (_, i) => all[(from + i) % n]!);
  }
  const head = messagesFor(settings, payload, Math.min(count, n - from), settings.seed, from);
  return head.length === count ? head : [...head, ...messagesFor(settings, payload, count - head.length)];
}

/**
 * Progress units of codec mode over `span` of the runs, for `payloads` payloads of `codecs`
 * codecs: per case, the span's runs timed and its verifying pass over the same messages (about
 * half the work of timing them).
 */
export function codecModeUnits(payloads: number, codecs: number, span: CodecModeSpan): number {
  return payloads * codecs * 1.5 * (span.to - span.from);
}

/** The span's slices of `size` messages (never across a run's end): their first position and count. */
function slicesOf(
  first: number,
  end: number,
  size: number,
  iterations: number,
): { start: number; count: number; run: number }[] {
  const out: { start: number; count: number; run: number }[] = [];
  for (let q = first; q < end; ) {
    const runEnd = (Math.floor(q / iterations) + 1) * iterations;
    const count = Math.min(size, end - q, runEnd - q);
    out.push({ start: q - first, count, run: Math.floor(q / iterations) });
    q += count;
  }
  return out;
}

export async function runCodecMode(settings: Settings, ctx: CodecModeContext): Promise<CodecModeResult> {
  const now = ctx.clock.now;
  const started = now();
  const iterations = settings.iterations.codec;
  const span = ctx.span ?? { from: 0, to: settings.runs.codec };
  const { first, end } = spanPositions(span, iterations);
  const payloads = settings.payloads.filter((p) => ctx.payloads?.includes(p) ?? true);
  const versionOf = ctx.libraryVersion ?? (() => "");
  const ledger = ctx.ledger;
  const caseContext = {
    clock: ctx.clock,
    calibration: ctx.calibration,
    iterations,
    warmup: span.warmup === 0 ? 0 : Math.max(settings.warmup.codec, span.warmup ?? 0),
    othersWarmup: Math.min(settings.warmup.codec, OTHERS_WARMUP),
    client: ctx.client ?? "inprocess",
    clientLibrary: ctx.clientLibrary ?? "",
    ledger,
  };
  // Each span shuffles its rounds its own way.
  const rng = createRng(settings.seed ^ 0x5bd1e995 ^ Math.imul(first + 1, 0x27d4eb2d));
  const order: string[][][] = settings.payloads.map(() => []);
  const results: CaseResult[] = [];
  const slices: Record<string, number> = {};
  const payloadMs: Record<string, number> = {};
  const prepareMs: Record<string, number> = {};
  const total = codecModeUnits(payloads.length, ctx.codecs.length, span);
  let done = 0;
  let stopped = false;

  for (const payload of payloads) {
    const payloadStarted = now();
    const messages = inPhase(ledger, "messages", () => spanMessages(settings, payload, first, end));
    const cases = ctx.codecs
      .filter((codec) => !isExcluded(settings, codec.name, payload))
      .map((codec) => new CodecCase(codec, payload, messages, caseContext, checksOwnRoundTrip(settings, payload)));
    const progress = (stage: "verify" | "warmup" | "run", codec: string, run: number): void =>
      ctx.onProgress?.({
        mode: "codec",
        stage,
        codec,
        payload,
        run,
        runs: settings.runs.codec,
        done: Math.round(done),
        total,
        elapsedMs: now() - started,
      });
    for (const c of cases) {
      if (c.error === undefined) c.prepare((stage) => progress(stage, c.codec.name, Math.floor(span.from)));
      done += 0.5 * (span.to - span.from);
      if (ctx.gc && (ctx.residentBytes?.() ?? 0) > RESIDENT_BUDGET) inPhase(ledger, "collections", ctx.gc);
    }
    const floor = inPhase(ledger, "timed", () =>
      loopFloor(messages.slice(0, Math.min(messages.length, iterations)), payload, ctx),
    );
    const costs = cases
      .filter((c) => c.error === undefined)
      .map((c) => ({ encodeNs: c.encodeCallNs, decodeNs: c.decodeCallNs }));
    const size = (slices[payload] = sliceSize(costs, ctx.calibration, end - first));
    prepareMs[payload] = now() - payloadStarted;
    const payloadOrder = order[settings.payloads.indexOf(payload)]!;
    const plan = slicesOf(first, end, size, iterations);
    const ready = cases.filter((c) => c.error === undefined);
    for (const [round, slice] of plan.slice(0, WARMUP_ROUNDS).entries())
      for (const [position, c] of shuffled(ready, rng).entries())
        c.timeSlice({
          ...slice,
          round,
          position,
          readOneSlices: readOneSlices(c.readOneCallNs, size, ctx.calibration),
          warmup: true,
        });
    let run = -1;
    for (const [round, slice] of plan.entries()) {
      // A full collection before each run, so one run's garbage is not collected on the next one's clock.
      if (slice.run !== run && ctx.gc) inPhase(ledger, "collections", ctx.gc);
      run = slice.run;
      const runOrder = shuffled(
        cases.filter((c) => c.error === undefined),
        rng,
      );
      payloadOrder.push(runOrder.map((c) => c.codec.name));
      runOrder.forEach((c, position) =>
        c.timeSlice({
          run,
          round,
          position,
          start: slice.start,
          count: slice.count,
          readOneSlices: readOneSlices(c.readOneCallNs, size, ctx.calibration),
        }),
      );
      done += (cases.length * (span.to - span.from)) / plan.length;
      progress("run", `round ${round + 1}/${plan.length}`, run);
      // Let a signal handler run; stop at a round boundary, every case keeping its finished rounds.
      await yieldToEventLoop();
      if (ctx.shouldStop?.()) {
        stopped = true;
        break;
      }
    }
    for (const c of cases) {
      const result = c.result(floor, versionOf(c.codec.library), plan.length);
      results.push(result);
      ctx.onCaseDone?.(result);
    }
    payloadMs[payload] = now() - payloadStarted;
    if (stopped) break;
  }
  return { cases: results, order, stopped, minBatchNs: minBatchNs(ctx.calibration), slices, payloadMs, prepareMs };
}
