/**
 * Where a codec stops keeping up in latency mode: the knee. A rate is kept when the client
 * sent at least 99% of it, at most 5% of the messages went out late, and the corrected p99 stays
 * within 10x the same codec's p99 at the lowest rate tried (taken as at least 1 ms: on a shared
 * machine a sub-millisecond p99 moves by more than that from step to step, with no load to blame).
 * Each is judged on the median of the step's slices, not on the step as a whole: the codecs of a
 * step take turns in short slices at the same rate, so a pause of the machine lands in one slice
 * and leaves the median alone, where it used to blow the whole step's p99 (docs/performance-notes.md
 * has the sweep that showed it).
 *
 * The knee is the highest rate kept before two rates in a row are missed; one miss followed by a
 * kept rate is forgiven (and named). `--rate sweep` climbs the ladder until a codec misses two
 * rates in a row, then bisects between its knee and the rate it missed above it until the two are
 * within KNEE_PRECISION of each other (client/socket/modes.ts).
 *
 * Beside it, each codec's knee beside raw (the transport alone), which runs in the same rounds at
 * every rate: only the rates raw kept count. Where raw misses too, the machine is what cannot
 * keep up, and the rate says nothing of the codec.
 */

import type { CaseResult, Knee } from "./results.ts";
import type { SliceLatency } from "./socket-results.ts";
import { percentileSorted } from "./statistics.ts";

export const KNEE_RULE = {
  minAchievedShare: 0.99,
  maxLateShare: 0.05,
  maxP99Factor: 10,
  minBaseP99Ns: 1e6,
} as const;

/** A sweep refines a knee until the rate it missed is at most this much above it. */
export const KNEE_PRECISION = 1.2;
/** Bisections a sweep makes at most per payload: a ladder step of 2.5x needs five to come within KNEE_PRECISION. */
export const MAX_BISECTIONS = 6;

const median = (values: number[]): number => percentileSorted(Float64Array.from(values).sort(), 50);

/** A latency case's p99, late share and kept share: the medians of its slices, or (a file from before slices had them) the step's totals. */
export function stepLatency(c: CaseResult): SliceLatency | undefined {
  const s = c.socket;
  if (!c.verified || !s || !s.targetRate || !s.latency) return undefined;
  const slices = c.raw.map((r) => r.latency).filter((x) => x !== undefined);
  if (slices.length > 0) {
    return {
      p99Ns: median(slices.map((x) => x.p99Ns)),
      lateShare: median(slices.map((x) => x.lateShare)),
      achievedShare: median(slices.map((x) => x.achievedShare)),
    };
  }
  return {
    p99Ns: s.latency.p99,
    lateShare: (s.late ?? 0) / s.sent,
    achievedShare: (s.achievedRate ?? 0) / s.targetRate,
  };
}

/** Whether latency case `c` kept its rate, against the same codec's p99 at the lowest rate (`baseP99Ns`). */
export function keptRate(c: CaseResult, baseP99Ns: number): boolean {
  const f = stepLatency(c);
  if (!f) return false;
  return (
    f.achievedShare >= KNEE_RULE.minAchievedShare &&
    f.lateShare <= KNEE_RULE.maxLateShare &&
    f.p99Ns <= KNEE_RULE.maxP99Factor * Math.max(baseP99Ns, KNEE_RULE.minBaseP99Ns)
  );
}

/** Whether a codec's rates so far (lowest first, kept or not) end in two misses in a row: it stops climbing. */
export function stopsClimbing(kept: readonly boolean[]): boolean {
  return kept.length >= 2 && !kept[kept.length - 1] && !kept[kept.length - 2];
}

/** The knee of rates kept or missed, lowest first: the highest kept before two misses in a row, the miss above it, the misses forgiven. */
export function kneeOf(steps: readonly { rate: number; kept: boolean }[]): {
  rate: number;
  missed?: number;
  forgiven: number[];
} {
  let rate = 0;
  let missed: number | undefined;
  const forgiven: number[] = [];
  const kept: boolean[] = [];
  for (const step of steps) {
    kept.push(step.kept);
    if (step.kept) {
      if (missed !== undefined) forgiven.push(missed);
      missed = undefined;
      rate = step.rate;
    } else if (missed === undefined) missed = step.rate;
    if (stopsClimbing(kept)) break;
  }
  return { rate, ...(missed !== undefined ? { missed } : {}), forgiven };
}

/** A latency case's step in the knee's terms. */
function latencyCases(cases: readonly CaseResult[]): Map<string, CaseResult[]> {
  const groups = new Map<string, CaseResult[]>();
  for (const c of cases) {
    if (c.mode !== "latency" || !c.socket?.targetRate) continue;
    const key = `${c.client}\u0000${c.payload}\u0000${c.codec}`;
    groups.set(key, [...(groups.get(key) ?? []), c]);
  }
  for (const g of groups.values()) g.sort((a, b) => a.socket!.targetRate! - b.socket!.targetRate!);
  return groups;
}

/** Each rate a codec ran, kept or missed on its own (against its p99 at the lowest rate). */
export function keptSteps(byRate: readonly CaseResult[]): { rate: number; kept: boolean }[] {
  const base = stepLatency(byRate[0]!)?.p99Ns ?? Number.NaN;
  return byRate.map((c) => ({ rate: c.socket!.targetRate!, kept: keptRate(c, base) }));
}

/** The same at the rates raw (`rawByRate`, the transport alone) kept: where raw missed, the machine could not keep up. */
function keptBesideRaw(
  byRate: readonly CaseResult[],
  rawByRate: readonly CaseResult[],
): { rate: number; kept: boolean }[] {
  const raw = new Map(keptSteps(rawByRate).map((k) => [k.rate, k.kept]));
  return keptSteps(byRate).filter((k) => raw.get(k.rate) === true);
}

/**
 * The knee of every codec x payload x client of a latency run at several rates (a codec that
 * missed the two lowest has knee 0); none for a run at one rate. A miss that is the last rate
 * run counts as missed: nothing above it was kept to forgive it.
 */
export function knees(cases: readonly CaseResult[]): Knee[] {
  const groups = latencyCases(cases);
  const out: Knee[] = [];
  if (![...groups.values()].some((g) => g.length > 1)) return out;
  for (const byRate of groups.values()) {
    const first = byRate[0]!;
    const { rate, missed, forgiven } = kneeOf(keptSteps(byRate));
    const raw = groups.get(`${first.client}\u0000${first.payload}\u0000raw`);
    const relative = first.codec !== "raw" && raw ? kneeOf(keptBesideRaw(byRate, raw)) : undefined;
    out.push({
      client: first.client,
      payload: first.payload,
      codec: first.codec,
      rate,
      ...(missed !== undefined ? { missed } : {}),
      ...(forgiven.length > 0 ? { forgiven } : {}),
      ...(relative && (relative.rate !== rate || relative.missed !== missed)
        ? { besideRaw: { rate: relative.rate, ...(relative.missed !== undefined ? { missed: relative.missed } : {}) } }
        : {}),
    });
  }
  return out;
}

/** The `knees` field of a results file: present when latency mode ran at several rates. */
export function kneeField(cases: readonly CaseResult[]): { knees?: Knee[] } {
  const found = knees(cases);
  return found.length > 0 ? { knees: found } : {};
}
