/**
 * `codec` mode: serialize and deserialize in process, no socket. For every
 * codec x payload (a "case", codec-case.ts):
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

import type { Codec } from "../../protocols/codec.ts";
import type { Message, PayloadName } from "../../protocols/messages.ts";
import type { Clock, ClockCalibration } from "./clock.ts";
import { CodecCase } from "./codec-case.ts";
import { createRng, makeMessages } from "./generator.ts";
import { compileLoop, SINK_SIZE } from "./loops.ts";
import type { RunHooks } from "./progress.ts";
import type { CaseResult } from "./results.ts";
import { minBatchNs, shuffled } from "./schedule.ts";
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

const yieldToEventLoop = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));

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

export async function runCodecMode(settings: Settings, ctx: CodecModeContext): Promise<CodecModeResult> {
  const now = ctx.clock.now;
  const started = now();
  const { runs } = settings;
  const iterations = settings.iterations.codec;
  const versionOf = ctx.libraryVersion ?? (() => "");
  const messages = new Map<PayloadName, Message[]>();
  for (const payload of settings.payloads) messages.set(payload, makeMessages(payload, { count: iterations, seed: settings.seed, fixed: settings.fixed }));
  const floors = loopFloors(messages, settings, ctx);

  const caseContext = { clock: ctx.clock, calibration: ctx.calibration, iterations, warmup: settings.warmup.codec, runs, gc: ctx.gc, client: ctx.client ?? "inprocess", clientLibrary: ctx.clientLibrary ?? "" };
  const cases = new Map<string, CodecCase>();
  const keyOf = (codec: string, payload: string): string => `${codec}\u0000${payload}`;
  for (const payload of settings.payloads) {
    for (const codec of ctx.codecs) cases.set(keyOf(codec.name, payload), new CodecCase(codec, payload, messages.get(payload)!, caseContext));
  }
  const resultOf = (c: CodecCase): CaseResult => c.result(floors.get(c.payload)!, versionOf(c.codec.library));

  const rng = createRng(settings.seed ^ 0x5bd1e995);
  const order: string[][][] = [];
  const total = runs * cases.size;
  let done = 0;
  let stopped = false;
  runLoop: for (let run = 0; run < runs; run++) {
    const runOrder: string[][] = [];
    order.push(runOrder);
    for (const payload of settings.payloads) {
      const codecs = shuffled(ctx.codecs, rng);
      runOrder.push(codecs.map((c) => c.name));
      for (let position = 0; position < codecs.length; position++) {
        const c = cases.get(keyOf(codecs[position]!.name, payload))!;
        const progress = (stage: "verify" | "warmup" | "run"): void =>
          ctx.onProgress?.({ mode: "codec", stage, codec: c.codec.name, payload, run, runs, done, total, elapsedMs: now() - started });
        if (c.error === "" && !c.prepared) c.prepare(progress);
        if (c.error === "") {
          progress("run");
          ctx.gc?.();
          await yieldToEventLoop();
          c.timeRun(run, position);
        }
        done++;
        if (!c.reported && (c.error !== "" || run === runs - 1)) {
          c.reported = true;
          ctx.onCaseDone?.(resultOf(c));
        }
        if (ctx.shouldStop?.()) {
          stopped = true;
          break runLoop;
        }
      }
    }
  }
  // A stopped run reports what it measured: cases never reached are left out.
  const ran = [...cases.values()].filter((c) => c.prepared || c.error !== "").map(resultOf);
  return { cases: ran, order, stopped, minBatchNs: minBatchNs(ctx.calibration) };
}
