/**
 * One benchmark as the CLI carries it out: resolve the plan,
 * calibrate the clock, carry the plan out (client/benchmark.ts) with codec
 * mode in processes of the bench's own and the WebSocket modes against a
 * server process of its own or the one `--url` names, with Bun's client, a
 * Node process, or the page in Chromium; then print the table and write the
 * files. A mode that fails does not take the others' finished results with
 * it.
 */

import { schemaCompilers } from "./schema-compilers.ts";
import { codeProvenance } from "./provenance.ts";
import { isNativeAccelerationEnabled } from "msgpackr";
import { availableParallelism } from "node:os";
import path from "node:path";
import { Benchmark, type SocketModesOutcome } from "../../client/benchmark.ts";
import { assembleResults, timeAccountOf } from "../../client/assemble-results.ts";
import { processCpuMs, type WebSocketClass } from "../../client/socket/client-connection.ts";
import { socketModeContext, type SocketTarget } from "../../client/socket/mode-context.ts";
import { runSocketModes, type SocketModeResult } from "../../client/socket/modes.ts";
import { ClientWorkers } from "../../client/socket/workers.ts";
import { calibrateClock, performanceClock, type ClockCalibration } from "../../client/harness/clock.ts";
import { addCompression } from "../../client/harness/compression.ts";
import { SettingError } from "../../client/harness/harness-errors.ts";
import { makePlan, planSpec, type Plan } from "../../client/harness/plan.ts";
import type { BenchmarkHooks } from "../../client/harness/progress.ts";
import type { BenchResults, CaseResult } from "../../client/harness/results.ts";
import { browserOf, type BrowserName } from "../../client/harness/settings.ts";
import { inPhaseAsync, TimeLedger } from "../../client/harness/time-account.ts";
import { TERMINAL_WIDTH, wrapLine } from "../report/format.ts";
import { formatTable } from "../report/table.ts";
import { collectEnvironment, fullGc, libraryVersion, libraryVersions } from "../../client/harness/environment.ts";
import { estimateFor } from "./eta.ts";
import { usageOf } from "./command.ts";
import { emitCodecs } from "./emit-codec.ts";
import { exportK6, k6TestOf } from "./k6-export.ts";
import type { BenchOptions } from "./resolve-options.ts";
import { LiveCsv, writeResults, type WrittenFiles } from "./output.ts";
import { runBrowserClient, type BrowserOutcome } from "./processes/browser.ts";
import { browserLabel, findBrowser, noBrowserMessage } from "./processes/browser-driver.ts";
import { CodecModeForks } from "./processes/codec-mode-forks.ts";
import { coldStartProcesses } from "./processes/cold-start-processes.ts";
import { pageBytes, type PageBytes } from "./bundle-bytes.ts";
import { ColdMode, type MeasureCold } from "../../client/harness/cold-mode.ts";
import { coldPagesEnvironment, coldStartPages, type ColdPagesBrowser } from "./processes/cold-start-pages.ts";
import { runNodeClient } from "./processes/node.ts";
import { createProgressPrinter, type Streams } from "./progress-line.ts";
import { useServer } from "./servers.ts";
import { driveLoad, LOAD_MESSAGES } from "../../client/socket/load-drive.ts";
import { loadCodecs, type LoadMeasurement } from "../../client/harness/load.ts";
import type { LoadSpec } from "../../client/harness/settings.ts";
import { messagesFor } from "../../client/harness/generator.ts";
import { runLinkSweep } from "./link-sweep.ts";
import { applyWireCounts, WireMeter, wireRunPlan } from "./wire-meter.ts";

/** How the CLI's signal handlers reach a benchmark. */
export interface StopControl {
  /** Set by the first Ctrl-C: stop after the current round or case. */
  stopRequested: boolean;
  /**
   * Set by the benchmark while it measures: writes every case finished so far
   * and says so, synchronously, for a second Ctrl-C (or SIGTERM) that ends
   * the process at once.
   */
  quit?: (why: string) => void;
}

