/**
 * `codec` mode: serialize and deserialize in process, no socket. For every
 * codec x payload (a "case"):
 *
 *  1. verify: every message must round-trip exactly, or the case is reported
 *     as failed and never timed;
 *  2. warm up (untimed), which also estimates the cost of one call;
 *  3. time `runs` runs of `iterations` messages, each run a serialize loop
 *     over the messages, then a deserialize loop over their encodings (made
 *     again, untimed, between the two), with a full GC before each loop,
 *     the codec order shuffled per run and results spot-checked after each.
 *
 * Per-message means come from whole-loop times divided by the message
 * count; per-message percentiles come from batches long enough for the clock
 * (see `minBatchNs`). Nothing here prints.
 */

import type { Codec, Encoded, PayloadCodec } from "../../protocols/codec.ts";
import { encodedBytes } from "../../protocols/codec.ts";
import type { ClockCalibration, Clock } from "./clock.ts";
import type { ProgressUpdate } from "./progress.ts";
import { batchCount, compileLoop, SINK_SIZE, type TimedLoop } from "./loops.ts";
import { createRng, makeMessages } from "./generator.ts";
import { type Message, type PayloadName } from "../../protocols/messages.ts";
import type { BatchPercentiles, CaseResult, ClientKind, RunFigures } from "./results.ts";
import { percentileSorted, summarize } from "./stats.ts";
import { describeMismatch, sameMessage } from "./verify.ts";

export interface CodecModeOptions {
  codecs: readonly Codec[];
  payloads: readonly PayloadName[];
  iterations: number;
  runs: number;
  warmup: number;
  seed: number;
  fixed: boolean;
  clock: Clock;
  calibration: ClockCalibration;
  /** Full garbage collection between cases, where the runtime offers one. */
  gc?: () => void;
  /** Who runs the codecs: "inprocess" from the CLI, "browser" in the page. */
  client?: ClientKind;
  /** For the browser: its user agent. */
  clientLibrary?: string;
  /** Version of each codec's library, for the results. */
  libraryVersion?: (library: string) => string;
  onProgress?: (event: ProgressEvent) => void;
  /** Checked between runs; true stops after the current run. */
  shouldStop?: () => boolean;
  /** Called once per case as soon as it is finished (its last run, or its failure). */
  onCaseDone?: (c: CaseResult) => void;
}

/** The shared progress shape (bench/progress.ts) without a mode: codec mode is the only one here. */
export interface ProgressEvent extends Omit<ProgressUpdate, "mode"> {
  /** What is being done: "verify", "warmup" or "run". */
  stage: "verify" | "warmup" | "run";
  payload: PayloadName;
}

export interface CodecModeResult {
  /** The cases that ran (all of them unless the run was stopped). */
  cases: CaseResult[];
  /** shouldStop ended the run early. */
  stopped: boolean;
  /** order[run][payloadIndex] = codec names in the order they ran. */
  order: string[][][];
  minBatchNs: number;
}

/**
 * Shortest batch worth timing: 100x the clock's resolution, so a tick is at
 * most 1% of a sample, and 1000x the cost of a clock read, so reading the
 * clock is at most 0.1% of it.
 */
export function minBatchNs(calibration: ClockCalibration): number {
  return Math.max(100 * calibration.resolutionNs, 1000 * calibration.overheadNs);
}

/**
 * Messages per batch for an operation costing `perOpNs`, aiming 10% above
 * the floor so that an estimate one tick off still clears it.
 */
export function batchSizeFor(perOpNs: number, calibration: ClockCalibration, iterations: number): number {
  const ideal = Math.ceil((1.1 * minBatchNs(calibration)) / Math.max(perOpNs, 1e-3));
  return Math.max(1, Math.min(iterations, ideal));
}

/** Fisher-Yates with the benchmark's seeded generator. */
export function shuffled<T>(items: readonly T[], rng: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(rng() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

interface CaseState {
  codec: Codec;
  payload: PayloadName;
  messages: Message[];
  pc: PayloadCodec;
  encodeLoop: TimedLoop;
  decodeLoop: TimedLoop;
  encodeBatch: number;
  decodeBatch: number;
  bytes: { mean: number; min: number; max: number };
  error: string;
  warmed: boolean;
  /** onCaseDone has been told. */
  reported: boolean;
  runs: RunFigures[];
  encodeSamples: number[];
  decodeSamples: number[];
}

const yieldToEventLoop = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));

