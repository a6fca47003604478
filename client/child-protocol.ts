/**
 * How the bench talks to the processes it starts to measure (codec mode's
 * processes, cold mode's, the Node client): one job in, JSON lines out. The
 * parent (bench/cli/processes/reporting-child.ts) writes the job to the
 * child's stdin as one line (cold mode's: as a structured clone, which its
 * child reads itself, so that no JSON runs before its timed messages); the
 * child answers on stdout, one object per line:
 *
 *   {"type":"progress","event":...}   as it goes
 *   {"type":"case","case":...}        each case the moment it is finished
 *   {"type":"result","result":...,"account":...}
 *                                     once, at the end, with where the
 *                                     child's time went (time-account.ts)
 *   {"type":"error","message":...}    instead of a result
 *
 * SIGINT asks the child to stop after its current round or case; it still
 * sends its result. Finished cases are streamed, so a parent that must stop
 * before the result comes (a second Ctrl-C, a child that dies) still holds
 * every case the child finished.
 *
 * The lines are JSON that keeps NaN and the infinities: plain JSON would
 * turn a figure a failed case never got (NaN) into null. The page uses the
 * same encoding for the results it hands over.
 */

import type { Progress } from "./harness/progress.ts";
import type { CaseResult } from "./harness/results.ts";
import { selfPeakRssBytes, TimeLedger, type TimeAccount } from "./harness/time-account.ts";

const NON_FINITE = "$nonFinite";

export function stringifyLine(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    typeof v === "number" && !Number.isFinite(v) ? { [NON_FINITE]: String(v) } : v,
  );
}

export function parseLine(line: string): unknown {
  return JSON.parse(line, (_key, v: unknown) => {
    if (v !== null && typeof v === "object" && NON_FINITE in v)
      return Number((v as Record<string, string>)[NON_FINITE]);
    return v;
  });
}

/** One line a child sends. */
export type ChildLine =
  | { type: "progress"; event: Progress }
  | { type: "case"; case: CaseResult }
  | { type: "result"; result: unknown; account?: TimeAccount }
  | { type: "error"; message: string };

/** What the child's work gets besides its job: where progress and finished cases go, and whether to stop. */
export interface ChildSide {
  progress(event: Progress): void;
  caseDone(c: CaseResult): void;
  shouldStop(): boolean;
  /** Where the child's time goes; its account goes back with the result. */
  ledger: TimeLedger;
}

function emit(line: ChildLine): void {
  process.stdout.write(stringifyLine(line) + "\n");
}

/**
 * The child's side, whole: reads the job from stdin, runs `work` with a
 * stop flag SIGINT sets, and sends its progress, finished cases and result
 * (or the error that ended it) as JSON lines. The result carries the
 * child's account: its time from its own start (the runtime's start and
 * its imports count as `start`) and its peak memory, under `name`.
 */
export async function serveAsChild<Job>(
  name: string,
  work: (job: Job, side: ChildSide) => Promise<unknown>,
  /** How the job is read from stdin when it is not a JSON line (cold mode's: a structured clone). */
  readJob?: () => Promise<Job>,
): Promise<void> {
  let stopRequested = false;
  process.on("SIGINT", () => {
    stopRequested = true;
  });
  try {
    // Under Bun, read natively: node's streams and Buffers would run once before the child's work,
    // and cold mode's first messages (client/harness/cold-start.ts) would find them warm.
    const bun = (globalThis as { Bun?: { stdin: { text(): Promise<string> } } }).Bun;
    let job: Job;
    if (readJob) job = await readJob();
    else {
      let text = "";
      if (bun) text = await bun.stdin.text();
      else for await (const chunk of process.stdin) text += String(chunk);
      job = parseLine(text) as Job;
    }
    // The clock counts from the process's start: everything before the job is starting up.
    const ledger = new TimeLedger();
    ledger.add("start", performance.now());
    const result = await work(job, {
      progress: (event) => emit({ type: "progress", event }),
      caseDone: (c) => emit({ type: "case", case: c }),
      shouldStop: () => stopRequested,
      ledger,
    });
    ledger.addPeak(name, selfPeakRssBytes());
    emit({ type: "result", result, account: ledger.account(performance.now()) });
  } catch (e) {
    emit({ type: "error", message: e instanceof Error ? e.message : String(e) });
    process.exitCode = 1;
  }
}
