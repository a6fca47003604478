/**
 * One word per concept (docs/glossary.md): every term the code and docs use is in the glossary,
 * and a word retired for another does not come back in the code, the tests or the docs. Files
 * that name an old word on purpose (the CSV reader's old column names, the columns' version
 * history) are named beside it.
 */
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "..");
const THIS = "test/vocabulary.test.ts";

/** Every tracked text file of the project: code, tests, docs (not results, generated code or the lock file). */
function projectFiles(): string[] {
  const r = spawnSync("git", ["ls-files", "-co", "--exclude-standard"], { cwd: ROOT, encoding: "utf8" });
  return r.stdout
    .split("\n")
    .filter((f) => /\.(ts|js|mjs|cjs|md|html|css|json)$/.test(f) || f === ".ci/run")
    .filter(
      (f) =>
        !f.startsWith("results/") && !f.startsWith("protocols/generated/") && f !== "package-lock.json" && f !== THIS,
    );
}

/** A retired word: the pattern that finds it, the word that replaced it, and the files that may still name it. */
const RETIRED: { word: RegExp; use: string; allowed?: readonly string[] }[] = [
  {
    word: /\b(PlanRun|RunFront|RunHooks|RunSettings|RunAccount|RunControl|runBench|runBrowserBench)\b/,
    use: "benchmark (the whole invocation; a run is one time through a case's messages)",
  },
  { word: /\brun of the bench\b/, use: "a benchmark" },
  { word: /\bcatalogue/i, use: "catalog" },
  { word: /\bMETHODOLOGY \d/, use: "the section of docs/ that says it (the project's own docs)" },
  {
    word: /\bbench\/harness\b|\bprotocols\/socket\b|\bclient\/page\/(app|build)\.ts\b/,
    use: "client/harness, server/, bench/page (the layers' folders)",
  },
  {
    // The wildcard forms too: `run_*_ms`.
    word: /\brun_((elapsed|timed|warmup|messages|verify|start|collections|compression|files|other|\*)_ms|peak_rss_bytes)\b|\brun_\*/,
    use: "account_* (csv_version 5)",
  },
  {
    word: /\b(Comparison|FieldEstimate|CaseComparison|compareRuns|comparisonLines|comparisonHtml|RunSummary|runSummary|runLabels|CodecModeProcesses|SweepRung)\b/,
    use: "Estimate (a figure with its interval), CaseChange, caseChanges, BenchmarkSummary, CodecModeForks, SweepStep",
  },
  { word: /\brungs?\b/i, use: "step (one rate or bandwidth of a ladder)" },
  { word: /--client browser\b/, use: "--client chromium (browser names no one engine)" },
];

/** The words the code and docs use for the things they measure and run, each defined in the glossary. */
const TERMS = [
  "benchmark",
  "run",
  "round",
  "slice",
  "case",
  "batch",
  "plan",
  "catalog",
  "front end",
  "fork",
  "cluster",
  "clients",
  "span",
  "stretch",
  "step",
  "precision",
  "account",
  "summary",
  "echo",
  "field figure",
  "lab",
  "knee",
  "ladder",
  "estimate",
  "ratio",
  "change",
  "results",
  "report",
];

describe("one word per concept", () => {
  const files = projectFiles();

  it.each(RETIRED.map((r) => [r.word.source, r] as const))(
    "no retired word %s in the code, tests or docs",
    (_, { word, use, allowed = [] }) => {
      const found = files
        .filter((f) => !allowed.includes(f))
        .flatMap((f) =>
          readFileSync(path.join(ROOT, f), "utf8")
            .split("\n")
            .flatMap((line, i) =>
              word.test(line) ? [`${f}:${i + 1}: ${line.trim().slice(0, 120)} (say: ${use})`] : [],
            ),
        );
      expect(found).toEqual([]);
    },
  );

  it("the glossary defines every term", () => {
    const glossary = readFileSync(path.join(ROOT, "docs/glossary.md"), "utf8");
    const defined = new Set([...glossary.matchAll(/^- \*\*([^*]+)\*\*/gm)].map((m) => m[1]!.toLowerCase()));
    expect(TERMS.filter((t) => !defined.has(t))).toEqual([]);
  });

  it("finds a retired word where one comes back (the check can fail)", () => {
    const line = "const run = new PlanRun(plan, front); // see METHODOLOGY 18, the catalogue";
    expect(RETIRED.filter((r) => r.word.test(line)).map((r) => r.use)).toHaveLength(3);
    // The wildcard form of a retired column family, and a retired word in any case.
    expect(RETIRED.filter((r) => r.word.test("the `run_*_ms` columns, each Rung")).map((r) => r.use)).toHaveLength(2);
  });
});
