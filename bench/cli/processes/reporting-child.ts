/**
 * The parent's side of the child protocol (client/child-protocol.ts): a
 * child process that gets its job on stdin and reports in JSON lines on
 * stdout. The bench starts it in a process group of its own (a terminal's
 * Ctrl-C then reaches only the bench), relays its progress and finished
 * cases as they come, passes a stop on as SIGINT (the child finishes its
 * round or case and still reports) and returns its result. The Node client,
 * codec mode's processes and cold mode's are such children.
 *
 * A child never outlives the bench: however the bench ends (its last
 * line, process.exit on a second Ctrl-C, an uncaught error), every child
 * still running is killed with its process group.
 */

import { spawn, type ChildProcess } from "node:child_process";
import { parseLine, stringifyLine, type ChildLine } from "../../../client/child-protocol.ts";
import type { Progress } from "../../../client/harness/progress.ts";
import type { CaseResult } from "../../../client/harness/results.ts";
import type { TimeAccount, TimeLedger } from "../../../client/harness/time-account.ts";
import { ROOT } from "../paths.ts";
import { CliError } from "../cli-errors.ts";

export interface ReportingChild {
  /** What the child is, for the error line ("the Node client"). */
  name: string;
  command: string;
  args: string[];
  /** The job: a JSON line on stdin, or bytes written as they are (cold mode's structured clone). */
  job: { json: unknown } | { bytes: Uint8Array };
  onProgress: (e: Progress) => void;
  /** Each case the child finished, the moment it sends it. */
  onCase?: (c: CaseResult) => void;
  /** Polled; once true, the child gets SIGINT. */
  shouldStop: () => boolean;
  /** Where the child's account goes, with the time spent starting and ending it. */
  ledger?: TimeLedger;
  /** Variables set in the child's environment, over the bench's. */
  env?: Record<string, string>;
}

const running = new Set<ChildProcess>();

/** Kills every child still running, with its process group. */
function killChildren(): void {
  for (const child of running) {
    try {
      process.kill(-child.pid!, "SIGKILL");
    } catch {
      // Already gone.
    }
  }
  running.clear();
}

process.once("exit", killChildren);

/**
 * Runs the child to its end: its result, or a CliError (CHILD) naming why it gave none (its
 * message, or its exit and last stderr lines); the cases it finished have gone to `onCase` by then.
 */
export async function runReportingChild<R>(c: ReportingChild): Promise<R> {
  const spawned = performance.now();
  const child = spawn(c.command, c.args, {
    cwd: ROOT,
    stdio: ["pipe", "pipe", "pipe"],
    detached: true,
    ...(c.env ? { env: { ...process.env, ...c.env } } : {}),
  });
  running.add(child);
  child.stdin.end("bytes" in c.job ? c.job.bytes : stringifyLine(c.job.json) + "\n");
  let stderr = "";
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  let buffered = "";
  let result: R | undefined;
  let account: TimeAccount | undefined;
  let failure: string | undefined;
  child.stdout.on("data", (d: Buffer) => {
    buffered += d.toString();
    let newline: number;
    while ((newline = buffered.indexOf("\n")) !== -1) {
      const line = parseLine(buffered.slice(0, newline)) as ChildLine;
      buffered = buffered.slice(newline + 1);
      if (line.type === "progress") c.onProgress(line.event);
      else if (line.type === "case") c.onCase?.(line.case);
      else if (line.type === "result") {
        result = line.result as R;
        account = line.account;
      } else if (line.type === "error") failure = line.message;
    }
  });
  const watch = setInterval(() => {
    if (c.shouldStop()) {
      child.kill("SIGINT");
      clearInterval(watch);
    }
  }, 100);
  // "close", not "exit": the last lines on stdout are read by then.
  const code = await new Promise<number | null>((resolve) => child.once("close", resolve));
  running.delete(child);
  clearInterval(watch);
  if (account) c.ledger?.addProcess(account, performance.now() - spawned);
  if (result !== undefined) return result;
  throw new CliError(
    "CHILD",
    `${c.name} failed${failure ? `: ${failure}` : ` (exit ${code})`}${stderr ? `: ${stderr.trim().split("\n").slice(-3).join(" | ")}` : ""}`,
  );
}
