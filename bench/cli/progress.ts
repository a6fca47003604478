/**
 * The live progress line: which case, how far, elapsed time and an estimate
 * of what is left. On a terminal it redraws one line; in a log (CI, a pipe)
 * it prints a line at most every few seconds.
 */

import type { Progress } from "../harness/progress.ts";

export interface ProgressSink {
  isTTY?: boolean;
  write(text: string): unknown;
}

function seconds(ms: number): string {
  if (!Number.isFinite(ms)) return "?";
  const s = Math.round(ms / 1000);
  return s < 60 ? `${s}s` : `${Math.floor(s / 60)}m${String(s % 60).padStart(2, "0")}s`;
}

function progressLine(e: Progress): string {
  const eta = e.done > 0 ? (e.elapsedMs / e.done) * (e.total - e.done) : NaN;
  return `${e.mode} [${e.done}/${e.total}] run ${e.run + 1}/${e.runs} ${e.payload} ${e.codec} (${e.stage})  elapsed ${seconds(e.elapsedMs)}  ETA ${seconds(eta)}`;
}

export function createProgressPrinter(sink: ProgressSink, logIntervalMs = 5000): { update(e: Progress): void; finish(): void } {
  let lastLog = -Infinity;
  let drawn = false;
  return {
    update(e) {
      const line = progressLine(e);
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