/** Exit code of a benchmark stopped with Ctrl-C (128 + SIGINT), after its results are written. */
export const EXIT_INTERRUPTED = 130;

/** The clock's calibration and the environment every results file records (with the versions of the plan's codec libraries). */
function measureEnvironment(
  plan: Plan,
  ledger: TimeLedger,
): { calibration: ClockCalibration; environment: BenchResults["environment"] } {
  return ledger.time("start", () => {
    const calibration = calibrateClock(performanceClock);
    const environment = collectEnvironment(
      performanceClock.name,
      calibration,
      fullGc() !== undefined,
      isNativeAccelerationEnabled,
      plan.catalog,
    );
    return { calibration, environment };
  });
}

/** The account with the time its files took to write (which the files themselves cannot hold). */
function withWritingTime(results: BenchResults, ms: number): BenchResults {
  const a = results.account;
  return a
    ? { ...results, account: { ...a, wallMs: a.wallMs + ms, phases: { ...a.phases, files: a.phases.files + ms } } }
    : results;
}

/** What a benchmark leaves: its exit code, and (for a run that measured) its results and the files written. */
export interface BenchOutcome {
  /** 0; 1 when a case or a mode failed; 130 when stopped with Ctrl-C. */
  exitCode: number;
  /** What the files are written from; undefined for --export-k6 and --link-sweep, which write files of their own. */
  results?: BenchResults;
  /** The files written; undefined when the run writes none (`write: false`). */
  files?: WrittenFiles;
  /** Each failed case and mode, one line each, as they are printed to stderr. */
  failures: string[];
}

/** Writes the files (unless the options say not to), prints the table (its account with the writing), names every failed case. */
function printAndWrite(
  measured: BenchResults,
  options: BenchOptions,
  streams: Streams,
  failures: readonly string[],
): BenchOutcome {
  // Every file says what code made it; a browser's results come back from the page without it.
  const results: BenchResults = { ...measured, provenance: codeProvenance() };
  // Written even with no case: the JSON says what was asked for and on what machine. Written
  // before the table is printed, so the footer's account holds the writing; a write that fails
  // still leaves the table on the screen.
  const writing = performance.now();
  let files: WrittenFiles | undefined;
  let writeError: unknown;
  try {
    if (options.out !== undefined) files = writeResults(results, options.out);
  } catch (e) {
    writeError = e;
  }
  const shown = withWritingTime(results, performance.now() - writing);
  // With no case (every codec lossy on the user's messages, say) the fidelity table still says why; evolve mode's rows are no cases.
  if (results.cases.length > 0 || (results.fidelity?.length ?? 0) > 0 || (results.evolve?.length ?? 0) > 0)
    streams.stdout.write(formatTable(shown, { wide: options.wide }) + "\n\n");
  if (writeError !== undefined) throw writeError;
  if (files) {
    // A long --out path breaks at the spaces, never past the terminal's width (a path longer than a line stays whole).
    const also = wrapLine(
      `  and .json, .html beside it; also ${path.join(path.dirname(files.csv), "latest.csv")}, latest.json, report.html`,
      TERMINAL_WIDTH,
      "  ",
    );
    streams.stdout.write(`Wrote ${files.csv}\n${also.join("\n")}\n`);
    if (files.hgrm.length > 0)
      streams.stdout.write(`  and ${files.hgrm.length} latency spectra (.hgrm) in ${path.dirname(files.hgrm[0]!)}\n`);
  }
  const failed = results.cases
    .filter((c) => !c.verified)
    .map((c) => `FAILED ${c.mode} ${c.client} ${c.codec} ${c.payload}: ${c.error}`);
  for (const line of failed) streams.stderr.write(`bench: ${line}\n`);
  const all = [...failures, ...failed];
  return { exitCode: all.length > 0 ? 1 : 0, results: shown, ...(files ? { files } : {}), failures: all };
}

