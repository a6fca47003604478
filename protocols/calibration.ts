/**
 * The calibration codecs (`--calibrate`), which prove a way of measuring
 * before its figures are trusted (docs/lab-and-field.md). All are JSON over text
 * frames, as `json`:
 *
 * - `cal-json` is JSON under another name: it costs what JSON costs, so a
 *   method must read it as JSON's cost (nothing extra);
 * - `cal-spin` is JSON plus a fixed loop of arithmetic in every decode,
 *   whose cost is measured on its own, hot, in the server's process after
 *   every round (`timeKnownCost`, POST /known-cost): a method must recover
 *   that much extra, and no more. Timed there and then, the known cost
 *   follows the machine's speed, which drifts by several percent over a run.
 *
 * The spin loop is a xorshift chain: each step needs the last, so no engine
 * can vectorise it or cut it short, and it touches no memory, so its cost
 * barely depends on caches being warm or cold.
 */

import type { Codec, Encoded } from "./codec.ts";
import { json } from "./json.ts";
import type { Message } from "./messages.ts";

/**
 * Steps of the calibration loop in every cal-spin decode: long enough that what the loop's first
 * pass costs in a server that has been idle (its code fetched again) stays a few percent of it
 * (docs/performance-notes.md, "Lab and field", has the figures that set it).
 */
export const SPIN_STEPS = 5000;

/** The loop's running state, kept so its result is never dead code. */
let spinState = 0x2545f491;

/** `steps` steps of xorshift32: the calibration's known work. */
export function spin(steps: number): number {
  let x = spinState | 1;
  for (let i = 0; i < steps; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
  }
  spinState = x;
  return x;
}

export const calJson: Codec = {
  name: "cal-json",
  description: "calibration: JSON under another name, no extra cost (--calibrate)",
  frame: "text",
  family: "text",
  standard: true,
  library: "",
  forPayload: (payload) => json.forPayload(payload),
};

export const calSpin: Codec = {
  name: "cal-spin",
  description: `calibration: JSON plus ${SPIN_STEPS} steps of arithmetic in every decode, a known extra cost (--calibrate)`,
  frame: "text",
  family: "text",
  standard: true,
  library: "",
  forPayload: (payload) => {
    const pc = json.forPayload(payload);
    return {
      encode: pc.encode,
      decode: (data: Encoded): Message => {
        spin(SPIN_STEPS);
        return pc.decode(data);
      },
    };
  },
};

/**
 * A calibration codec's known extra work, and how many calls of it are timed as one batch for its
 * known cost: the spin loop's 50 calls are about 0.5 ms of work, long against any clock this
 * server has.
 */
export const KNOWN_COSTS: Readonly<Record<string, { work: () => number; calls: number }>> = {
  [calSpin.name]: { work: () => spin(SPIN_STEPS), calls: 50 },
};

/** The calibration codecs with a known cost (the others cost what JSON costs). */
export const KNOWN_COST_CODEC_NAMES: readonly string[] = Object.keys(KNOWN_COSTS);

/** A known cost's cost per call, ns: untimed calls first (the work is hot, as in a hot loop of the lab), then its calls timed as one batch. */
export function timeKnownCost(codec: string, now: () => number, timerOverheadNs: number): number {
  const known = KNOWN_COSTS[codec];
  if (!known) return Number.NaN;
  for (let i = 0; i < known.calls / 4; i++) known.work();
  const t0 = now();
  for (let i = 0; i < known.calls; i++) known.work();
  return ((now() - t0) * 1e6 - timerOverheadNs) / known.calls;
}

/** The calibration codecs' names: they run when asked (--calibrate), never by default or under "all". */
export const CALIBRATION_CODEC_NAMES: readonly string[] = [calJson.name, calSpin.name];
