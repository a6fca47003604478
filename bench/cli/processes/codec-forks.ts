/**
 * Runs codec mode's passes in fresh Bun processes, one after the other
 * (never two at once: they would share the cores they measure), relays
 * their progress and pools their rounds (harness/codec-forks.ts).
 */

import path from "node:path";
import { codecModeUnits, type CodecModeResult } from "../../harness/codec-mode.ts";
import { forkSpans, mergeForks } from "../../harness/codec-forks.ts";
import type { RunHooks } from "../../harness/progress.ts";
import type { Settings } from "../../harness/settings.ts";
import type { CodecForkJob } from "../codec-fork.ts";
import { CODEC_NAMES } from "../../../protocols/registry.ts";
import { ROOT } from "../paths.ts";
import { runReportingChild } from "./reporting-child.ts";

const ENTRY = path.join(ROOT, "bench/cli/codec-fork.ts");

/**
 * Codec mode over `forks` processes; hooks hear progress (passes numbered
 * across them) and every finished case at the end. A process that fails
 * ends the mode there, keeping what the ones before it measured.
 */
export async function runCodecForks(settings: Settings, forks: number, hooks: RunHooks): Promise<{ result: CodecModeResult; error: string }> {
  const spans = forkSpans(settings.runs, forks);
  const codecs = CODEC_NAMES.filter((name) => settings.codecs.includes(name)).length;
  const units = spans.map((span) => codecModeUnits(settings, codecs, span));
  const offsets = units.map((_, k) => units.slice(0, k).reduce((a, b) => a + b, 0));
  const total = units.reduce((a, b) => a + b, 0);
  const parts: CodecModeResult[] = [];
  let error = "";
  for (const [index, span] of spans.entries()) {
    const job: CodecForkJob = { settings, span };
    const part = await runReportingChild<CodecModeResult>({
      name: "a codec-mode process",
      command: process.execPath,
      args: [ENTRY],
      job,
      onProgress: (e) => {
        // The process counts its own span (and its own checks and warm-up); the bench shows the whole run.
        hooks.onProgress?.({ ...e, done: Math.round(offsets[index]! + e.done), total: Math.round(total) });
      },
      shouldStop: () => hooks.shouldStop?.() ?? false,
    }).catch((e: unknown) => {
      error = e instanceof Error ? e.message : String(e);
      return undefined;
    });
    if (!part) break;
    parts.push(part);
    if (hooks.shouldStop?.() || part.stopped) break;
  }
  if (parts.length === 0) return { result: { cases: [], order: [], stopped: hooks.shouldStop?.() ?? false, minBatchNs: NaN, slices: {} }, error };
  const merged = mergeForks(parts, spans.length);
  for (const c of merged.cases) hooks.onCaseDone?.(c);
  return { result: merged, error };
}
