/** What code a run measures, as every results file records it. */
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { codeProvenance } from "../../../bench/cli/provenance.ts";

const ROOT = path.resolve(import.meta.dirname, "../../..");
const git = (...args: string[]): string => spawnSync("git", args, { cwd: ROOT, encoding: "utf8" }).stdout.trim();

describe("codeProvenance", () => {
  it("in the project's own checkout: its commit, whether its code has uncommitted changes, and its version", () => {
    const p = codeProvenance();
    expect(p.commit).toBe(git("rev-parse", "HEAD"));
    expect(p.benchVersion).toBe(
      (JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as { version: string }).version,
    );
    // Changes to docs, tests, results and Markdown leave the code clean.
    const code = git(
      "status",
      "--porcelain",
      "--",
      ".",
      ":(exclude)docs",
      ":(exclude)test",
      ":(exclude)results",
      ":(exclude,glob)**/*.md",
    );
    expect(p.dirty).toBe(code !== "");
    expect(codeProvenance()).toBe(p);
  });
});
