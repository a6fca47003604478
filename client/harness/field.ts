/**
 * Lab and field, case by case. The lab is codec mode: the codec alone in
 * process, as a client's work (encode objects, decode frames made in
 * advance) and as the server's echo (decode a frame, encode what it gave).
 * The field is the real server during the socket modes: every message's
 * decode and encode timed there, slice by slice (the server answers each
 * slice mark with its figures, protocols/contract.ts).
 *
 * The field figure of a round is the server's decode + encode per message
 * less raw's in the same round: raw passes every message through the same
 * clock reads around no work, so what it reads is the timers' own cost in
 * that load (a few hundred ns in a server that idles between messages,
 * next to nothing in a busy one). Beside it, the server process's CPU per
 * message against raw's: everything the server pays (the codec, a text
 * frame's UTF-8 on the way in and out, larger frames, garbage collection),
 * but also how often the server sleeps and wakes, which a slower codec
 * changes: the calibration codecs (protocols/calibration.ts) show how far
 * each can be trusted.
 */

import type { CalibrationCheck, CaseResult, Estimate, SliceFigures } from "./results.ts";
import type { ServerSliceFigures } from "./socket-results.ts";
import { isSocketMode } from "./settings.ts";
import { KNOWN_COST_CODEC_NAMES } from "../../protocols/calibration.ts";
import { baselineCase, vsBaseline, estimate, pairedDifference, type RoundFigure } from "./pairing.ts";

/** Within this share of the known cost, a method recovers it (docs/lab-and-field.md, on the calibration). */
export const CALIBRATION_TOLERANCE = 0.1;

/** True when two ratios' intervals do not overlap: they disagree beyond what either run's noise explains. */
export function disagree(a: Estimate | undefined, b: Estimate | undefined): boolean {
  return a !== undefined && b !== undefined && a.rounds >= 2 && b.rounds >= 2 && (a.high < b.low || b.high < a.low);
}

/** The server's timed decode + encode per message of a slice: every message's, the scheduler's time taken off (the field figure), or the quiet messages' only. */
type ServerTimes = (server: ServerSliceFigures) => number;
const everyMessage: ServerTimes = (x) => x.codecNs;
const quietMessages: ServerTimes = (x) => x.quietNs;

/** raw's timed decode + encode per message in each round (the timers around no work), for `c`'s client, mode, payload and rate. */
function timersOnNothing(
  c: CaseResult,
  cases: readonly CaseResult[],
  times: ServerTimes = everyMessage,
): Map<number, number> | undefined {
  const raw = baselineCase(cases, c, "raw");
  if (!raw) return undefined;
  const byRound = new Map<number, number>();
  for (const r of raw.raw) if (r.server) byRound.set(r.round, times(r.server));
  return byRound;
}

/** The field figure of a round: the server's decode + encode per message, less raw's timers in that round when raw ran. */
function fieldOfRound(c: CaseResult, cases: readonly CaseResult[], times: ServerTimes = everyMessage): RoundFigure {
  const floor = timersOnNothing(c, cases, times);
  return (r: SliceFigures) => {
    const own = r.server ? times(r.server) : undefined;
    // A results file stores NaN as null: a slice without the figure.
    if (typeof own !== "number" || !Number.isFinite(own)) return undefined;
    if (!floor) return own;
    const f = floor.get(r.round);
    return f === undefined || !Number.isFinite(f) ? undefined : own - f;
  };
}

/** What a codec costs inside the server per message: the median of its rounds' field figures, and whether raw's timers were taken off. */
export function fieldCost(c: CaseResult, cases: readonly CaseResult[]): Estimate | undefined {
  if (!c.verified || !isSocketMode(c.mode)) return undefined;
  const pick = fieldOfRound(c, cases);
  const e = estimate(c.raw.map(pick).filter((x) => x !== undefined));
  return e && { ...e, corrected: timersOnNothing(c, cases) !== undefined };
}

/** The field figure relative to json's, paired round by round. */
export function fieldVsJson(c: CaseResult, cases: readonly CaseResult[]): Estimate | undefined {
  const json = baselineCase(cases, c, "json");
  return json && isSocketMode(c.mode) ? vsBaseline(c, json, fieldOfRound(c, cases)) : undefined;
}

/** The field figure less json's, round by round: what the codec costs the server on top of JSON, per message. */
export function fieldOverJson(c: CaseResult, cases: readonly CaseResult[]): Estimate | undefined {
  const json = baselineCase(cases, c, "json");
  return json && c !== json ? pairedDifference(c, json, fieldOfRound(c, cases)) : undefined;
}

/** The server process's CPU per message over raw's, round by round: all the server pays for the codec, and for how it changes the server's sleeping and waking. */
export function cpuOverRaw(c: CaseResult, cases: readonly CaseResult[]): Estimate | undefined {
  const raw = baselineCase(cases, c, "raw");
  return raw && pairedDifference(c, raw, (r) => r.server?.cpuNs);
}

