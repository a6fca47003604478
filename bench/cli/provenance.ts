/**
 * What code a run measures: the git commit the bench runs from, whether its checkout has
 * uncommitted changes, and the bench's version. Every results file carries it (csv.ts, results-json.ts),
 * and `bun run figures --check` asks of each committed sample whether the code it measured
 * has changed since (git-history.ts).
 */

import { readFileSync } from "node:fs";
import path from "node:path";
import type { Provenance } from "../../client/harness/results.ts";
import { ROOT } from "./paths.ts";

/** Paths whose changes do not change what a run measures: an edit there leaves a checkout clean. */
const NOT_CODE = [":(exclude)docs", ":(exclude)test", ":(exclude)results", ":(exclude,glob)**/*.md"];

/** `git ARGS` in the bench's own folder: its output, or undefined when git is missing or fails. */
export function git(args: readonly string[]): string | undefined {
  try {
    const run = Bun.spawnSync(["git", ...args], { cwd: ROOT, stdout: "pipe", stderr: "ignore" });
    return run.exitCode === 0 ? run.stdout.toString().trim() : undefined;
  } catch {
    return undefined;
  }
}

/** The bench's own checkout: true only when ROOT is the top of a git work tree (an installed package inside a user's repository is not). */
function ownCheckout(): boolean {
  const top = git(["rev-parse", "--show-toplevel"]);
  return top !== undefined && path.resolve(top) === path.resolve(ROOT);
}

let found: Provenance | undefined;

/** The code this process runs, looked up once. */
export function codeProvenance(): Provenance {
  if (found) return found;
  const benchVersion = (JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as { version: string })
    .version;
  const commit = ownCheckout() ? git(["rev-parse", "HEAD"]) : undefined;
  if (commit === undefined) return (found = { commit: "", benchVersion });
  const status = git(["status", "--porcelain", "--", ".", ...NOT_CODE]);
  return (found = { commit, ...(status === undefined ? {} : { dirty: status !== "" }), benchVersion });
}
