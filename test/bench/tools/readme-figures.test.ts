/** The README's figures are the committed result files' figures. */
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { currentFigures, loadSample, SAMPLE_RUNS } from "../../../bench/tools/readme-figures.ts";
import { FIGURES_BEGIN, FIGURES_END } from "../../../bench/report/sample-figures.ts";

const ROOT = path.resolve(import.meta.dirname, "../../..");
const readme = readFileSync(path.join(ROOT, "README.md"), "utf8");

describe("README figures", () => {
  it("match what results/sample/ gives, every one", () => {
    const block = readme.slice(readme.indexOf(FIGURES_BEGIN), readme.indexOf(FIGURES_END) + FIGURES_END.length);
    expect(block).toBe(currentFigures());
  });

  it("say which CPU and runtime they come from", () => {
    const machine = loadSample(SAMPLE_RUNS[0]!).results.environment;
    const block = currentFigures();
    expect(block).toContain(machine.cpu);
    expect(block).toContain(`bun ${machine.runtimeVersion}`);
  });

  it("`bun run readme-figures --check` agrees, and a bad argument is one line and exit 2", () => {
    const check = spawnSync(process.execPath, ["bench/tools/readme-figures.ts", "--check"], { cwd: ROOT, encoding: "utf8" });
    expect(check.stdout).toBe("README figures match results/sample/.\n");
    expect(check.status).toBe(0);
    const bad = spawnSync(process.execPath, ["bench/tools/readme-figures.ts", "--write"], { cwd: ROOT, encoding: "utf8" });
    expect(bad.stderr).toBe("readme-figures: unknown argument '--write'; valid: --check\n");
    expect(bad.status).toBe(2);
  });
});