function errorText(e: unknown): string {
  return e instanceof Error ? `${e.name}: ${e.message}` : String(e);
}

/** Round-trips every message; returns an error line, or "" when all are exact. */
function verifyCase(state: CaseState): string {
  const { pc, messages } = state;
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
    if (!sameMessage(message, decoded)) return `message #${i} did not round-trip: ${describeMismatch(message, decoded) ?? "not equal"}`;
    const size = encodedBytes(encoded);
    sum += size;
    if (size < min) min = size;
    if (size > max) max = size;
  }
  state.bytes = { mean: sum / messages.length, min, max };
  return "";
}

/**
 * Checks what a timed run left in its result rings: a few of the last
 * encoded messages must decode (untimed) to the original, and the last
 * decoded ones must equal the originals.
 */
function spotCheck(state: CaseState, encodedRing: unknown[], decodedRing: unknown[]): string {
  const n = state.messages.length;
  const last = Math.min(n, SINK_SIZE);
  for (const back of [1, 2, Math.ceil(last / 2), last]) {
    const i = n - back;
    const message = state.messages[i]!;
    let mismatch = describeMismatch(message, decodedRing[i & (SINK_SIZE - 1)]);
    if (mismatch !== undefined) return `timed run decoded message #${i} wrongly: ${mismatch}`;
    try {
      mismatch = describeMismatch(message, state.pc.decode(encodedRing[i & (SINK_SIZE - 1)] as Encoded));
    } catch (e) {
      mismatch = errorText(e);
    }
    if (mismatch !== undefined) return `timed run encoded message #${i} wrongly: ${mismatch}`;
  }
  return "";
}

function batchPercentiles(samples: number[], batch: number): BatchPercentiles {
  const sorted = Float64Array.from(samples).sort();
  return {
    batch,
    samples: sorted.length,
    p50: percentileSorted(sorted, 50),
    p90: percentileSorted(sorted, 90),
    p99: percentileSorted(sorted, 99),
  };
}

/** Per-message ns of each batch, with one clock read taken off each. */
function perMessageBatchTimes(times: Float64Array, count: number, n: number, batch: number, overheadNs: number, out: number[]): void {
  for (let k = 0; k < count; k++) {
    const inBatch = Math.min(batch, n - k * batch);
    out.push(Math.max(0, times[k]! * 1e6 - overheadNs) / inBatch);
  }
}

