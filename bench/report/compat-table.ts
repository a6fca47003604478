/**
 * Where each codec runs: one column per place a run was made (a runtime, a
 * browser, with or without eval, with or without native add-ons), one row
 * per codec. A cell is the codec's time against JSON's in that place (the
 * geometric mean over the payloads: codec mode's paired ratio, or where
 * only a socket mode ran, the client's encode + decode time), or
 * "fails" with the first error, or "-" where it did not run. Made from
 * result files, so the matrix is what was measured (bun run compat).
 */

import { isSocketMode } from "../../client/harness/settings.ts";
import type { BenchResults, CaseResult } from "../../client/harness/results.ts";
import { BUILT_IN } from "../../protocols/registry.ts";
import { CALIBRATION_CODEC_NAMES } from "../../protocols/calibration.ts";
import { CODEC_FAMILIES } from "../../protocols/codec.ts";

/** One place the codecs ran, and its results. */
export interface CompatColumn {
  label: string;
  results: BenchResults;
}

interface CompatCell {
  /** ok: every payload verified and timed; fails: at least one payload failed. */
  status: "ok" | "fails" | "not run";
  /** Time against json's, geometric mean over the verified payloads (ok only, json ran too). */
  ratio?: number;
  /** The first failure's error, one line (fails only). */
  error?: string;
}

export interface CompatMatrix {
  codecs: string[];
  columns: string[];
  /** cells[codec][column]. */
  cells: CompatCell[][];
}

/** The cases a place ran for `codec`: codec mode's, else the first socket mode's (a client that runs no codec mode: Node). */
function casesOf(results: BenchResults, codec: string): CaseResult[] {
  const mode = results.cases.some((c) => c.mode === "codec")
    ? "codec"
    : results.cases.find((c) => c.codec !== "raw" && isSocketMode(c.mode))?.mode;
  return results.cases.filter((c) => c.mode === mode && c.codec === codec);
}

/**
 * The codec's time against json's on one payload: codec mode's paired
 * ratio; in a socket mode, the client's encode + decode time per message
 * against json's (unpaired: the round trip itself is the transport's).
 */
function ratioToJson(results: BenchResults, c: CaseResult): number | undefined {
  if (c.codec === "json") return 1;
  if (c.mode === "codec") return c.ratios?.vsJson?.value;
  const json = results.cases.find(
    (x) => x.mode === c.mode && x.codec === "json" && x.payload === c.payload && x.verified,
  );
  return json ? (c.serialize.mean + c.deserialize.mean) / (json.serialize.mean + json.deserialize.mean) : undefined;
}

function cell(results: BenchResults, codec: string): CompatCell {
  const cases = casesOf(results, codec);
  if (cases.length === 0) return { status: "not run" };
  const failed = cases.find((c) => !c.verified);
  if (failed) return { status: "fails", error: (failed.error ?? "failed").split("\n")[0]!.trim() };
  const ratios = cases
    .map((c) => ratioToJson(results, c))
    .filter((r): r is number => r !== undefined && Number.isFinite(r) && r > 0);
  if (ratios.length === 0) return { status: "ok" };
  return { status: "ok", ratio: Math.exp(ratios.reduce((s, r) => s + Math.log(r), 0) / ratios.length) };
}

/** The codecs in the built-in table order, grouped by family, then any others. */
function codecOrder(columns: readonly CompatColumn[]): string[] {
  const seen = new Set(columns.flatMap((c) => c.results.cases.map((x) => x.codec)));
  const family = (name: string): number => {
    const f = BUILT_IN.get(name)?.family;
    return f === undefined ? CODEC_FAMILIES.length : CODEC_FAMILIES.indexOf(f);
  };
  const builtIn = BUILT_IN.names.filter((n) => seen.has(n) && !CALIBRATION_CODEC_NAMES.includes(n));
  const others = [...seen].filter((n) => !BUILT_IN.get(n) && n !== "raw");
  return [
    ...builtIn.sort((a, b) => family(a) - family(b) || BUILT_IN.names.indexOf(a) - BUILT_IN.names.indexOf(b)),
    ...others,
  ];
}

export function compatMatrix(columns: readonly CompatColumn[]): CompatMatrix {
  const codecs = codecOrder(columns);
  return {
    codecs,
    columns: columns.map((c) => c.label),
    cells: codecs.map((codec) => columns.map((col) => cell(col.results, codec))),
  };
}

const cellText = (c: CompatCell): string =>
  c.status === "not run"
    ? "-"
    : c.status === "fails"
      ? "fails"
      : c.ratio === undefined
        ? "runs"
        : `${c.ratio.toFixed(2)}x`;

/**
 * The matrix as a Markdown table, then one line per distinct failure (the
 * codec, where, and the error), so a reader sees why a cell says fails.
 */
export function compatMarkdown(matrix: CompatMatrix): string {
  const family = (name: string): string => BUILT_IN.get(name)?.family ?? "yours";
  const lines = [
    `| codec | family | ${matrix.columns.join(" | ")} |`,
    `| --- | --- | ${matrix.columns.map(() => "---:").join(" | ")} |`,
    ...matrix.codecs.map(
      (codec, i) => `| ${codec} | ${family(codec)} | ${matrix.cells[i]!.map(cellText).join(" | ")} |`,
    ),
  ];
  const failures = new Map<string, string[]>();
  matrix.codecs.forEach((codec, i) =>
    matrix.cells[i]!.forEach((c, j) => {
      if (c.status !== "fails") return;
      const key = `${codec}: ${c.error}`;
      failures.set(key, [...(failures.get(key) ?? []), matrix.columns[j]!]);
    }),
  );
  const notes = [...failures].map(([key, where]) => {
    const [codec, ...error] = key.split(": ");
    return `- ${codec} fails in ${where.join(", ")}: ${error.join(": ")}`;
  });
  return [...lines, ...(notes.length > 0 ? ["", ...notes] : [])].join("\n") + "\n";
}
