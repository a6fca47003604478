/**
 * Cold mode's run, on the side that starts its processes: which processes
 * run and in what order (repeat by repeat, each repeat's cases shuffled), and
 * each case's row from what its processes measured (cold-start.ts measures
 * one process). The process is the unit: a case's figures are its
 * processes' medians with the interval of their logarithms, and its ratios
 * to json pair each process with json's of the same repeat (pairing.ts).
 */

import type { ColdJob, ColdMeasurement } from "./cold-start.ts";
import { isExcluded } from "./exclusions.ts";
import type { BenchmarkHooks, Progress } from "./progress.ts";
import { createRng } from "./random.ts";
import { summarizeRuns, type CaseResult, type ColdSlice, type ColdSummaries, type SliceFigures } from "./results.ts";
import { shuffled } from "./schedule.ts";
import { checksOwnRoundTrip, codecsWithoutServer, type Settings } from "./settings.ts";
import { messagesFor } from "./generator.ts";
import { userLayoutOf } from "./user-messages.ts";
import { summarizeByProcess } from "./statistics.ts";
import type { Codec } from "../../protocols/codec.ts";
import { isBuiltIn, type PayloadName } from "../../protocols/messages.ts";

/** One process of the run: a case, and which repeat. */
export interface ColdRun {
  codec: string;
  payload: PayloadName;
  repeat: number;
  /** Its place among the repeat's processes (0 = first). */
  position: number;
}

/** The codecs cold mode runs: the settings' codecs but raw (no codec) and the calibration codecs (which measure the server). */
export const coldCodecs = codecsWithoutServer;

/** Every process of the mode, in the order they run: repeat by repeat, each repeat's cases shuffled (seeded by the run's seed). */
export function coldRuns(settings: Pick<Settings, "codecs" | "payloads" | "excluded" | "runs" | "seed">): ColdRun[] {
  const cases = settings.payloads.flatMap((payload) =>
    coldCodecs(settings)
      .filter((codec) => !isExcluded(settings, codec, payload))
      .map((codec) => ({ codec, payload })),
  );
  const rng = createRng(settings.seed ^ 0x5eed_c01d);
  const runs: ColdRun[] = [];
  for (let repeat = 0; repeat < settings.runs.cold; repeat++)
    for (const [position, c] of shuffled(cases, rng).entries()) runs.push({ ...c, repeat, position });
  return runs;
}

/** What a case needs of its codec for its row, and of the client that ran it. */
export interface ColdCodecInfo {
  /** "bun", or "browser" with the browser's user agent as its library. */
  client?: "bun" | "browser";
  clientLibrary?: string;
  standard: boolean;
  family?: string;
  frame: Codec["frame"];
  library: string;
}

/** One process's outcome: what it measured, or why it failed. */
export type ColdOutcome = { run: ColdRun; measured: ColdMeasurement } | { run: ColdRun; error: string };

const NO_BATCHES = { batch: NaN, samples: 0, p50: NaN, p90: NaN, p99: NaN };