/**
 * With --deflate, the frames' size on the wire: the same client sends a short untimed run through
 * a counting relay (wire-meter.ts), after the timed runs.
 */
async function meterWire(
  server: string,
  cases: CaseResult[],
  client: "bun" | "node",
  countedRun: (url: string) => Promise<SocketModeResult>,
): Promise<void> {
  const meter = WireMeter.start(server);
  try {
    await countedRun(meter.url);
    applyWireCounts(cases, meter.counts(), client);
  } finally {
    meter.stop();
  }
}

/** A cluster's processes, and what joins them, as a socket client's target names them. */
function clusterTarget(cluster: SocketModesOutcome["cluster"]): Pick<SocketTarget, "cluster"> {
  return cluster ? { cluster: { urls: [...cluster.urls], backplane: cluster.backplane ? "redis" : "" } } : {};
}

/** The WebSocket modes with the Bun client (in this process) or the Node client (a process of its own). */
async function runWebSocketModes(
  plan: Plan,
  options: BenchOptions,
  calibration: ClockCalibration,
  hooks: BenchmarkHooks,
  warmedInProcess: ReadonlyMap<string, number>,
): Promise<SocketModesOutcome> {
  return useServer(
    options,
    async (server) => {
      // A server process that dies ends the modes after the case in flight.
      const stopOrGone = (): boolean => (hooks.shouldStop?.() ?? false) || server.exit() !== undefined;
      const outcome = (result: SocketModeResult): SocketModesOutcome => {
        const exit = server.exit();
        return {
          result,
          server: server.label,
          pinning: server.pinning,
          ...(server.cluster ? { cluster: server.cluster } : {}),
          ...(exit !== undefined
            ? { failure: `the server process exited (${exit}) during the WebSocket modes; they stopped there` }
            : {}),
        };
      };
      const { settings } = plan;
      const spec = planSpec(plan);
      /** With --deflate, after the timed runs: the frames' size on the wire, from an untimed run of the same client through a counting relay. */
      const withWireCounts = async (
        result: SocketModeResult,
        kind: "bun" | "node",
        countedRun: (url: string) => Promise<SocketModeResult>,
      ): Promise<SocketModeResult> => {
        if (settings.deflate && !stopOrGone())
          await inPhaseAsync(hooks.ledger, "compression", () => meterWire(server.url, result.cases, kind, countedRun));
        return result;
      };
      if (options.client === "node") {
        const versions = libraryVersions(plan.catalog);
        const result = await runNodeClient(
          {
            plan: spec,
            server: server.url,
            serverForks: server.urls,
            ...clusterTarget(server.cluster),
            ...(server.linkVia ? { linkVia: server.linkVia } : {}),
            wsVersion: libraryVersion("ws"),
            libraryVersions: versions,
          },
          hooks.onProgress ?? (() => {}),
          stopOrGone,
          hooks.onCaseDone,
          hooks.ledger,
        );
        const counted = (url: string): Promise<SocketModeResult> =>
          runNodeClient(
            {
              plan: wireRunPlan(spec),
              server: url,
              wsVersion: libraryVersion("ws"),
              libraryVersions: versions,
              sliceFigures: false,
            },
            () => {},
            stopOrGone,
          );
        return outcome(await withWireCounts(result, "node", counted));
      }
      const workers =
        settings.clients > 1 ? new ClientWorkers(Math.min(settings.clients, availableParallelism())) : undefined;
      const client = {
        kind: "bun" as const,
        library: `bun WebSocket ${Bun.version}`,
        WebSocket: globalThis.WebSocket as unknown as WebSocketClass,
        cpuMs: processCpuMs,
      };
      const target: SocketTarget = {
        server: server.url,
        serverForks: server.urls,
        ...clusterTarget(server.cluster),
        ...(server.linkVia ? { linkVia: server.linkVia } : {}),
      };
      // The Bun client shares this process, and what codec mode compiled here, with codec mode (one fork).
      const context = socketModeContext(client, target, {
        catalog: plan.catalog,
        calibration,
        hooks: { ...hooks, shouldStop: stopOrGone },
        ...(workers ? { workers } : {}),
        warmedInProcess,
      });
      const result = await runSocketModes(settings, context).finally(() => workers?.terminate());
      const load =
        settings.load && !stopOrGone() && result.aborted === undefined
          ? await inPhaseAsync(hooks.ledger, "timed", () =>
              driveUserLoad(plan, settings.load!, server.urls, client, hooks, stopOrGone),
            )
          : undefined;
      const counted = (url: string): Promise<SocketModeResult> =>
        runSocketModes(
          wireRunPlan(spec).settings,
          socketModeContext(
            client,
            { ...target, server: url, serverForks: [url] },
            { catalog: plan.catalog, calibration, hooks: { shouldStop: stopOrGone }, sliceFigures: false },
          ),
        );
      return { ...outcome(await withWireCounts(result, "bun", counted)), ...(load ? { load } : {}) };
      // Kept connections take turns with --forks server processes; several clients run on fresh connections to one.
    },
    options.settings.clients > 1 ? 1 : options.serverForks,
    hooks.ledger,
  );
}

