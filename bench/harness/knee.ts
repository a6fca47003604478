/**
 * Where a codec stops keeping up in latency mode: the knee. A rate is kept when the client
 * sent at least 99% of it, at most 5% of the messages went out late, and the corrected p99 stays
 * within 10x the same codec's p99 at the lowest rate tried (taken as at least 1 ms: on a shared
 * machine a sub-millisecond p99 moves by more than that from step to step, with no load to blame).
 * The knee is the highest rate kept below the first one missed. `--rate sweep` stops raising a codec's rate once it misses one,
 * and the report names each codec's knee.
 */

import type { CaseResult, Knee } from "./results.ts";

export const KNEE_RULE = { minAchievedShare: 0.99, maxLateShare: 0.05, maxP99Factor: 10, minBaseP99Ns: 1e6 } as const;

/** Whether latency case `c` kept its rate, against the same codec's p99 at the lowest rate (`baseP99Ns`). */
export function keptRate(c: CaseResult, baseP99Ns: number): boolean {
  const s = c.socket;
  if (!c.verified || !s || !s.targetRate || !s.rtt) return false;
  const sent = s.sent;
  return (
    (s.achievedRate ?? 0) >= KNEE_RULE.minAchievedShare * s.targetRate &&
    (s.late ?? 0) <= KNEE_RULE.maxLateShare * sent &&
    s.rtt.p99 <= KNEE_RULE.maxP99Factor * Math.max(baseP99Ns, KNEE_RULE.minBaseP99Ns)
  );
}

/**
 * The knee of every codec x payload x client of a latency run at several rates (a codec that
 * missed the lowest has one case, and knee 0); none for a run at one rate.
 */
export function knees(cases: readonly CaseResult[]): Knee[] {
  const groups = new Map<string, CaseResult[]>();
  for (const c of cases) {
    if (c.mode !== "latency" || !c.socket?.targetRate) continue;
    const key = `${c.client}\u0000${c.payload}\u0000${c.codec}`;
    groups.set(key, [...(groups.get(key) ?? []), c]);
  }
  const out: Knee[] = [];
  if (![...groups.values()].some((g) => g.length > 1)) return out;
  for (const group of groups.values()) {
    const byRate = [...group].sort((a, b) => a.socket!.targetRate! - b.socket!.targetRate!);
    const base = byRate[0]!.socket!.rtt?.p99 ?? Number.NaN;
    let rate = 0;
    let missed: number | undefined;
    for (const c of byRate) {
      if (!keptRate(c, base)) {
        missed = c.socket!.targetRate;
        break;
      }
      rate = c.socket!.targetRate!;
    }
    out.push({ client: byRate[0]!.client, payload: byRate[0]!.payload, codec: byRate[0]!.codec, rate, ...(missed !== undefined ? { missed } : {}) });
  }
  return out;
}

/** The `knees` field of a results file: present when latency mode ran at several rates. */
export function kneeField(cases: readonly CaseResult[]): { knees?: Knee[] } {
  const found = knees(cases);
  return found.length > 0 ? { knees: found } : {};
}
