/**
 * `codec` mode: serialize and deserialize in process, no socket. For every
 * codec x payload (a "case", codec-case.ts):
 *
 *  1. verify: every message must round-trip exactly, or the case is reported
 *     as failed and never timed;
 *  2. warm up (untimed), which also estimates the cost of one call;
 *  3. time `runs` runs over `iterations` messages, cut into short slices
 *     and interleaved: in each round every codec of the payload times one
 *     slice (the same messages for all: a serialize loop, then a
 *     deserialize loop over their encodings), in an order shuffled per
 *     round, each codec in its own compiled loops. The machine's speed
 *     drifts over milliseconds to seconds; codecs measured in the same round
 *     see the same drift, so their ratio, taken round by round, holds.
 *
 * A full collection runs before each run; within it collections land
 * where they fall, as in an application (the median per slice shrugs them
 * off, the mean includes them). Nothing here prints.
 */

import type { Codec } from "../../protocols/codec.ts";
import { isBuiltIn, type Message, type PayloadName } from "../../protocols/messages.ts";
import type { Clock, ClockCalibration } from "./clock.ts";
import { CodecCase, type FreshLists } from "./codec-case.ts";
import { isExcluded } from "./exclusions.ts";
import { messagesFor } from "./generator.ts";
import { createRng } from "./random.ts";
import { compileLoop, SINK_SIZE } from "./loops.ts";
import type { RunHooks } from "./progress.ts";
import { inPhase } from "./time-account.ts";
import type { CaseResult } from "./results.ts";
import { minBatchNs, shuffled, sliceSize } from "./schedule.ts";
import type { ClientKind, Settings } from "./settings.ts";

/** What codec mode needs besides the settings. */
export interface CodecModeContext extends RunHooks {
  /** The codecs to measure (usually the registry's, picked by `settings.codecs`). */
  codecs: readonly Codec[];
  clock: Clock;
  calibration: ClockCalibration;
  /** Who runs the codecs: "inprocess" from the CLI, "browser" in the page. */
  client?: ClientKind;
  /** For the browser: its user agent. */
  clientLibrary?: string;
  /**
   * The share of the runs this process times when codec mode is spread
   * over several (codec-mode-spans.ts), in runs: the rounds whose place
   * `run + k / roundsPerRun` falls in [from, to). Absent: every round.
   */
  span?: { from: number; to: number };
}

export interface CodecModeResult {
  /** The cases that ran (every case of the payloads reached; a stop leaves the rest out). */
  cases: CaseResult[];
  /** shouldStop ended the run early. */
  stopped: boolean;
  /** order[payloadIndex][round] = codec names in the order they ran. */
  order: string[][][];
  minBatchNs: number;
  /** Messages per slice, by payload. */
  slices: Record<string, number>;
}

/** One turn of the event loop (a signal handler may run): setImmediate where there is one, a timer in a browser. */
const yieldToEventLoop = (): Promise<void> =>
  new Promise((resolve) => (typeof setImmediate === "function" ? setImmediate(resolve) : setTimeout(resolve, 0)));

/** Per payload, the time per message of the timed loop around an identity function. */
function loopFloors(messages: Map<PayloadName, Message[]>, settings: Settings, ctx: CodecModeContext): Map<PayloadName, number> {
  const n = settings.iterations.codec;
  const floors = new Map<PayloadName, number>();
  for (const [payload, inputs] of messages) {
    const loop = compileLoop(`floor_${payload}`);
    const out = new Array<unknown>(SINK_SIZE);
    const times = new Float64Array(1);
    const identity = (x: unknown): unknown => x;
    loop(ctx.clock.now, identity, inputs, out, SINK_SIZE - 1, Math.min(n, settings.warmup.codec || n), n, times);
    const ms = loop(ctx.clock.now, identity, inputs, out, SINK_SIZE - 1, n, n, times);
    floors.set(payload, Math.max(0, ms * 1e6 - ctx.calibration.overheadNs) / n);
  }
  return floors;
}

/**
 * A case's checks and warm-up in times through its messages: the check
 * encodes and decodes every message once (one time through), the warm-up runs
 * twice over `warmup` of them. Progress counts them as work, so the
 * estimate of what is left does not take a process's checks for slow runs.
 */
function prepareUnits(settings: Settings): number {
  const iterations = settings.iterations.codec;
  return 1 + (2 * Math.min(Math.max(settings.warmup.codec, 1), iterations)) / iterations;
}

/** Progress units of codec mode over `span` of the runs: per case, its runs in the span and its preparation. */
export function codecModeUnits(settings: Settings, codecs: number, span: { from: number; to: number }): number {
  return settings.payloads.length * codecs * (span.to - span.from + prepareUnits(settings));
}

/** Round k of run `run` belongs to the span when its place, run + k / roundsPerRun, falls in [from, to). */
function inSpan(run: number, k: number, roundsPerRun: number, span: { from: number; to: number }): boolean {
  const place = run + k / roundsPerRun;
  return place >= span.from && place < span.to;
}

