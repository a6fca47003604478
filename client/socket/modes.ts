/**
 * The WebSocket modes (`roundtrip`, `stream`, `latency`, `fanout`) for one
 * client: every codec x payload, mode by mode and payload by payload, and
 * in latency mode rate by rate (with --rate sweep, the rates bisected to
 * the knee). With one client, roundtrip, stream and latency run in
 * interleaved rounds on connections kept open (rounds.ts); fanout and
 * several clients run case by case on fresh connections (fresh-runs.ts). Runs wherever the client runs (Bun,
 * Node, a browser), so it takes the WebSocket class, the clock and the
 * hooks it needs in its context. Measures only; never prints.
 */

import { isExcluded } from "../harness/exclusions.ts";
import { isBuiltIn, type Message, type PayloadName } from "../../protocols/messages.ts";
import { messagesFor } from "../harness/generator.ts";
import { codecMessages, jsonBytesPerMessage, sharedListLength } from "../harness/schedule.ts";
import { createRng } from "../harness/random.ts";
import type { CaseResult } from "../harness/results.ts";
import {
  keptRate,
  keptSteps,
  KNEE_PRECISION,
  kneeOf,
  MAX_BISECTIONS,
  stepLatency,
  stopsClimbing,
} from "../harness/knee.ts";
import { checksOwnRoundTrip, latencyStep, SOCKET_MODES, type Settings, type SocketMode } from "../harness/settings.ts";
import { RAW_CODEC_NAME } from "../../protocols/contract.ts";
import { socketCaseResult, type SocketCase, type SocketCaseOptions } from "./socket-case.ts";
import { runFreshConnections } from "./fresh-runs.ts";
import { warmedKey, type PayloadOutcome, type PayloadRun, type SocketModeContext } from "./mode-context.ts";
import { runInRounds } from "./rounds.ts";
import { inPhase } from "../harness/time-account.ts";

export type { SocketModeContext } from "./mode-context.ts";

/** Messages a payload's size is judged from before its shared list is made (the list's own first ones). */
const LIST_SAMPLE = 64;

export interface SocketModeResult {
  /** The cases that ran (all of them unless the run was stopped or aborted). */
  cases: CaseResult[];
  /** shouldStop ended the run early. */
  stopped: boolean;
  /** Why the modes ended early when the server could no longer be reached (absent while it could). */
  aborted?: string;
  /** order[mode][payloadIndex][round] = codec names in the order they ran (fresh connections: one round per run). */
  order: Record<string, string[][][]>;
}

/** The settings' WebSocket modes, in the order they run. */
export function socketModesOf(settings: Settings): SocketMode[] {
  return SOCKET_MODES.filter((m) => settings.modes.includes(m));
}

/** Roundtrip and stream with one client keep a connection per codec open and run in rounds. */
function runsInRounds(mode: SocketMode, settings: Settings): boolean {
  return mode !== "fanout" && mode !== "route" && settings.clients === 1;
}

/**
 * Whether a codec runs on a payload in a mode: not where the run excludes it, and in route mode
 * only a codec that reads a key (not raw) on a payload that has one (a built-in).
 */
function runsOn(settings: Settings, mode: SocketMode, codec: string, payload: PayloadName): boolean {
  if (isExcluded(settings, codec, payload)) return false;
  return mode !== "route" || (codec !== RAW_CODEC_NAME && isBuiltIn(payload));
}

function newCase(mode: SocketMode, codec: string, payload: PayloadName, rate: number): SocketCase {
  return { mode, codec, payload, rate, runs: [], figures: [], timesNs: [], service: [], perClient: [], warmed: false };
}

/** A mode's steps: one for most, one per rate in latency mode (each with its own messages per run under a sweep). */
function stepsOf(mode: SocketMode, settings: Settings): { rate: number; settings: Settings }[] {
  return mode === "latency"
    ? settings.rates.map((rate) => ({ rate, settings: latencyStep(settings, rate) }))
    : [{ rate: 0, settings }];
}

/**
 * Under a sweep, the codecs still climbing after this step (knee.ts): each one's rates so far,
 * kept or missed against its p99 at the first step; a codec stops after two misses in a row.
 * Without a sweep, every codec goes on.
 */
function stillClimbing(
  settings: Settings,
  results: readonly CaseResult[],
  baseP99: Map<string, number>,
  history: Map<string, boolean[]>,
): string[] {
  if (!settings.sweep) return results.map((c) => c.codec);
  for (const c of results)
    if (!baseP99.has(c.codec) && c.socket?.latency) baseP99.set(c.codec, stepLatency(c)?.p99Ns ?? Number.NaN);
  for (const c of results)
    history.set(c.codec, [...(history.get(c.codec) ?? []), keptRate(c, baseP99.get(c.codec) ?? Number.NaN)]);
  return results.filter((c) => !stopsClimbing(history.get(c.codec)!)).map((c) => c.codec);
}

/** A rate between two, rounded to two significant digits (31,623 as 32,000), strictly inside them. */
export function between(low: number, high: number): number {
  const mid = Math.sqrt(low * high);
  const unit = 10 ** Math.max(0, Math.floor(Math.log10(mid)) - 1);
  const rounded = Math.round(mid / unit) * unit;
  return rounded > low && rounded < high ? rounded : Math.round(mid);
}

