/**
 * What every mode reports while it runs, wherever it runs (the CLI, the
 * Node client, the page). Measuring code only calls `onProgress`; printing
 * it is the front end's job.
 */

import type { CaseResult } from "./results.ts";
import type { Mode } from "./settings.ts";
import type { TimeLedger } from "./time-account.ts";

export interface Progress {
  /** The mode, or "load": the user's traffic driven after the socket modes (client/socket/load-drive.ts). */
  mode: Mode | "load";
  /** What is being done: "verify" and "warmup" come before a case's first "run". */
  stage: "verify" | "warmup" | "run";
  codec: string;
  payload: string;
  /** Run index (0-based) and runs per case. */
  run: number;
  runs: number;
  /** Case-runs finished, and in all. */
  done: number;
  total: number;
  elapsedMs: number;
}

/**
 * The hooks a mode needs from whoever runs it, apart from the settings:
 * the clock, what it may call between runs, where progress and finished
 * cases go.
 */
export interface BenchmarkHooks {
  /** Full garbage collection between cases, where the runtime offers one. */
  gc?: () => void;
  /** Version of each codec's library, for the results. */
  libraryVersion?: (library: string) => string;
  onProgress?: (event: Progress) => void;
  /** Checked between runs; true stops after the current one. */
  shouldStop?: () => boolean;
  /** Called once per case as soon as it is finished (its last run, or its failure). */
  onCaseDone?: (c: CaseResult) => void;
  /** Where the benchmark's wall time goes (time-account.ts): each step counts its phases here. */
  ledger?: TimeLedger;
  /** This process's resident memory now, bytes, where the runtime tells it (codec mode collects when it runs high). */
  residentBytes?: () => number;
}
