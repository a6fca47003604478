/**
 * Runs codec mode's spans (client/harness/codec-mode-spans.ts) in fresh Bun
 * processes, one after the other (never two at once: they would share the
 * cores they measure), relaying their progress and pooling their rounds.
 */

import path from "node:path";
import type { CodecModeResult } from "../../../client/harness/codec-mode.ts";
import { CodecModeSpans } from "../../../client/harness/codec-mode-spans.ts";
import type { BenchmarkHooks } from "../../../client/harness/progress.ts";
import { planSpec, type Plan } from "../../../client/harness/plan.ts";
import type { CodecModeJob } from "./codec-mode-child.ts";
import { ROOT } from "../paths.ts";
import { runReportingChild } from "./reporting-child.ts";

const ENTRY = path.join(ROOT, "bench/cli/processes/codec-mode-child.ts");

/**
 * Codec mode, each span in a process of its own; hooks hear progress (across the spans) and
 * every finished case at the end (codec-mode-spans.ts). A process that fails ends the mode there, keeping what the
 * ones before it measured and the cases it had finished itself. `held()` pools, at any moment,
 * every case a process has finished so far: what the bench writes when it must quit before the
 * processes are done.
 */
export class CodecModeForks {
  private readonly spans: CodecModeSpans;

  constructor(
    private readonly plan: Plan,
    private readonly hooks: BenchmarkHooks,
  ) {
    this.spans = CodecModeSpans.fresh(plan, hooks);
  }

  /** Every process's span in turn; `error`: why one failed (one line), absent when none did. */
  async run(): Promise<{ result: CodecModeResult; error?: string }> {
    const { plan, hooks } = this;
    return this.spans.run(async (span, payloads, side) => {
      const job: CodecModeJob = { plan: planSpec(plan), span, payloads: [...payloads] };
      // A process that fails rejects: the cases it told before that still count (codec-mode-spans.ts).
      const result = await runReportingChild<CodecModeResult>({
        name: "a codec-mode process",
        command: process.execPath,
        args: [ENTRY],
        job: { json: job },
        onProgress: side.progress,
        onCase: side.caseDone,
        shouldStop: () => hooks.shouldStop?.() ?? false,
        ledger: hooks.ledger,
      });
      return { result };
    });
  }

  /** Every case finished so far, pooled over the processes (the running one's finished cases too). */
  held(): CodecModeResult {
    return this.spans.held();
  }
}