/**
 * The next bisections of a sweep, by rate: each codec whose knee and the rate it missed above it
 * are further apart than KNEE_PRECISION gets the rate between them; codecs that meet at a rate
 * share its step, with raw beside them (a codec's knee beside raw counts only the rates raw kept).
 */
export function refinements(done: readonly CaseResult[], codecs: readonly string[]): Map<number, string[]> {
  const plan = new Map<number, string[]>();
  for (const codec of codecs) {
    const byRate = done
      .filter((c) => c.codec === codec && c.socket?.targetRate)
      .sort((a, b) => a.socket!.targetRate! - b.socket!.targetRate!);
    if (byRate.length === 0) continue;
    const { rate, missed } = kneeOf(keptSteps(byRate));
    if (missed === undefined || rate <= 0 || missed / rate <= KNEE_PRECISION) continue;
    const at = between(rate, missed);
    if (byRate.some((c) => c.socket!.targetRate === at)) continue;
    plan.set(at, [...(plan.get(at) ?? []), codec]);
  }
  if (codecs.includes(RAW_CODEC_NAME))
    for (const group of plan.values()) if (!group.includes(RAW_CODEC_NAME)) group.push(RAW_CODEC_NAME);
  return plan;
}

/** A step of a mode and payload run for some codecs: their results, or undefined once the run has ended (stopped, or the server gone). */
type StepRunner = (
  step: { rate: number; settings: Settings },
  codecs: readonly string[],
) => Promise<CaseResult[] | undefined>;

/**
 * One mode and payload, step by step (latency mode: rate by rate): every codec at each step, or
 * under a sweep the codecs still climbing, then bisections between each codec's knee and the rate
 * it missed above it. False when the run ended early.
 */
async function runPayloadSteps(
  settings: Settings,
  mode: SocketMode,
  payload: PayloadName,
  ladder: readonly { rate: number; settings: Settings }[],
  run: StepRunner,
): Promise<boolean> {
  const all = settings.codecs.filter((c) => runsOn(settings, mode, c, payload));
  let codecs = all;
  const baseP99 = new Map<string, number>();
  const history = new Map<string, boolean[]>();
  const done: CaseResult[] = [];
  for (const step of ladder) {
    if (codecs.length === 0) break;
    const results = await run(step, codecs);
    if (!results) return false;
    done.push(...results);
    codecs = stillClimbing(settings, results, baseP99, history);
  }
  for (let i = 0; settings.sweep && mode === "latency" && i < MAX_BISECTIONS; i++) {
    const plan = refinements(done, all);
    if (plan.size === 0) break;
    for (const [rate, group] of plan) {
      const results = await run({ rate, settings: latencyStep(settings, rate) }, group);
      if (!results) return false;
      done.push(...results);
    }
  }
  return true;
}

/**
 * The options of one connection of case `s`: the first `count` of its messages. A warm-up's
 * connections skip the link (--link): they compile code, which a link's delays do not change,
 * and a thousand large messages would take minutes over a slow one.
 */
function caseOptions(
  ctx: SocketModeContext,
  settings: Settings,
  s: SocketCase,
  messages: readonly Message[],
  count: number,
  id: string,
  overLink: boolean,
): SocketCaseOptions {
  return {
    server: ctx.server,
    ...(ctx.cluster ? { cluster: ctx.cluster } : {}),
    catalog: ctx.catalog,
    codec: s.codec,
    payload: s.payload,
    mode: s.mode,
    messages: count >= messages.length ? messages : messages.slice(0, count),
    ownRoundTrip: checksOwnRoundTrip(settings, s.payload),
    window: s.mode === "roundtrip" ? 1 : settings.window,
    rate: s.rate,
    stallTimeoutMs: settings.stallTimeoutMs,
    clock: ctx.clock,
    timerOverheadNs: ctx.calibration.overheadNs,
    WebSocket: ctx.WebSocket,
    id,
    cpuMs: ctx.cpuMs,
    ...(ctx.linkVia && overLink ? { linkVia: ctx.linkVia } : {}),
  };
}

