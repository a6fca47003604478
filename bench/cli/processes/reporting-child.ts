/**
 * A child process that reports in JSON lines on stdout (client/json-lines.ts):
 * {"type":"progress","event":...}, then {"type":"result","result":...} or
 * {"type":"error","message":...}. The bench starts it in a process group of
 * its own (a terminal's Ctrl-C then reaches only the bench), writes its job
 * to its stdin as one line, relays its progress, passes a stop on as
 * SIGINT (the child finishes its round or case and still reports) and
 * returns its result. The Node client and codec mode's processes are such
 * children.
 */

import { spawn } from "node:child_process";
import { parseLine, stringifyLine } from "../../../client/json-lines.ts";
import type { Progress } from "../../harness/progress.ts";
import { ROOT } from "../paths.ts";

export interface ReportingChild {
  /** What the child is, for the error line ("the Node client"). */
  name: string;
  command: string;
  args: string[];
  job: unknown;
  onProgress: (e: Progress) => void;
  /** Polled; once true, the child gets SIGINT. */
  shouldStop: () => boolean;
}

type Line = { type: "progress"; event: Progress } | { type: "result"; result: unknown } | { type: "error"; message: string };

/** Runs the child to its end: its result, or an error naming why it gave none (its message, or its exit and last stderr lines). */
export async function runReportingChild<R>(c: ReportingChild): Promise<R> {
  const child = spawn(c.command, c.args, { cwd: ROOT, stdio: ["pipe", "pipe", "pipe"], detached: true });
  child.stdin.end(stringifyLine(c.job) + "\n");
  let stderr = "";
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  let buffered = "";
  let result: R | undefined;
  let failure: string | undefined;
  child.stdout.on("data", (d: Buffer) => {
    buffered += d.toString();
    let newline: number;
    while ((newline = buffered.indexOf("\n")) !== -1) {
      const line = parseLine(buffered.slice(0, newline)) as Line;
      buffered = buffered.slice(newline + 1);
      if (line.type === "progress") c.onProgress(line.event);
      else if (line.type === "result") result = line.result as R;
      else if (line.type === "error") failure = line.message;
    }
  });
  const watch = setInterval(() => {
    if (c.shouldStop()) {
      child.kill("SIGINT");
      clearInterval(watch);
    }
  }, 100);
  const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
  clearInterval(watch);
  if (result !== undefined) return result;
  throw new Error(`${c.name} failed${failure ? `: ${failure}` : ` (exit ${code})`}${stderr ? `: ${stderr.trim().split("\n").slice(-3).join(" | ")}` : ""}`);
}
