/**
 * Which codec runs on which payload. Every codec carries every built-in
 * payload; on a user's own messages a codec may not apply (custom-binary
 * has no layout for them, Protobuf no message type without `--proto`), may
 * be unable to carry them (it throws), or may change them (the fidelity
 * check). The plan (plan.ts) leaves those pairs out of every mode, each with
 * the reason, and a lossy codec runs only with `--allow-lossy`.
 */

import type { FidelityReport } from "./fidelity.ts";
import type { CaseResult } from "./results.ts";
import type { Settings } from "./settings.ts";

/** True when `codec` does not run on `payload` in this run. */
export function isExcluded(settings: Pick<Settings, "excluded">, codec: string, payload: string): boolean {
  return settings.excluded.some((e) => e.codec === codec && e.payload === payload);
}

/**
 * Flags the timed cases of a codec that changed the user's messages: `lossy` (run with
 * --allow-lossy), `declared-equal` (only changes the user declared no loss with --equal), so
 * each CSV row says what its figures were measured against.
 */
export function flagLossy(cases: CaseResult[], fidelity: readonly FidelityReport[]): void {
  for (const c of cases) {
    const report = fidelity.find((f) => f.codec === c.codec && f.payload === c.payload);
    if (report?.lossy && !c.flags.includes("lossy")) c.flags.push("lossy");
    if (report?.changes.some((ch) => ch.equal) && !c.flags.includes("declared-equal")) c.flags.push("declared-equal");
  }
}
