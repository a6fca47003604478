/**
 * One whole benchmark run as the CLI performs it: calibrate the clock, run
 * the selected modes (in process, then over WebSocket against a server
 * process of its own or the one `--url` names), then hand the plain results
 * to the reporters. A mode that fails does not take the others' finished
 * results with it.
 */

import { availableParallelism } from "node:os";
import path from "node:path";
import { processCpuMs, requestServerGc, type WebSocketClass } from "../../client/socket/connection.ts";
import { runSocketModes, socketModesOf, type SocketModeResult } from "../../client/socket/modes.ts";
import { ClientWorkers } from "../../client/socket/workers.ts";
import { CODECS } from "../../protocols/registry.ts";
import { performanceClock, type ClockCalibration } from "../harness/clock.ts";
import { runCodecMode } from "../harness/codec-mode.ts";
import { addCompression } from "../harness/compression.ts";
import { flagLossy, planUserPayloads } from "../harness/exclusions.ts";
import { kneeField } from "../harness/knee.ts";
import type { RunHooks } from "../harness/progress.ts";
import type { BenchResults, CaseResult, RunSettings } from "../harness/results.ts";
import { libraryVersion, LIBRARIES } from "./environment.ts";
import { SettingError } from "../harness/settings.ts";
import type { BenchOptions } from "./options.ts";
import { LiveCsv, prepareOutDir } from "./output.ts";
import { CodecModeProcesses } from "./processes/codec-forks.ts";
import { nodeVersion, runNodeClient } from "./processes/node.ts";
import { estimateFor } from "./eta.ts";
import { exportK6 } from "./k6-export.ts";
import { createProgressPrinter } from "./progress.ts";
import { runBrowserBench } from "./run-browser.ts";
import { EXIT_INTERRUPTED, fullGc, measureEnvironment, report, type RunControl, type Streams } from "./run-support.ts";
import { checkUrl, useServer } from "./servers.ts";
import { applyWireCounts, WireMeter, wirePassSettings } from "./wire-meter.ts";

/**
 * With --deflate, the frames' size on the wire: the same client sends a short untimed pass through
 * a counting relay (wire-meter.ts), after the timed runs.
 */
async function meterWire(server: string, cases: CaseResult[], client: "bun" | "node", pass: (url: string) => Promise<SocketModeResult>): Promise<void> {
  const meter = WireMeter.start(server);
  try {
    await pass(meter.url);
    applyWireCounts(cases, meter.counts(), client);
  } finally {
    meter.stop();
  }
}

/** The WebSocket modes with the Bun client (in this process) or the Node client (a process of its own). */
async function runWebSocketModes(options: BenchOptions, calibration: ClockCalibration, hooks: RunHooks): Promise<{ result: SocketModeResult; server: string; pinning: string; serverExit: string | undefined }> {
  return useServer(options, async (server) => {
    // A server process that dies ends the modes after the case in flight.
    const stopOrGone = (): boolean => (hooks.shouldStop?.() ?? false) || server.exit() !== undefined;
    const { settings } = options;
    if (options.client === "node") {
      const libraryVersions = Object.fromEntries(LIBRARIES.map((name) => [name, libraryVersion(name)]));
      const result = await runNodeClient({ settings, server: server.url, servers: server.urls, wsVersion: libraryVersion("ws"), libraryVersions }, hooks.onProgress ?? (() => {}), stopOrGone, hooks.onCaseDone);
      if (settings.deflate && !stopOrGone()) {
        await meterWire(server.url, result.cases, "node", (url) => runNodeClient({ settings: wirePassSettings(settings), server: url, wsVersion: libraryVersion("ws"), libraryVersions, sliceFigures: false }, () => {}, stopOrGone));
      }
      return { result, server: server.label, pinning: server.pinning, serverExit: server.exit() };
    }
    const workers = settings.clients > 1 ? new ClientWorkers(Math.min(settings.clients, availableParallelism())) : undefined;
    const context = {
      server: server.url,
      clock: performanceClock,
      calibration,
      WebSocket: globalThis.WebSocket as unknown as WebSocketClass,
      client: "bun" as const,
      clientLibrary: `bun WebSocket ${Bun.version}`,
      serverGc: requestServerGc,
      servers: server.urls,
      cpuMs: processCpuMs,
      shouldStop: stopOrGone,
    };
    const result = await runSocketModes(settings, { ...hooks, ...context, workers }).finally(() => workers?.terminate());
    if (settings.deflate && !stopOrGone()) {
      await meterWire(server.url, result.cases, "bun", (url) => runSocketModes(wirePassSettings(settings), { ...context, server: url, servers: [url], sliceFigures: false }));
    }
    return { result, server: server.label, pinning: server.pinning, serverExit: server.exit() };
    // Kept connections take turns with --forks server processes; several clients run on fresh connections to one.
  }, options.settings.clients > 1 ? 1 : options.forks);
}

/** --export-k6: the test, and how to run it. */
function writeK6Test(k6: NonNullable<BenchOptions["exportK6"]>, settings: BenchOptions["settings"], streams: Streams): number {
  const cases = exportK6(settings, k6.dir, k6.load);
  const { connections, messages, rate } = k6.load;
  streams.stdout.write(
    `Wrote a k6 test to ${k6.dir}: ${cases.length} codec x payload cases, each ${connections} connection(s) x ${messages} messages at ${rate}/s per connection.\n` +
      `Run it against bun run server (${k6.load.server}): k6 run ${path.join(k6.dir, "script.js")}  (-e SERVER=ws://host:port to change)\n`,
  );
  return 0;
}

