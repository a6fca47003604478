/**
 * Codec mode in spans, in several processes ("forks"). A JavaScript engine
 * compiles each process's code its own way (tiering, inline caches, the
 * layout of its heap), so a ratio measured in one process carries that
 * process's luck however many rounds it has. The bench spreads codec mode's
 * runs over fresh processes, one after the other, and pools their rounds
 * here, each round tagged with the process that timed it: the process is the
 * unit of every interval (pairing.ts). docs/performance-notes.md has the
 * figures behind both.
 *
 * With a precision asked for (`--precision PCT`), the planned spans are a
 * floor, not the whole: while a payload has a ratio whose 95% interval is
 * wider than ±PCT of it, one more span of that payload runs (a fresh
 * process where the planned ones were), as long as it is expected to end
 * within the time allowed (`--max-time`, or a tenth more than the planned
 * spans took, whichever is longer). Ask for precision, not iterations.
 */

import type { PayloadName } from "../../protocols/messages.ts";
import { codecModeUnits, WARMUP_ROUNDS, type CodecModeResult, type CodecModeSpan } from "./codec-mode.ts";
import { varianceParts } from "./pairing.ts";
import type { Progress, BenchmarkHooks } from "./progress.ts";
import type { Plan } from "./plan.ts";
import { batchPercentiles } from "./codec-case.ts";
import { widestInterval, withRatios } from "./ratios.ts";
import { summarizeRuns, type CaseResult } from "./results.ts";
import type { Settings } from "./settings.ts";

/** A process's share of the runs, in runs: [from, to). */
export type ForkSpan = CodecModeSpan;

/** `runs` runs cut into `forks` equal spans, in order (4 forks over 2 runs: half a run each). */
export function forkSpans(runs: number, forks: number): ForkSpan[] {
  const n = Math.max(1, forks);
  return Array.from({ length: n }, (_, k) => ({ from: (k * runs) / n, to: ((k + 1) * runs) / n }));
}

/**
 * One case from its forks' parts (the same codec and payload): rounds renumbered in fork order,
 * each tagged with its process where `processes` says which each part ran in, figures worked out
 * again from all of them.
 */
function mergeCase(
  parts: readonly CaseResult[],
  roundOffsets: readonly number[],
  forks: number,
  processes?: readonly number[],
): CaseResult {
  const first = parts[0]!;
  const failed = parts.find((c) => !c.verified && c.error !== "" && !/^no timed round/.test(c.error));
  if (failed) return failed;
  const raw = parts.flatMap((c, k) =>
    c.raw.map((r) => ({
      ...r,
      round: r.round + roundOffsets[k]!,
      ...(processes ? { process: processes[k]! } : {}),
    })),
  );
  if (raw.length === 0) return first;
  const summaries = summarizeRuns(raw, first.iterations);
  const flags = first.flags.filter((f) => f !== "partial" && f !== "near-empty-loop");
  const floor = Math.min(...parts.map((c) => c.loopFloorNs));
  if (summaries.serialize.median < 2 * floor || summaries.deserialize.median < 2 * floor) flags.push("near-empty-loop");
  // A fork that stopped early, or one that never ran.
  if (parts.length < forks || parts.some((c) => c.flags.includes("partial"))) flags.push("partial");
  const batch = Math.max(...parts.map((c) => c.serializeBatches.batch).filter(Number.isFinite));
  // Each process measured the sizes of its own messages: their mean weighted by its rounds.
  const weight = (c: CaseResult): number => Math.max(1, c.rounds);
  const bytes = parts.reduce((sum, c) => sum + c.bytes * weight(c), 0) / parts.reduce((sum, c) => sum + weight(c), 0);
  return {
    ...first,
    runs: new Set(raw.map((r) => r.run)).size,
    rounds: raw.length,
    verified: true,
    error: "",
    bytes,
    bytesMin: Math.min(...parts.map((c) => c.bytesMin)),
    bytesMax: Math.max(...parts.map((c) => c.bytesMax)),
    ...summaries,
    msgsPerS: 1e9 / summaries.total.median,
    serializeBatches: batchPercentiles(
      raw.map((r) => r.serializeNs),
      batch,
    ),
    deserializeBatches: batchPercentiles(
      raw.map((r) => r.deserializeNs),
      batch,
    ),
    loopFloorNs: floor,
    flags,
    raw,
  };
}

