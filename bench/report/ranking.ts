/**
 * Codecs fastest first, and custom-binary's standing among them: one ranking for the verdict
 * (verdict.ts) and the published figures (sample-figures.ts), so a case with a figure missing is
 * placed the same way in both.
 */

import type { CaseResult } from "../../client/harness/results.ts";
import { overlapsOne, pairedRatio, type RoundFigure } from "../../client/harness/pairing.ts";
import { BUILT_IN } from "../../protocols/registry.ts";

/** A case's ratio to json by `ratio`, json itself at 1 (a results file stores no ratio of json to itself); NaN where it has none. */
export function vsJsonOf(c: CaseResult, ratio: (c: CaseResult) => number | undefined): number {
  return c.codec === "json" ? 1 : (ratio(c) ?? Number.NaN);
}

/**
 * `cases` fastest first: those with a ratio to json (`ratio`; json at 1), the comparison every
 * table shows, paired round by round, by it; after them those without one (a run without json, a
 * case json's rounds could not pair), by their own figure (`own`, lower first; none last).
 */
export function ranked(
  cases: readonly CaseResult[],
  ratio: (c: CaseResult) => number | undefined,
  own: (c: CaseResult) => number,
): CaseResult[] {
  const key = (c: CaseResult): number => vsJsonOf(c, ratio);
  const last = (v: number): number => (Number.isFinite(v) ? v : Number.POSITIVE_INFINITY);
  const withRatio = cases.filter((c) => Number.isFinite(key(c))).sort((a, b) => key(a) - key(b));
  const rest = cases.filter((c) => !Number.isFinite(key(c))).sort((a, b) => last(own(a)) - last(own(b)));
  return [...withRatio, ...rest];
}

/** custom-binary's place among the codecs, and its time against the fastest other schema codec (below 1: faster). */
export interface Standing {
  place: number;
  of: number;
  rival?: CaseResult;
  vsRival?: { value: number; overlap: boolean };
}

/**
 * custom-binary's standing in `order` (ranked): its place, the fastest other schema codec, and its
 * time relative to that codec's: paired round by round where both hold rounds of `pick`'s figure
 * (≈ when the interval holds 1), else the ratio of their ratios to json. Undefined without
 * custom-binary.
 */
export function handWrittenStanding(
  order: readonly CaseResult[],
  ratio: (c: CaseResult) => number | undefined,
  pick?: RoundFigure,
): Standing | undefined {
  const cb = order.find((c) => c.codec === "custom-binary");
  if (!cb) return undefined;
  const rival = order.find((c) => c !== cb && BUILT_IN.get(c.codec)?.family === "schema");
  const standing: Standing = { place: order.indexOf(cb) + 1, of: order.length };
  if (!rival) return standing;
  const paired = pick ? pairedRatio(cb, rival, pick) : undefined;
  const ofRatios = vsJsonOf(cb, ratio) / vsJsonOf(rival, ratio);
  const vsRival = paired
    ? { value: paired.value, overlap: overlapsOne(paired) }
    : Number.isFinite(ofRatios)
      ? { value: ofRatios, overlap: false }
      : undefined;
  return { ...standing, rival, ...(vsRival ? { vsRival } : {}) };
}
