/**
 * A benchmark's time account (client/harness/time-account.ts) in two lines under the
 * table: where the wall time went, phase by phase, and the most memory each
 * kind of process held.
 */

import { ACCOUNT_PHASES, type AccountPhase, type TimeAccount } from "../../client/harness/time-account.ts";
import { mebibytes } from "./format.ts";

/** How the footer names each phase ("gc": the collections the harness forces). */
const PHASE_LABELS: Readonly<Record<AccountPhase, string>> = {
  timed: "timed",
  warmup: "warm-up",
  messages: "messages",
  verify: "verify",
  start: "start",
  collections: "gc",
  compression: "compression",
  files: "files",
  other: "other",
};

/** Seconds, one decimal. */
function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

/**
 * "Time 24.1 s, %: timed 59, warm-up 13, ...": every phase that took at least 1% of the time, in
 * the account's order (the JSON and the CSV hold every phase, to the millisecond).
 */
export function accountLine(account: TimeAccount): string {
  const share = (p: AccountPhase): number => Math.round((100 * account.phases[p]) / account.wallMs);
  const parts = ACCOUNT_PHASES.filter((p) => share(p) >= 1).map((p) => `${PHASE_LABELS[p]} ${share(p)}`);
  return `Time ${seconds(account.wallMs)}, %: ${parts.join(", ")}`;
}

/** "Peak memory: bench 120 MiB, codec-mode process (3) up to 310 MiB, ...": each kind of process once, the most any of them held. */
export function peaksLine(account: TimeAccount): string | undefined {
  if (account.peaks.length === 0) return undefined;
  const kinds = new Map<string, number[]>();
  for (const { process, peakRssBytes } of account.peaks)
    kinds.set(process, [...(kinds.get(process) ?? []), peakRssBytes]);
  const parts = [...kinds].map(([name, peaks]) =>
    peaks.length === 1
      ? `${name} ${mebibytes(peaks[0]!)}`
      : `${name} (${peaks.length}) up to ${mebibytes(Math.max(...peaks))}`,
  );
  return `Peak memory: ${parts.join(", ")}`;
}

/** The footer's lines for a benchmark's time account; none for a benchmark without one (a file from before accounts). */
export function accountLines(account: TimeAccount | undefined): string[] {
  if (!account || !(account.wallMs > 0)) return [];
  const peaks = peaksLine(account);
  return [accountLine(account), ...(peaks ? [peaks] : [])];
}
