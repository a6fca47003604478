/**
 * `bun run report FILE... [--out report.html]`: one offline HTML report
 * (charts and table) from result files the CLI or the page wrote, CSV or
 * JSON, side by side.
 */

import { readFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { chartJsSource, writeAtomic } from "./output.ts";
import { reportHtml } from "../report/html.ts";
import { resultsFromFile, rowsFromFile, type ChartRow } from "../report/rows.ts";
import { verdictLines } from "../report/verdict.ts";

const USAGE = "usage: bun run report FILE... [--out report.html]";

const REPORT_HELP = `Usage: bun run report FILE... [--out FILE]

Builds one offline HTML report (charts and a table) from result files that
\`bun run bench\` or the page wrote, CSV or JSON, side by side.

Options:
  --out FILE           where the report goes (default: results/report.html)
  -h, --help           this text
`;

function main(argv: string[]): number {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: { out: { type: "string" }, help: { type: "boolean", short: "h" } }, allowPositionals: true, strict: true });
  } catch (e) {
    const err = e as { code?: string; message: string };
    const flag = /'([^']+)'/.exec(err.message)?.[1];
    const line =
      err.code === "ERR_PARSE_ARGS_UNKNOWN_OPTION"
        ? `unknown option '${flag}'; valid options: --out, --help`
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
    process.stderr.write(`report: name at least one results file (CSV or JSON); ${USAGE}\n`);
    return 2;
  }
  const rows: ChartRow[] = [];
  let verdict: string[] = [];
  for (const file of files) {
    try {
      const text = readFileSync(file, "utf8");
      const fromFile = rowsFromFile(text);
      if (files.length === 1) verdict = verdictLines(resultsFromFile(text)?.cases ?? []);
      rows.push(...(files.length > 1 ? fromFile.map((r) => ({ ...r, source: `${r.source}, ${path.basename(file)}` })) : fromFile));
    } catch (e) {
      process.stderr.write(`report: ${file}: ${(e as Error).message}\n`);
      return 2;
    }
  }
  const out = parsed.values.out ?? path.join("results", "report.html");
  try {
    const noVerdict =
      files.length > 1
        ? "No verdict for several files side by side: build the report of one run's JSON for its verdict."
        : "No verdict: it pairs each codec's rounds with json's, which a CSV does not hold; build the report from the run's JSON.";
    writeAtomic(out, reportHtml(rows, chartJsSource(), { subtitle: `From ${files.map((f) => path.basename(f)).join(", ")}.`, verdict, noVerdict }));
  } catch (e) {
    process.stderr.write(`report: --out ${out}: cannot write there (${(e as { code?: string }).code ?? (e as Error).message}); name a file in a directory you can write to\n`);
    return 2;
  }
  process.stdout.write(`Wrote ${out} (${rows.length} rows).\n`);
  return 0;
}

process.exitCode = main(process.argv.slice(2));