/**
 * --load: the user's traffic driven at the server processes with every codec of the run that
 * carries all its payloads, and raw (the transport alone, which the predictions rest on).
 */
function driveUserLoad(
  plan: Plan,
  spec: LoadSpec,
  servers: readonly string[],
  client: { WebSocket: WebSocketClass; cpuMs: () => number },
  hooks: BenchmarkHooks,
  shouldStop: () => boolean,
): Promise<LoadMeasurement> {
  const { settings } = plan;
  return driveLoad(spec, loadCodecs(settings, spec), {
    servers,
    catalog: plan.catalog,
    WebSocket: client.WebSocket,
    clock: performanceClock,
    stallTimeoutMs: settings.stallTimeoutMs,
    messagesOf: (payload) => messagesFor(settings, payload, LOAD_MESSAGES),
    seed: settings.seed,
    cpuMs: client.cpuMs,
    shouldStop,
    ...(hooks.onProgress ? { onProgress: hooks.onProgress } : {}),
  });
}

/** --export-k6: the test, and how to run it. */
function writeK6Test(k6: NonNullable<BenchOptions["exportK6"]>, plan: Plan, streams: Streams): number {
  const cases = exportK6(plan, k6.dir, k6.load);
  const { connections, messages, rate } = k6.load;
  const routing = k6TestOf(plan.settings) === "route";
  streams.stdout.write(
    `Wrote a k6 test to ${k6.dir}: ${cases.length} codec x payload cases, each ${connections} ${routing ? "router(s), with two members of their rooms," : "connection(s)"} x ${messages} messages at ${rate}/s per connection.\n` +
      `Run it against ${usageOf("server")} (${k6.load.server}): k6 run ${path.join(k6.dir, "script.js")}  (-e SERVER=ws://host:port to change)\n`,
  );
  return 0;
}

/**
 * What every benchmark the command line runs shares, whichever client carries its plan out: the
 * estimate and the progress line, the live CSV of each finished case, the failures printed as they
 * come, the quit a second Ctrl-C (or SIGTERM) calls, and the end (the table, the files, 130 when
 * stopped).
 */
