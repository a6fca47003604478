/**
 * One whole benchmark run as the CLI performs it: calibrate the clock, run
 * the selected modes, then hand the plain results to the reporters.
 */

import { isNativeAccelerationEnabled } from "msgpackr";
import { CODECS } from "../protocols/registry.ts";
import { calibrateClock, performanceClock } from "./clock.ts";
import { runCodecMode } from "./codec-mode.ts";
import { collectEnvironment, libraryVersion } from "./environment.ts";
import type { BenchOptions } from "./options.ts";
import { writeResults } from "./output.ts";
import { createProgressPrinter, type ProgressSink } from "./progress.ts";
import type { BenchResults } from "./results.ts";
import { formatTable } from "./report/table.ts";

export interface Streams {
  stdout: ProgressSink;
  stderr: ProgressSink;
}

/** Full collection between cases, so one codec's garbage is not collected on another's clock. */
function fullGc(): (() => void) | undefined {
  const bun = (globalThis as { Bun?: { gc(force: boolean): void } }).Bun;
  return bun ? () => bun.gc(true) : undefined;
}

/** Runs the benchmark; returns the process exit code (0, or 1 when a case failed). */
export async function runBench(options: BenchOptions, streams: Streams): Promise<number> {
  const timestamp = new Date().toISOString();
  const calibration = calibrateClock(performanceClock);
  const gc = fullGc();
  const environment = collectEnvironment(performanceClock.name, calibration, gc !== undefined, isNativeAccelerationEnabled);
  const codecs = CODECS.filter((c) => options.codecs.includes(c.name));
  const progress = createProgressPrinter(streams.stderr);
  const started = performance.now();

  const result = await runCodecMode({
    codecs,
    payloads: options.payloads,
    iterations: options.iterations,
    runs: options.runs,
    warmup: options.warmup,
    seed: options.seed,
    fixed: options.fixed,
    clock: performanceClock,
    calibration,
    gc,
    libraryVersion,
    onProgress: progress.update,
  });
  progress.finish();

  const results: BenchResults = {
    timestamp,
    settings: {
      modes: options.modes,
      codecs: codecs.map((c) => c.name),
      payloads: options.payloads,
      iterations: options.iterations,
      runs: options.runs,
      warmup: options.warmup,
      seed: options.seed,
      fixed: options.fixed,
      minBatchNs: result.minBatchNs,
    },
    environment,
    order: result.order,
    cases: result.cases,
    elapsedMs: performance.now() - started,
  };
  streams.stdout.write(formatTable(results) + "\n\n");
  const files = writeResults(results, options.out);
  streams.stdout.write(`Wrote ${files.csv} and ${files.json} (also latest.csv, latest.json).\n`);
  const failed = results.cases.filter((c) => !c.verified);
  for (const c of failed) streams.stderr.write(`bench: FAILED ${c.mode} ${c.codec} ${c.payload}: ${c.error}\n`);
  return failed.length > 0 ? 1 : 0;
}