export async function runSocketModes(settings: Settings, ctx: SocketModeContext): Promise<SocketModeResult> {
  const now = ctx.clock.now;
  const started = now();
  const modes = socketModesOf(settings);
  const steps = new Map(modes.map((m) => [m, stepsOf(m, settings)]));
  // The most messages per codec a mode's steps send (latency mode: a sweep's steps differ).
  const runOf = (m: SocketMode): number => Math.max(...steps.get(m)!.map((step) => step.settings.iterations[m]));
  const longestRun = Math.max(...modes.map(runOf));
  // One list per mode and payload, as long as the mode needs (at most SHARED_LIST_BYTES of JSON), each codec sending its own part of it
  // (schedule.ts); made when the mode reaches the payload, and let go at the next, so only one
  // payload's messages are alive at a time (the large message's 100,000: 66 MiB of heap).
  let current:
    | {
        mode: SocketMode;
        payload: PayloadName;
        perCodec: number;
        list: readonly Message[];
        byCodec: Map<string, readonly Message[]>;
      }
    | undefined;
  const messagesOf = (mode: SocketMode, payload: PayloadName, codec: string): readonly Message[] => {
    if (current?.mode !== mode || current.payload !== payload) {
      current = undefined;
      const perCodec = runOf(mode);
      const list = inPhase(ctx.ledger, "messages", () => {
        const bytes = jsonBytesPerMessage(messagesFor(settings, payload, LIST_SAMPLE));
        return messagesFor(settings, payload, sharedListLength(perCodec, settings.codecs.length, bytes));
      });
      current = { mode, payload, perCodec, list, byCodec: new Map() };
    }
    const at = current;
    if (!at.byCodec.has(codec))
      at.byCodec.set(
        codec,
        codecMessages(at.list, settings.codecs.indexOf(codec), settings.codecs.length, at.perCodec),
      );
    return at.byCodec.get(codec)!;
  };
  const source = {
    client: ctx.client,
    clientLibrary: ctx.clientLibrary,
    libraryVersion: ctx.libraryVersion,
    catalog: ctx.catalog,
    ...(ctx.backplane ? { backplane: ctx.backplane } : {}),
  };
  // A sweep's bisections count as steps too (an upper bound: most codecs need fewer).
  const stepsOfMode = (m: SocketMode): number =>
    steps.get(m)!.length + (m === "latency" && settings.sweep ? MAX_BISECTIONS : 0);
  const total =
    modes.reduce((n, m) => n + stepsOfMode(m) * settings.runs[m], 0) *
    settings.payloads.length *
    settings.codecs.length;
  const rng = createRng(settings.seed ^ 0x2545f491);
  const order: Record<string, string[][][]> = {};
  const ran: { s: SocketCase; settings: Settings }[] = [];
  let finished = 0;
  let connection = 0;
  let outcome: PayloadOutcome = { stopped: false };
  // Per payload: the warm-up each server process has had of each codec, across the modes, and this
  // client's own (`client CODEC`), counting what codec mode made of it in this process.
  const warmedOn = new Map<PayloadName, Map<string, number>>();
  for (const payload of settings.payloads) {
    const warmed = new Map<string, number>();
    for (const codec of settings.codecs) {
      const calls = ctx.warmedInProcess?.get(warmedKey(payload, codec));
      if (calls) warmed.set(`client ${codec}`, calls);
    }
    warmedOn.set(payload, warmed);
  }

  /** One step of a mode and payload (latency: one rate) for `codecs`, recorded; what it returned, and how it ended. */
  const runStep = async (
    mode: SocketMode,
    payload: PayloadName,
    step: { rate: number; settings: Settings },
    codecs: readonly string[],
  ): Promise<CaseResult[]> => {
    const p: PayloadRun = {
      settings: step.settings,
      ctx,
      warmedOn: warmedOn.get(payload)!,
      longestRun,
      mode,
      payload,
      cases: codecs.map((codec) => newCase(mode, codec, payload, step.rate)),
      messagesOf: (s) => messagesOf(mode, payload, s.codec),
      order: [],
      progress: (stage, codec, run, done) =>
        ctx.onProgress?.({
          stage,
          mode,
          codec,
          payload,
          run,
          runs: settings.runs[mode],
          done: Math.round(finished + done),
          total,
          elapsedMs: now() - started,
        }),
      options: (s, count, label) =>
        caseOptions(
          ctx,
          settings,
          s,
          messagesOf(mode, payload, s.codec),
          count,
          `${ctx.client}-${label}-${mode}-${s.codec}-${payload}${s.rate ? `-${s.rate}` : ""}-${Date.now().toString(36)}-${connection++}`,
          label !== "warmup",
        ),
    };
    order[mode]!.push(p.order);
    outcome = runsInRounds(mode, settings) ? await runInRounds(p, rng) : await runFreshConnections(p, rng);
    finished += settings.codecs.length * settings.runs[mode];
    const results: CaseResult[] = [];
    for (const s of p.cases) {
      // A case that never ran a slice (stopped or aborted before its turn) is not reported.
      if (s.figures.length === 0 && s.error === undefined) continue;
      ran.push({ s, settings: step.settings });
      const result = socketCaseResult(s, step.settings, source);
      results.push(result);
      ctx.onCaseDone?.(result);
    }
    return results;
  };

  for (const mode of modes) {
    order[mode] = [];
    for (const payload of settings.payloads) {
      const go = await runPayloadSteps(settings, mode, payload, steps.get(mode)!, async (step, codecs) => {
        const results = await runStep(mode, payload, step, codecs);
        return outcome.stopped || outcome.aborted !== undefined ? undefined : results;
      });
      if (!go) break;
    }
    if (outcome.stopped || outcome.aborted !== undefined) break;
  }

  return {
    cases: ran.map(({ s, settings: at }) => socketCaseResult(s, at, source)),
    order,
    stopped: outcome.stopped,
    ...(outcome.aborted !== undefined ? { aborted: outcome.aborted } : {}),
  };
}
