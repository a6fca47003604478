/**
 * `bun run report FILE... [--out report.html]`: one offline HTML report
 * (charts and table) from the results JSON files the CLI or the page wrote
 * (gzip-compressed too), side by side. With two files, B against A: every case's change with
 * its interval, printed and in the report; with --fail-if-slower PCT, exit 1
 * when a case moved slower beyond its interval and PCT (a gate for CI).
 */

import { provenanceLine } from "../report/provenance-line.ts";
import path from "node:path";
import { parseArgs } from "node:util";
import { chartJsSource, writeAtomic } from "./output.ts";
import { usageOf } from "./command.ts";
import { didYouMean } from "../../client/harness/did-you-mean.ts";
import { reportHtml } from "../report/html.ts";
import {
  caseChanges,
  changeHtml,
  changeLines,
  benchmarkLabels,
  slowerCases,
  type CaseChange,
} from "../report/changes.ts";
import { isK6Output, k6Results } from "../report/k6-rows.ts";
import { resultsFromFile } from "../report/results-file.ts";
import { resultsText } from "./read-results.ts";
import { benchmarkSummary, type BenchmarkSummary } from "../report/summary.ts";
import { sourcedCases, type SourcedCase } from "../report/sources.ts";
import type { BenchResults } from "../../client/harness/results.ts";
import { ReportError } from "../report/report-errors.ts";

const USAGE = `usage: ${usageOf("report")} FILE... [--out report.html] [--fail-if-slower PCT [--time-of LIST]]`;

const REPORT_HELP = `Usage: ${usageOf("report")} FILE... [--out FILE] [--fail-if-slower PCT [--time-of LIST]]

Builds one offline HTML report (charts and a table) from the results JSON
files that \`${usageOf("bench")}\` or the page wrote (as they are, or gzip-compressed),
side by side; the CSV beside each is for spreadsheets, not read back. Given two
files A and B, it also prints and reports B against A: for every case both
hold, the change of its time per message with a 95% interval and whether it
is larger than the runs' noise, and its ratio to JSON in each run.

Options:
  --out FILE           where the report goes (default: results/report.html)
  --fail-if-slower PCT with two files A B: exit 1 when the 95% interval of a codec's
                       ratio to JSON in B over A's lies wholly above 1 + PCT%,
                       naming each case
  --time-of LIST       also gate these codecs' own time per message (json, say, when
                       both runs were made on one machine), comma-separated
  -h, --help           this text

A CI job comparing a pull request's run with one the main branch keeps:
  ${usageOf("bench")} --quick --out pr
  ${usageOf("report")} baseline/latest.json pr/latest.json --fail-if-slower 10
`;

const REPORT_OPTIONS = ["--out", "--fail-if-slower", "--time-of", "--help"];

function main(argv: string[]): number {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      options: {
        out: { type: "string" },
        "fail-if-slower": { type: "string" },
        "time-of": { type: "string" },
        help: { type: "boolean", short: "h" },
      },
      allowPositionals: true,
      strict: true,
    });
  } catch (e) {
    const err = e as { code?: string; message: string };
    const flag = /'([^']+)'/.exec(err.message)?.[1];
    const line =
      err.code === "ERR_PARSE_ARGS_UNKNOWN_OPTION"
        ? `unknown option '${flag}'; ${didYouMean((flag ?? "").split("=")[0]!, REPORT_OPTIONS)}valid options: ${REPORT_OPTIONS.join(", ")}`
        : err.code === "ERR_PARSE_ARGS_INVALID_OPTION_VALUE"
          ? `option '${flag?.split(" ")[0]}' needs a value`
          : err.message.split("\n")[0];
    process.stderr.write(`report: ${line}; ${USAGE}\n`);
    return 2;
  }
  if (parsed.values.help === true) {
    process.stdout.write(REPORT_HELP);
    return 0;
  }
  const files = parsed.positionals;
  if (files.length === 0) {
    process.stderr.write(`report: name at least one results file (a run's JSON); ${USAGE}\n`);
    return 2;
  }
  const gate = gateOptions(parsed.values["fail-if-slower"], parsed.values["time-of"], files.length);
  if (typeof gate === "string") {
    process.stderr.write(`report: ${gate}\n`);
    return 2;
  }
  let runs: Run[];
  let summary: BenchmarkSummary | undefined;
  try {
    ({ runs, summary } = readRuns(files));
  } catch (e) {
    process.stderr.write(`report: ${(e as Error).message}\n`);
    return 2;
  }
  const labels = benchmarkLabels(runs);
  // Side by side, each row's source says which run it came from: what ran it and when.
  const rows = runs.flatMap((run, i) =>
    runs.length > 1 ? run.rows.map((r) => ({ ...r, source: sourceLabel(r, labels[i]!, run.rows) })) : run.rows,
  );
  let comparison: string | undefined;
  let gateFailed = false;
  if (runs.length === 2) {
    const pair = [labels[0]!, labels[1]!] as const;
    const comparisons = caseChanges(runs[0]!.results.cases, runs[1]!.results.cases);
    process.stdout.write(
      comparisons.length > 0
        ? changeLines(comparisons, pair).join("\n") + "\n"
        : "The two files hold no case in common (mode, payload and codec): nothing to compare.\n",
    );
    comparison = changeHtml(comparisons, pair);
    if (gate) gateFailed = !runGate(comparisons, gate);
  }
  const out = parsed.values.out ?? path.join("results", "report.html");
  try {
    const noVerdict =
      files.length > 1
        ? "No verdict for several files side by side: build the report of one run's JSON for its verdict."
        : "No verdict: it pairs each codec's rounds with json's, which this file does not hold.";
    writeAtomic(
      out,
      reportHtml(rows, chartJsSource(), {
        subtitle: `From ${runs.map((r) => `${r.file} (${r.results.timestamp}, ${provenanceLine(r.results.provenance)})`).join("; ")}.`,
        ...(summary ? { summary } : {}),
        noVerdict,
        comparison,
      }),
    );
  } catch (e) {
    process.stderr.write(
      `report: --out ${out}: cannot write there (${(e as { code?: string }).code ?? (e as Error).message}); name a file in a directory you can write to\n`,
    );
    return 2;
  }
  process.stdout.write(`Wrote ${out} (${rows.length} rows).\n`);
  return gateFailed ? 1 : 0;
}

