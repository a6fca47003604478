/** The ratios a benchmark's results carry: each case beside json's and raw's, worked out once as the results are assembled. */
import { describe, expect, it } from "vitest";
import { caseOf } from "../../helpers/cases.ts";
import type { CaseResult } from "../../../client/harness/results.ts";
import { baselineCase } from "../../../client/harness/pairing.ts";
import { caseRatios, widestInterval, widestRatioInterval, withRatios } from "../../../client/harness/ratios.ts";

describe("each case beside its run's baselines", () => {
  const cases = [
    caseOf("json", [200, 200]),
    caseOf("fast", [100, 100]),
    caseOf("json", [50, 50], { payload: "large" }),
    caseOf("json", [400, 400], { client: "bun", mode: "stream" }),
    caseOf("raw", [80, 80], { client: "bun", mode: "stream" }),
    caseOf("fast", [100, 100], { client: "bun", mode: "stream" }),
  ];

  it("json of the same client, mode and payload", () => {
    expect(baselineCase(cases, cases[1]!, "json")).toBe(cases[0]);
    expect(caseRatios(cases[1]!, cases).vsJson!.value).toBeCloseTo(0.5, 12);
    expect(caseRatios(cases[5]!, cases).vsJson!.value).toBeCloseTo(0.25, 12);
  });

  it("raw: its time over the codec's, so below 1 means slower than the transport alone", () => {
    expect(caseRatios(cases[5]!, cases).vsRaw!.value).toBeCloseTo(0.8, 12);
    expect(caseRatios(cases[1]!, cases).vsRaw).toBeUndefined();
  });

  it("skip a json that differs in client, mode or payload alone, even listed first", () => {
    const c = caseOf("fast", [100, 100], { client: "bun", mode: "stream", payload: "medium" });
    const right = caseOf("json", [200, 200], { client: "bun", mode: "stream", payload: "medium" });
    const nearMisses = [
      caseOf("json", [400, 400], { client: "node", mode: "stream", payload: "medium" }),
      caseOf("json", [400, 400], { client: "bun", mode: "roundtrip", payload: "medium" }),
      caseOf("json", [400, 400], { client: "bun", mode: "stream", payload: "small" }),
    ];
    for (const miss of nearMisses) {
      expect(baselineCase([miss, c], c, "json")).toBeUndefined();
      expect(baselineCase([miss, right, c], c, "json")).toBe(right);
      expect(caseRatios(c, [miss, right, c]).vsJson!.value).toBeCloseTo(0.5, 12);
    }
  });

  it("a failed baseline is no baseline", () => {
    const failedJson = [{ ...cases[0]!, verified: false }, cases[1]!];
    expect(caseRatios(cases[1]!, failedJson).vsJson).toBeUndefined();
  });

  it("say when the ratio's interval holds 1 (no winner), and that one round shows nothing", () => {
    const noisy = caseOf("noisy", [150, 260, 90]);
    expect(caseRatios(noisy, [cases[0]!, noisy]).vsJson!.overlap).toBe(true);
    expect(caseRatios(cases[1]!, cases).vsJson!.overlap).toBe(false);
    expect(caseRatios(caseOf("one", [100]), [caseOf("json", [200]), caseOf("one", [100])]).vsJson!.overlap).toBe(true);
  });
});

