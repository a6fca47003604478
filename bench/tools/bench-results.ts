/**
 * The run a checking tool reads (`bun run crosscheck`, `bun run cold-check`): the results file
 * the user names with --from, or, without one, a `bun run bench` it runs first into a temporary
 * folder, its progress on stderr.
 */

import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { BenchResults } from "../../client/harness/results.ts";
import { readResults } from "../cli/read-results.ts";
import { ROOT } from "../cli/paths.ts";
import { CliError } from "../cli/cli-errors.ts";

/** `from`'s results, else a fresh `bun run bench ARGS`'s (`what` says which run, in the line printed before it). */
export function resultsToCheck(
  tool: string,
  from: string | undefined,
  args: readonly string[],
  what: string,
): BenchResults {
  if (from) return readResults(from);
  const out = mkdtempSync(path.join(tmpdir(), `${tool}-`));
  try {
    process.stderr.write(`${tool}: running bun run bench (${what})...\n`);
    const r = spawnSync(process.execPath, [path.join(ROOT, "bench/cli/bench.ts"), ...args, "--out", out], {
      cwd: ROOT,
      stdio: ["ignore", "ignore", "inherit"],
    });
    if (r.status !== 0) throw new CliError("TOOL", `bun run bench failed (exit ${r.status})`);
    return readResults(path.join(out, "latest.json"));
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}