/**
 * The forks' results as one: every case's slices from all forks (their
 * runs keep their numbers; rounds are numbered on from one fork to the
 * next, so rounds of different forks never pair: a round's codecs ran in
 * one process), the codec order of every round. `forks` is how many
 * processes were planned (a case in fewer of them is partial); `fresh`:
 * each part ran in a process of its own, so every round is tagged with it.
 */
export function mergeForks(parts: readonly CodecModeResult[], forks: number, fresh = false): CodecModeResult {
  const first = parts[0]!;
  const keyOf = (c: CaseResult): string => `${c.payload}|${c.codec}`;
  const keys = [...new Set(parts.flatMap((p) => p.cases.map(keyOf)))];
  // Per payload, where each fork's round numbers start: after every round of the forks before it.
  const offsets = new Map<string, number[]>();
  for (const payload of new Set(parts.flatMap((p) => p.cases.map((c) => c.payload)))) {
    let round = 0;
    offsets.set(
      payload,
      parts.map((p) => {
        const start = round;
        for (const c of p.cases)
          if (c.payload === payload) for (const r of c.raw) round = Math.max(round, start + r.round + 1);
        return start;
      }),
    );
  }
  const cases = keys.map((key) => {
    const withCase = parts.filter((p) => p.cases.some((c) => keyOf(c) === key));
    const c0 = withCase[0]!.cases.find((c) => keyOf(c) === key)!;
    return mergeCase(
      withCase.map((p) => p.cases.find((c) => keyOf(c) === key)!),
      withCase.map((p) => offsets.get(c0.payload)![parts.indexOf(p)]!),
      forks,
      fresh ? withCase.map((p) => parts.indexOf(p)) : undefined,
    );
  });
  const payloads = Math.max(...parts.map((p) => p.order.length));
  const order = Array.from({ length: payloads }, (_, i) => parts.flatMap((p) => p.order[i] ?? []));
  const sum = (of: (p: CodecModeResult) => Record<string, number>): Record<string, number> => {
    const out: Record<string, number> = {};
    for (const p of parts) for (const [payload, ms] of Object.entries(of(p))) out[payload] = (out[payload] ?? 0) + ms;
    return out;
  };
  return {
    cases,
    order,
    stopped: parts.some((p) => p.stopped),
    minBatchNs: first.minBatchNs,
    slices: first.slices,
    payloadMs: sum((p) => p.payloadMs),
    prepareMs: sum((p) => p.prepareMs),
  };
}

/** What a span's runner tells as it goes: progress within its span, and each case it finishes. */
export interface SpanSide {
  progress(e: Progress): void;
  caseDone(c: CaseResult): void;
}

/**
 * One span of codec mode for some payloads, wherever it runs: its result, or why it gave none
 * (`partial`: the cases it finished before that). A runner may throw instead: the error's message
 * is why, and the cases it told `caseDone` before that are the partial ones.
 */
export type SpanRunner = (span: ForkSpan, payloads: readonly PayloadName[], side: SpanSide) => Promise<SpanOutcome>;

/** What a span gave: its result, or why it gave none (`partial`: the cases it finished before that). */
interface SpanOutcome {
  result?: CodecModeResult;
  error?: string;
  partial?: CaseResult[];
}

/** How codec mode's spans are run: the settings (runs, precision, time allowed), how many planned processes, the clock, the hooks. */
export interface SpanPlan {
  settings: Readonly<Settings>;
  forks: number;
  /** Each span runs in a fresh process (the bench's forks), not all in this one. */
  fresh?: boolean;
  /** Codecs codec mode runs (for progress). */
  codecs: number;
  now: () => number;
  hooks: BenchmarkHooks;
}

/**
 * The payloads a precision of `pct` percent is not met on yet (a codec-mode ratio of theirs has a
 * wider interval), each with how far from it its widest interval is: that width over the one
 * asked for.
 */
