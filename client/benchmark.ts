/**
 * Carries out a plan (client/harness/plan.ts), the same way for every front
 * end: the Bun CLI, `--client node` (the socket modes in a Node process),
 * and the page in a browser (which `--client chromium` and `firefox` drive). In order:
 * codec mode, what compression makes of its messages (where the front end
 * measures it), cold mode, evolve mode, the WebSocket modes, then the results assembled
 * (assemble-results.ts).
 *
 * What differs between front ends is only where each step runs, given as
 * a `FrontEnd`: codec mode in this process or in processes of the bench's
 * own, the socket modes with Bun's WebSocket, a Node process, or the
 * browser's. A step that fails ends with a line for `onFailure`, never with
 * the other steps' finished cases; `results()` assembles what is held at
 * any moment, for a front end that must stop before the end.
 */

import { runCodecMode, type CodecModeResult } from "./harness/codec-mode.ts";
import { CodecModeSpans } from "./harness/codec-mode-spans.ts";
import type { ClockCalibration, Clock } from "./harness/clock.ts";
import type { Plan } from "./harness/plan.ts";
import type { BenchmarkHooks } from "./harness/progress.ts";
import type {
  BenchResults,
  CaseResult,
  Environment,
  BenchmarkSettings,
  EvolveRow,
  StretchTiming,
} from "./harness/results.ts";
import type { ClientKind } from "./harness/settings.ts";
import { inPhaseAsync } from "./harness/time-account.ts";
import { runEvolveMode } from "./harness/evolve.ts";
import type { SchemaCompilers } from "../protocols/compiled-versions.ts";
import { assembleResults, timeAccountOf } from "./assemble-results.ts";
import { socketModesOf, type SocketModeResult } from "./socket/modes.ts";
import { warmedKey } from "./socket/mode-context.ts";
import type { LoadMeasurement } from "./harness/load.ts";

/** How the socket modes went, as the front end that ran them tells it. */
export interface SocketModesOutcome {
  result: SocketModeResult;
  /** The server they talked to, for the results. */
  server?: string;
  /** Where the processes ran (bench/cli/processes/affinity.ts). */
  pinning?: string;
  /** The server was a cluster: its processes, and the backplane joining them. */
  cluster?: { urls: readonly string[]; backplane?: string };
  /** Why they ended early, when it was not a stop: one line. */
  failure?: string;
  /** --load: the user's traffic driven after the modes (client/socket/load-drive.ts). */
  load?: LoadMeasurement;
}

/** Where each step of a plan runs, and what the results record of the machine. */
export interface FrontEnd {
  client: ClientKind;
  clientLibrary?: string;
  timestamp: string;
  environment: Environment;
  environments?: BenchResults["environments"];
  clock: Clock;
  calibration: ClockCalibration;
  hooks: BenchmarkHooks;
  /** Codec mode somewhere else than in this process (the CLI's processes, plan.forks of them); `error`: why it stopped early. */
  codecMode?: (plan: Plan, hooks: BenchmarkHooks) => Promise<{ result: CodecModeResult; error?: string }>;
  /** Cold mode's fresh processes (the CLI: Bun processes of its own); absent: this front end cannot run cold mode, and says so. */
  coldMode?: (plan: Plan, hooks: BenchmarkHooks) => Promise<{ cases: CaseResult[]; order: string[][][] }>;
  /** Evolve mode's schema compilers, for the codecs whose code is generated from a schema (the CLI's); absent: those codecs' rows say this client cannot run them. */
  schemaCompilers?: SchemaCompilers;
  /** Untimed work after codec mode (the CLI: compression); error lines. */
  afterCodecMode?: (plan: Plan, cases: CaseResult[]) => Promise<string[]>;
  /**
   * The WebSocket modes; `warmedInProcess`: calls of each codec on each payload this process made
   * in codec mode, by `${payload} ${codec}` (empty where codec mode ran elsewhere or not at all),
   * which a client in this process need not make again to warm up.
   */
  socketModes: (
    plan: Plan,
    hooks: BenchmarkHooks,
    warmedInProcess: ReadonlyMap<string, number>,
  ) => Promise<SocketModesOutcome>;
  /** Called for each step that failed, with one line. */
  onFailure?: (line: string) => void;
  /** Wall time per mode and payload, for the next benchmark's estimate. */
  timings?: () => Record<string, StretchTiming>;
  /** The clock reading (front.clock) the benchmark's wall time counts from: the process's start for the CLI; absent, when the Benchmark is made. */
  startedMs?: number;
  /** What this process is called in the account's peak memory ("bench"); absent: its peak is not reported. */
  processName?: string;
}

