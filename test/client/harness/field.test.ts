/**
 * Lab and field from a case's rounds: the field figure takes raw's timers off round by round,
 * compares with json round by round, and the calibration says a method holds only when it finds
 * cal-spin's known cost (and no more for cal-json).
 */
import { describe, expect, it } from "vitest";
import type { CaseResult, SliceFigures } from "../../../client/harness/results.ts";
import {
  calibrationChecks,
  cpuOverRaw,
  disagree,
  echoVsJson,
  fieldCost,
  fieldVsJson,
  recovers,
} from "../../../client/harness/field.ts";

const ROUNDS = 12;
/** The machine's drift: every codec of a round is slower or faster together. */
const drift = (round: number): number => 1 + 0.3 * Math.sin(round);

interface Over {
  /** The server's decode + encode per message, before drift, ns. */
  codecNs: number;
  /** The server's CPU per message, before drift, ns. */
  cpuNs?: number;
  /** cal-spin: its loop timed after each round. */
  knownNs?: number;
  /** The decode + encode of the messages not interrupted only, before drift (default: codecNs, no interruptions). */
  quietNs?: number;
  mode?: CaseResult["mode"];
}

/** A socket case whose rounds carry the server's figures. */
function socketCase(codec: string, o: Over): CaseResult {
  const raw: SliceFigures[] = Array.from({ length: ROUNDS }, (_, round) => ({
    run: 0,
    round,
    position: 0,
    serializeNs: 100,
    deserializeNs: 100,
    totalNs: 50_000,
    server: {
      codecNs: o.codecNs * drift(round),
      quietNs: (o.quietNs ?? o.codecNs) * drift(round),
      interrupted: 0,
      collection: 0,
      scheduler: 0,
      sendNs: 300,
      cpuNs: (o.cpuNs ?? 20_000) * drift(round),
      wakeups: 1,
    },
    ...(o.knownNs !== undefined ? { knownNs: o.knownNs * drift(round) } : {}),
  }));
  return {
    client: "bun",
    mode: o.mode ?? "roundtrip",
    codec,
    payload: "small",
    verified: true,
    error: "",
    raw,
    socket: { targetRate: undefined },
  } as unknown as CaseResult;
}

describe("the field figure", () => {
  it("is the server's decode + encode less raw's timers in the same round, and says so", () => {
    const cases = [
      socketCase("raw", { codecNs: 100 }),
      socketCase("json", { codecNs: 2100 }),
      socketCase("custom-binary", { codecNs: 1100 }),
    ];
    // Drift moves both by the same factor in a round; raw's 100 ns reading is taken off each.
    const json = fieldCost(cases[1]!, cases)!;
    expect(json.corrected).toBe(true);
    const values = Array.from({ length: ROUNDS }, (_, r) => 2000 * drift(r)).sort((a, b) => a - b);
    expect(json.value).toBeCloseTo((values[5]! + values[6]!) / 2, 6);
    expect(fieldVsJson(cases[2]!, cases)!.value).toBeCloseTo(0.5, 12);
  });

  it("without raw, keeps the timers' own cost and says it did", () => {
    const cases = [socketCase("json", { codecNs: 2000 }), socketCase("custom-binary", { codecNs: 1000 })];
    expect(fieldCost(cases[0]!, cases)!.corrected).toBe(false);
    expect(fieldVsJson(cases[1]!, cases)!.value).toBeCloseTo(0.5, 12);
  });

  it("has no figure in codec mode, and none for a slice whose figure a results file stored as null", () => {
    const lab = { ...socketCase("json", { codecNs: 1 }), mode: "codec" } as CaseResult;
    expect(fieldCost(lab, [lab])).toBeUndefined();
    const json = socketCase("json", { codecNs: 2000 });
    json.raw[0]!.server!.codecNs = null as unknown as number;
    expect(fieldCost(json, [json])!.rounds).toBe(ROUNDS - 1);
  });

  it("the server's CPU over raw's, round by round", () => {
    const cases = [
      socketCase("raw", { codecNs: 0, cpuNs: 20_000 }),
      socketCase("json", { codecNs: 2000, cpuNs: 23_000 }),
    ];
    const over = cpuOverRaw(cases[1]!, cases)!;
    const diffs = Array.from({ length: ROUNDS }, (_, r) => 3000 * drift(r)).sort((a, b) => a - b);
    expect(over.value).toBeCloseTo((diffs[5]! + diffs[6]!) / 2, 6);
  });
});