function impreciseOn(cases: readonly CaseResult[], pct: number): Map<PayloadName, number> {
  const wide = new Map<PayloadName, number>();
  for (const c of cases) {
    const w = c.mode === "codec" ? widestInterval(c) : undefined;
    if (w !== undefined && w > pct / 100) wide.set(c.payload, Math.max(wide.get(c.payload) ?? 0, w / (pct / 100)));
  }
  return wide;
}

/** Margin on the rounds a payload is expected to need: an interval narrows as one over the root of its rounds, give or take. */
const NEED_MARGIN = 1.1;
/**
 * The least one span for precision adds, in runs of the payload's messages and in messages (a
 * span of a few messages has no rounds to give); the most, as a share
 * of what the payload has timed so far (at most doubling it, the intervals are looked at again
 * before more: a few wide rounds of one process can make a payload look further from the
 * precision than it is); and the most a payload times in all, in its planned runs (a payload that
 * ten times its runs leave short of the precision is marked, not chased).
 */
const SPAN_FOR_PRECISION = { min: 0.05, maxShare: 1, maxTimesPlanned: 10, minMessages: 64 };

/**
 * The least time rounds for precision get, as a share of what the planned spans took: a run whose
 * planned spans alone outlast `--max-time` (every codec on every payload: six minutes against the
 * default 30 s) still gets a tenth more for its widest payloads, which are cheap per round (the
 * small message's 16 codecs, 10 ms a round).
 */
export const PRECISION_SHARE_OF_PLANNED = 0.1;

/** The fewest timed rounds a process for precision runs: fewer, and its one estimate rests on too little. */
const MIN_PROCESS_ROUNDS = 10;

/** A payload's time in its rounds, ms, over every span: what more rounds of it cost. */
const roundsMs = (merged: CodecModeResult, payload: string): number =>
  Math.max(0, (merged.payloadMs[payload] ?? 0) - (merged.prepareMs[payload] ?? 0));

/**
 * How long a process added for precision runs `payload`, in runs, where each span is a fresh
 * process (the process the unit of an interval, pairing.ts): as Kalibera and Jones size an
 * experiment, r = sqrt((c_process / c_round) * T_within^2 / T_between^2) rounds, c_process the
 * cost of starting a process (`overheadMs`: its start, its messages made, verified and warmed
 * up, its warm-up rounds too) and c_round of one round,
 * the variances those of the widest ratio to JSON of the payload (pairing.ts, varianceParts).
 * Where processes differ most, many short processes narrow an interval soonest; where they do not,
 * few long ones. `rated`: the merged cases with their ratios. At least MIN_PROCESS_ROUNDS, at most the rounds of a planned process (a longer
 * process would warm up longer than the others); undefined where the payload has no ratio to size by.
 */
function processRuns(
  merged: CodecModeResult,
  rated: readonly CaseResult[],
  payload: PayloadName,
  settings: Readonly<Settings>,
  overheadMs: number,
  plannedProcesses: number,
): number | undefined {
  const cases = rated.filter((c) => c.payload === payload && c.mode === "codec");
  const json = cases.find((c) => c.codec === "json" && c.verified);
  const slice = merged.slices[payload];
  if (!json || !slice || json.raw.length === 0) return undefined;
  const widest = cases
    .filter((c) => c !== json && c.verified)
    .map((c) => ({ c, w: widestInterval(c) ?? 0 }))
    .sort((a, b) => b.w - a.w)[0]?.c;
  const parts = widest && varianceParts(widest, json);
  if (!parts) return undefined;
  const roundMs = roundsMs(merged, payload) / json.raw.length;
  const processMs = overheadMs + WARMUP_ROUNDS * roundMs;
  const rounds = Math.sqrt(
    (processMs / Math.max(1e-9, roundMs)) * (parts.within / Math.max(parts.between, parts.within * 1e-4, 1e-12)),
  );
  const planned = json.raw.filter((r) => (r.process ?? 0) < plannedProcesses).length / plannedProcesses;
  return (Math.min(planned, Math.max(MIN_PROCESS_ROUNDS, rounds)) * slice) / settings.iterations.codec;
}

/** A span's result with nothing in it yet: what a failed span's finished cases are pooled as. */
const NOTHING: CodecModeResult = {
  cases: [],
  order: [],
  stopped: true,
  minBatchNs: NaN,
  slices: {},
  payloadMs: {},
  prepareMs: {},
};

