/**
 * What both kinds of run share: how they are told to stop, what a run
 * records of its machine, and how its results are printed and written.
 */

import { isNativeAccelerationEnabled } from "msgpackr";
import path from "node:path";
import { calibrateClock, performanceClock, type ClockCalibration } from "../harness/clock.ts";
import type { BenchResults } from "../harness/results.ts";
import { TERMINAL_WIDTH, wrapLine } from "../report/format.ts";
import { formatTable } from "../report/table.ts";
import { collectEnvironment } from "./environment.ts";
import type { BenchOptions } from "./options.ts";
import { writeResults } from "./output.ts";
import type { ProgressSink } from "./progress.ts";

export interface Streams {
  stdout: ProgressSink;
  stderr: ProgressSink;
}

/** How the CLI's signal handlers reach a run. */
export interface RunControl {
  /** Set by the first Ctrl-C: stop after the current round or case. */
  stopRequested: boolean;
  /**
   * Set by the run while it measures: writes every case finished so far
   * and says so, synchronously, for a second Ctrl-C (or SIGTERM) that ends
   * the process at once.
   */
  quit?: (why: string) => void;
}

/** Exit code of a run stopped with Ctrl-C (128 + SIGINT), after its results are written. */
export const EXIT_INTERRUPTED = 130;

/** Full collection between cases, so one codec's garbage is not collected on another's clock. */
export function fullGc(): (() => void) | undefined {
  const bun = (globalThis as { Bun?: { gc(force: boolean): void } }).Bun;
  return bun ? () => bun.gc(true) : undefined;
}

/** The clock's calibration and the environment every results file records. */
export function measureEnvironment(): { calibration: ClockCalibration; environment: BenchResults["environment"] } {
  const calibration = calibrateClock(performanceClock);
  const environment = collectEnvironment(performanceClock.name, calibration, fullGc() !== undefined, isNativeAccelerationEnabled);
  return { calibration, environment };
}

/** Prints the table, writes the files, names every failed case; the exit code. */
export function report(results: BenchResults, options: BenchOptions, streams: Streams, failures: number): number {
  // With no case (every codec lossy on the user's messages, say) the fidelity table still says why.
  if (results.cases.length > 0 || (results.fidelity?.length ?? 0) > 0) streams.stdout.write(formatTable(results, { wide: options.wide }) + "\n\n");
  // Written even with no case: the JSON says what was asked for and on what machine.
  const files = writeResults(results, options.out);
  // A long --out path breaks at the spaces, never past the terminal's width (a path longer than a line stays whole).
  const also = wrapLine(`  and .json, .html beside it; also ${path.join(path.dirname(files.csv), "latest.csv")}, latest.json, report.html`, TERMINAL_WIDTH, "  ");
  streams.stdout.write(`Wrote ${files.csv}\n${also.join("\n")}\n`);
  if (files.hgrm.length > 0) streams.stdout.write(`  and ${files.hgrm.length} latency spectra (.hgrm) in ${path.dirname(files.hgrm[0]!)}\n`);
  const failed = results.cases.filter((c) => !c.verified);
  for (const c of failed) streams.stderr.write(`bench: FAILED ${c.mode} ${c.client} ${c.codec} ${c.payload}: ${c.error}\n`);
  return failed.length + failures > 0 ? 1 : 0;
}