/** Runs the benchmark; returns the process exit code (0, 1 when a case or a mode failed, 130 when stopped). */
export async function runBench(options: BenchOptions, streams: Streams, control: RunControl = { stopRequested: false }): Promise<number> {
  // Every check that can fail on the user's input runs before anything is measured.
  prepareOutDir(options.out);
  const { settings } = options;
  // A user's own messages: what each codec does to them, and which codecs run on them.
  const { fidelity, excluded } = planUserPayloads(settings, CODECS);
  settings.excluded = excluded;
  if (options.exportK6) return writeK6Test(options.exportK6, settings, streams);
  const socketModes = socketModesOf(settings);
  if (options.url !== undefined && (socketModes.length > 0 || options.client === "browser")) await checkUrl(options.url);
  if (options.client === "browser") return runBrowserBench(options, streams, control, fidelity);
  if (socketModes.length > 0 && options.client === "node" && nodeVersion() === undefined) {
    throw new SettingError("--client node needs Node.js on PATH (node --version failed); install Node.js or use --client bun");
  }
  const timestamp = new Date().toISOString();
  const { calibration, environment } = measureEnvironment();
  const codecModeCodecs = CODECS.filter((c) => settings.codecs.includes(c.name));
  const estimate = estimateFor(settings, options.out, codecModeCodecs.length, options.forks);
  const progress = createProgressPrinter(streams.stderr, estimate);
  const started = performance.now();
  const cases: CaseResult[] = [];
  const order: Record<string, string[][][]> = {};
  const runSettings: RunSettings = { ...settings, minBatchNs: NaN, client: options.client };
  const live = new LiveCsv(options.out, { timestamp, settings: runSettings, environment, order, elapsedMs: 0 });
  const hooks: RunHooks = { gc: fullGc(), libraryVersion, onProgress: (e) => progress.update(e), shouldStop: () => control.stopRequested, onCaseDone: (c) => live.add(c) };
  let failures = 0;

  const fail = (line: string): void => {
    progress.finish();
    streams.stderr.write(`bench: ${line}\n`);
    failures++;
  };

  const assemble = (): BenchResults => {
    flagLossy(cases, fidelity);
    return {
      ...{ timestamp, settings: runSettings, environment, order, cases, elapsedMs: performance.now() - started, timings: estimate.timings(), ...kneeField(cases) },
      ...(fidelity.length > 0 ? { fidelity } : {}),
    };
  };
  // A second Ctrl-C: write every case finished so far (in this process or a codec-mode process) and end now.
  let processes: CodecModeProcesses | undefined;
  control.quit = (why) => {
    progress.finish();
    runSettings.interrupted = true;
    // Finished cases a mode has not handed back yet: streamed to the live CSV, or held for a codec-mode process.
    const key = (c: CaseResult): string => `${c.mode}|${c.client}|${c.codec}|${c.payload}|${c.socket?.targetRate ?? ""}`;
    const have = new Set(cases.map(key));
    for (const c of [...live.finished, ...(processes?.held().cases ?? [])]) if (!have.has(key(c))) cases.push(c);
    report(assemble(), options, streams, failures);
    streams.stderr.write(`bench: quit by ${why}; the ${cases.length} case(s) finished are in the files above\n`);
  };

  if (settings.modes.includes("codec")) {
    const forks = options.forks;
    processes = forks > 1 ? new CodecModeProcesses(settings, forks, hooks) : undefined;
    const { result, error } = processes ? await processes.run() : { result: await runCodecMode(settings, { ...hooks, codecs: codecModeCodecs, clock: performanceClock, calibration }), error: "" };
    processes = undefined;
    if (error !== "") fail(`codec mode stopped: ${error}`);
    // Untimed by codec mode: after its rounds, what compression makes of each codec's messages.
    if (!control.stopRequested) for (const e of await addCompression(result.cases, settings, performanceClock, calibration.overheadNs)) fail(e);
    cases.push(...result.cases);
    order.codec = result.order;
    runSettings.minBatchNs = result.minBatchNs;
    runSettings.forks = forks;
  }

  if (socketModes.length > 0 && !control.stopRequested) {
    try {
      const { result, server, pinning, serverExit } = await runWebSocketModes(options, calibration, hooks);
      cases.push(...result.cases);
      Object.assign(order, result.order);
      runSettings.server = server;
      runSettings.pinning = pinning;
      if (serverExit !== undefined) fail(`the server process exited (${serverExit}) during the WebSocket modes; they stopped there`);
      else if (result.aborted) fail(`WebSocket modes stopped, the server cannot be reached: ${result.aborted}`);
    } catch (e) {
      fail(`${socketModes.join(" and ")} mode${socketModes.length > 1 ? "s" : ""} failed: ${(e as Error).message}`);
    }
  }
  progress.finish();
  runSettings.interrupted = control.stopRequested;

  control.quit = undefined;
  const code = report(assemble(), options, streams, failures);
  if (control.stopRequested) {
    streams.stderr.write(`bench: stopped by Ctrl-C; the ${cases.length} case(s) that ran are in the files above\n`);
    return EXIT_INTERRUPTED;
  }
  return code;
}

