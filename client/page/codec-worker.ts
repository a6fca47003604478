/**
 * One process of codec mode in the page: a dedicated Web Worker, a fresh
 * JavaScript engine of its own (its own heap, its own compiled code), as a
 * fresh Bun process is for the CLI (bench/cli/processes/codec-mode-child.ts).
 * The page (codec-workers.ts) starts one for each span, one after the
 * other, and posts it the job; it answers with messages of the child
 * protocol's kinds: progress as it goes, each case the moment it is done,
 * then the result, or the error that ended it. A "stop" message stops it at
 * the next round boundary; it still sends its result.
 */

import { calibrateClock, performanceClock } from "../harness/clock.ts";
import { runCodecMode } from "../harness/codec-mode.ts";
import type { CodecModeSpan } from "../harness/codec-mode.ts";
import { loadPlan, type PlanSpec } from "../harness/plan.ts";
import type { ChildLine } from "../child-protocol.ts";
import { TimeLedger } from "../harness/time-account.ts";
import type { PayloadName } from "../../protocols/messages.ts";

/** What the page posts a worker: the run's plan, its share of the runs and the payloads it times. */
export interface CodecWorkerJob {
  type: "job";
  plan: PlanSpec;
  span: CodecModeSpan;
  payloads: PayloadName[];
  /** The server's codec modules, with the URL each is served at, in the plan's order. */
  modules: { file: string; specifier: string }[];
  /** Library versions, by package name, as the server reports them. */
  libraries: Record<string, string>;
}

/** What the page may post a worker. */
export type CodecWorkerMessage = CodecWorkerJob | { type: "stop" };

const scope = globalThis as unknown as {
  postMessage(line: ChildLine): void;
  onmessage: ((ev: MessageEvent<CodecWorkerMessage>) => void) | null;
};

let stopRequested = false;

async function work(job: CodecWorkerJob): Promise<void> {
  // Its time from its own start (the worker's performance.now() starts with it): loading its script counts as `start`.
  const ledger = new TimeLedger();
  ledger.add("start", performance.now());
  const plan = await ledger.timeAsync("start", () => loadPlan(job.plan, job.modules));
  const result = await runCodecMode(plan.settings, {
    codecs: plan.codecModeCodecs,
    clock: performanceClock,
    calibration: calibrateClock(performanceClock),
    client: "browser",
    clientLibrary: navigator.userAgent,
    libraryVersion: (name) => job.libraries[name] ?? "",
    onProgress: (event) => scope.postMessage({ type: "progress", event }),
    onCaseDone: (c) => scope.postMessage({ type: "case", case: c }),
    shouldStop: () => stopRequested,
    ledger,
    span: job.span,
    payloads: job.payloads,
  });
  scope.postMessage({ type: "result", result, account: ledger.account(performance.now()) });
}

scope.onmessage = (ev) => {
  const message = ev.data;
  if (message.type === "stop") {
    stopRequested = true;
    return;
  }
  work(message).catch((e: unknown) =>
    scope.postMessage({ type: "error", message: e instanceof Error ? e.message : String(e) }),
  );
};