describe("the results' ratios", () => {
  /** A socket case whose rounds carry the server's figures: its decode + encode and its CPU per message. */
  const socketCase = (codec: string, totalNs: number, codecNs: number, cpuNs: number): CaseResult => ({
    ...caseOf(codec, [totalNs, totalNs * 1.1, totalNs * 0.9, totalNs], {
      client: "bun",
      mode: "stream",
      bytes: codec === "json" ? 40 : 20,
    }),
    raw: [1, 1.1, 0.9, 1].map((drift, round) => ({
      run: 0,
      round,
      position: 0,
      serializeNs: 100 * drift,
      deserializeNs: 100 * drift,
      totalNs: totalNs * drift,
      server: {
        codecNs: codecNs * drift,
        quietNs: codecNs * drift,
        interrupted: 0,
        collection: 0,
        scheduler: 0,
        sendNs: 300,
        cpuNs: cpuNs * drift,
        wakeups: 1,
      },
    })),
  });

  it("are worked out once for every case, on copies: the cases given keep none", () => {
    const given = [
      socketCase("raw", 1000, 100, 20_000),
      socketCase("json", 2000, 2100, 24_000),
      socketCase("fast", 1500, 1100, 22_000),
    ];
    const { cases, calibration } = withRatios(given);
    expect(given.every((c) => c.ratios === undefined)).toBe(true);
    expect(calibration).toBeUndefined();
    const [raw, json, fast] = cases;
    expect(fast!.ratios).toEqual(caseRatios(given[2]!, given));
    expect(fast!.ratios!.bytesVsJson).toBe(0.5);
    expect(fast!.ratios!.vsJson!.value).toBeCloseTo(0.75, 12);
    expect(fast!.ratios!.vsRaw!.value).toBeCloseTo(1000 / 1500, 12);
    // The field figure: the server's decode + encode less raw's timers in the same round.
    expect(fast!.ratios!.field!.corrected).toBe(true);
    expect(fast!.ratios!.fieldVsJson!.value).toBeCloseTo(0.5, 12);
    expect(fast!.ratios!.fieldOverJson!.value).toBeCloseTo(-1000, 9);
    expect(fast!.ratios!.cpuOverRaw!.value).toBeCloseTo(2000, 9);
    expect(json!.ratios!.vsJson!.value).toBe(1);
    expect(json!.ratios!.fieldOverJson).toBeUndefined();
    // raw is the transport alone: no CPU over itself, no client codec time to compare.
    expect(raw!.ratios!.vsRaw!.value).toBe(1);
    expect(raw!.ratios!.cpuOverRaw).toBeUndefined();
    expect(raw!.ratios!.clientVsJson).toBeUndefined();
  });

  it("a failed case has only its size beside json's", () => {
    const given = [
      caseOf("json", [200, 200], { bytes: 40 }),
      caseOf("broken", [100, 100], { bytes: 10, verified: false }),
    ];
    expect(withRatios(given).cases[1]!.ratios).toEqual({ bytesVsJson: 0.25 });
  });

  it("the widest codec-mode ratio interval says how close two codecs may be and still be told apart", () => {
    const json = caseOf("json", [100, 100, 100, 100, 100, 100]);
    const tight = caseOf("tight", [50, 50, 50, 50, 50, 50]);
    const loose = caseOf("loose", [40, 45, 50, 50, 55, 60]);
    expect(widestRatioInterval(withRatios([json, tight]).cases)).toBe(0);
    expect(widestRatioInterval(withRatios([json, tight, loose]).cases)).toBeCloseTo(0.2, 12);
    expect(widestRatioInterval(withRatios([json]).cases)).toBeUndefined();
  });

  it("with the precision a run asked for, marks each codec-mode ratio still wider than it, and no other", () => {
    const json = caseOf("json", [100, 100, 100, 100, 100, 100]);
    const tight = caseOf("tight", [50, 50, 50, 50, 50, 50]);
    const loose = caseOf("loose", [40, 45, 50, 50, 55, 60]);
    const cases = withRatios([json, tight, loose], 10).cases;
    expect(cases.find((c) => c.codec === "tight")!.ratios!.vsJson!.wide).toBeUndefined();
    expect(cases.find((c) => c.codec === "loose")!.ratios!.vsJson!.wide).toBe(true);
    // ±20% is within a precision of 25%; no precision asked, nothing marked.
    expect(withRatios([json, loose], 25).cases[1]!.ratios!.vsJson!.wide).toBeUndefined();
    expect(withRatios([json, loose]).cases[1]!.ratios!.vsJson!.wide).toBeUndefined();
    // The widest of a case's ratios: in process, echo, read-one, validated.
    expect(widestInterval(cases.find((c) => c.codec === "loose")!)).toBeCloseTo(0.2, 12);
  });
});
