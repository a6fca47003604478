/**
 * Where a codec stops keeping up in latency mode: the knee. A rate is kept when the client
 * sent at least 99% of it, at most 5% of the messages went out late, and the corrected p99 stays
 * within 10x the same codec's p99 at the lowest rate tried (taken as at least 1 ms: on a shared
 * machine a sub-millisecond p99 moves by more than that from step to step, with no load to blame).
 * The knee is the highest rate kept before two rates in a row are missed. One miss followed by
 * a kept rate is forgiven (and named): on two shared cores a 20 ms pause of the machine, in a
 * step of a quarter second, blows one step's p99 whatever the codec (a sweep here had custom-binary
 * miss 2,000/s on small with p99 13.6 ms and a service p99 of 0.46 ms, then keep 5,000 and 10,000).
 * `--rate sweep` stops raising a codec's rate after two misses in a row, and the report names
 * each codec's knee.
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

/** Whether a codec's rates so far (lowest first, kept or not) end in two misses in a row: it stops climbing. */
export function stopsClimbing(kept: readonly boolean[]): boolean {
  return kept.length >= 2 && !kept[kept.length - 1] && !kept[kept.length - 2];
}

/**
 * The knee of every codec x payload x client of a latency run at several rates (a codec that
 * missed the two lowest has knee 0); none for a run at one rate. A miss that is the last rate
 * run counts as missed: nothing above it was kept to forgive it.
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
    const forgiven: number[] = [];
    const kept: boolean[] = [];
    for (const c of byRate) {
      const at = c.socket!.targetRate!;
      kept.push(keptRate(c, base));
      if (kept[kept.length - 1]) {
        if (missed !== undefined) forgiven.push(missed);
        missed = undefined;
        rate = at;
      } else if (missed === undefined) missed = at;
      if (stopsClimbing(kept)) break;
    }
    const first = byRate[0]!;
    out.push({ client: first.client, payload: first.payload, codec: first.codec, rate, ...(missed !== undefined ? { missed } : {}), ...(forgiven.length > 0 ? { forgiven } : {}) });
  }
  return out;
}

/** The `knees` field of a results file: present when latency mode ran at several rates. */
export function kneeField(cases: readonly CaseResult[]): { knees?: Knee[] } {
  const found = knees(cases);
  return found.length > 0 ? { knees: found } : {};
}