/** A case's row from its processes' outcomes: its figures over those that measured; failed with the first error where one did not. */
export function coldCase(
  codec: string,
  payload: PayloadName,
  outcomes: readonly ColdOutcome[],
  settings: Pick<Settings, "iterations" | "runs">,
  info: ColdCodecInfo,
  libraryVersion: (library: string) => string = () => "",
): CaseResult {
  const own = outcomes.filter((o) => o.run.codec === codec && o.run.payload === payload);
  const error = own.find((o): o is Extract<ColdOutcome, { error: string }> => "error" in o)?.error;
  const measured = own.flatMap((o) => ("measured" in o ? [{ run: o.run, m: o.measured }] : []));
  const ok = error === undefined && measured.length > 0;
  const raw: SliceFigures[] = measured.map(({ run, m }) => ({
    run: run.repeat,
    round: run.repeat,
    position: run.position,
    // Each repeat's processes are fresh: the repeat is the unit its ratios pair by.
    process: run.repeat,
    serializeNs: m.serializeNs,
    deserializeNs: m.deserializeNs,
    totalNs: m.totalNs,
    cold: m.slice,
  }));
  const iterations = settings.iterations.cold;
  const summaries = summarizeRuns(raw, iterations);
  const over = (pick: (s: ColdSlice) => number | undefined) => {
    const has = raw.filter((r) => pick(r.cold!) !== undefined);
    return summarizeByProcess(
      has.map((r) => pick(r.cold!)!),
      has.map((r) => r.process),
    );
  };
  const cold: ColdSummaries = {
    import: over((s) => s.importNs),
    setup: over((s) => s.setupNs),
    first: over((s) => s.firstNs),
  };
  const first10 = over((s) => s.first10Ns);
  const first100 = over((s) => s.first100Ns);
  const first1000 = over((s) => s.first1000Ns);
  if (first10.n > 0) cold.first10 = first10;
  if (first100.n > 0) cold.first100 = first100;
  if (first1000.n > 0) cold.first1000 = first1000;
  const bytes = measured.map(({ m }) => m);
  return {
    client: info.client ?? "bun",
    clientLibrary: info.clientLibrary ?? "",
    mode: "cold",
    codec,
    standard: info.standard,
    ...(info.family ? { family: info.family } : {}),
    frame: info.frame,
    library: info.library,
    libraryVersion: libraryVersion(info.library),
    payload,
    iterations,
    runs: measured.length,
    rounds: measured.length,
    warmup: 0,
    bytes: bytes.length > 0 ? bytes.reduce((s, m) => s + m.bytes, 0) / bytes.length : NaN,
    bytesMin: bytes.length > 0 ? Math.min(...bytes.map((m) => m.bytesMin)) : NaN,
    bytesMax: bytes.length > 0 ? Math.max(...bytes.map((m) => m.bytesMax)) : NaN,
    verified: ok,
    error: error ?? (measured.length === 0 ? "no process finished" : ""),
    ...summaries,
    cold,
    msgsPerS: ok ? 1e9 / summaries.total.median : NaN,
    serializeBatches: NO_BATCHES,
    deserializeBatches: NO_BATCHES,
    loopFloorNs: NaN,
    // Stopped before its every process ran (Ctrl-C): fewer processes than planned.
    flags: [
      ...(ok && measured.length < settings.runs.cold ? ["partial"] : []),
      // Each message is timed alone: on a clock of coarse steps (a browser's) one message is a few steps or none.
      ...(bytes.some((m) => m.clockResolutionNs > 1000) ? ["coarse-clock"] : []),
    ],
    raw,
  };
}

/** Cold mode's progress event after `done` of `total` processes. */
function coldProgress(run: ColdRun, done: number, total: number, runs: number, elapsedMs: number): Progress {
  return {
    mode: "cold",
    stage: "run",
    codec: run.codec,
    payload: run.payload,
    run: run.repeat,
    runs,
    done,
    total,
    elapsedMs,
  };
}

/** A payload's messages for cold mode's processes, and on a user's payload the schemas its schema codecs are made from. */
function coldMessages(
  settings: Pick<Settings, "seed" | "fixed" | "userMessages" | "userProto" | "allowLossy" | "equal" | "iterations">,
  payload: PayloadName,
): Pick<ColdJob, "messages" | "user" | "ownTrips"> {
  const messages = messagesFor(settings, payload, settings.iterations.cold);
  const ownTrips = checksOwnRoundTrip(settings, payload);
  if (isBuiltIn(payload)) return { messages, ownTrips };
  const p = settings.userProto;
  return {
    messages,
    ownTrips,
    user: {
      payload,
      layout: userLayoutOf(settings.userMessages, payload),
      ...(p ? { proto: { payloads: settings.userMessages.map((f) => f.name), text: p.text, typeName: p.type } } : {}),
    },
  };
}

/** Measures one process of cold mode, wherever it runs (the CLI: a fresh Bun process); rejects with one line where it failed. */
export type MeasureCold = (job: ColdJob) => Promise<ColdMeasurement>;

