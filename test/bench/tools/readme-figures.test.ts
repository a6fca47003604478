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

  it("docs/results.md opens with the commit and date of its samples: one version of the measured code", () => {
    const made = results.slice(results.indexOf("<!-- made:begin"), results.indexOf("<!-- made:end -->"));
    expect(results.indexOf("<!-- made:begin")).toBeLessThan(results.indexOf("\n## "));
    expect(made).toMatch(
      /The samples below were made by (commit `[0-9a-f]{10}`|\d+ commits \((`[0-9a-f]{10}`, )+whose measured code is the same\)), \d{4}-\d\d-\d\d(?: to \d{4}-\d\d-\d\d)?, with `bun run samples`/,
    );
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
    const [first, second, ...samples] = check.stdout.trimEnd().split("\n");
    expect(first).toBe("README and docs/results.md figures match results/sample/.");
    expect(check.status, check.stdout).toBe(0);
    // Then what made each quoted sample, one line each, and whether its code changed since.
    expect(second).toBe("What made each quoted sample:");
    for (const file of [
      "epyc-default-1.csv",
      "epyc-default-1.json",
      "epyc-quick.csv",
      "compat/node.csv",
      "links/sweep.csv",
    ])
      expect(
        samples.find((l) => l.startsWith(`  ${file}: `)),
        file,
      ).toMatch(
        /: made at [0-9a-f]{10} \(\d{4}-\d\d-\d\d\); (the code it measures is unchanged since|warning: the code it measures changed since \(.+\))$/,
      );
    expect(samples.find((l) => l.startsWith("  browser-custom-binary-before-1.csv: "))).toContain("kept as history");
    const bad = spawnSync(process.execPath, ["bench/tools/readme-figures.ts", "--write"], {
      cwd: ROOT,
      encoding: "utf8",
    });
    expect(bad.stderr).toBe("readme-figures: unknown argument '--write'; valid: --check\n");
    expect(bad.status).toBe(2);
  });
});
