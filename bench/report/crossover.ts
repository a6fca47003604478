/**
 * The answer `--link-sweep` is for: on each payload, the link speed below
 * which the smaller codec streams more messages than the faster one, as
 * measured step by step (bench/cli/link-sweep.ts), beside what the arithmetic
 * predicts from the loopback run.
 *
 * The arithmetic: over a link of R bit/s each way, a stream of codec c carries
 * at most R / (8 x its frame bytes) messages a second, and at most what its CPU
 * carries on loopback, r_c. The faster codec F (r_F > r_S) is held by the link
 * below 8 x b_F x r_F; the smaller codec S carries more than F as soon as
 * R / (8 x b_F) < r_S, so below R* = 8 x b_F x r_S.
 */

import { rateText } from "../../client/harness/link.ts";
import type { CaseResult, Provenance } from "../../client/harness/results.ts";
import { RAW_CODEC_NAME } from "../../protocols/contract.ts";

/** One codec's figures on loopback: its stream rate and its frames' bytes each way. */
export interface SweepCodec {
  codec: string;
  msgsPerS: number;
  /** Client-to-server frame bytes (the larger way: a client's frame carries a 4-byte mask). */
  wireBytes: number;
}

/** One step of the sweep: both codecs' stream rates over a link of `kbps` each way. */
export interface SweepStep {
  kbps: number;
  fast: number;
  small: number;
}

/** A payload's answer. */
export interface Crossover {
  payload: string;
  /** The codec with the highest stream rate on loopback, and the one with the fewest bytes. */
  fast: SweepCodec;
  small: SweepCodec;
  /** kbit/s below which the arithmetic says the smaller codec wins (NaN when one codec is both). */
  predictedKbps: number;
  /**
   * kbit/s of the measured crossover: the geometric middle of the last step the faster codec won
   * and the first from which the smaller always won; NaN when the faster won every step,
   * Infinity when the smaller won every step.
   */
  measuredKbps: number;
  /**
   * The most the emulator itself carried here, kbit/s: the faster codec's frames at its rate
   * through a link with no limit (the proxy's own work on these cores). Steps stop below it: above
   * it the emulator, not the link, would set the pace.
   */
  ceilingKbps: number;
  /** The steps, fastest link first. */
  steps: SweepStep[];
  /** One line: the verdict the user came for. */
  verdict: string;
}

/** Where the arithmetic puts the crossover, kbit/s (NaN when the faster codec is also the smaller). */
export function predictedCrossoverKbps(fast: SweepCodec, small: SweepCodec): number {
  if (fast.codec === small.codec || !(small.msgsPerS < fast.msgsPerS)) return Number.NaN;
  return (8 * fast.wireBytes * small.msgsPerS) / 1000;
}

/**
 * The measured crossover from steps sorted fastest link first: the point between the last step
 * where the faster codec carried more and the first from which the smaller one always did.
 */
export function measuredCrossoverKbps(steps: readonly SweepStep[]): number {
  const sorted = [...steps].sort((a, b) => b.kbps - a.kbps);
  // The first step from which the smaller codec wins at every slower one.
  let from = -1;
  for (let i = sorted.length - 1; i >= 0; i--) {
    if (sorted[i]!.small > sorted[i]!.fast) from = i;
    else break;
  }
  if (from <= 0) return from === 0 ? Number.POSITIVE_INFINITY : Number.NaN;
  return Math.sqrt(sorted[from - 1]!.kbps * sorted[from]!.kbps);
}

/** The verdict for a payload, in one line. */
export function crossoverVerdict(c: Omit<Crossover, "verdict">): string {
  const { fast, small, payload } = c;
  if (fast.codec === small.codec)
    return `${payload}: ${fast.codec} is both the fastest and the smallest; no link speed changes the answer`;
  if (c.steps.length === 0)
    return `${payload}: the emulator carries only ${rateText(c.ceilingKbps)} here, too little for any step; no crossover measured${Number.isFinite(c.predictedKbps) ? ` (predicted below ${rateText(c.predictedKbps)})` : ""}`;
  if (Number.isNaN(c.measuredKbps)) {
    const slowest = Math.min(...c.steps.map((r) => r.kbps));
    return `${payload}: ${fast.codec} beats ${small.codec} down to ${rateText(slowest)}, the slowest link tried: CPU outweighs bytes there`;
  }
  if (c.measuredKbps === Number.POSITIVE_INFINITY)
    return Number.isFinite(c.predictedKbps) && c.predictedKbps > c.ceilingKbps
      ? `${payload}: below ${rateText(c.predictedKbps)} (predicted; the emulator carries up to ${rateText(c.ceilingKbps)} here, where ${small.codec} already wins), ${small.codec} beats ${fast.codec}: bytes outweigh CPU`
      : `${payload}: ${small.codec} beats ${fast.codec} on every link tried: bytes outweigh CPU`;
  return `${payload}: below ${rateText(c.measuredKbps)}, ${small.codec} beats ${fast.codec}: bytes outweigh CPU`;
}

