/** `bun bench/cli/bench.ts ARGS` from the project's root, as a user runs it, to its end. */
import { spawnSync } from "node:child_process";
import path from "node:path";

const ROOT = path.resolve(import.meta.dirname, "../..");

/** What a bench command did: its exit code and everything it printed. */
export interface BenchCli {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the bench with `args` (no colour), killed after `timeoutMs`. */
export function runBenchCli(args: readonly string[], timeoutMs = 120_000): BenchCli {
  const r = spawnSync(process.execPath, ["bench/cli/bench.ts", ...args], {
    cwd: ROOT,
    encoding: "utf8",
    timeout: timeoutMs,
    env: { ...process.env, NO_COLOR: "1" },
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}
