/**
 * Keeps the README true: its quick start, options and codec list must match
 * the code.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { helpText } from "../bench/cli/option-specs.ts";
import { CSV_COLUMNS } from "../bench/report/csv-columns.ts";
import { BUILT_IN } from "../protocols/registry.ts";

const DOCS = new URL("../docs/", import.meta.url);
const front = readFileSync(new URL("../README.md", import.meta.url), "utf8");
const docPages = readdirSync(DOCS).filter((f) => f.endsWith(".md"));
/** The README and every page of docs/: the text whose names the tests below hold to the code. */
const readme = [front, ...docPages.map((f) => readFileSync(new URL(f, DOCS), "utf8"))].join("\n");
const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as {
  scripts: Record<string, string>;
};

/** A heading's anchor as GitHub makes it. */
const slug = (heading: string): string =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\- _]/gu, "")
    .replace(/ /g, "-");

/** The anchors of a Markdown file's headings (outside code blocks). */
function anchorsOf(text: string): Set<string> {
  const out = new Set<string>();
  let fence = false;
  for (const line of text.split("\n")) {
    if (line.startsWith("```")) fence = !fence;
    const m = !fence && /^#{1,6} (.*)$/.exec(line);
    if (m) out.add(slug(m[1]!));
  }
  return out;
}

describe("README and docs/", () => {
  it("the README fits in 250 lines; every page of docs/ is in its index", () => {
    expect(front.split("\n").length).toBeLessThanOrEqual(250);
    const index = readFileSync(new URL("README.md", DOCS), "utf8");
    for (const page of docPages.filter((f) => f !== "README.md")) expect(index, page).toContain(`](${page})`);
  });

  it("every link to a file or an anchor resolves", () => {
    const root = path.resolve(import.meta.dirname, "..");
    const files = ["README.md", ...docPages.map((f) => `docs/${f}`)];
    const broken: string[] = [];
    for (const file of files) {
      const text = readFileSync(path.join(root, file), "utf8").replace(/```[\s\S]*?```/g, "");
      for (const m of text.matchAll(/\[[^\]]*\]\(([^)\s]+)\)/g)) {
        const target = m[1]!;
        if (/^[a-z]+:/.test(target)) continue;
        const [where, anchor] = target.split("#") as [string, string | undefined];
        const resolved =
          where === "" ? path.join(root, file) : path.resolve(path.dirname(path.join(root, file)), where);
        if (!existsSync(resolved)) broken.push(`${file}: ${target} (no such file)`);
        else if (anchor && resolved.endsWith(".md") && !anchorsOf(readFileSync(resolved, "utf8")).has(anchor))
          broken.push(`${file}: ${target} (no such heading)`);
      }
    }
    expect(broken).toEqual([]);
  });
});

describe("README", () => {
  it("quick start is exactly two commands a machine with only Node.js and npm can run", () => {
    const quick = front.slice(front.indexOf("## Quick start"), front.indexOf("## What it answers"));
    const block = /```sh\n([\s\S]*?)```/.exec(quick)![1]!.trim().split("\n");
    expect(block).toEqual(["npm install && npm run bench", "npm install && npm test"]);
    expect(pkg.scripts.bench).toMatch(/^bun /);
    expect(pkg.scripts.test).toMatch(/^bun --bun vitest run/);
  });

  it("CI runs the README's test command", () => {
    const ci = readFileSync(new URL("../.ci/run", import.meta.url), "utf8");
    expect(ci).toContain("npm test");
  });

  it("documents every option of the CLI", () => {
    const flags = [...helpText(BUILT_IN).matchAll(/^\s+(?:-h, )?(--[a-z]+)/gm)].map((m) => m[1]!);
    expect(flags.length).toBeGreaterThan(8);
    for (const flag of flags) expect(readme, flag).toContain(`\`${flag}`);
  });

  it("names every codec", () => {
    for (const name of BUILT_IN.names) expect(readme, name).toContain(`\`${name}\``);
  });

  it("the CSV columns it names exist", () => {
    for (const col of ["total_vs_json", "round_msgs", "timer_resolution_ns", "csv_version"]) {
      expect(readme).toContain(col);
      expect(CSV_COLUMNS).toContain(col);
    }
  });
});