/**
 * Codec mode's spans, run one after the other by a runner (in this process, or in a fresh
 * process each): the planned ones, then, with a precision asked for, more spans of the payloads
 * still short of it while the time allows, each expected to take what that payload's spans took
 * on average. Progress is told across the spans; what every span gave is pooled, each pooled
 * case told to `hooks.onCaseDone` at the end, and `held()` pools at any moment what has finished
 * (the running span's finished cases too). A failure, a stop or a stopped span ends the spans
 * there, keeping what they gave.
 */
export class CodecModeSpans {
  private readonly parts: CodecModeResult[] = [];
  /** Cases the running span has finished and told. */
  private running: CaseResult[] = [];

  constructor(private readonly plan: SpanPlan) {}

  /** The spans of `plan`'s codec mode, each in a fresh process of its own (the bench's processes, the page's workers). */
  static fresh(plan: Plan, hooks: BenchmarkHooks): CodecModeSpans {
    return new CodecModeSpans({
      settings: plan.settings,
      forks: plan.forks,
      fresh: true,
      codecs: plan.codecModeCodecs.length,
      now: () => performance.now(),
      hooks,
    });
  }

  async run(runner: SpanRunner): Promise<{ result: CodecModeResult; error?: string }> {
    const { settings, forks, now, hooks } = this.plan;
    const started = now();
    // Fresh processes warm up alike: each on as many messages as a planned span verifies at least (the
    // settings' --warmup on top: codec-mode.ts), however short its span. Spans in one process warm up
    // once, in the first: the later ones find its codecs warm.
    const warmup = this.plan.fresh
      ? Math.min(
          settings.iterations.codec,
          Math.round((settings.iterations.codec * settings.runs.codec) / Math.max(1, forks)),
        )
      : undefined;
    const planned = forkSpans(settings.runs.codec, forks).map((s) => (warmup ? { ...s, warmup } : s));
    const unitsOf = (span: ForkSpan, payloads: readonly PayloadName[]): number =>
      codecModeUnits(payloads.length, this.plan.codecs, span);
    let total = planned.reduce((sum, span) => sum + unitsOf(span, settings.payloads), 0);
    let done = 0;
    /** Per payload, the runs its spans have timed, and where its next span starts. */
    const runsOf = new Map<string, number>();
    /** Per payload, the spans that timed it. */
    const spansOf = new Map<string, number>();
    const nextOf = new Map<string, number>(settings.payloads.map((p) => [p, settings.runs.codec]));
    let error: string | undefined;
    /** What each span cost besides its payloads' own time (a process's start, its messages' module loading), ms. */
    const overheads: number[] = [];
    const go = async (asked: ForkSpan, payloads: readonly PayloadName[]): Promise<boolean> => {
      const span = !this.plan.fresh && this.parts.length > 0 ? { ...asked, warmup: 0 } : asked;
      const units = unitsOf(span, payloads);
      const offset = done;
      const spanStarted = now();
      this.running = [];
      // Past the planned runs, the rounds are for precision: the progress line says so.
      const extra = span.from >= settings.runs.codec ? ` (more for ±${settings.precision}%)` : undefined;
      const outcome = await runner(span, payloads, {
        // The span counts its own work; the run shows all of it.
        progress: (e) =>
          hooks.onProgress?.({
            ...e,
            ...(extra ? { run: settings.runs.codec - 1, codec: e.codec + extra } : {}),
            done: Math.round(offset + (e.done / Math.max(1, e.total)) * units),
            total: Math.round(total),
          }),
        caseDone: (c) => this.running.push(c),
      }).catch(
        (e: unknown): SpanOutcome => ({
          // What the span finished and told before it failed still counts.
          error: e instanceof Error ? e.message : String(e),
          partial: [...this.running],
        }),
      );
      this.running = [];
      done = offset + units;
      if (outcome.result) {
        this.parts.push(outcome.result);
        const payloadMs = Object.values(outcome.result.payloadMs).reduce((a, b) => a + b, 0);
        overheads.push(Math.max(0, now() - spanStarted - payloadMs));
        for (const p of payloads) {
          runsOf.set(p, (runsOf.get(p) ?? 0) + span.to - span.from);
          spansOf.set(p, (spansOf.get(p) ?? 0) + 1);
        }
      } else if (outcome.partial && outcome.partial.length > 0) {
        this.parts.push({ ...NOTHING, cases: outcome.partial });
      }
      error ??= outcome.error;
      return outcome.result !== undefined && !outcome.result.stopped && !(hooks.shouldStop?.() ?? false);
    };
    let going = true;
    for (const span of planned) if (going) going = await go(span, settings.payloads);
    const precision = settings.precision;
    const allowedMs = Math.max(settings.maxTimeMs ?? Infinity, (now() - started) * (1 + PRECISION_SHARE_OF_PLANNED));
    // The payload furthest from the precision gets a span of its own: in fresh processes, one process
    // sized as processRuns says; in this one, the rounds it is expected to need (at most doubling
    // it); either as the time left allows. Then the intervals are looked at again. Widest first:
    // the time goes where the precision is least, and a cheap payload (the small message) may take
    // several spans while a dear one needs none.
    const given = new Set<string>();
    while (going && precision !== undefined) {
      const merged = mergeForks(this.parts, planned.length, this.plan.fresh);
      const rated = withRatios(merged.cases).cases;
      const next = [...impreciseOn(rated, precision)]
        .filter(([payload]) => !given.has(payload))
        .map(([payload, far]) => {
          const timed = runsOf.get(payload) ?? 0;
          const left = allowedMs - (now() - started);
          // A fresh process pays its start and its warm-up whatever its span (the warm-up is a number
          // of calls, not a share of the span); in this process the verifying pass grows with the span.
          const overheadMs = overheads.reduce((a, b) => a + b, 0) / Math.max(1, overheads.length);
          const fixedMs = this.plan.fresh
            ? overheadMs + (merged.prepareMs[payload] ?? 0) / Math.max(1, spansOf.get(payload) ?? 1)
            : 0;
          const msPerRun =
            (this.plan.fresh ? roundsMs(merged, payload) : (merged.payloadMs[payload] ?? 0)) / Math.max(1e-9, timed);
          const sized = this.plan.fresh
            ? processRuns(merged, rated, payload, settings, fixedMs, planned.length)
            : undefined;
          const runs = Math.min(
            sized ?? Math.min(timed * SPAN_FOR_PRECISION.maxShare, timed * (NEED_MARGIN * far * far - 1)),
            SPAN_FOR_PRECISION.maxTimesPlanned * settings.runs.codec - timed,
            (left - fixedMs) / Math.max(1e-9, msPerRun),
            // A fresh process never longer than a planned one, sized or not: it would verify, so warm up, longer.
            this.plan.fresh ? settings.runs.codec / planned.length : Infinity,
          );
          return { payload, far, runs: timed > 0 ? runs : 0 };
        })
        .sort((a, b) => b.far - a.far)[0];
      if (!next) break;
      // A payload the time or its cap leaves no span for is done; the next widest may still fit.
      if (
        !(next.runs >= SPAN_FOR_PRECISION.min) ||
        next.runs * settings.iterations.codec < SPAN_FOR_PRECISION.minMessages
      ) {
        given.add(next.payload);
        continue;
      }
      const from = nextOf.get(next.payload)!;
      const span = { from, to: from + next.runs, ...(warmup ? { warmup } : {}) };
      nextOf.set(next.payload, span.to);
      total += unitsOf(span, [next.payload]);
      going = await go(span, [next.payload]);
    }
    const result = this.held();
    for (const c of result.cases) hooks.onCaseDone?.(c);
    return { result, ...(error !== undefined ? { error } : {}) };
  }

  /** Every case finished so far, pooled over the spans (the running one's finished cases too). */
  held(): CodecModeResult {
    const parts = this.running.length > 0 ? [...this.parts, { ...NOTHING, cases: this.running }] : this.parts;
    if (parts.length === 0) return { ...NOTHING, stopped: this.plan.hooks.shouldStop?.() ?? false };
    return mergeForks(parts, forkSpans(this.plan.settings.runs.codec, this.plan.forks).length, this.plan.fresh);
  }
}
