/** `bun run figures`: every generated span of the README and docs/ is what the committed samples write. */
import { spawnSync } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { generate } from "../../../bench/tools/figures/generate.ts";
import { PAGES } from "../../../bench/tools/figures/pages.ts";

const ROOT = path.resolve(import.meta.dirname, "../../..");

describe("bun run figures", () => {
  it("every page's spans are current, each written by a figure, and every figure shown", () => {
    const pages = generate(ROOT, PAGES);
    expect(pages.map((p) => p.page).sort()).toEqual(PAGES.map((p) => p.page).sort());
    for (const p of pages) {
      expect(p.problems, p.page).toEqual([]);
      expect(
        p.changed.map((c) => `${c.span.name}: ${c.figure}`),
        `${p.page}: run bun run figures`,
      ).toEqual([]);
    }
  });

  it("--check agrees and says what made each quoted sample; a bad argument is one line and exit 2", () => {
    const check = spawnSync(process.execPath, ["bench/tools/figures.ts", "--check"], { cwd: ROOT, encoding: "utf8" });
    const [first, second, ...samples] = check.stdout.trimEnd().split("\n");
    expect(first).toBe(`Every generated span of ${PAGES.length} pages matches results/sample/.`);
    expect(check.status, check.stdout + check.stderr).toBe(0);
    expect(second).toBe("What made each quoted sample:");
    for (const file of ["bun-default-1.json.gz", "bun-quick.json.gz", "compat/node.json.gz", "links/sweep.json"])
      expect(
        samples.find((l) => l.startsWith(`  ${file}: `)),
        file,
      ).toMatch(
        /: made at [0-9a-f]{10} \(\d{4}-\d\d-\d\d\); (the code it measures is unchanged since|warning: the code it measures changed since \(.+\))$/,
      );
    expect(samples.find((l) => l.startsWith("  browser-custom-binary-before-1.json.gz: "))).toMatch(
      /: made at cb30bbe2a2 \(2026-11-23\); kept as history; /,
    );
    const bad = spawnSync(process.execPath, ["bench/tools/figures.ts", "--write"], { cwd: ROOT, encoding: "utf8" });
    expect(bad.stderr).toBe("figures: unknown argument '--write'; valid: --check\n");
    expect(bad.status).toBe(2);
  });
});
