/**
 * One whole benchmark run as the CLI performs it: calibrate the clock, run
 * the selected modes (in process, then over WebSocket against a server
 * process of its own or the one `--url` names), then hand the plain results
 * to the reporters. A mode that fails does not take the others' finished
 * results with it.
 */

import { isNativeAccelerationEnabled } from "msgpackr";
import { runSocketModes, type SocketModeResult, type SocketProgress } from "../../client/socket/modes.ts";
import { ClientWorkers } from "../../client/socket/workers.ts";
import { availableParallelism } from "node:os";
import type { SocketMode, WebSocketClass } from "../../client/socket/runner.ts";
import { CODECS } from "../../protocols/registry.ts";
import { GC_PATH } from "../../protocols/socket/contract.ts";
import { calibrateClock, performanceClock, type ClockCalibration } from "../harness/clock.ts";
import { runCodecMode, type ProgressEvent } from "../harness/codec-mode.ts";
import { collectEnvironment, libraryVersion, LIBRARIES } from "./environment.ts";
import { nodeVersion, runNodeClient } from "./processes/node.ts";
import { OptionError, type BenchOptions } from "./options.ts";
import { LiveCsv, writeResults } from "./output.ts";
import { createProgressPrinter, type ProgressSink } from "../harness/progress.ts";
import type { BenchResults, CaseResult, RunSettings } from "../harness/results.ts";
import { spawnServer, type ServerProcess } from "./processes/server.ts";
import { findChromium, NO_CHROMIUM_MESSAGE, runBrowserClient } from "./processes/browser.ts";
import { formatTable } from "../report/table.ts";

export interface Streams {
  stdout: ProgressSink;
  stderr: ProgressSink;
}

/** Full collection between cases, so one codec's garbage is not collected on another's clock. */
function fullGc(): (() => void) | undefined {
  const bun = (globalThis as { Bun?: { gc(force: boolean): void } }).Bun;
  return bun ? () => bun.gc(true) : undefined;
}

function cpuMs(): number {
  const c = process.cpuUsage();
  return (c.user + c.system) / 1000;
}

const SOCKET_MODES: readonly SocketMode[] = ["roundtrip", "stream", "fanout"];

/** Checks that a server the user named answers, with a message per kind of failure. */
async function probeServer(url: string, timeoutMs: number): Promise<void> {
  try {
    await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
  } catch (e) {
    const err = e as { code?: string; name?: string; message?: string; cause?: { code?: string } };
    const code = err.code ?? err.cause?.code ?? "";
    const host = new URL(url).host;
    if (/ConnectionRefused|ECONNREFUSED/i.test(code + (err.message ?? ""))) throw new Error(`connection refused by ${host}: is the server running? (bun run server)`);
    if (/ENOTFOUND|EAI_AGAIN|DNS|getaddrinfo/i.test(code + (err.message ?? ""))) throw new Error(`cannot resolve the host of ${url} (DNS lookup failed)`);
    if (err.name === "TimeoutError" || /timed out|timeout/i.test(err.message ?? "")) throw new Error(`${host} did not answer within ${timeoutMs} ms`);
    throw new Error(`cannot reach ${url}: ${err.message ?? String(e)}`);
  }
}

/**
 * The server `--url` names (checked), or a fresh server process of our own.
 * `serverExit()` says how our process ended if it did ("" never for --url).
 */
async function useServer<T>(options: BenchOptions, work: (server: string, label: string, serverExit: () => string | undefined) => Promise<T>): Promise<T> {
  if (options.url) {
    await probeServer(options.url, options.stallTimeoutMs);
    return work(options.url, options.url, () => undefined);
  }
  const spawned: ServerProcess = await spawnServer(options.deflate ? ["--deflate"] : []);
  let exit: string | undefined;
  void spawned.exited.then((how) => (exit = how === "0" ? "exit code 0" : /^\d+$/.test(how) ? `exit code ${how}` : `killed by ${how}`));
  try {
    return await work(spawned.url, `spawned (pid ${spawned.pid}, ${spawned.url})`, () => exit);
  } finally {
    await spawned.stop();
  }
}

