/**
 * Which codec runs on which payload. Every codec carries every built-in
 * payload; on a user's own messages a codec may not apply (custom-binary
 * has no layout for them, Protobuf no message type without `--proto`), may
 * be unable to carry them (it throws), or may change them (the fidelity
 * check). Those pairs are left out of every mode, each with the reason, and
 * a lossy codec runs only with `--allow-lossy`.
 */

import type { Codec } from "../../protocols/codec.ts";
import { isBuiltIn } from "../../protocols/messages.ts";
import { checkFidelity, fidelitySummary, type FidelityReport } from "./fidelity.ts";
import type { CaseResult } from "./results.ts";
import type { Excluded, Settings } from "./settings.ts";
import { userMessagesOf } from "./user-messages.ts";
import { applyUserProto } from "./user-proto.ts";

/** Checks every codec on every user payload: what each does to the messages, and which pairs to leave out. */
export function planUserPayloads(settings: Settings, codecs: readonly Codec[]): { fidelity: FidelityReport[]; excluded: Excluded[] } {
  applyUserProto(settings);
  const fidelity: FidelityReport[] = [];
  const excluded: Excluded[] = [];
  for (const payload of settings.payloads.filter((p) => !isBuiltIn(p))) {
    const { messages } = userMessagesOf(settings.userMessages, payload);
    for (const codec of codecs.filter((c) => settings.codecs.includes(c.name))) {
      const notApplicable = codec.notApplicable?.(payload);
      if (notApplicable !== undefined) {
        excluded.push({ codec: codec.name, payload, why: `not applicable: ${notApplicable}` });
        continue;
      }
      const report = checkFidelity(codec.name, payload, codec.forPayload(payload), messages);
      fidelity.push(report);
      if (report.error !== undefined) excluded.push({ codec: codec.name, payload, why: fidelitySummary(report) });
      else if (report.lossy && !settings.allowLossy) excluded.push({ codec: codec.name, payload, why: `lossy, not timed (--allow-lossy times it): ${fidelitySummary(report)}` });
    }
  }
  return { fidelity, excluded };
}

/** True when `codec` does not run on `payload` in this run. */
export function isExcluded(settings: Pick<Settings, "excluded">, codec: string, payload: string): boolean {
  return settings.excluded.some((e) => e.codec === codec && e.payload === payload);
}

/** Flags the timed cases of a codec that changed the user's messages (run with --allow-lossy). */
export function flagLossy(cases: CaseResult[], fidelity: readonly FidelityReport[]): void {
  for (const c of cases) {
    if (fidelity.some((f) => f.lossy && f.codec === c.codec && f.payload === c.payload) && !c.flags.includes("lossy")) c.flags.push("lossy");
  }
}
