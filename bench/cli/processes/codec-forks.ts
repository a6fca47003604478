/**
 * Runs codec mode's passes in fresh Bun processes, one after the other
 * (never two at once: they would share the cores they measure), relays
 * their progress and pools their rounds (harness/codec-forks.ts).
 */

import { spawn } from "node:child_process";
import path from "node:path";
import { parseLine, stringifyLine } from "../../../client/json-lines.ts";
import type { CodecModeResult } from "../../harness/codec-mode.ts";
import { forkSpans, mergeForks } from "../../harness/codec-forks.ts";
import type { RunHooks } from "../../harness/progress.ts";
import type { Settings } from "../../harness/settings.ts";
import type { CodecForkJob } from "../codec-fork.ts";
import { ROOT } from "../paths.ts";

const ENTRY = path.join(ROOT, "bench/cli/codec-fork.ts");

type Line = { type: "progress"; event: Parameters<NonNullable<RunHooks["onProgress"]>>[0] } | { type: "result"; result: CodecModeResult } | { type: "error"; message: string };

/** One process: its result, or an error naming why it gave none. */
async function runFork(job: CodecForkJob, onLine: (line: Line) => void, shouldStop: () => boolean): Promise<CodecModeResult> {
  // Its own process group: a terminal's Ctrl-C reaches the bench, which passes it on.
  const child = spawn(process.execPath, [ENTRY], { cwd: ROOT, stdio: ["pipe", "pipe", "pipe"], detached: true });
  child.stdin.end(stringifyLine(job) + "\n");
  let stderr = "";
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  let buffered = "";
  let result: CodecModeResult | undefined;
  let failure: string | undefined;
  child.stdout.on("data", (d: Buffer) => {
    buffered += d.toString();
    let newline: number;
    while ((newline = buffered.indexOf("\n")) !== -1) {
      const line = parseLine(buffered.slice(0, newline)) as Line;
      buffered = buffered.slice(newline + 1);
      if (line.type === "result") result = line.result;
      else if (line.type === "error") failure = line.message;
      onLine(line);
    }
  });
  const watch = setInterval(() => {
    if (shouldStop()) {
      child.kill("SIGINT");
      clearInterval(watch);
    }
  }, 100);
  const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
  clearInterval(watch);
  if (result) return result;
  throw new Error(`a codec-mode process failed${failure ? `: ${failure}` : ` (exit ${code})`}${stderr ? `: ${stderr.trim().split("\n").slice(-3).join(" | ")}` : ""}`);
}

/**
 * Codec mode over `forks` processes; hooks hear progress (passes numbered
 * across them) and every finished case at the end. A process that fails
 * ends the mode there, keeping what the ones before it measured.
 */
export async function runCodecForks(settings: Settings, forks: number, hooks: RunHooks): Promise<{ result: CodecModeResult; error: string }> {
  const spans = forkSpans(settings.runs, forks);
  const parts: CodecModeResult[] = [];
  let error = "";
  for (const span of spans) {
    const part = await runFork(
      { settings, span },
      (line) => {
        if (line.type !== "progress") return;
        const e = line.event;
        // The fork counts its own span; the bench shows the whole run.
        const perPass = e.total / (span.to - span.from);
        hooks.onProgress?.({ ...e, done: Math.round(span.from * perPass + e.done), total: Math.round(settings.runs * perPass) });
      },
      () => hooks.shouldStop?.() ?? false,
    ).catch((e: unknown) => {
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
