/**
 * The live progress line: which case, how far, elapsed time and an estimate
 * of what is left. On a terminal it redraws one line; in a log (CI, a pipe)
 * it prints a line at most every few seconds.
 */

import type { Progress } from "../../client/harness/progress.ts";
import type { RunEstimate } from "./eta.ts";

export interface ProgressSink {
  isTTY?: boolean;
  write(text: string): unknown;
}

/** Where a benchmark writes: the table and file names to stdout, progress and failures to stderr. */
export interface Streams {
  stdout: ProgressSink;
  stderr: ProgressSink;
}

function seconds(ms: number): string {
  if (!Number.isFinite(ms)) return "?";
  const s = Math.round(ms / 1000);
  return s < 60 ? `${s}s` : `${Math.floor(s / 60)}m${String(s % 60).padStart(2, "0")}s`;
}

/** Widest progress line: it redraws in place, so it must not wrap. */
const PROGRESS_WIDTH = 100;

function progressLine(e: Progress, estimate: RunEstimate | undefined): string {
  // Without a run-wide estimate (a mode on its own), the mode's own pace.
  const elapsed = estimate ? estimate.elapsedMs() : e.elapsedMs;
  const left = estimate ? estimate.remainingMs() : e.done > 0 ? (e.elapsedMs / e.done) * (e.total - e.done) : NaN;
  const line = `${e.mode} [${e.done}/${Math.round(e.total)}] run ${e.run + 1}/${e.runs} ${e.payload} ${e.codec} (${e.stage})  elapsed ${seconds(elapsed)}  left ~${seconds(left)}`;
  return [...line].length > PROGRESS_WIDTH ? [...line].slice(0, PROGRESS_WIDTH).join("") : line;
}

export function createProgressPrinter(
  sink: ProgressSink,
  estimate?: RunEstimate,
  logIntervalMs = 5000,
): { update(e: Progress): void; finish(): void } {
  let lastLog = -Infinity;
  let drawn = false;
  return {
    update(e) {
      estimate?.update(e);
      const line = progressLine(e, estimate);
      if (sink.isTTY) {
        sink.write(`\r\x1b[K${line}`);
        drawn = true;
      } else if (performance.now() - lastLog >= logIntervalMs) {
        sink.write(`${line}\n`);
        lastLog = performance.now();
      }
    },
    finish() {
      if (drawn) sink.write("\r\x1b[K");
    },
  };
}