export async function runCodecMode(options: CodecModeOptions): Promise<CodecModeResult> {
  const { clock, calibration, iterations, runs } = options;
  const now = clock.now;
  const overheadNs = calibration.overheadNs;
  const started = now();
  const versionOf = options.libraryVersion ?? (() => "");

  const messagesByPayload = new Map<PayloadName, Message[]>();
  for (const payload of options.payloads) {
    messagesByPayload.set(payload, makeMessages(payload, { count: iterations, seed: options.seed, fixed: options.fixed }));
  }

  // The loop floor: the same loop around an identity function, per payload.
  const loopFloor = new Map<PayloadName, number>();
  for (const payload of options.payloads) {
    const messages = messagesByPayload.get(payload)!;
    const loop = compileLoop(`floor_${payload}`);
    const out = new Array<unknown>(SINK_SIZE);
    const times = new Float64Array(1);
    const identity = (x: unknown): unknown => x;
    loop(now, identity, messages, out, SINK_SIZE - 1, Math.min(iterations, options.warmup || iterations), iterations, times);
    const ms = loop(now, identity, messages, out, SINK_SIZE - 1, iterations, iterations, times);
    loopFloor.set(payload, Math.max(0, ms * 1e6 - overheadNs) / iterations);
  }

  const states = new Map<string, CaseState>();
  const keyOf = (codec: string, payload: string): string => `${codec}\u0000${payload}`;
  for (const payload of options.payloads) {
    for (const codec of options.codecs) {
      let pc: PayloadCodec;
      let error = "";
      try {
        pc = codec.forPayload(payload);
      } catch (e) {
        pc = { encode: () => "", decode: () => ({}) as Message };
        error = `could not set up: ${errorText(e)}`;
      }
      states.set(keyOf(codec.name, payload), {
        codec,
        payload,
        messages: messagesByPayload.get(payload)!,
        pc,
        encodeLoop: compileLoop(`${codec.name}_${payload}_serialize`),
        decodeLoop: compileLoop(`${codec.name}_${payload}_deserialize`),
        encodeBatch: iterations,
        decodeBatch: iterations,
        bytes: { mean: NaN, min: NaN, max: NaN },
        error,
        warmed: false,
        reported: false,
        runs: [],
        encodeSamples: [],
        decodeSamples: [],
      });
    }
  }

  const rng = createRng(options.seed ^ 0x5bd1e995);
  const order: string[][][] = [];
  const total = runs * states.size;
  let done = 0;
  let stopped = false;
  const progress = (stage: ProgressEvent["stage"], state: CaseState, run: number): void =>
    options.onProgress?.({
      stage,
      codec: state.codec.name,
      payload: state.payload,
      run,
      runs,
      done,
      total,
      elapsedMs: now() - started,
    });

  runLoop: for (let run = 0; run < runs; run++) {
    const runOrder: string[][] = [];
    order.push(runOrder);
    for (const payload of options.payloads) {
      const codecs = shuffled(options.codecs, rng);
      runOrder.push(codecs.map((c) => c.name));
      for (let position = 0; position < codecs.length; position++) {
        const state = states.get(keyOf(codecs[position]!.name, payload))!;
        if (state.error === "" && !state.warmed) {
          progress("verify", state, run);
          state.error = verifyCase(state);
          if (state.error === "") {
            progress("warmup", state, run);
            state.error = warmUp(state, options);
          }
          state.warmed = true;
        }
        if (state.error === "") {
          progress("run", state, run);
          options.gc?.();
          await yieldToEventLoop();
          state.error = timeOneRun(state, run, position, options);
        }
        done++;
        if (!state.reported && (state.error !== "" || run === runs - 1)) {
          state.reported = true;
          options.onCaseDone?.(resultOf(state));
        }
        if (options.shouldStop?.()) {
          stopped = true;
          break runLoop;
        }
      }
    }
  }

  // A stopped run reports what it measured: cases never reached are left out.
  const cases = [...states.values()].filter((s) => s.warmed || s.error !== "").map(resultOf);
  return { cases, order, stopped, minBatchNs: minBatchNs(calibration) };

  function resultOf(state: CaseState): CaseResult {
    return toCaseResult(state, options, loopFloor.get(state.payload)!, versionOf(state.codec.library));
  }

  function timeOneRun(state: CaseState, run: number, position: number, o: CodecModeOptions): string {
    const n = iterations;
    const encodedRing = new Array<unknown>(SINK_SIZE);
    const decodedRing = new Array<unknown>(SINK_SIZE);
    const encTimes = new Float64Array(batchCount(n, state.encodeBatch));
    const decTimes = new Float64Array(batchCount(n, state.decodeBatch));
    let encMs: number;
    let decMs: number;
    try {
      encMs = state.encodeLoop(now, state.pc.encode as (x: unknown) => unknown, state.messages, encodedRing, SINK_SIZE - 1, n, state.encodeBatch, encTimes);
      // The deserialize loop's input: every message encoded again, untimed,
      // and dropped after this run, so only one case's encodings are ever
      // alive (keeping every case's would bloat the heap every loop's
      // garbage collections must live with).
      const encoded = encodeAll(state);
      o.gc?.();
      decMs = state.decodeLoop(now, state.pc.decode as (x: unknown) => unknown, encoded, decodedRing, SINK_SIZE - 1, n, state.decodeBatch, decTimes);
    } catch (e) {
      return `run ${run + 1} threw: ${errorText(e)}`;
    }
    const check = spotCheck(state, encodedRing, decodedRing);
    if (check !== "") return check;
    // Each batch reads the clock twice inside the whole-loop interval.
    const serializeNs = Math.max(0, encMs * 1e6 - 2 * encTimes.length * o.calibration.overheadNs) / n;
    const deserializeNs = Math.max(0, decMs * 1e6 - 2 * decTimes.length * o.calibration.overheadNs) / n;
    state.runs.push({ run, position, serializeNs, deserializeNs, totalNs: serializeNs + deserializeNs });
    perMessageBatchTimes(encTimes, encTimes.length, n, state.encodeBatch, o.calibration.overheadNs, state.encodeSamples);
    perMessageBatchTimes(decTimes, decTimes.length, n, state.decodeBatch, o.calibration.overheadNs, state.decodeSamples);
    return "";
  }
}