describe("lab against field", () => {
  it("codec mode's echo pairs with json's echo round by round", () => {
    const lab = (codec: string, echo: number): CaseResult =>
      ({
        ...socketCase(codec, { codecNs: 0 }),
        mode: "codec",
        raw: Array.from({ length: ROUNDS }, (_, round) => ({
          run: 0,
          round,
          position: 0,
          serializeNs: 1,
          deserializeNs: 1,
          totalNs: 2,
          echoNs: echo * drift(round),
        })),
      }) as unknown as CaseResult;
    const cases = [lab("json", 1000), lab("custom-binary", 1300)];
    expect(echoVsJson(cases[1]!, cases)!.value).toBeCloseTo(1.3, 12);
  });

  it("disagree only when the two intervals do not overlap", () => {
    const r = (value: number, low: number, high: number) => ({ value, low, high, rounds: 10, overlap: false });
    expect(disagree(r(0.9, 0.85, 0.95), r(1.27, 1.25, 1.29))).toBe(true);
    expect(disagree(r(0.9, 0.85, 1.26), r(1.27, 1.25, 1.29))).toBe(false);
    expect(disagree(r(0.9, 0.85, 0.95), undefined)).toBe(false);
  });
});

describe("the calibration", () => {
  const calibrated = (found: { spin: number; twin: number; spinCpu: number }): CaseResult[] => [
    socketCase("raw", { codecNs: 80, cpuNs: 20_000 }),
    socketCase("json", { codecNs: 2080, cpuNs: 23_000 }),
    socketCase("cal-json", { codecNs: 80 + found.twin, cpuNs: 23_000 }),
    socketCase("cal-spin", { codecNs: 2080 + found.spin, cpuNs: 23_000 + found.spinCpu, knownNs: 10_000 }),
  ];

  it("holds for a method that finds the known cost over json, and a twin of json as json", () => {
    const [check] = calibrationChecks(calibrated({ spin: 10_000, twin: 2000, spinCpu: 10_000 }));
    expect(check!.knownByTimers!.value).toBeCloseTo(1, 12);
    expect(check!.twinByTimers!.value).toBeCloseTo(1, 12);
    expect(recovers(check!.knownByTimers)).toBe(true);
    expect(recovers(check!.twinByTimers)).toBe(true);
    expect(recovers(check!.knownByCpu)).toBe(true);
    // raw's timers on no work, as read before they are taken off.
    expect(check!.timersOnNothing!.value).toBeGreaterThan(60);
    expect(check!.known.value).toBeGreaterThan(8000);
  });

  it("fails a method that finds too little, or reads json's twin as cheaper", () => {
    const [check] = calibrationChecks(calibrated({ spin: 3000, twin: 1500, spinCpu: 2500 }));
    expect(check!.knownByTimers!.value).toBeCloseTo(0.3, 12);
    expect(recovers(check!.knownByTimers)).toBe(false);
    expect(check!.twinByTimers!.value).toBeCloseTo(0.75, 12);
    expect(recovers(check!.twinByTimers)).toBe(false);
    expect(recovers(check!.knownByCpu)).toBe(false);
  });

  it("names the known-cost codec, and says what the figure without interrupted messages finds of it", () => {
    const cases = calibrated({ spin: 10_000, twin: 2000, spinCpu: 10_000 });
    // Collections a third of cal-spin's extra: left out, the figure finds two thirds of the known cost.
    cases[3] = socketCase("cal-spin", { codecNs: 12_080, quietNs: 2080 + 6667, cpuNs: 33_000, knownNs: 10_000 });
    const [check] = calibrationChecks(cases);
    expect(check!.codec).toBe("cal-spin");
    expect(recovers(check!.knownByTimers)).toBe(true);
    expect(check!.knownByQuiet!.value).toBeCloseTo(0.6667, 3);
    expect(recovers(check!.knownByQuiet)).toBe(false);
  });

  it("needs cal-spin with its known cost: without it there is nothing to check", () => {
    const cases = calibrated({ spin: 10_000, twin: 2000, spinCpu: 10_000 });
    for (const r of cases[3]!.raw) delete r.knownNs;
    expect(calibrationChecks(cases)).toEqual([]);
    expect(calibrationChecks(cases.slice(0, 2))).toEqual([]);
  });
});
