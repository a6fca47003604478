/**
 * One summary, every output: a real run with every section of a summary (the user's messages'
 * fidelity, the verdict, lab and field, the calibration, read-one and validated, route mode, the
 * user's load), and
 * the terminal, report.html (the run's and `bun run report`'s) and the page each holding every
 * line of every section.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resultsFromFile } from "../../../bench/report/results-file.ts";
import { formatTable } from "../../../bench/report/table.ts";
import {
  benchmarkSummary,
  SUMMARY_SECTIONS,
  summaryLines,
  type BenchmarkSummary,
} from "../../../bench/report/summary.ts";
import type { DrivenBrowser } from "../../../bench/cli/processes/browser-driver.ts";
import { launch, skipBrowserTests, textOf } from "../../helpers/browsers.ts";
import { serverForFile } from "../../helpers/server.ts";

const ROOT = path.resolve(import.meta.dirname, "../../..");

/** The HTML text of a line, as report.html escapes it. */
const escaped = (line: string): string =>
  line.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;").replaceAll('"', "&quot;");

/** Each section's first line that says something: its title. */
const titlesOf = (summary: BenchmarkSummary): string[] =>
  SUMMARY_SECTIONS.map((name) => summary[name].find((l) => l.trim() !== "")).filter((l) => l !== undefined);

/** Every line of every section that says something (blank lines separate, and say nothing). */
const linesOf = (summary: BenchmarkSummary): string[] =>
  SUMMARY_SECTIONS.flatMap((name) => summary[name]).filter((l) => l.trim() !== "");

describe("a run's summary, the same in every output", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "summary-"));
  const run = { stdout: "", json: "", html: "" };
  beforeAll(() => {
    // One value of the user's messages (-0) does not survive JSON: a fidelity section.
    const messages = path.join(dir, "moves.jsonl");
    writeFileSync(messages, '{"id":1,"x":-0,"name":"a"}\n{"id":2,"x":1.5,"name":"b"}\n');
    const out = path.join(dir, "out");
    // --wide: the terminal wraps no line, so each of the summary's lines is found whole.
    const args = [
      "--modes",
      "codec,stream,route,evolve",
      "--codecs",
      "json,custom-binary,msgpackr",
      "--payloads",
      "market,moves",
      "--messages",
      messages,
      // The user's traffic, priced and driven: the load's section and its verdict line.
      "--load",
      "market=300,moves=100",
      "--fanout",
      "2",
    ];
    const r = spawnSync(
      process.execPath,
      ["bench/cli/bench.ts", ...args, "--iterations", "300", "--runs", "2", "--calibrate", "--wide", "--out", out],
      { cwd: ROOT, encoding: "utf8", timeout: 240_000 },
    );
    expect(r.stderr).not.toMatch(/FAILED/);
    expect(r.status).toBe(0);
    run.stdout = r.stdout;
    const json = readdirSync(out).find((f) => /^\d{4}-.*\.json$/.test(f))!;
    run.json = readFileSync(path.join(out, json), "utf8");
    run.html = readFileSync(path.join(out, "report.html"), "utf8");
  }, 300_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("has every section, and the terminal prints every line of each", () => {
    const results = resultsFromFile(run.json);
    const summary = benchmarkSummary(results, { wide: true });
    for (const name of SUMMARY_SECTIONS)
      expect(summary[name].filter((l) => l.trim() !== "").length, name).toBeGreaterThan(0);
    // The terminal's table of the same results (the JSON keeps a round's figures to 5 significant digits, and a verdict
    // read back pairs those rounds, so a figure at a rounding edge can print one unit apart from the run's own: the
    // run's own terminal is held to the sections' titles).
    const printed = new Set(formatTable(results, { wide: true }).split("\n"));
    expect(linesOf(summary).filter((l) => !printed.has(l))).toEqual([]);
    const own = new Set(run.stdout.split("\n"));
    expect(titlesOf(summary).filter((l) => !own.has(l))).toEqual([]);
  });

  it("report.html holds every line (bun run report's of the JSON; the benchmark's own, every section's title)", () => {
    const summary = benchmarkSummary(resultsFromFile(run.json));
    const file = path.join(dir, "run.json");
    writeFileSync(file, run.json);
    const out = path.join(dir, "from-report.html");
    const r = spawnSync(process.execPath, ["bench/cli/report.ts", file, "--out", out], {
      cwd: ROOT,
      encoding: "utf8",
      timeout: 60_000,
    });
    expect(r.status).toBe(0);
    const html = readFileSync(out, "utf8");
    expect(linesOf(summary).filter((l) => !html.includes(escaped(l)))).toEqual([]);
    expect(titlesOf(summary).filter((l) => !run.html.includes(escaped(l)))).toEqual([]);
  });

  describe.skipIf(skipBrowserTests("test/bench/report/summary.test.ts"))("the page in headless chromium", () => {
    const server = serverForFile();
    const held = {} as { browser: DrivenBrowser };
    beforeAll(async () => {
      held.browser = await launch("chromium");
    });
    afterAll(async () => {
      await held.browser?.close();
    });

    it("shows the loaded run's summary, every section in order", async () => {
      const page = await held.browser.newPage();
      await page.goto(server.url);
      await page.setInputFiles("#load", {
        name: "run.json",
        mimeType: "application/json",
        buffer: Buffer.from(run.json),
      });
      await expect
        .poll(() => textOf(page, "#progress"))
        .toMatch(/^Loaded \d+ rows from run\.json, made by .*, json \d+\.$/);
      expect(await textOf(page, "#verdict")).toBe(summaryLines(benchmarkSummary(resultsFromFile(run.json))).join("\n"));
    });
  });
});
