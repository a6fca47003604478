/** The README's figures block, made from result files. */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { BenchResults } from "../../../bench/harness/results.ts";
import { vsJson } from "../../../bench/report/ratios.ts";
import { FIGURES_BEGIN, FIGURES_END, sampleFigures, withFigures } from "../../../bench/report/sample-figures.ts";

const load = (name: string): BenchResults => JSON.parse(readFileSync(new URL(`../../../results/sample/${name}`, import.meta.url), "utf8")) as BenchResults;

describe("sampleFigures", () => {
  const older = load("all-modes-varied.json");
  const block = sampleFigures([older, older], ["a.json", "b.json"], { results: older, name: "c.json" });

  it("is one marked block naming the files and the machine", () => {
    expect(block.startsWith(FIGURES_BEGIN)).toBe(true);
    expect(block.endsWith(FIGURES_END)).toBe(true);
    expect(block).toContain("`a.json`, `b.json`");
    expect(block).toContain(older.environment.cpu);
  });

  it("puts each run's ratio in its column and the largest over the smallest at the end", () => {
    const c = older.cases.find((x) => x.mode === "codec" && x.payload === "small" && x.codec === "custom-binary")!;
    const ratio = vsJson(c, older.cases)!.ratio.toFixed(2);
    const row = block.split("\n").find((l) => l.startsWith("| small | custom-binary |"))!;
    expect(row).toMatch(new RegExp(`^\\| small \\| custom-binary \\| ${ratio} ± [\\d.]+% \\| ${ratio} ± [\\d.]+% \\| 1\\.000 \\|$`));
    // The same run twice: every ratio within 1.05x of itself.
    expect(block).toMatch(/Codec mode .*: 18 of 18 ratios within 1\.05x across the runs, the widest 1\.000x apart\./);
  });

  it("stream rows are relative to raw and leave raw out", () => {
    const stream = block.slice(block.indexOf("Stream mode"));
    expect(stream).not.toMatch(/\| raw \|/);
    expect(stream).toMatch(/\| large \| json \| [\d.]+ ± /);
  });
});

describe("withFigures", () => {
  it("replaces the block between the markers and nothing else", () => {
    const readme = `# Title\n\n${FIGURES_BEGIN}\nold\n${FIGURES_END}\n\nmore\n`;
    expect(withFigures(readme, `${FIGURES_BEGIN}\nnew\n${FIGURES_END}`)).toBe(`# Title\n\n${FIGURES_BEGIN}\nnew\n${FIGURES_END}\n\nmore\n`);
  });

  it("refuses a README without the markers", () => {
    expect(() => withFigures("# Title\n", "x")).toThrow(/no figures block/);
  });
});