async function runWebSocketModes(
  options: BenchOptions,
  modes: SocketMode[],
  calibration: ClockCalibration,
  onProgress: (e: SocketProgress) => void,
  shouldStop: () => boolean,
  onCaseDone: (c: CaseResult) => void,
): Promise<{ result: SocketModeResult; server: string; serverExit: string | undefined }> {
  return useServer(options, async (server, serverLabel, serverExit) => {
    // A server process that dies ends the modes after the case in flight.
    const stopOrGone = (): boolean => shouldStop() || serverExit() !== undefined;
    const workers = options.clients > 1 ? new ClientWorkers(Math.min(options.clients, availableParallelism())) : undefined;
    const shared = {
      server,
      modes,
      codecs: options.codecs,
      payloads: options.payloads,
      iterations: { roundtrip: options.iterations.roundtrip, stream: options.iterations.stream, fanout: options.iterations.fanout },
      runs: options.runs,
      warmup: { roundtrip: options.warmup.roundtrip, stream: options.warmup.stream, fanout: options.warmup.fanout },
      seed: options.seed,
      fixed: options.fixed,
      window: options.window,
      stallTimeoutMs: options.stallTimeoutMs,
      deflate: options.deflate,
    };
    if (options.client === "node") {
      const result = await runNodeClient(
        {
          ...shared,
          wsVersion: libraryVersion("ws"),
          libraryVersions: Object.fromEntries(LIBRARIES.map((name) => [name, libraryVersion(name)])),
        },
        onProgress,
        stopOrGone,
      );
      return { result, server: serverLabel, serverExit: serverExit() };
    }
    const result = await runSocketModes({
      ...shared,
      clients: options.clients,
      workers,
      clock: performanceClock,
      calibration,
      WebSocket: globalThis.WebSocket as unknown as WebSocketClass,
      client: "bun",
      clientLibrary: `bun WebSocket ${Bun.version}`,
      libraryVersion,
      gc: fullGc(),
      serverGc: async () => {
        await fetch(new URL(GC_PATH, server), { method: "POST" }).catch(() => undefined);
      },
      cpuMs,
      onProgress,
      shouldStop: stopOrGone,
      onCaseDone,
    }).finally(() => workers?.terminate());
    return { result, server: serverLabel, serverExit: serverExit() };
  });
}

/** Runs the benchmark; returns the process exit code (0, or 1 when a case or a mode failed). */
/** Set by the CLI's SIGINT handler: stop after the current case. */
export interface RunControl {
  stopRequested: boolean;
}

/** Exit code of a run stopped with Ctrl-C (128 + SIGINT), after its results are written. */
export const EXIT_INTERRUPTED = 130;

export async function runBench(options: BenchOptions, streams: Streams, control: RunControl = { stopRequested: false }): Promise<number> {
  if (options.client === "browser") return runBrowserBench(options, streams, control);
  const socketModes = SOCKET_MODES.filter((m) => options.modes.includes(m));
  if (socketModes.length > 0 && options.client === "node" && nodeVersion() === undefined) {
    throw new OptionError("--client node needs Node.js on PATH (node --version failed); install Node.js or use --client bun");
  }
  const timestamp = new Date().toISOString();
  const calibration = calibrateClock(performanceClock);
  const gc = fullGc();
  const environment = collectEnvironment(performanceClock.name, calibration, gc !== undefined, isNativeAccelerationEnabled);
  const progress = createProgressPrinter(streams.stderr);
  const started = performance.now();
  const cases: CaseResult[] = [];
  const order: Record<string, string[][][]> = {};
  const settings: RunSettings = {
    modes: options.modes,
    codecs: options.codecs,
    payloads: options.payloads,
    iterations: options.iterations,
    runs: options.runs,
    warmup: options.warmup,
    seed: options.seed,
    fixed: options.fixed,
    minBatchNs: NaN,
    client: options.client,
    window: options.window,
    clients: options.clients,
    deflate: options.deflate,
  };
  const live = new LiveCsv(options.out, { timestamp, settings, environment, order, elapsedMs: 0 });
  const stop = (): boolean => control.stopRequested;
  let failures = 0;

  if (options.modes.includes("codec")) {
    const result = await runCodecMode({
      codecs: CODECS.filter((c) => options.codecs.includes(c.name)),
      payloads: options.payloads,
      iterations: options.iterations.codec,
      runs: options.runs,
      warmup: options.warmup.codec,
      seed: options.seed,
      fixed: options.fixed,
      clock: performanceClock,
      calibration,
      gc,
      libraryVersion,
      onProgress: (e: ProgressEvent) => progress.update({ ...e, mode: "codec" }),
      shouldStop: stop,
      onCaseDone: (c) => live.add(c),
    });
    cases.push(...result.cases);
    order.codec = result.order;
    settings.minBatchNs = result.minBatchNs;
  }

  if (socketModes.length > 0 && !control.stopRequested) {
    try {
      const { result, server, serverExit } = await runWebSocketModes(options, socketModes, calibration, (e) => progress.update(e), stop, (c) => live.add(c));
      cases.push(...result.cases);
      Object.assign(order, result.order);
      settings.server = server;
      if (serverExit !== undefined) {
        progress.finish();
        streams.stderr.write(`bench: the server process exited (${serverExit}) during the WebSocket modes; they stopped there\n`);
        failures++;
      } else if (result.aborted) {
        progress.finish();
        streams.stderr.write(`bench: WebSocket modes stopped, the server cannot be reached: ${result.aborted}\n`);
        failures++;
      }
    } catch (e) {
      progress.finish();
      streams.stderr.write(`bench: ${socketModes.join(" and ")} mode${socketModes.length > 1 ? "s" : ""} failed: ${(e as Error).message}\n`);
      failures++;
    }
  }
  progress.finish();
  settings.interrupted = control.stopRequested;

  const results: BenchResults = { timestamp, settings, environment, order, cases, elapsedMs: performance.now() - started };
  const code = report(results, options, streams, failures);
  if (control.stopRequested) {
    streams.stderr.write(`bench: stopped by Ctrl-C; the ${cases.length} case(s) that ran are in the files above\n`);
    return EXIT_INTERRUPTED;
  }
  return code;
}