export class Benchmark {
  /** Every case finished so far, in the order the steps finished them. */
  readonly cases: CaseResult[] = [];
  private readonly order: Record<string, string[][][]> = {};
  private readonly settings: BenchmarkSettings;
  private readonly started: number;
  /** Codec mode's spans when they run in this process (no `front.codecMode`). */
  private spansHere: CodecModeSpans | undefined;
  /** Calls codec mode made in this process of each verified case, by `${payload} ${codec}`: its verifying pass over a run's messages, and each run. */
  private readonly warmedHere = new Map<string, number>();
  /** --load: what the drive measured, once the socket modes have run. */
  private load: LoadMeasurement | undefined;
  /** Evolve mode's rows, once it has run. */
  private evolve: EvolveRow[] | undefined;

  constructor(
    private readonly plan: Plan,
    private readonly front: FrontEnd,
  ) {
    this.settings = { ...plan.settings, minBatchNs: NaN, client: front.client };
    this.started = front.startedMs ?? front.clock.now();
  }

  private fail(line: string): void {
    this.front.onFailure?.(line);
  }

  private stopped(): boolean {
    return this.front.hooks.shouldStop?.() ?? false;
  }

  /** Runs every step of the plan; the results. */
  async run(): Promise<BenchResults> {
    const { plan, front } = this;
    const { settings } = plan;
    const ledger = front.hooks.ledger;
    if (settings.modes.includes("codec")) {
      try {
        const { result, error } = front.codecMode
          ? await front.codecMode(plan, front.hooks)
          : await this.codecModeHere();
        if (error !== undefined) this.fail(`codec mode stopped: ${error}`);
        this.cases.push(...result.cases);
        this.order.codec = result.order;
        this.settings.minBatchNs = result.minBatchNs;
        this.settings.forks = plan.forks;
      } catch (e) {
        this.fail(`codec mode failed: ${(e as Error).message}`);
      }
      // Untimed, after codec mode's rounds, on the cases it kept: a failure here loses none of them.
      if (!this.stopped() && front.afterCodecMode) {
        try {
          const after = front.afterCodecMode;
          const codecCases = this.cases.filter((c) => c.mode === "codec");
          for (const line of await inPhaseAsync(ledger, "compression", () => after(plan, codecCases))) this.fail(line);
        } catch (e) {
          this.fail(`after codec mode: ${(e as Error).message}`);
        }
      }
    }
    if (settings.modes.includes("cold") && !this.stopped()) {
      if (!front.coldMode)
        this.fail("cold mode runs from the command line, in fresh Bun processes; this client cannot");
      else
        try {
          const { cases, order } = await front.coldMode(plan, front.hooks);
          this.cases.push(...cases);
          this.order.cold = order;
        } catch (e) {
          this.fail(`cold mode failed: ${(e as Error).message}`);
        }
    }
    // Checks, not timings: what a reader on one version of each payload reads from a writer on another, in this process.
    if (settings.modes.includes("evolve") && !this.stopped()) {
      try {
        this.evolve = await inPhaseAsync(ledger, "verify", () =>
          runEvolveMode(settings, plan.codecModeCodecs, front.hooks, front.clock.now, front.schemaCompilers),
        );
      } catch (e) {
        this.fail(`evolve mode failed: ${(e as Error).message}`);
      }
    }
    const socketModes = socketModesOf(settings);
    if (socketModes.length > 0 && !this.stopped()) {
      try {
        const outcome = await front.socketModes(plan, front.hooks, this.warmedHere);
        // Per-call client timings are quantized to a coarse clock (a browser's); say so on every row.
        if (front.calibration.resolutionNs > 1000) for (const c of outcome.result.cases) c.flags.push("coarse-clock");
        this.cases.push(...outcome.result.cases);
        Object.assign(this.order, outcome.result.order);
        if (outcome.server !== undefined) this.settings.server = outcome.server;
        if (outcome.pinning !== undefined) this.settings.pinning = outcome.pinning;
        if (outcome.cluster) {
          this.settings.processes = outcome.cluster.urls.length;
          if (outcome.cluster.backplane) this.settings.backplane = outcome.cluster.backplane;
        }
        if (outcome.load) this.load = outcome.load;
        for (const d of outcome.load?.drives ?? []) if (d.error !== undefined) this.fail(`load ${d.codec}: ${d.error}`);
        if (outcome.failure !== undefined) this.fail(outcome.failure);
        else if (outcome.result.aborted !== undefined)
          this.fail(`WebSocket modes stopped, the server cannot be reached: ${outcome.result.aborted}`);
      } catch (e) {
        this.fail(
          `${socketModes.join(" and ")} mode${socketModes.length > 1 ? "s" : ""} failed: ${(e as Error).message}`,
        );
      }
    }
    return this.results();
  }

