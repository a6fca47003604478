/** The list of committed samples is the whole of results/sample/: every file there is listed, every listed file is there, and its documents name it. */
import { existsSync, readFileSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { HISTORY, SAMPLES, samplesNamed } from "../../../bench/tools/sample-list.ts";

const ROOT = path.resolve(import.meta.dirname, "../../..");
const SAMPLE_DIR = path.join(ROOT, "results/sample");

/** Whether `text` names `file`: by its name, its stem, or a pattern that covers it (`engines-*.csv`, `epyc-default-{1,2,3}.csv`). */
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

  it("gives each sample a name of its own, a command a user can type and the documents that quote it", () => {
    const names = SAMPLES.map((s) => s.name);
    expect(new Set(names).size).toBe(names.length);
    for (const s of SAMPLES) {
      expect(s.command, s.name).toMatch(/^bun run (bench|crosscheck|compat)\b/);
      expect(s.quotedBy.length, s.name).toBeGreaterThan(0);
    }
  });

  it("is quoted where it says: each document named holds the file's name", () => {
    for (const [files, quotedBy] of [
      ...SAMPLES.map((s) => [Object.keys(s.files), s.quotedBy] as const),
      ...HISTORY.map((h) => [[h.file], h.quotedBy] as const),
    ])
      for (const who of quotedBy) {
        const doc = /^((?:docs\/)?[\w-]+\.md)/.exec(who)?.[1];
        if (doc === undefined) continue; // a tool (bun run screenshot), not a document
        expect(existsSync(path.join(ROOT, doc)), doc).toBe(true);
        const text = readFileSync(path.join(ROOT, doc), "utf8");
        expect(
          files.some((f) => names(text, f)),
          `${doc} quotes ${files.join(", ")}`,
        ).toBe(true);
      }
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
    expect(names("runs `epyc-default-{1,2,3}.csv`", "epyc-default-2.csv")).toBe(true);
    expect(names("runs `epyc-default-{1,2}.csv`", "epyc-default-3.csv")).toBe(false);
    expect(names("the fanout runs", "fanout-1-process.csv")).toBe(false);
  });

  it("picks samples by name, in the list's order", () => {
    expect(samplesNamed(["epyc-quick", "epyc-default-1"]).entries.map((s) => s.name)).toEqual([
      "epyc-default-1",
      "epyc-quick",
    ]);
    expect(samplesNamed([]).entries).toHaveLength(SAMPLES.length);
    expect(samplesNamed(["nope"]).unknown).toEqual(["nope"]);
  });
});