function commandFront(
  plan: Plan,
  options: BenchOptions,
  streams: Streams,
  control: StopControl,
  ledger: TimeLedger,
  head: Pick<BenchResults, "timestamp" | "environment"> & { client: "bun" | "node" | "browser" },
) {
  const estimate = estimateFor(plan, options.out);
  const progress = createProgressPrinter(streams.stderr, estimate);
  const live = new LiveCsv(
    options.out,
    {
      timestamp: head.timestamp,
      settings: { ...plan.settings, minBatchNs: NaN, client: head.client },
      environment: head.environment,
      order: {},
      elapsedMs: 0,
    },
    ledger,
  );
  const failures: string[] = [];
  return {
    estimate,
    progress,
    live,
    fail(line: string): void {
      progress.finish();
      streams.stderr.write(`bench: ${line}\n`);
      failures.push(line);
    },
    /** From now until `finish`, a second Ctrl-C writes what `held` gives and says whose cases they are (`finished`); the entry point then exits. */
    quitWith(held: () => BenchResults, finished = "finished"): void {
      control.quit = (why) => {
        progress.finish();
        const results = held();
        printAndWrite(results, options, streams, failures);
        streams.stderr.write(
          `bench: quit by ${why}; the ${results.cases.length} case(s) ${finished} are in the files above\n`,
        );
      };
    },
    finish(results: BenchResults): BenchOutcome {
      control.quit = undefined;
      progress.finish();
      const outcome = printAndWrite(results, options, streams, failures);
      if (!control.stopRequested) return outcome;
      streams.stderr.write(
        `bench: stopped by Ctrl-C; the ${results.cases.length} case(s) that ran are in the files above\n`,
      );
      return { ...outcome, exitCode: EXIT_INTERRUPTED };
    },
  };
}

/**
 * Cold mode, each process measured by `measure` (fresh Bun processes, or a browser's fresh pages)
 * in `mode`, which holds what they measured at any moment; then what each codec's code adds to a
 * page (bytes, untimed; not after a stop). A codec whose bytes cannot be counted keeps its
 * figures: `note` says why, and the run does not fail for it.
 */
async function coldModeWithBytes(
  mode: ColdMode,
  plan: Plan,
  hooks: BenchmarkHooks,
  measure: MeasureCold,
  note: (line: string) => void,
): Promise<{ cases: CaseResult[]; order: string[][][] }> {
  const outcome = await mode.run(measure);
  if (hooks.shouldStop?.()) return outcome;
  let bytes: Map<string, PageBytes>;
  try {
    bytes = await pageBytes([...new Set(outcome.cases.map((c) => c.codec))], plan.settings.codecModules ?? []);
  } catch (e) {
    note(`the page's bytes were not counted: ${(e as Error).message.split("\n")[0]}`);
    return outcome;
  }
  for (const [codec, b] of bytes) if ("error" in b) note(`the page's bytes of ${codec} were not counted: ${b.error}`);
  for (const c of outcome.cases) {
    const b = bytes.get(c.codec);
    if (b && !("error" in b) && c.cold) Object.assign(c.cold, { bundleBytes: b.bytes, bundleGzipBytes: b.gzipBytes });
  }
  return outcome;
}

/**
 * Runs the benchmark; returns its outcome: the process exit code (0, 1 when a case or a mode
 * failed, 130 when stopped), the results and the files. `startedMs`: the performance clock's reading the benchmark's wall time counts from (the
 * entry point passes 0, the process's start, so the account holds the runtime's start too).
 */
