/** Cases built by hand for the tests of ratios and pairing: one codec's per-run totals, round by round. */
import type { CaseResult, SliceFigures } from "../../client/harness/results.ts";
import { summarize } from "../../client/harness/statistics.ts";

/** A case with these per-run totals (ns per message), by run index: one slice per run, serialize and deserialize half each. */
export function caseOf(codec: string, totals: number[], over: Partial<CaseResult> = {}): CaseResult {
  const raw: SliceFigures[] = totals.map((t, run) => ({
    run,
    round: run,
    position: 0,
    serializeNs: t / 2,
    deserializeNs: t / 2,
    totalNs: t,
  }));
  return {
    client: "inprocess",
    clientLibrary: "",
    mode: "codec",
    codec,
    payload: "small",
    verified: true,
    error: "",
    raw,
    total: summarize(totals),
    ...over,
  } as CaseResult;
}
