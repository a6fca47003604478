/**
 * The lines under the console's tables that say how far to trust them: what the near-floor mark
 * means (with the empty loop's time), and how noisy the machine was, with a warning when codec
 * mode's intervals came out too wide to separate close codecs.
 */

import type { CaseResult } from "../../client/harness/results.ts";
import { roundToRoundNoise } from "../../client/harness/pairing.ts";
import { widestRatioInterval } from "../../client/harness/ratios.ts";
import { formatNs, TERMINAL_WIDTH, wrapLine } from "./format.ts";

/** Beside a row whose serialize or deserialize time is under twice the empty loop's (codec-case.ts). */
export const FLOOR_MARK = "°";

/** What the near-floor mark means, with the empty loop's time, when a row carries it. */
export function floorNote(cases: readonly CaseResult[]): string[] {
  const marked = cases.filter((c) => c.verified && c.flags.includes("near-empty-loop"));
  if (marked.length === 0) return [];
  const floors = marked.map((c) => c.loopFloorNs).filter(Number.isFinite);
  const floor =
    floors.length === 0
      ? ""
      : Math.min(...floors) === Math.max(...floors)
        ? ` (${formatNs(floors[0]!)})`
        : ` (${formatNs(Math.min(...floors))}-${formatNs(Math.max(...floors))})`;
  return [
    "",
    ...wrapLine(
      `${FLOOR_MARK}: its serialize or deserialize time is under twice the empty loop's${floor}, the same timed loop around a function that does nothing: the loop's own cost is a large share of that figure.`,
      TERMINAL_WIDTH,
      "   ",
    ),
  ];
}

/** Ratio intervals wider than this (either side) cannot separate codecs that differ by less; worth a warning. */
const TOO_WIDE = 0.1;

/** How noisy the machine was, and a warning when codec mode's intervals came out too wide to separate close codecs. */
export function noiseLines(cases: readonly CaseResult[]): string[] {
  const noise = roundToRoundNoise(cases);
  const widest = widestRatioInterval(cases);
  if (noise === undefined) return [];
  const lines = [
    `Machine noise: JSON's time per message typically changed by ${(100 * noise).toFixed(1)}% from one round to the next.`,
  ];
  if (widest !== undefined && widest > TOO_WIDE) {
    lines.push(
      `WARNING: too noisy to separate codecs less than ${Math.ceil(100 * widest)}% apart (the widest ratio interval); a longer --max-time or a quieter machine.`,
    );
  }
  return lines;
}
