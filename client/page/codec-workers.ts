/**
 * Codec mode in the page, each span (client/harness/codec-mode-spans.ts) in
 * a fresh dedicated Web Worker, one after the other (never two at once:
 * they would share the cores they measure). A worker is a JavaScript engine
 * of its own, compiling the codecs its own way, so it is the unit of every
 * interval in the page as a fresh process is in the CLI
 * (bench/cli/processes/codec-mode-forks.ts); rounds of one page are not
 * independent. The worker's script is the server's (CODEC_WORKER_PATH),
 * bundled with the page.
 */

import type { ChildLine } from "../child-protocol.ts";
import type { CodecModeResult } from "../harness/codec-mode.ts";
import { CodecModeSpans, type SpanSide } from "../harness/codec-mode-spans.ts";
import { planSpec, type Plan } from "../harness/plan.ts";
import type { BenchmarkHooks } from "../harness/progress.ts";
import { CODEC_WORKER_PATH } from "../../protocols/contract.ts";
import type { CodecWorkerJob, CodecWorkerMessage } from "./codec-worker.ts";

/** Whether this page can run codec mode in workers (a browser with module workers). */
export const CAN_USE_WORKERS = typeof Worker === "function";

/** What a worker needs besides the plan: the server's codec modules (their URLs) and library versions. */
export interface WorkerSources {
  modules: { file: string; specifier: string }[];
  libraries: Record<string, string>;
}

/**
 * How long a worker may say nothing (no progress, no case) before it counts as failed: it tells
 * its progress at every case's verifying pass and every round, seconds apart at most.
 */
const WORKER_SILENCE_MS = 120_000;

/**
 * Codec mode, each span in a worker of its own; hooks hear progress across the spans and every
 * finished case at the end. A worker that fails ends the mode there, keeping what the ones before
 * it measured and the cases it had finished itself.
 */
export class CodecModeWorkers {
  private readonly spans: CodecModeSpans;

  constructor(
    private readonly plan: Plan,
    private readonly hooks: BenchmarkHooks,
    private readonly sources: WorkerSources,
    private readonly scriptUrl: string = CODEC_WORKER_PATH,
  ) {
    this.spans = CodecModeSpans.fresh(plan, hooks);
  }

  async run(): Promise<{ result: CodecModeResult; error?: string }> {
    return this.spans.run(async (span, payloads, side) => {
      const job: CodecWorkerJob = {
        type: "job",
        plan: planSpec(this.plan),
        span,
        payloads: [...payloads],
        modules: this.sources.modules,
        libraries: this.sources.libraries,
      };
      // A worker that fails rejects: the cases it told before that still count (codec-mode-spans.ts).
      return { result: await this.inWorker(job, side) };
    });
  }

  /** Every case finished so far, pooled over the workers (the running one's finished cases too). */
  held(): CodecModeResult {
    return this.spans.held();
  }

  /** One span in a fresh worker: its result; a stop asked for is passed on, the worker ending at its next round. */
  private inWorker(job: CodecWorkerJob, side: SpanSide): Promise<CodecModeResult> {
    const { hooks } = this;
    const started = performance.now();
    const worker = new Worker(this.scriptUrl, { type: "module", name: "codec mode" });
    return new Promise<CodecModeResult>((resolve, reject) => {
      let stopSent = false;
      let heardAt = performance.now();
      const end = (): void => {
        clearInterval(watch);
        worker.terminate();
      };
      const fail = (why: string): void => {
        end();
        reject(new Error(`a codec-mode worker failed: ${why}`));
      };
      const watch = setInterval(() => {
        if (!stopSent && (hooks.shouldStop?.() ?? false)) {
          stopSent = true;
          worker.postMessage({ type: "stop" } satisfies CodecWorkerMessage);
        }
        if (performance.now() - heardAt > WORKER_SILENCE_MS) fail(`it said nothing for ${WORKER_SILENCE_MS / 1000} s`);
      }, 50);
      worker.onmessage = (ev: MessageEvent<ChildLine>) => {
        heardAt = performance.now();
        const line = ev.data;
        if (line.type === "progress") side.progress(line.event);
        else if (line.type === "case") side.caseDone(line.case);
        else if (line.type === "result") {
          end();
          if (line.account) hooks.ledger?.addProcess(line.account, performance.now() - started);
          resolve(line.result as CodecModeResult);
        } else fail(line.message);
      };
      // The script did not load, or threw outside the job (an error inside it comes as a message).
      worker.onerror = (ev: ErrorEvent) => {
        ev.preventDefault();
        fail(ev.message || "its script did not load");
      };
      worker.onmessageerror = () => fail("a message from it could not be read");
      worker.postMessage(job satisfies CodecWorkerMessage);
    });
  }
}
