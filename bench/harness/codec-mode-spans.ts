/**
 * Codec mode in several processes ("forks"). A JavaScript engine compiles
 * each process's code its own way (tiering, inline caches, the layout of
 * its heap), so a ratio measured in one process carries that process's
 * luck however many rounds it has. The bench spreads codec mode's rounds
 * over fresh processes, one after the other, and pools them here as if one
 * process had run them all. Every process prepares the same way (checks
 * every message, warms up), since a process with a smaller heap measures
 * allocation-heavy codecs differently. docs/performance-notes.md has the
 * figures behind both.
 */

import type { CodecModeResult } from "./codec-mode.ts";
import { batchPercentiles } from "./codec-case.ts";
import { summarizeRuns, type CaseResult } from "./results.ts";

/** A process's share of the runs, in runs: [from, to). */
export interface ForkSpan {
  from: number;
  to: number;
}

/** `runs` runs cut into `forks` equal spans, in order (4 forks over 2 runs: half a run each). */
export function forkSpans(runs: number, forks: number): ForkSpan[] {
  const n = Math.max(1, forks);
  return Array.from({ length: n }, (_, k) => ({ from: (k * runs) / n, to: ((k + 1) * runs) / n }));
}

/** One case from its forks' parts (the same codec and payload): rounds renumbered in fork order, figures worked out again from all of them. */
function mergeCase(parts: readonly CaseResult[], roundOffsets: readonly number[], forks: number): CaseResult {
  const first = parts[0]!;
  const failed = parts.find((c) => !c.verified && c.error !== "" && !/^no timed round/.test(c.error));
  if (failed) return failed;
  const raw = parts.flatMap((c, k) => c.raw.map((r) => ({ ...r, round: r.round + roundOffsets[k]! })));
  if (raw.length === 0) return first;
  const summaries = summarizeRuns(raw, first.iterations);
  const flags = first.flags.filter((f) => f !== "partial" && f !== "near-empty-loop");
  const floor = Math.min(...parts.map((c) => c.loopFloorNs));
  if (summaries.serialize.median < 2 * floor || summaries.deserialize.median < 2 * floor) flags.push("near-empty-loop");
  // A fork that stopped early, or one that never ran.
  if (parts.length < forks || parts.some((c) => c.flags.includes("partial"))) flags.push("partial");
  const batch = Math.max(...parts.map((c) => c.serializeBatches.batch).filter(Number.isFinite));
  return {
    ...first,
    runs: new Set(raw.map((r) => r.run)).size,
    rounds: raw.length,
    verified: true,
    error: "",
    ...summaries,
    msgsPerS: 1e9 / summaries.total.mean,
    serializeBatches: batchPercentiles(raw.map((r) => r.serializeNs), batch),
    deserializeBatches: batchPercentiles(raw.map((r) => r.deserializeNs), batch),
    loopFloorNs: floor,
    flags,
    raw,
  };
}

/**
 * The forks' results as one: every case's slices from all forks (their
 * runs keep their numbers; rounds are numbered on from one fork to the
 * next, so rounds of different forks never pair: a round's codecs ran in
 * one process), the codec order of every round. `forks` is how many
 * processes were to run.
 */
export function mergeForks(parts: readonly CodecModeResult[], forks: number): CodecModeResult {
  const first = parts[0]!;
  const keyOf = (c: CaseResult): string => `${c.payload}|${c.codec}`;
  const keys = [...new Set(parts.flatMap((p) => p.cases.map(keyOf)))];
  // Per payload, where each fork's round numbers start: after every round of the forks before it.
  const offsets = new Map<string, number[]>();
  for (const payload of new Set(parts.flatMap((p) => p.cases.map((c) => c.payload)))) {
    let round = 0;
    offsets.set(
      payload,
      parts.map((p) => {
        const start = round;
        for (const c of p.cases) if (c.payload === payload) for (const r of c.raw) round = Math.max(round, start + r.round + 1);
        return start;
      }),
    );
  }
  const cases = keys.map((key) => {
    const withCase = parts.filter((p) => p.cases.some((c) => keyOf(c) === key));
    const c0 = withCase[0]!.cases.find((c) => keyOf(c) === key)!;
    return mergeCase(
      withCase.map((p) => p.cases.find((c) => keyOf(c) === key)!),
      withCase.map((p) => offsets.get(c0.payload)![parts.indexOf(p)]!),
      forks,
    );
  });
  const payloads = Math.max(...parts.map((p) => p.order.length));
  const order = Array.from({ length: payloads }, (_, i) => parts.flatMap((p) => p.order[i] ?? []));
  return { cases, order, stopped: parts.some((p) => p.stopped), minBatchNs: first.minBatchNs, slices: first.slices };
}
