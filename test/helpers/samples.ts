/**
 * The committed samples (results/sample/) and the text that quotes them (the
 * README and docs/), for the tests that hold each quoted figure to the file it
 * comes from.
 */
import { readdirSync, readFileSync } from "node:fs";
import { expect } from "vitest";
import { parseCsv } from "../../bench/report/csv-read.ts";
import { resultsFromFile } from "../../bench/report/results-file.ts";
import { PLACES } from "../../bench/tools/compat.ts";
import { SAMPLES } from "../../bench/tools/sample-list.ts";

const ROOT = new URL("../../", import.meta.url);
const DOCS = new URL("docs/", ROOT);

/** The README's own text. */
export const front = readFileSync(new URL("README.md", ROOT), "utf8");
/** The pages of docs/, by file name. */
export const docPages = readdirSync(DOCS).filter((f) => f.endsWith(".md"));
/** A page of docs/, by file name. */
export const doc = (page: string): string => readFileSync(new URL(page, DOCS), "utf8");
/** The README and every page of docs/, joined: where a quoted figure may be. */
export const allText = [front, ...docPages.map(doc)].join("\n");
/** Text with every run of white space as one space, so a sentence wrapped across lines reads as one. */
export const flat = (text: string): string => text.replace(/\s+/g, " ");

/** A committed sample's text, by its path under results/sample/. */
export const sample = (name: string): string => readFileSync(new URL(`results/sample/${name}`, ROOT), "utf8");
/** A committed sample's cases, as `bun run report` reads them. */
export const casesOf = (name: string) => resultsFromFile(sample(name)).cases;

/** One row of a committed CSV: its value in a column, by name (a column the file lacks throws). */
export type Row = (column: string) => string;
/** A row's value in a column, as a number. */
export const num = (r: Row, column: string): number => Number(r(column));

/** The one machine some rows were made on, its processor and core count; a test fails, naming `what`, when they come from more than one. */
export function machineOf(what: string, rows: readonly Row[]): { cpu: string; cores: string } {
  const machines = [...new Set(rows.map((r) => `${r("cpu")}, ${r("cores")} cores`))];
  expect(machines, `${what}: the machines its rows were made on`).toHaveLength(1);
  return { cpu: rows[0]!("cpu"), cores: rows[0]!("cores") };
}

/**
 * A committed CSV's rows, as column readers: `where({ mode, payload, codec })`
 * keeps the rows whose columns hold those values; `row(...)` is the one row a
 * figure comes from, and throws, naming the file, when there is none or more.
 */
export function csvSample(name: string) {
  const [header, ...body] = parseCsv(sample(name));
  const rows: Row[] = body
    .filter((r) => r.length > 1)
    .map((r) => (column: string) => {
      const i = header!.indexOf(column);
      if (i < 0) throw new Error(`${name} has no column ${column}`);
      return r[i]!;
    });
  const where = (match: Record<string, string | number>): Row[] =>
    rows.filter((r) => Object.entries(match).every(([c, v]) => r(c) === String(v)));
  const row = (match: Record<string, string | number>): Row => {
    const found = where(match);
    if (found.length !== 1) throw new Error(`${name}: ${found.length} rows of ${JSON.stringify(match)}`);
    return found[0]!;
  };
  return { rows, where, row };
}

/** A committed run's codec-mode row of a payload and codec: the row most quoted figures come from. */
export function codecRows(name: string): (payload: string, codec: string) => Row {
  const run = csvSample(name);
  return (payload, codec) => run.row({ mode: "codec", payload, codec });
}

/** A run's codec mode, in milliseconds: the sum of its codec stretches in the time account its JSON records. */
export const codecModeMs = (name: string): number =>
  Object.entries(resultsFromFile(sample(name)).timings ?? {})
    .filter(([stretch]) => stretch.startsWith("codec "))
    .reduce((sum, [, t]) => sum + t.ms, 0);

/**
 * The committed cross-check (`bun run crosscheck`'s output): a row per payload and codec,
 * its figures as numbers. `diffPct` is the plain loop against codec mode, in percent; `differs`
 * where the two disagree beyond 10% (marked !), `explains` where the field explains it.
 */
export function crosscheckRows(name = "crosscheck-epyc-default-1.txt") {
  return sample(name)
    .split("\n")
    .filter((l) => /^(small|medium|large) /.test(l))
    .map((l) => {
      const m =
        /^(\S+) +(\S+) +(\S+) \[\S+\] +(\S+) +([+-][\d.]+)%(?: !)? +(\S+)x +(\S+) +(\S+)(?: +(yes|no)(?: \(.*\))?)?$/.exec(
          l,
        );
      if (!m) throw new Error(`${name}: cannot read "${l}"`);
      return {
        payload: m[1]!,
        codec: m[2]!,
        codecMode: Number(m[3]),
        plain: Number(m[4]),
        diffPct: Number(m[5]),
        apart: Number(m[6]),
        fieldRt: Number(m[7]),
        fieldStream: Number(m[8]),
        differs: l.includes(" !"),
        explains: m[9] === "yes",
      };
    });
}

/**
 * The compatibility matrix's results file of each place: a place the samples' list gives with
 * `compat --from` (an every-codec run, `given`) from that file, the others from compat/.
 */
export function compatFiles(): { place: (typeof PLACES)[number]; file: string; given: boolean }[] {
  const argv = SAMPLES.find((s) => s.name === "compat")!.argv;
  const from = new Map(
    argv.flatMap((a, i) => {
      const m = argv[i - 1] === "--from" ? /^([a-z-]+)=\{sample:(.+)\}$/.exec(a) : null;
      return m ? [[m[1]!, m[2]!] as const] : [];
    }),
  );
  return PLACES.map((p) => ({ place: p, file: from.get(p.dir) ?? `compat/${p.dir}.csv`, given: from.has(p.dir) }));
}
