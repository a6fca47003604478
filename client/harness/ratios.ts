/**
 * The ratios every report shows, worked out once, when a benchmark's results are
 * assembled (client/benchmark.ts, for every client, the page included):
 * each case beside json's and raw's case of the same client, mode, payload
 * and rate, paired round by round (pairing.ts), in the lab and in the field
 * (field.ts), with the calibration's checks. The table, the verdict, the
 * CSV, the charts and the page read them from the results; a results file
 * read back carries them in its columns.
 */

import {
  calibrationChecks,
  clientVsJson,
  cpuOverRaw,
  echoVsJson,
  fieldCost,
  fieldOverJson,
  fieldVsJson,
} from "./field.ts";
import { baselineCase, vsBaseline } from "./pairing.ts";
import type { BenchResults, CaseRatios, CaseResult, Estimate } from "./results.ts";

/** `c` beside the baselines of its run: only its bytes when it failed; raw has no CPU or client time over itself. */
export function caseRatios(c: CaseResult, cases: readonly CaseResult[]): CaseRatios {
  const json = baselineCase(cases, c, "json");
  const raw = baselineCase(cases, c, "raw");
  const bytesVsJson = json && c.bytes / json.bytes;
  if (!c.verified) return { bytesVsJson };
  const transport = c.codec === "raw";
  return {
    bytesVsJson,
    vsJson: json && vsBaseline(c, json),
    // Throughput: raw's time per message over c's.
    vsRaw: raw && vsBaseline(raw, c),
    echoVsJson: echoVsJson(c, cases),
    readOneVsJson:
      json && c.mode === "codec" && c.readOne !== undefined ? vsBaseline(c, json, (r) => r.readOneNs) : undefined,
    validatedVsJson:
      json && c.mode === "codec" && c.validated !== undefined ? vsBaseline(c, json, (r) => r.validatedNs) : undefined,
    routeVsJson: json && c.route !== undefined ? vsBaseline(c, json, (r) => r.route?.forward.cpuNs) : undefined,
    routeRecodeVsJson: json && c.route !== undefined ? vsBaseline(c, json, (r) => r.route?.recode.cpuNs) : undefined,
    clientVsJson: transport ? undefined : clientVsJson(c, cases),
    field: fieldCost(c, cases),
    fieldVsJson: fieldVsJson(c, cases),
    fieldOverJson: fieldOverJson(c, cases),
    cpuOverRaw: transport ? undefined : cpuOverRaw(c, cases),
    ...(json && c.mode === "cold"
      ? {
          coldFirstVsJson: vsBaseline(c, json, (r) => r.cold?.firstNs),
          coldFirst10VsJson: vsBaseline(c, json, (r) => r.cold?.first10Ns),
          coldFirst100VsJson: vsBaseline(c, json, (r) => r.cold?.first100Ns),
          coldFirst1000VsJson: vsBaseline(c, json, (r) => r.cold?.first1000Ns),
        }
      : {}),
  };
}

/**
 * The cases with their ratios (copies: the cases given are left as they are), and the
 * calibration's checks where the benchmark has them. With the precision the benchmark asked for (percent),
 * each codec-mode ratio still wider than it is marked `wide`.
 */
export function withRatios(
  cases: readonly CaseResult[],
  precision?: number,
): Pick<BenchResults, "cases" | "calibration"> {
  const calibration = calibrationChecks(cases);
  const withOwn = cases.map((c) => ({ ...c, ratios: caseRatios(c, cases) }));
  if (precision !== undefined) markPrecision(withOwn, precision);
  return {
    cases: withOwn,
    ...(calibration.length > 0 ? { calibration } : {}),
  };
}

/** Marks `wide` every codec-mode ratio to json whose interval reaches further than `precision` percent of it. */
function markPrecision(cases: readonly CaseResult[], precision: number): void {
  for (const c of cases) for (const r of codecModeRatios(c)) if ((halfWidth(r) ?? 0) > precision / 100) r.wide = true;
}

/** How far a ratio's 95% interval reaches from it, the wider side, as a fraction of the ratio; undefined with under two rounds (no interval). */
export function halfWidth(r: Estimate | undefined): number | undefined {
  return r && r.rounds >= 2 ? Math.max(r.high / r.value - 1, 1 - r.low / r.value) : undefined;
}

/** A codec-mode case's ratios to json: in process, the echo, read-one and validated (those it has). */
export function codecModeRatios(c: CaseResult): Estimate[] {
  const r = c.ratios;
  return c.mode !== "codec" || c.codec === "json" || !r
    ? []
    : [r.vsJson, r.echoVsJson, r.readOneVsJson, r.validatedVsJson].filter((x) => x !== undefined);
}

/** The widest interval of a codec-mode case's ratios to json (halfWidth); undefined where it has none. */
export function widestInterval(c: CaseResult): number | undefined {
  let widest: number | undefined;
  for (const r of codecModeRatios(c)) {
    const h = halfWidth(r);
    if (h !== undefined) widest = Math.max(widest ?? 0, h);
  }
  return widest;
}

/** The widest 95% interval of a codec-mode ratio to json (in process, echo, read-one, validated), as a fraction of the ratio (how close two codecs may be and still be told apart). */
export function widestRatioInterval(cases: readonly CaseResult[]): number | undefined {
  let widest: number | undefined;
  for (const c of cases) {
    const h = widestInterval(c);
    if (h !== undefined) widest = Math.max(widest ?? 0, h);
  }
  return widest;
}