/**
 * Cold mode's processes, one after the other (never two at once: they would share the cores
 * they measure). A process that fails fails its case, whose later processes are not run; the
 * other cases go on. `held()` gives, at any moment, every case with what its finished processes
 * measured: what the bench writes when it must quit before the end.
 */
export class ColdMode {
  private readonly outcomes: ColdOutcome[] = [];
  private readonly runs: ColdRun[];

  constructor(
    private readonly settings: Settings,
    private readonly codecs: readonly Codec[],
    private readonly hooks: BenchmarkHooks,
    private readonly now: () => number,
    /** Where the processes run: Bun's (the default) or a browser's pages, named by its user agent. */
    private readonly client: Pick<ColdCodecInfo, "client" | "clientLibrary"> = {},
  ) {
    this.runs = coldRuns(settings);
  }

  /** Every process in turn; the cases, and the order each repeat ran its codecs in, by payload. */
  async run(measure: MeasureCold): Promise<{ cases: CaseResult[]; order: string[][][] }> {
    const { settings, hooks, runs } = this;
    const started = this.now();
    const failed = new Set<string>();
    const key = (r: ColdRun): string => `${r.codec}\u0000${r.payload}`;
    // Each payload's messages and schemas, made once: every process of the payload gets the same.
    const made = new Map<PayloadName, Pick<ColdJob, "messages" | "user" | "ownTrips">>();
    const madeFor = (payload: PayloadName): Pick<ColdJob, "messages" | "user" | "ownTrips"> => {
      let m = made.get(payload);
      if (!m) made.set(payload, (m = coldMessages(settings, payload)));
      return m;
    };
    const last = new Map(runs.map((r, i) => [key(r), i]));
    for (const [i, run] of runs.entries()) {
      if (hooks.shouldStop?.()) break;
      if (failed.has(key(run))) continue;
      const moduleFile = settings.codecModules?.find((m) => m.name === run.codec)?.file;
      const job: ColdJob = {
        codec: run.codec,
        payload: run.payload,
        ...madeFor(run.payload),
        ...(moduleFile !== undefined ? { moduleFile } : {}),
      };
      try {
        this.outcomes.push({ run, measured: await measure(job) });
      } catch (e) {
        // A process ended by a stop measured nothing, and failed nothing.
        if (hooks.shouldStop?.()) break;
        failed.add(key(run));
        this.outcomes.push({ run, error: (e as Error).message });
      }
      hooks.onProgress?.(coldProgress(run, i + 1, runs.length, settings.runs.cold, this.now() - started));
      if (i === last.get(key(run)) || failed.has(key(run))) hooks.onCaseDone?.(this.caseOf(run.codec, run.payload));
    }
    return { cases: this.held(), order: this.order() };
  }

  /** Every case with a process run so far, in table order (payload, then the codecs' order). */
  held(): CaseResult[] {
    const cases: CaseResult[] = [];
    for (const payload of this.settings.payloads)
      for (const codec of coldCodecs(this.settings))
        if (this.outcomes.some((o) => o.run.codec === codec && o.run.payload === payload))
          cases.push(this.caseOf(codec, payload));
    return cases;
  }

  private caseOf(codec: string, payload: PayloadName): CaseResult {
    const c = this.codecs.find((x) => x.name === codec);
    const info: ColdCodecInfo = {
      ...this.client,
      standard: c?.standard ?? true,
      ...(c?.family ? { family: c.family } : {}),
      frame: c?.frame ?? "binary",
      library: c?.library ?? "",
    };
    return coldCase(codec, payload, this.outcomes, this.settings, info, this.hooks.libraryVersion);
  }

  /** order[payloadIndex][repeat]: the codecs in the order their processes ran. */
  private order(): string[][][] {
    return this.settings.payloads.map((payload) =>
      Array.from({ length: this.settings.runs.cold }, (_, repeat) =>
        this.runs.filter((r) => r.payload === payload && r.repeat === repeat).map((r) => r.codec),
      ),
    );
  }
}
