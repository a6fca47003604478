/**
 * The committed samples as the figures read them: a file under results/sample/ that the list
 * names (sample-list.ts), as text or as results, each read once.
 */

import path from "node:path";
import type { BenchResults, CaseResult, Environment, Estimate } from "../../../client/harness/results.ts";
import { resultsFromFile } from "../../report/results-file.ts";
import { formatTable } from "../../report/table.ts";
import { ROOT } from "../../cli/paths.ts";
import { resultsText } from "../../cli/read-results.ts";
import { PLACES } from "../compat.ts";
import { HISTORY, SAMPLES } from "../sample-list.ts";

/** Every file the list names, under results/sample/. */
const LISTED = new Set([...SAMPLES.flatMap((s) => Object.keys(s.files)), ...HISTORY.map((h) => h.file)]);

const texts = new Map<string, string>();
/** The files read while a page's figures are written (generate.ts), so the list can say who quotes each. */
let reads: Set<string> | undefined;

/** `write()`'s value, and every listed sample it read. */
export function readingSamples<T>(write: () => T): { value: T; read: Set<string> } {
  const outer = reads;
  const read = new Set<string>();
  reads = read;
  try {
    return { value: write(), read };
  } finally {
    reads = outer;
    for (const f of read) outer?.add(f);
  }
}
const results = new Map<string, BenchResults>();

/** A listed sample's text (gunzipped); throws, naming the file, for one the list does not name. */
export function sampleText(file: string): string {
  if (!LISTED.has(file)) throw new Error(`results/sample/${file} is not a sample bench/tools/sample-list.ts names`);
  reads?.add(file);
  let text = texts.get(file);
  if (text === undefined) {
    text = resultsText(path.join(ROOT, "results", "sample", file));
    texts.set(file, text);
  }
  return text;
}

/** A listed results file as every report reads it. */
export function sampleResults(file: string): BenchResults {
  let r = results.get(file);
  if (r === undefined) {
    r = resultsFromFile(sampleText(file));
    results.set(file, r);
  }
  return r;
}

/** Which cases: those whose fields hold these values. */
export type CaseMatch = Partial<Pick<CaseResult, "client" | "mode" | "payload" | "codec">>;

/** A listed results file's cases that match. */
export function casesIn(file: string, match: CaseMatch = {}): CaseResult[] {
  return sampleResults(file).cases.filter((c) =>
    Object.entries(match).every(([k, v]) => c[k as keyof CaseMatch] === v),
  );
}

/** The one case of a listed results file that matches; throws, naming the file, when there is none or more. */
export function caseIn(file: string, match: CaseMatch): CaseResult {
  const found = casesIn(file, match);
  if (found.length !== 1) throw new Error(`results/sample/${file}: ${found.length} cases of ${JSON.stringify(match)}`);
  return found[0]!;
}

/**
 * Where a listed results file's cases ran: the page's or Node's environment for a browser or Node
 * client (the file keeps the CLI's as `environment`, the client's under `environments`), else the CLI's.
 */
export function clientEnvironment(file: string): Environment {
  const results = sampleResults(file);
  const clients = [...new Set(results.cases.map((c) => c.client))].filter((c) => results.environments?.[c]);
  if (clients.length > 1) throw new Error(`results/sample/${file}: cases from ${clients.join(" and ")}`);
  return clients.length === 1 ? results.environments![clients[0]!]! : results.environment;
}

/** The one machine some listed results files were made on; throws, naming them, when they come from more than one. */
export function machineOf(files: readonly string[]): Environment {
  const envs = files.map((f) => sampleResults(f).environment);
  const machines = new Set(envs.map((e) => `${e.cpu}, ${e.cores} cores`));
  if (machines.size !== 1)
    throw new Error(`${files.join(", ")} come from ${machines.size} machines: ${[...machines].join("; ")}`);
  return envs[0]!;
}

/** A run's codec mode, in milliseconds: the sum of its codec stretches in the time account the file records. */
export const codecModeMs = (file: string): number =>
  Object.entries(sampleResults(file).timings ?? {})
    .filter(([stretch]) => stretch.startsWith("codec "))
    .reduce((sum, [, t]) => sum + t.ms, 0);

/** One row of the committed cross-check (`bun run crosscheck`'s output), its figures as numbers. */
export interface CrosscheckRow {
  payload: string;
  codec: string;
  /** Codec mode's ratio to json, and the plain loop's. */
  codecMode: number;
  plain: number;
  /** The plain loop against codec mode, in percent. */
  diffPct: number;
  /** How far apart the two are, as a factor. */
  apart: number;
  /** The field's ratio to json, roundtrip and stream. */
  fieldRt: number;
  fieldStream: number;
  /** The two disagree beyond 10% (marked !). */
  differs: boolean;
  /** The field explains the disagreement. */
  explains: boolean;
}

/** The committed cross-check's table: a row per payload and codec. */
export function crosscheckRows(file = "crosscheck-bun-default-1.txt"): CrosscheckRow[] {
  return sampleText(file)
    .split("\n")
    .filter((l) => /^(small|medium|large) /.test(l))
    .map((l) => {
      const m =
        /^(\S+) +(\S+) +(\S+) \[\S+\] +(\S+) +([+-][\d.]+)%(?: !)? +(\S+)x +(\S+) +(\S+)(?: +(yes|no)(?: \(.*\))?)?$/.exec(
          l,
        );
      if (!m) throw new Error(`results/sample/${file}: cannot read "${l}"`);
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
  return PLACES.map((p) => ({ place: p, file: from.get(p.dir) ?? `compat/${p.dir}.json.gz`, given: from.has(p.dir) }));
}

/** A case's estimate by name (vsJson, fieldVsJson, echoVsJson, ...), of the one case that matches; throws, naming it, where it has none. */
export function estimateIn(
  file: string,
  match: CaseMatch,
  name: keyof NonNullable<CaseResult["ratios"]> = "vsJson",
): Estimate {
  const c = caseIn(file, match);
  const e = c.ratios?.[name];
  if (typeof e !== "object")
    throw new Error(`results/sample/${file}: ${c.mode} ${c.payload} ${c.codec} has no ${name}`);
  return e;
}

/** A listed results file's table section as the terminal prints it: from its `== TITLE` line to the line before the next section or the footer. */
export function tableSection(file: string, title: string): string[] {
  const lines = formatTable(sampleResults(file)).split("\n");
  const start = lines.findIndex((l) => l.startsWith(`== ${title}`));
  if (start < 0) throw new Error(`${file}'s table has no ${title}`);
  const end = lines.findIndex((l, i) => i > start && /^(== |bun |made by |Time |Verdict )/.test(l));
  const section = lines.slice(start, end < 0 ? undefined : end);
  while (section.at(-1) === "") section.pop();
  return section;
}