export async function runBenchmark(
  options: BenchOptions,
  streams: Streams,
  control: StopControl = { stopRequested: false },
  startedMs = performance.now(),
): Promise<BenchOutcome> {
  const ledger = new TimeLedger();
  ledger.add("start", performance.now() - startedMs);
  // Every check that can fail on the user's input ran as the options were resolved (resolve-options.ts).
  // Resolved once: the catalog, what each codec does to the user's messages (a check of every codec on them), which pairs run.
  const browser = browserOf(options.client);
  const plan = ledger.time("verify", () => makePlan(options.settings, options.moduleCodecs, options.forks));
  if (options.emitCodec !== undefined)
    for (const line of emitCodecs(plan, options.emitCodec)) streams.stdout.write(`${line}\n`);
  if (options.exportK6) return { exitCode: writeK6Test(options.exportK6, plan, streams), failures: [] };
  if (options.linkSweep) {
    const { calibration } = measureEnvironment(plan, ledger);
    const exitCode = await runLinkSweep(plan, options, calibration, streams, ledger, () => control.stopRequested);
    return { exitCode, failures: [] };
  }
  if (browser) return runBrowserBenchmark(browser, plan, options, streams, control, ledger, startedMs);
  const client = options.client as "bun" | "node";
  const timestamp = new Date().toISOString();
  const { calibration, environment } = measureEnvironment(plan, ledger);
  const front = commandFront(plan, options, streams, control, ledger, { timestamp, environment, client });
  const { estimate, progress, live } = front;
  const hooks: BenchmarkHooks = {
    gc: fullGc(),
    libraryVersion,
    onProgress: (e) => progress.update(e),
    shouldStop: () => control.stopRequested,
    onCaseDone: (c) => live.add(c),
    ledger,
    residentBytes: () => process.memoryUsage.rss(),
  };
  let processes: CodecModeForks | undefined;
  let cold: ColdMode | undefined;
  const benchmark = new Benchmark(plan, {
    client,
    timestamp,
    environment,
    clock: performanceClock,
    calibration,
    hooks,
    timings: () => estimate.timings(),
    startedMs,
    processName: "bench",
    // Codec mode in processes of the bench's own (one process: in this one, Benchmark's own step).
    ...(plan.forks > 1
      ? {
          codecMode: async (p: Plan, h: BenchmarkHooks) => {
            processes = new CodecModeForks(p, h);
            const outcome = await processes.run();
            processes = undefined;
            return outcome;
          },
        }
      : {}),
    // Each case's first messages in fresh Bun processes, one at a time.
    coldMode: (p, h) =>
      coldModeWithBytes(
        (cold = new ColdMode(p.settings, p.codecModeCodecs, h, performanceClock.now)),
        p,
        h,
        coldStartProcesses(h.ledger, () => h.shouldStop?.() ?? false),
        (line) => streams.stderr.write(`bench: ${line}\n`),
      ),
    // Evolve mode's second versions of the codecs generated from a schema, by their own compilers.
    schemaCompilers: schemaCompilers(),
    // Untimed by codec mode: after its rounds, what compression makes of each codec's messages.
    afterCodecMode: (p, cases) => addCompression(cases, p, performanceClock, calibration.overheadNs),
    socketModes: (p, h, warmedInProcess) => runWebSocketModes(p, options, calibration, h, warmedInProcess),
    onFailure: (line) => front.fail(line),
  });
  // Every case finished so far: in this process (the live CSV) and in a codec-mode process.
  // A cold case is told finished only in its last repeat: until then cold mode holds what its processes measured.
  front.quitWith(() =>
    benchmark.results([...live.finished, ...(processes?.held().cases ?? []), ...(cold?.held() ?? [])], true),
  );
  return front.finish(await benchmark.run());
}

/**
 * `--client chromium` or `--client firefox`: every selected mode but cold runs inside the page in
 * that headless browser (codec mode too, in fresh workers of the page's JavaScript engine), which
 * carries the plan out itself (client/benchmark.ts, the same orchestrator); the bench serves it,
 * drives the browser and writes the files. Cold mode runs after it, driven by the bench: each of
 * its processes a fresh page load in a browser context of its own (processes/cold-start-pages.ts).
 */