  /** Codec mode's spans in this process, one after the other; every case told to the hooks at the end (codec-mode-spans.ts). */
  private async codecModeHere(): Promise<{ result: CodecModeResult; error?: string }> {
    const { plan, front } = this;
    const spans = (this.spansHere = new CodecModeSpans({
      settings: plan.settings,
      forks: plan.forks,
      codecs: plan.codecModeCodecs.length,
      now: front.clock.now,
      hooks: front.hooks,
    }));
    const outcome = await spans.run(async (span, payloads, side) => ({
      result: await runCodecMode(plan.settings, {
        ...front.hooks,
        onProgress: side.progress,
        onCaseDone: side.caseDone,
        codecs: plan.codecModeCodecs,
        clock: front.clock,
        calibration: front.calibration,
        client: front.client === "browser" ? "browser" : undefined,
        clientLibrary: front.clientLibrary,
        span,
        payloads,
      }),
    }));
    // Its cases are this.cases now: results() need not pool the spans again.
    this.spansHere = undefined;
    for (const c of outcome.result.cases)
      if (c.verified && c.runs > 0) this.warmedHere.set(warmedKey(c.payload, c.codec), c.iterations * (1 + c.runs));
    return outcome;
  }

  /**
   * The results of every case held now: at the end of `run`, or earlier
   * for a front end that must stop (`more`: finished cases a step has not
   * handed back yet, such as the live CSV's or a codec-mode process's).
   */
  results(more: readonly CaseResult[] = [], interrupted = this.stopped()): BenchResults {
    const { front } = this;
    const elapsedMs = front.clock.now() - this.started;
    return assembleResults({
      plan: this.plan,
      // Codec mode's finished cases while its spans still run in this process, after those held.
      cases: [...this.cases, ...more, ...(this.spansHere?.held().cases ?? [])],
      settings: this.settings,
      order: this.order,
      timestamp: front.timestamp,
      environment: front.environment,
      ...(front.environments ? { environments: front.environments } : {}),
      elapsedMs,
      account: timeAccountOf(front.hooks.ledger, elapsedMs, front.processName),
      ...(front.timings ? { timings: front.timings() } : {}),
      interrupted,
      ...(this.load ? { load: this.load } : {}),
      ...(this.evolve ? { evolve: this.evolve } : {}),
    });
  }
}
