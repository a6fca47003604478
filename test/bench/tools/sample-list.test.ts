/** The list of committed samples is the whole of results/sample/: every file there is listed, every listed file is there, and every one is read by some page's figures. */
import { readFileSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { generate } from "../../../bench/tools/figures/generate.ts";
import { PAGES } from "../../../bench/tools/figures/pages.ts";
import { HISTORY, SAMPLES, samplesNamed } from "../../../bench/tools/sample-list.ts";

const ROOT = path.resolve(import.meta.dirname, "../../..");
const SAMPLE_DIR = path.join(ROOT, "results/sample");

/** Whether `text` names `file`: by its name, its stem, or a pattern that covers it (`engines-*.csv`, `bun-default-{1,2,3}.csv`). */
function names(text: string, file: string): boolean {
  const base = path.basename(file);
  if (text.includes(base) || text.includes(base.replace(/\.\w+$/, ""))) return true;
  for (const [pattern] of text.matchAll(/[\w.-]*(?:\{[^}\s]*\}|\*)[\w.{},*-]*/g)) {
    const source = pattern
      .replace(/[.+?^$()|[\]\\]/g, "\\$&")
      .replace(/\*/g, "[\\w.-]*")
      .replace(/\{([^}]*)\}/g, (_m, alternatives: string) => `(?:${alternatives.split(",").join("|")})`);
    if (new RegExp(`^${source}$`).test(base) || new RegExp(`^${source}$`).test(base.replace(/\.\w+$/, ""))) return true;
  }
  return false;
}

/** Every file under results/sample/, relative to it. */
function filesUnder(dir: string, prefix = ""): string[] {
  return readdirSync(dir).flatMap((f) =>
    statSync(path.join(dir, f)).isDirectory() ? filesUnder(path.join(dir, f), `${prefix}${f}/`) : [`${prefix}${f}`],
  );
}

const listed = [...SAMPLES.flatMap((s) => Object.keys(s.files)), ...HISTORY.map((h) => h.file)];

describe("the sample list", () => {
  it("names every file in results/sample/ once, and no file that is not there", () => {
    expect(new Set(listed).size).toBe(listed.length);
    expect(filesUnder(SAMPLE_DIR).sort()).toEqual([...listed].sort());
  });

  it("gives each sample a name of its own and a command a user can type", () => {
    const names = SAMPLES.map((s) => s.name);
    expect(new Set(names).size).toBe(names.length);
    for (const s of SAMPLES)
      expect(s.command, s.name).toMatch(/^bun run (bench|crosscheck|cold-check|compat|capture)\b/);
  });

  it("is read by some page's figures, every file of it", () => {
    const quoted = new Set(generate(ROOT, PAGES).flatMap((p) => p.quotes));
    expect(listed.filter((f) => !quoted.has(f))).toEqual([]);
  });

  it("every results/sample/ file a document names is listed (a renamed or removed sample leaves no reference behind)", () => {
    const docs = [
      "README.md",
      ...readdirSync(path.join(ROOT, "docs"))
        .filter((f) => f.endsWith(".md"))
        .map((f) => `docs/${f}`),
    ];
    for (const doc of docs) {
      const text = readFileSync(path.join(ROOT, doc), "utf8");
      for (const [, named] of text.matchAll(/results\/sample\/([\w.{},*/-]*[\w}*])/g)) {
        const dir = named!.includes("/") ? named!.slice(0, named!.lastIndexOf("/") + 1) : "";
        const inDir = listed.filter((f) => f.startsWith(dir) && !f.slice(dir.length).includes("/"));
        expect(
          inDir.some((f) => names(`\`${named!.slice(dir.length)}\``, f.slice(dir.length))) ||
            listed.some((f) => f.startsWith(`${named}/`)),
          `${doc} names results/sample/${named}`,
        ).toBe(true);
      }
    }
  });

  it("finds a file named by a pattern", () => {
    expect(names("see `results/sample/engines-*.csv`", "engines-firefox.csv")).toBe(true);
    expect(names("runs `bun-default-{1,2,3}.csv`", "bun-default-2.csv")).toBe(true);
    expect(names("runs `bun-default-{1,2}.csv`", "bun-default-3.csv")).toBe(false);
    expect(names("the fanout runs", "fanout-1-process.csv")).toBe(false);
  });

  it("picks samples by name, in the list's order", () => {
    expect(samplesNamed(["bun-quick", "bun-default-1"]).entries.map((s) => s.name)).toEqual([
      "bun-default-1",
      "bun-quick",
    ]);
    expect(samplesNamed([]).entries).toHaveLength(SAMPLES.length);
    expect(samplesNamed(["nope"]).unknown).toEqual(["nope"]);
  });
});