/** Codec mode's echo (decode, then encode what it gave) relative to json's, paired round by round. */
export function echoVsJson(c: CaseResult, cases: readonly CaseResult[]): Estimate | undefined {
  const json = baselineCase(cases, c, "json");
  return json && c.mode === "codec" ? vsBaseline(c, json, (r) => r.echoNs) : undefined;
}

/** The client's encode + decode per message relative to json's (the socket modes), paired round by round. */
export function clientVsJson(c: CaseResult, cases: readonly CaseResult[]): Estimate | undefined {
  const json = baselineCase(cases, c, "json");
  return json && isSocketMode(c.mode) ? vsBaseline(c, json, (r) => r.serializeNs + r.deserializeNs) : undefined;
}

/** Per round, `c`'s and json's figures (and raw's, by the same rounds), when all the cases have one. */
function byRound(c: CaseResult | undefined, json: CaseResult, pick: RoundFigure): Map<number, [number, number]> {
  const out = new Map<number, [number, number]>();
  if (!c?.verified) return out;
  const base = new Map<number, number>();
  for (const r of json.raw) {
    const v = pick(r);
    if (v !== undefined) base.set(r.round, v);
  }
  for (const r of c.raw) {
    const v = pick(r);
    const b = base.get(r.round);
    if (v !== undefined && b !== undefined) out.set(r.round, [v, b]);
  }
  return out;
}

/** A known-cost codec's figure over json's per round, as a share of the known cost measured after that round. */
function shareOfKnown(
  known: CaseResult,
  json: CaseResult,
  costs: ReadonlyMap<number, number>,
  pick: RoundFigure,
): Estimate | undefined {
  const shares: number[] = [];
  for (const [round, [v, b]] of byRound(known, json, pick)) {
    const k = costs.get(round);
    if (k !== undefined && k > 0) shares.push((v - b) / k);
  }
  return estimate(shares);
}

/** `c`'s figure relative to json's per round, each less raw's in that round when `floor` has it (the CPU: what the codec adds to the transport's). */
function relativeToJson(
  c: CaseResult | undefined,
  json: CaseResult,
  pick: RoundFigure,
  floor?: ReadonlyMap<number, number>,
): Estimate | undefined {
  const ratios: number[] = [];
  for (const [round, [v, b]] of byRound(c, json, pick)) {
    const f = floor ? floor.get(round) : 0;
    if (f !== undefined && b - f > 0) ratios.push((v - f) / (b - f));
  }
  return estimate(ratios);
}

/**
 * Every mode and payload where json and a known-cost codec (cal-spin) ran over a
 * socket with the known cost timed after each round: one check per known-cost codec.
 */
export function calibrationChecks(cases: readonly CaseResult[]): CalibrationCheck[] {
  const checks: CalibrationCheck[] = [];
  for (const json of cases) {
    if (json.codec !== "json" || !isSocketMode(json.mode) || !json.verified) continue;
    const twin = baselineCase(cases, json, "cal-json");
    const raw = baselineCase(cases, json, "raw");
    const timers = fieldOfRound(json, cases);
    const cpu: RoundFigure = (r) => r.server?.cpuNs;
    const rawCpu = new Map<number, number>();
    for (const r of raw?.raw ?? []) if (r.server) rawCpu.set(r.round, r.server.cpuNs);
    for (const codec of KNOWN_COST_CODEC_NAMES) {
      const c = baselineCase(cases, json, codec);
      const known = new Map<number, number>();
      for (const r of c?.raw ?? []) if (r.knownNs !== undefined) known.set(r.round, r.knownNs);
      const knownCost = estimate([...known.values()]);
      if (!c || !knownCost) continue;
      checks.push({
        client: json.client,
        mode: json.mode,
        payload: json.payload,
        ...(json.socket?.targetRate !== undefined ? { rate: json.socket.targetRate } : {}),
        codec,
        known: knownCost,
        knownByTimers: shareOfKnown(c, json, known, timers),
        knownByQuiet: shareOfKnown(c, json, known, fieldOfRound(json, cases, quietMessages)),
        twinByTimers: relativeToJson(twin, json, timers),
        knownByCpu: shareOfKnown(c, json, known, cpu),
        twinByCpu: raw ? relativeToJson(twin, json, cpu, rawCpu) : undefined,
        timersOnNothing: raw && estimate(raw.raw.map((r) => r.server?.codecNs).filter((x) => x !== undefined)),
      });
    }
  }
  return checks;
}

/** A method recovers a known cost when the median share comes within the tolerance of 1. */
export function recovers(share: Estimate | undefined): boolean | undefined {
  return share && Math.abs(share.value - 1) <= CALIBRATION_TOLERANCE;
}
