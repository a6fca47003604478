/** The README's figures are the committed result files' figures. */
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { currentFigures, currentQuick, loadSample, SAMPLE_RUNS } from "../../../bench/tools/readme-figures.ts";
import { FIGURES_BEGIN, FIGURES_END, QUICK_BEGIN, QUICK_END } from "../../../bench/report/figure-blocks.ts";

const ROOT = path.resolve(import.meta.dirname, "../../..");
const readme = readFileSync(path.join(ROOT, "README.md"), "utf8");
const results = readFileSync(path.join(ROOT, "docs/results.md"), "utf8");

describe("README and docs/results.md figures", () => {
  it("match what results/sample/ gives, every one", () => {
    const block = results.slice(results.indexOf(FIGURES_BEGIN), results.indexOf(FIGURES_END) + FIGURES_END.length);
    expect(block).toBe(currentFigures());
    const quick = readme.slice(readme.indexOf(QUICK_BEGIN), readme.indexOf(QUICK_END) + QUICK_END.length);
    expect(quick).toBe(currentQuick());
  });

  it("say which CPU and runtime they come from", () => {
    const machine = loadSample(SAMPLE_RUNS[0]!).results.environment;
    const block = currentFigures();
    expect(block).toContain(machine.cpu);
    expect(block).toContain(`bun ${machine.runtimeVersion}`);
  });

  it("`bun run readme-figures --check` agrees, and a bad argument is one line and exit 2", () => {
    const check = spawnSync(process.execPath, ["bench/tools/readme-figures.ts", "--check"], {
      cwd: ROOT,
      encoding: "utf8",
    });
    expect(check.stdout).toBe("README and docs/results.md figures match results/sample/.\n");
    expect(check.status).toBe(0);
    const bad = spawnSync(process.execPath, ["bench/tools/readme-figures.ts", "--write"], {
      cwd: ROOT,
      encoding: "utf8",
    });
    expect(bad.stderr).toBe("readme-figures: unknown argument '--write'; valid: --check\n");
    expect(bad.status).toBe(2);
  });
});