/**
 * Untimed warm-up over `warmup` messages, twice, so the loops and the codec
 * reach the engine's optimising tiers; then the cost of one call is
 * estimated to size the batches.
 */
function warmUp(state: CaseState, options: CodecModeOptions): string {
  const n = Math.min(Math.max(options.warmup, 1), state.messages.length);
  const ring = new Array<unknown>(SINK_SIZE);
  const one = new Float64Array(1);
  const encode = state.pc.encode as (x: unknown) => unknown;
  const decode = state.pc.decode as (x: unknown) => unknown;
  try {
    const encoded = encodeAll(state);
    for (let pass = 0; pass < 2; pass++) {
      state.encodeLoop(options.clock.now, encode, state.messages, ring, SINK_SIZE - 1, n, n, one);
      state.decodeLoop(options.clock.now, decode, encoded, ring, SINK_SIZE - 1, n, n, one);
    }
    state.encodeBatch = batchSizeFor(estimateCallNs(state.encodeLoop, encode, state.messages, options), options.calibration, options.iterations);
    state.decodeBatch = batchSizeFor(estimateCallNs(state.decodeLoop, decode, encoded, options), options.calibration, options.iterations);
  } catch (e) {
    return `warm-up threw: ${errorText(e)}`;
  }
  return "";
}

/** Every message of the case, encoded (untimed). */
function encodeAll(state: CaseState): Encoded[] {
  const { messages, pc } = state;
  const out = new Array<Encoded>(messages.length);
  for (let i = 0; i < messages.length; i++) out[i] = pc.encode(messages[i]!);
  return out;
}

/**
 * Cost of one call, from a stretch of calls long enough for the clock: the
 * count grows fourfold until the stretch lasts the minimum batch time or
 * covers every message. A short warm-up under a coarse clock (a browser's
 * 100 µs) would otherwise misjudge it by whole ticks.
 */
function estimateCallNs(loop: TimedLoop, fn: (x: unknown) => unknown, inputs: readonly unknown[], options: CodecModeOptions): number {
  const ring = new Array<unknown>(SINK_SIZE);
  const one = new Float64Array(1);
  const target = minBatchNs(options.calibration);
  for (let k = Math.min(64, inputs.length); ; k = Math.min(k * 4, inputs.length)) {
    const ns = loop(options.clock.now, fn, inputs, ring, SINK_SIZE - 1, k, k, one) * 1e6;
    if (ns >= target || k === inputs.length) return ns / k;
  }
}

function toCaseResult(state: CaseState, options: CodecModeOptions, loopFloorNs: number, libraryVersion: string): CaseResult {
  const ok = state.error === "" && state.runs.length > 0;
  const runs = state.runs;
  const serialize = summarize(runs.map((r) => r.serializeNs));
  const deserialize = summarize(runs.map((r) => r.deserializeNs));
  const total = summarize(runs.map((r) => r.totalNs));
  const totalMs = summarize(runs.map((r) => (r.totalNs * options.iterations) / 1e6));
  const flags: string[] = [];
  if (ok && (serialize.median < 2 * loopFloorNs || deserialize.median < 2 * loopFloorNs)) flags.push("near-empty-loop");
  if (!state.codec.standard) flags.push("non-standard");
  if (ok && runs.length < options.runs) flags.push("stopped-early");
  return {
    client: options.client ?? "inprocess",
    clientLibrary: options.clientLibrary ?? "",
    mode: "codec",
    codec: state.codec.name,
    standard: state.codec.standard,
    frame: state.codec.frame,
    library: state.codec.library,
    libraryVersion,
    payload: state.payload,
    iterations: options.iterations,
    runs: runs.length,
    warmup: options.warmup,
    bytes: state.bytes.mean,
    bytesMin: state.bytes.min,
    bytesMax: state.bytes.max,
    verified: ok,
    error: state.error !== "" ? state.error : runs.length === 0 ? "no timed run finished" : "",
    serialize,
    deserialize,
    total,
    totalMs,
    msgsPerS: ok ? 1e9 / total.mean : NaN,
    serializeBatches: batchPercentiles(state.encodeSamples, state.encodeBatch),
    deserializeBatches: batchPercentiles(state.decodeSamples, state.decodeBatch),
    loopFloorNs,
    flags,
    raw: runs,
  };
}
