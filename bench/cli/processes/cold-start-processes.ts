/**
 * Cold mode's processes (client/harness/cold-mode.ts) as fresh Bun
 * processes of the bench's own, each timing one codec's import, set-up and
 * first messages (cold-start-child.ts).
 */

import { serialize } from "bun:jsc";
import path from "node:path";
import type { ColdMeasurement } from "../../../client/harness/cold-start.ts";
import type { MeasureCold } from "../../../client/harness/cold-mode.ts";
import type { TimeLedger } from "../../../client/harness/time-account.ts";
import { ROOT } from "../paths.ts";
import { runReportingChild } from "./reporting-child.ts";

const ENTRY = path.join(ROOT, "bench/cli/processes/cold-start-child.ts");

/**
 * Each job in a fresh Bun process. Bun's transpiler cache is off in them
 * (BUN_RUNTIME_TRANSPILER_CACHE_PATH=0): with it, a process would read what
 * an earlier one left on disk, and the processes would not be independent.
 */
export function coldStartProcesses(ledger?: TimeLedger, shouldStop: () => boolean = () => false): MeasureCold {
  return (job) =>
    runReportingChild<ColdMeasurement>({
      name: `the cold-start process of ${job.codec} on ${job.payload}`,
      command: process.execPath,
      args: [ENTRY],
      job: { bytes: new Uint8Array(serialize(job)) },
      onProgress: () => {},
      // A stop ends the process in flight at once (it exits on SIGINT): what it measured so far is no figure.
      shouldStop,
      ...(ledger ? { ledger } : {}),
      env: { BUN_RUNTIME_TRANSPILER_CACHE_PATH: "0" },
    });
}