async function runBrowserBenchmark(
  browser: BrowserName,
  plan: Plan,
  options: BenchOptions,
  streams: Streams,
  control: StopControl,
  ledger: TimeLedger,
  startedMs: number,
): Promise<BenchOutcome> {
  const binary = findBrowser(browser);
  if (!binary) throw new SettingError(noBrowserMessage(browser));
  const { environment } = measureEnvironment(plan, ledger);
  const timestamp = new Date().toISOString();
  // Each case the page finishes, as it finishes it: in the live CSV, and what a second Ctrl-C writes.
  const front = commandFront(plan, options, streams, control, ledger, { timestamp, environment, client: "browser" });
  const { estimate, progress, live } = front;
  const pageModes = plan.settings.modes.filter((m) => m !== "cold");
  let cold: ColdMode | undefined;
  let coldBrowser: ColdPagesBrowser | undefined;
  let page: BrowserOutcome | undefined;
  let serverLabel: string | undefined;
  let coldOutcome: { cases: CaseResult[]; order: string[][][] } | undefined;
  /**
   * The results of everything finished: the page's own (its cases, order, evolve rows and
   * environment, once it handed them back; before that, the cases it told as it finished them),
   * and cold mode's cases, assembled as every benchmark's are (client/assemble-results.ts), with
   * the bench's machine and timings. What a second Ctrl-C writes, and the run's end.
   */
  const merged = (interrupted: boolean): BenchResults => {
    const elapsedMs = performanceClock.now() - startedMs;
    const assembled = assembleResults({
      plan,
      cases: [
        ...(page?.results.cases ?? live.finished.filter((c) => c.mode !== "cold")),
        ...(coldOutcome?.cases ?? cold?.held() ?? []),
      ],
      settings: { ...plan.settings, minBatchNs: NaN, client: "browser" },
      order: { ...page?.results.order, ...(coldOutcome ? { cold: coldOutcome.order } : {}) },
      timestamp,
      environment,
      elapsedMs,
      account: timeAccountOf(ledger, elapsedMs, "bench"),
      timings: estimate.timings(),
      interrupted,
    });
    const browserEnvironment =
      page?.results.environment ?? (coldBrowser ? coldPagesEnvironment(environment, coldBrowser) : undefined);
    return {
      ...(page?.results ?? {}),
      ...assembled,
      settings: {
        ...(page?.results.settings ?? assembled.settings),
        modes: plan.settings.modes,
        server: serverLabel,
        interrupted,
      },
      ...(browserEnvironment ? { environments: { browser: browserEnvironment } } : {}),
    };
  };
  front.quitWith(() => merged(true), "the page finished");
  if (pageModes.length > 0)
    try {
      await useServer(
        options,
        async (server) => {
          serverLabel = server.label;
          const launched = performance.now();
          page = await runBrowserClient(
            browser,
            binary,
            {
              settings: { ...plan.settings, modes: pageModes },
              forks: plan.forks,
              server: server.url,
              ...(server.linkVia?.[server.url] ? { linkVia: server.linkVia[server.url] } : {}),
            },
            (p) => progress.update(p),
            () => control.stopRequested,
            (c) => live.add(c),
          );
          // The page's own phases; the rest of the wait (the browser's start, the page's load, its end) is starting up.
          if (page.results.account) ledger.addProcess(page.results.account, performance.now() - launched);
        },
        1,
        ledger,
      );
    } catch (e) {
      front.fail(`the ${browserLabel(browser)} run failed: ${(e as Error).message}`);
    }
  for (const line of page?.failures ?? []) front.fail(`in the page: ${line}`);
  if (plan.settings.modes.includes("cold") && !control.stopRequested)
    try {
      const pages = await inPhaseAsync(ledger, "start", () =>
        coldStartPages(browser, binary, plan.settings.codecModules ?? [], () => control.stopRequested, ledger),
      );
      coldBrowser = pages.browser;
      try {
        const hooks: BenchmarkHooks = {
          libraryVersion,
          onProgress: (e) => progress.update(e),
          shouldStop: () => control.stopRequested,
          onCaseDone: (c) => live.add(c),
          ledger,
        };
        cold = new ColdMode(plan.settings, plan.codecModeCodecs, hooks, performanceClock.now, {
          client: "browser",
          clientLibrary: pages.browser.userAgent,
        });
        coldOutcome = await coldModeWithBytes(cold, plan, hooks, pages.measure, (line) =>
          streams.stderr.write(`bench: ${line}\n`),
        );
      } finally {
        await pages.close();
      }
    } catch (e) {
      front.fail(`cold mode in ${browserLabel(browser)} failed: ${(e as Error).message}`);
    }
  return front.finish(merged(control.stopRequested));
}