interface Gate {
  pct: number;
  timeOf: string[];
}

/** --fail-if-slower and --time-of, checked: the gate, none, or what is wrong with them. */
function gateOptions(pct: string | undefined, timeOf: string | undefined, files: number): Gate | undefined | string {
  if (pct === undefined)
    return timeOf === undefined
      ? undefined
      : "--time-of names codecs whose time --fail-if-slower gates; add --fail-if-slower PCT";
  const value = Number(pct);
  if (!/^\d+(\.\d+)?$/.test(pct) || !(value >= 0 && value <= 1000))
    return `--fail-if-slower takes a percentage from 0 to 1000, got '${pct}'`;
  if (files !== 2)
    return `--fail-if-slower compares two runs: name the base file and the new one (got ${files} file${files === 1 ? "" : "s"})`;
  const list = (timeOf ?? "")
    .split(",")
    .map((c) => c.trim())
    .filter((c) => c !== "");
  if (timeOf !== undefined && list.length === 0) return "--time-of is empty; name codecs like json";
  return { pct: value, timeOf: list };
}

/** Prints the gate's answer; true when it passed. */
function runGate(comparisons: readonly CaseChange[], gate: Gate): boolean {
  if (comparisons.length === 0) {
    process.stdout.write("gate FAILED: the two files hold no case in common to compare\n");
    return false;
  }
  const unknown = gate.timeOf.filter((name) => !comparisons.some((c) => c.codec === name));
  if (unknown.length > 0) process.stdout.write(`gate: --time-of ${unknown.join(", ")}: no such case in both files\n`);
  const failed = slowerCases(comparisons, gate.pct, gate.timeOf);
  if (failed.length === 0) {
    process.stdout.write(
      `gate passed: none of ${comparisons.length} case(s) is slower by more than ${gate.pct}% beyond its interval\n`,
    );
    return true;
  }
  process.stdout.write(
    `gate FAILED: ${failed.length} case(s) slower by more than ${gate.pct}% beyond their intervals:\n`,
  );
  for (const line of failed) process.stdout.write(`  ${line}\n`);
  return false;
}

/** A results file read, and its cases as the charts and the table show them. */
interface Run {
  results: BenchResults;
  rows: SourcedCase[];
  file: string;
}

/**
 * Each results JSON is a run; the k6 output files named
 * together are one run, their samples merged (several k6 processes, one
 * test). k6's counts and checks are printed per codec and payload.
 */
function readRuns(files: readonly string[]): { runs: Run[]; summary?: BenchmarkSummary } {
  const runs: Run[] = [];
  const k6: { text: string; file: string }[] = [];
  let summary: BenchmarkSummary | undefined;
  for (const file of files) {
    try {
      const text = resultsText(file);
      if (isK6Output(text)) {
        k6.push({ text, file: path.basename(file) });
        continue;
      }
      const results = resultsFromFile(text);
      runs.push({ results, rows: sourcedCases(results), file: path.basename(file) });
      // What code made it, first: a figure from other code than the reader's is read as such.
      process.stdout.write(
        `${path.basename(file)}: ${results.timestamp.slice(0, 16).replace("T", " ")}, ${provenanceLine(results.provenance)}\n`,
      );
      // One run's summary: its verdict and the sections that pair rounds need a JSON file's.
      if (files.length === 1) summary = benchmarkSummary(results);
    } catch (e) {
      throw new ReportError(e instanceof ReportError ? e.code : "NOT_RESULTS", `${file}: ${(e as Error).message}`);
    }
  }
  if (k6.length > 0) {
    const { results, counts } = k6Results(k6.map((f) => f.text));
    runs.push({ results, rows: sourcedCases(results), file: k6.map((f) => f.file).join(" + ") });
    process.stdout.write(
      `k6 (${k6.length} file(s), merged): sent / received / lost, checks passed / failed; p50 / p99 from due and from send (1 ms clock)\n`,
    );
    counts.forEach((c, i) => {
      const ms = (v: number): string => (Number.isFinite(v) ? `${Math.round(v * 10) / 10} ms` : "-");
      const rtt = results.cases[i]!.socket?.latency;
      process.stdout.write(
        `  ${c.payload} ${c.codec}: ${c.sent} / ${c.received} / ${c.lost}, checks ${c.checksPassed} / ${c.checksFailed}; ${ms((rtt?.p50 ?? NaN) / 1e6)} / ${ms((rtt?.p99 ?? NaN) / 1e6)} and ${ms(c.serviceP50Ms)} / ${ms(c.serviceP99Ms)}\n`,
      );
    });
  }
  return { runs, ...(summary ? { summary } : {}) };
}

/** A case's source in a report of several runs: the run's label, with the case's own runtime first when the run holds several. */
function sourceLabel(r: SourcedCase, runLabel: string, runRows: readonly SourcedCase[]): string {
  const several = new Set(runRows.map((x) => x.source)).size > 1;
  return several ? `${r.source}: ${runLabel}` : runLabel;
}

process.exitCode = main(process.argv.slice(2));
