/**
 * Spreads codec mode's runs over fresh Bun processes, one after the other
 * (never two at once: they would share the cores they measure), relays
 * their progress and pools their rounds (bench/harness/codec-mode-spans.ts).
 */

import path from "node:path";
import { codecModeUnits, type CodecModeResult } from "../../harness/codec-mode.ts";
import { forkSpans, mergeForks } from "../../harness/codec-mode-spans.ts";
import type { RunHooks } from "../../harness/progress.ts";
import type { CaseResult } from "../../harness/results.ts";
import { planSpec, type Plan } from "../../harness/plan.ts";
import type { CodecModeJob } from "./codec-mode-child.ts";
import { ROOT } from "../paths.ts";
import { ChildFailed, runReportingChild } from "./reporting-child.ts";

const ENTRY = path.join(ROOT, "bench/cli/processes/codec-mode-child.ts");

const NOTHING: CodecModeResult = { cases: [], order: [], stopped: true, minBatchNs: NaN, slices: {} };

/**
 * Codec mode over the plan's `forks` processes; hooks hear progress (runs numbered
 * across them) and every finished case at the end. A process that fails
 * ends the mode there, keeping what the ones before it measured and the
 * cases it had finished itself. `held()` pools, at any moment, every case
 * a process has finished so far: what the bench writes when it must quit
 * before the processes are done.
 */
export class CodecModeProcesses {
  private readonly parts: CodecModeResult[] = [];
  /** Cases the running process has finished and sent. */
  private current: CaseResult[] = [];

  constructor(
    private readonly plan: Plan,
    private readonly hooks: RunHooks,
  ) {}

  /** Every process's share in turn; `error`: why one failed (one line), absent when none did. */
  async run(): Promise<{ result: CodecModeResult; error?: string }> {
    const { plan, hooks } = this;
    const spans = forkSpans(plan.settings.runs, plan.forks);
    const units = spans.map((span) => codecModeUnits(plan.settings, plan.codecModeCodecs.length, span));
    const offsets = units.map((_, k) => units.slice(0, k).reduce((a, b) => a + b, 0));
    const total = units.reduce((a, b) => a + b, 0);
    let error: string | undefined;
    for (const [index, span] of spans.entries()) {
      const job: CodecModeJob = { plan: planSpec(plan), span };
      this.current = [];
      const part = await runReportingChild<CodecModeResult>({
        name: "a codec-mode process",
        command: process.execPath,
        args: [ENTRY],
        job,
        onProgress: (e) => {
          // The process counts its own span (and its own checks and warm-up); the bench shows the whole run.
          hooks.onProgress?.({ ...e, done: Math.round(offsets[index]! + e.done), total: Math.round(total) });
        },
        onCase: (c) => this.current.push(c),
        shouldStop: () => hooks.shouldStop?.() ?? false,
        ledger: hooks.ledger,
      }).catch((e: unknown) => {
        error = e instanceof Error ? e.message : String(e);
        // What the process finished before it failed still counts.
        if (e instanceof ChildFailed && e.finished.length > 0) this.parts.push({ ...NOTHING, cases: e.finished });
        return undefined;
      });
      this.current = [];
      if (!part) break;
      this.parts.push(part);
      if (hooks.shouldStop?.() || part.stopped) break;
    }
    const result = this.pooled([]);
    for (const c of result.cases) hooks.onCaseDone?.(c);
    return { result, ...(error !== undefined ? { error } : {}) };
  }

  /** Every case finished so far, pooled over the processes (the running one's finished cases too). */
  held(): CodecModeResult {
    return this.pooled(this.current);
  }

  private pooled(running: CaseResult[]): CodecModeResult {
    const parts = running.length > 0 ? [...this.parts, { ...NOTHING, cases: running }] : this.parts;
    if (parts.length === 0) return { ...NOTHING, stopped: this.hooks.shouldStop?.() ?? false };
    return mergeForks(parts, forkSpans(this.plan.settings.runs, this.plan.forks).length);
  }
}
