/**
 * How a committed sample's figures are written in the documents (docs/results.md, the README's
 * first look): a sample, the case of a mode, payload and codec, a ratio cell, the machine line.
 */

import type { BenchResults, CaseRatios, CaseResult, Environment, Estimate } from "../../../client/harness/results.ts";
import { ratioText } from "../../report/format.ts";

/** A sample file: its results, and its name for the reader. */
export interface Sample {
  name: string;
  results: BenchResults;
}

/** Codec mode's time per message relative to json's. */
export const VS_JSON = (r: CaseRatios): Estimate | undefined => r.vsJson;

/** What the marks of a ratio (format.ts, ratioText) say, for the captions. */
export const MARKS =
  "≈: the interval holds 1; †: wider than the precision the benchmark asked for (--precision), its time ran out first";

/** The verified case of one mode, payload and codec. */
export function find(results: BenchResults, mode: string, payload: string, codec: string): CaseResult | undefined {
  return results.cases.find((c) => c.verified && c.mode === mode && c.payload === payload && c.codec === codec);
}

/** A case's ratio by `pick` as every output writes it (format.ts, ratioText: "0.56 ±3.1%"), and its figure; "-" where there is none. `invert`: the other way round. */
export function ratioCell(
  c: CaseResult | undefined,
  pick: (r: CaseRatios) => Estimate | undefined,
  invert = false,
): { text: string; value: number } {
  const found = c?.ratios && pick(c.ratios);
  if (!found || !Number.isFinite(found.value)) return { text: "-", value: Number.NaN };
  const r = invert ? { ...found, value: 1 / found.value, low: 1 / found.high, high: 1 / found.low } : found;
  return { text: ratioText(r), value: r.value };
}

/** The machine of a run's first verified case. */
function machine(results: BenchResults): Environment {
  const c = results.cases.find((x) => x.verified)!;
  return results.environments?.[c.client] ?? results.environment;
}

export function machineLine(results: BenchResults): string {
  const m = machine(results);
  return `${m.cpu} (${m.cores} cores), ${m.runtime} ${m.runtimeVersion}, ${m.os}`;
}