/** How many of `runs` x `roundsPerRun` rounds fall in the span. */
function roundsInSpan(runs: number, roundsPerRun: number, span: { from: number; to: number }): number {
  let n = 0;
  for (let run = 0; run < runs; run++) for (let k = 0; k < roundsPerRun; k++) if (inSpan(run, k, roundsPerRun, span)) n++;
  return n;
}

/**
 * The echo, read-one and validated loops' own messages (codec-case.ts, FreshLists): the
 * generator's with seeds of their own; a user's messages and --fixed have no others.
 */
function freshLists(settings: Settings, payload: PayloadName, iterations: number, messages: Message[]): FreshLists {
  if (!isBuiltIn(payload) || settings.fixed) return { echo: messages, readOne: messages, validated: messages };
  const other = (k: number): Message[] => messagesFor({ ...settings, seed: (settings.seed + 0x9e3779b9 * k) >>> 0 }, payload, iterations);
  return { echo: other(1), readOne: other(2), validated: other(3) };
}

export async function runCodecMode(settings: Settings, ctx: CodecModeContext): Promise<CodecModeResult> {
  const now = ctx.clock.now;
  const started = now();
  const { runs } = settings;
  const iterations = settings.iterations.codec;
  const versionOf = ctx.libraryVersion ?? (() => "");
  const ledger = ctx.ledger;
  const messages = new Map<PayloadName, Message[]>();
  const fresh = new Map<PayloadName, FreshLists>();
  inPhase(ledger, "messages", () => {
    for (const payload of settings.payloads) messages.set(payload, messagesFor(settings, payload, iterations));
    for (const payload of settings.payloads) fresh.set(payload, freshLists(settings, payload, iterations, messages.get(payload)!));
  });
  const floors = inPhase(ledger, "timed", () => loopFloors(messages, settings, ctx));
  const caseContext = { clock: ctx.clock, calibration: ctx.calibration, iterations, warmup: settings.warmup.codec, client: ctx.client ?? "inprocess", clientLibrary: ctx.clientLibrary ?? "", ledger };
  const rng = createRng(settings.seed ^ 0x5bd1e995);
  const order: string[][][] = [];
  const results: CaseResult[] = [];
  const slices: Record<string, number> = {};
  const span = ctx.span ?? { from: 0, to: runs };
  // Progress counts times through the messages (runs, checks, warm-up), so the estimate of what is left follows the real work.
  const total = codecModeUnits(settings, ctx.codecs.length, span);
  const prepare = prepareUnits(settings);
  let done = 0;
  let stopped = false;

  for (const payload of settings.payloads) {
    const cases = ctx.codecs.filter((codec) => !isExcluded(settings, codec.name, payload)).map((codec) => new CodecCase(codec, payload, messages.get(payload)!, caseContext, settings.allowLossy && !isBuiltIn(payload), fresh.get(payload)));
    const progress = (stage: "verify" | "warmup" | "run", codec: string, run: number): void =>
      ctx.onProgress?.({ mode: "codec", stage, codec, payload, run, runs, done: Math.round(done), total, elapsedMs: now() - started });
    for (const c of cases) {
      // The check's pass, then the warm-up's share; a case that fails either counts as done with it.
      let checked = false;
      if (c.error === undefined) {
        c.prepare((stage) => {
          if (stage === "warmup") {
            done += 1;
            checked = true;
          }
          progress(stage, c.codec.name, 0);
        });
      }
      done += checked ? prepare - 1 : prepare;
    }
    const costs = cases.filter((c) => c.error === undefined).map((c) => ({ encodeNs: c.encodeCallNs, decodeNs: c.decodeCallNs }));
    const slice = (slices[payload] = sliceSize(costs, ctx.calibration, iterations));
    const payloadOrder: string[][] = [];
    order.push(payloadOrder);
    const roundsPerRun = Math.ceil(iterations / slice);
    runs: for (let run = Math.floor(span.from); run < Math.min(runs, Math.ceil(span.to)); run++) {
      if (ctx.gc) inPhase(ledger, "collections", ctx.gc);
      for (let k = 0; k < roundsPerRun; k++) {
        if (!inSpan(run, k, roundsPerRun, span)) continue;
        const round = run * roundsPerRun + k;
        const runOrder = shuffled(cases.filter((c) => c.error === undefined), rng);
        payloadOrder.push(runOrder.map((c) => c.codec.name));
        const start = k * slice;
        runOrder.forEach((c, position) => c.timeSlice({ run, round, position, start, count: Math.min(slice, iterations - start) }));
        done += cases.length / roundsPerRun;
        progress("run", `round ${k + 1}/${roundsPerRun}`, run);
        // Let a signal handler run; stop at a round boundary, every case keeping its finished rounds.
        await yieldToEventLoop();
        if (ctx.shouldStop?.()) {
          stopped = true;
          break runs;
        }
      }
    }
    for (const c of cases) {
      const result = c.result(floors.get(payload)!, versionOf(c.codec.library), roundsInSpan(runs, roundsPerRun, span));
      results.push(result);
      ctx.onCaseDone?.(result);
    }
    if (stopped) break;
  }
  return { cases: results, order, stopped, minBatchNs: minBatchNs(ctx.calibration), slices };
}
