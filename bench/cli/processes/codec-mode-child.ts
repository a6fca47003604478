/**
 * One process of codec mode (see client/harness/codec-mode-spans.ts): the bench starts
 * it with Bun and gives it the job (the run's plan, and this process's
 * share of the runs) in the child protocol (client/child-protocol.ts); it
 * streams progress and each case as soon as the case's rounds in its share
 * are done, then the result. SIGINT stops it at the next round boundary; it
 * still reports what it finished.
 */

import { serveAsChild } from "../../../client/child-protocol.ts";
import { calibrateClock, performanceClock } from "../../../client/harness/clock.ts";
import type { ForkSpan } from "../../../client/harness/codec-mode-spans.ts";
import type { PayloadName } from "../../../protocols/messages.ts";
import { runCodecMode } from "../../../client/harness/codec-mode.ts";
import { loadPlan, type PlanSpec } from "../../../client/harness/plan.ts";
import { fullGc, libraryVersion } from "../../../client/harness/environment.ts";

export interface CodecModeJob {
  plan: PlanSpec;
  /** This process's share of the runs. */
  span: ForkSpan;
  /** The payloads it times (a span for precision times only those short of it). */
  payloads: PayloadName[];
}

await serveAsChild<CodecModeJob>("codec-mode process", async (job, side) => {
  const plan = await side.ledger.timeAsync("start", () => loadPlan(job.plan));
  return runCodecMode(plan.settings, {
    codecs: plan.codecModeCodecs,
    clock: performanceClock,
    calibration: calibrateClock(performanceClock),
    gc: fullGc(),
    libraryVersion,
    onProgress: side.progress,
    onCaseDone: side.caseDone,
    shouldStop: side.shouldStop,
    ledger: side.ledger,
    span: job.span,
    payloads: job.payloads,
    residentBytes: () => process.memoryUsage.rss(),
  });
});
