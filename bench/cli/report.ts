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
import { rowsFromFile, type ChartRow } from "../report/rows.ts";

function main(argv: string[]): number {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: { out: { type: "string" } }, allowPositionals: true, strict: true });
  } catch (e) {
    process.stderr.write(`report: ${(e as Error).message.split("\n")[0]}; usage: bun run report FILE... [--out report.html]\n`);
    return 2;
  }
  const files = parsed.positionals;
  if (files.length === 0) {
    process.stderr.write("report: name at least one results file (CSV or JSON); usage: bun run report FILE... [--out report.html]\n");
    return 2;
  }
  const rows: ChartRow[] = [];
  for (const file of files) {
    try {
      const fromFile = rowsFromFile(readFileSync(file, "utf8"));
      rows.push(...(files.length > 1 ? fromFile.map((r) => ({ ...r, source: `${r.source}, ${path.basename(file)}` })) : fromFile));
    } catch (e) {
      process.stderr.write(`report: ${file}: ${(e as Error).message}\n`);
      return 2;
    }
  }
  const out = parsed.values.out ?? path.join("results", "report.html");
  writeAtomic(out, reportHtml(rows, chartJsSource(), `From ${files.map((f) => path.basename(f)).join(", ")}.`));
  process.stdout.write(`Wrote ${out} (${rows.length} rows).\n`);
  return 0;
}

process.exitCode = main(process.argv.slice(2));