/** The fastest codec (highest stream rate) and the smallest (fewest bytes on the wire; the faster of a tie) among a payload's verified cases. */
export function fastAndSmall(cases: readonly CaseResult[]): { fast: SweepCodec; small: SweepCodec } | undefined {
  const ok = cases.filter((c) => c.verified && c.codec !== RAW_CODEC_NAME && c.socket);
  if (ok.length === 0) return undefined;
  const of = (c: CaseResult): SweepCodec => ({ codec: c.codec, msgsPerS: c.msgsPerS, wireBytes: c.socket!.wireBytes });
  const fast = ok.reduce((a, b) => (b.msgsPerS > a.msgsPerS ? b : a));
  const small = ok.reduce((a, b) =>
    b.socket!.wireBytes < a.socket!.wireBytes ||
    (b.socket!.wireBytes === a.socket!.wireBytes && b.msgsPerS > a.msgsPerS)
      ? b
      : a,
  );
  return { fast: of(fast), small: of(small) };
}

/** The sweep's rows as CSV: a row per payload, step and codec. */
export function sweepCsv(crossovers: readonly Crossover[], made: Provenance): string {
  const lines = [
    "payload,link_kbps,codec,role,msgs_per_s,wire_bytes,predicted_crossover_kbps,measured_crossover_kbps,bench_version,commit,dirty",
  ];
  for (const c of crossovers) {
    const cells = (kbps: number | string, who: SweepCodec, role: string, rate: number): string =>
      [
        ...[c.payload, kbps, who.codec, role, rate.toFixed(1), who.wireBytes, c.predictedKbps, c.measuredKbps],
        ...[made.benchVersion, made.commit, made.dirty ?? ""],
      ]
        .map((x) => (typeof x === "number" && !Number.isFinite(x) ? "" : String(x)))
        .join(",");
    lines.push(
      cells("loopback", c.fast, "fast", c.fast.msgsPerS),
      cells("loopback", c.small, "small", c.small.msgsPerS),
    );
    for (const r of c.steps)
      lines.push(cells(r.kbps, c.fast, "fast", r.fast), cells(r.kbps, c.small, "small", r.small));
  }
  return lines.join("\n") + "\n";
}

/** A measured crossover in words. */
function measuredText(kbps: number): string {
  if (kbps === Number.POSITIVE_INFINITY) return "above every step (the smaller codec won them all)";
  return Number.isFinite(kbps) ? rateText(kbps) : "below every step (the faster codec won them all)";
}

/** The sweep as the terminal shows it: per payload, the two codecs, each step, the crossover found and predicted, the verdict. */
export function sweepLines(crossovers: readonly Crossover[]): string[] {
  const lines = [
    "== link sweep: stream mode over links of falling bandwidth (each way, no added delay); msgs/s",
    "   (in brackets: the share of the link's rate each codec's frames filled), the winner",
    "   predicted: where the faster codec's rate at the link's speed falls below the smaller's on",
    "   loopback, 8 x its frame bytes x the smaller's loopback rate",
  ];
  for (const c of crossovers) {
    lines.push("", c.payload);
    lines.push(
      `  fast ${c.fast.codec} (${Math.round(c.fast.msgsPerS).toLocaleString("en-US")} msgs/s on loopback, ${c.fast.wireBytes} B), small ${c.small.codec} (${Math.round(c.small.msgsPerS).toLocaleString("en-US")} msgs/s, ${c.small.wireBytes} B)`,
    );
    // Each codec's rate, and the share of the link its frames filled (the emulator paces in whole ms: 70-95% is full).
    const cell = (who: SweepCodec, rate: number, kbps: number): string =>
      `${who.codec} ${Math.round(rate).toLocaleString("en-US").padStart(8)} (${Math.round((rate * who.wireBytes * 8) / (kbps * 10))}%)`;
    for (const r of [...c.steps].sort((a, b) => b.kbps - a.kbps))
      lines.push(
        `  ${rateText(r.kbps).padStart(12)}  ${cell(c.fast, r.fast, r.kbps)}  ${cell(c.small, r.small, r.kbps)}  ${r.small > r.fast ? c.small.codec : c.fast.codec}`,
      );
    if (c.fast.codec !== c.small.codec)
      lines.push(
        `  crossover measured ${measuredText(c.measuredKbps)}, predicted ${Number.isFinite(c.predictedKbps) ? rateText(c.predictedKbps) : "none"}; the emulator carries up to ${rateText(c.ceilingKbps)} here`,
      );
  }
  lines.push("", "Verdict over links (stream mode, this machine):", ...crossovers.map((c) => `  ${c.verdict}`));
  return lines;
}
