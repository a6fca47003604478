/**
 * What messages a run went through and how many times, in the words the terminal's table and
 * report.html both open with: the built-in payloads' (varied by the seed, or the article's
 * exact ones), the user's own (from their files), and the runs per case, per mode where they
 * differ, as the settings asked.
 */

import type { BenchResults } from "../../client/harness/results.ts";
import type { Mode } from "../../client/harness/settings.ts";
import { isBuiltIn, orderPayloads } from "../../protocols/messages.ts";

type ReportedSettings = Pick<BenchResults["settings"], "fixed" | "seed" | "runs" | "modes" | "payloads">;

/** "3 run(s)", or per mode where they differ: "codec 1, roundtrip 3, stream 3 run(s)". */
export function runsText(s: Pick<ReportedSettings, "runs" | "modes">, modes: readonly Mode[]): string {
  const shown = modes.length > 0 ? modes : s.modes;
  const counts = [...new Set(shown.map((m) => s.runs[m]))];
  return counts.length === 1 ? `${counts[0]} run(s)` : `${shown.map((m) => `${m} ${s.runs[m]}`).join(", ")} run(s)`;
}

/**
 * "Varied messages (seed 1)", "The article's exact messages", "Your own messages (orders)", or
 * both kinds where the run had both: "Varied messages (seed 1) of small, medium; your own of
 * orders". `payloads`: the run's (its cases').
 */
export function messagesText(s: Pick<ReportedSettings, "fixed" | "seed">, payloads: readonly string[]): string {
  const ordered = orderPayloads(payloads);
  const builtIn = ordered.filter((p) => isBuiltIn(p));
  const own = ordered.filter((p) => !isBuiltIn(p));
  const theirs = s.fixed
    ? "The article's exact messages"
    : `Varied messages${Number.isFinite(s.seed) ? ` (seed ${s.seed})` : ""}`;
  if (own.length === 0) return theirs;
  if (builtIn.length === 0) return `Your own messages (${own.join(", ")})`;
  return `${theirs} of ${builtIn.join(", ")}; your own of ${own.join(", ")}`;
}