/** Prints the table, writes the files, names every failed case; the exit code. */
function report(results: BenchResults, options: BenchOptions, streams: Streams, failures: number): number {
  if (results.cases.length > 0) {
    streams.stdout.write(formatTable(results) + "\n\n");
    const files = writeResults(results, options.out);
    streams.stdout.write(`Wrote ${files.csv} and ${files.json} (also latest.csv, latest.json).\n`);
  }
  const failed = results.cases.filter((c) => !c.verified);
  for (const c of failed) streams.stderr.write(`bench: FAILED ${c.mode} ${c.client} ${c.codec} ${c.payload}: ${c.error}\n`);
  return failed.length + failures > 0 ? 1 : 0;
}

/**
 * `--client browser`: every selected mode runs inside the page in headless
 * Chromium (codec mode too, in the page's JavaScript engine); the rows join
 * the same files as every other client's.
 */
async function runBrowserBench(options: BenchOptions, streams: Streams, control: RunControl): Promise<number> {
  const chromiumPath = findChromium();
  if (!chromiumPath) throw new OptionError(NO_CHROMIUM_MESSAGE);
  const progress = createProgressPrinter(streams.stderr);
  const calibration = calibrateClock(performanceClock);
  const environment = collectEnvironment(performanceClock.name, calibration, fullGc() !== undefined, isNativeAccelerationEnabled);
  const started = performance.now();
  let failures = 0;
  let browser: BenchResults | undefined;
  let serverLabel: string | undefined;
  try {
    await useServer(options, async (server, label) => {
      serverLabel = label;
      browser = await runBrowserClient(
        chromiumPath,
        { server, modes: options.modes, codecs: options.codecs, payloads: options.payloads, iterations: options.iterations, warmup: options.warmup, runs: options.runs, seed: options.seed, fixed: options.fixed, window: options.window },
        (p) => progress.update(p),
        () => control.stopRequested,
      );
    });
  } catch (e) {
    progress.finish();
    streams.stderr.write(`bench: the browser run failed: ${(e as Error).message}\n`);
    failures++;
  }
  progress.finish();
  const results: BenchResults = {
    timestamp: browser?.timestamp ?? new Date().toISOString(),
    settings: { ...(browser?.settings ?? { modes: options.modes, codecs: options.codecs, payloads: options.payloads, iterations: options.iterations, runs: options.runs, warmup: options.warmup, seed: options.seed, fixed: options.fixed, minBatchNs: NaN }), client: "browser", server: serverLabel },
    environment,
    environments: browser ? { browser: browser.environment } : {},
    order: browser?.order ?? {},
    cases: browser?.cases ?? [],
    elapsedMs: performance.now() - started,
  };
  const code = report(results, options, streams, failures);
  return control.stopRequested ? EXIT_INTERRUPTED : code;
}
