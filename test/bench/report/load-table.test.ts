/**
 * The load's section and verdict line: a row per codec with raw first, the agreement between
 * measured and predicted, why a codec has no figure, and a verdict that names the cheapest and
 * the smallest codec and says whether the format matters at that load.
 */
import { describe, expect, it } from "vitest";
import type { LoadResult } from "../../../client/harness/results.ts";
import type { Estimate } from "../../../client/harness/results.ts";
import { coresText, loadSection, loadVerdictLines, rateBytes } from "../../../bench/report/load-table.ts";
import { TERMINAL_WIDTH } from "../../../bench/report/format.ts";

const est = (value: number, half: number, rounds = 3): Estimate => ({
  value,
  low: value - half,
  high: value + half,
  rounds,
});

const SPEC = {
  rates: [
    { payload: "cursors", rate: 9000 },
    { payload: "strokes", rate: 600 },
  ],
  fanout: 50,
};

function result(jsonCodecCores: number): LoadResult {
  return {
    spec: SPEC,
    windowMs: 2000,
    codecs: [
      { codec: "raw", measuredCores: est(0.3, 0.01), keptShare: 1 },
      {
        codec: "json",
        codecCores: est(jsonCodecCores, jsonCodecCores / 20, 40),
        predictedCores: est(0.3 + jsonCodecCores, 0.012),
        measuredCores: est(0.33 + jsonCodecCores, 0.02),
        agreement: 0.1,
        bytesUpPerS: 1_787_400,
        bytesDownPerS: 89_370_000,
        deflatedDownPerS: 33_300_000,
        keptShare: 1,
      },
      {
        codec: "custom-binary",
        codecCores: est(0.0033, 0.0002, 40),
        predictedCores: est(0.3033, 0.011),
        measuredCores: est(0.29, 0.02),
        agreement: -0.044,
        bytesUpPerS: 946_200,
        bytesDownPerS: 47_310_000,
        keptShare: 1,
        savedCoreHoursPerDay: est(0.31, 0.02, 40),
        savedGbPerDay: 3706,
        savedDeflatedGbPerDay: 120,
      },
      {
        codec: "msgpack",
        codecCores: est(0.02, 0.001, 40),
        keptShare: 0.5,
        savedCoreHoursPerDay: est(0.9, 0.1, 40),
        savedGbPerDay: 9000,
        why: "sent 4,800 of 9,600 messages a second: the load was not carried",
      },
    ],
  };
}

describe("the load's section", () => {
  const lines = loadSection(result(0.0162));

  it("titles the load, and gives a row per codec, raw first, within the terminal's width", () => {
    expect(lines[1]).toBe(
      "== At your load: cursors 9,000/s + strokes 600/s, fan-out 50 (the server's cores, 2 s windows)",
    );
    const header = lines.findIndex((l) => /^codec {2,}codec cores/.test(l));
    expect(lines.slice(header + 1, header + 5).map((l) => l.split(/\s+/)[0])).toEqual([
      "raw",
      "json",
      "custom-binary",
      "msgpack",
    ]);
    expect(lines[header + 2]).toMatch(
      /^json\s+0\.0162 ±5\.0%\s+0\.316 ±3\.8%\s+0\.346 ±5\.8%\s+\+10%\s+1\.8 M\s+89\.4 M\s+33\.3 M$/,
    );
    for (const l of lines) expect(l.length).toBeLessThanOrEqual(TERMINAL_WIDTH);
  });

  it("says how far measured came from predicted, and why a codec has no figure", () => {
    expect(lines).toContain("measured 4-10% from predicted (the farthest: json, +10%)");
    expect(lines).toContain("msgpack: sent 4,800 of 9,600 messages a second: the load was not carried");
  });

  it("is empty without a load", () => {
    expect(loadSection(undefined)).toEqual([]);
    expect(loadVerdictLines(undefined)).toEqual([]);
  });
});

describe("the load's verdict", () => {
  it("without measured savings, names the cheapest by the field figures and the smallest, and judges by JSON's share", () => {
    const text = loadVerdictLines(result(0.0162)).join(" ").replace(/\s+/g, " ");
    expect(text).toBe(
      "At your load (cursors 9,000/s + strokes 600/s, fan-out 50) json's decode + encode is 5.1% of the server's 0.316 cores by the field figures; custom-binary, the cheapest by the field figures, would save 0.31 core-hours a day; custom-binary, the smallest, 3.7 TB a day (120 GB where both are deflated): the format barely matters to the server's CPU here.",
    );
    // A codec the field figures price above json is no saving to name.
    const dearer = result(0.0162);
    dearer.codecs.find((f) => f.codec === "custom-binary")!.savedCoreHoursPerDay = est(-0.2, 0.02, 40);
    expect(loadVerdictLines(dearer).join(" ")).not.toContain("cheapest");
    const big = loadVerdictLines(result(0.2)).join(" ").replace(/\s+/g, " ");
    expect(big).toMatch(/is 40% of the server's 0\.500 cores by the field figures;/);
    expect(big).toMatch(/: the format matters to the server's CPU here\.$/);
  });

  it("where the drive did not carry the load, compares nothing measured and says so", () => {
    const r = result(0.29);
    const json = r.codecs.find((f) => f.codec === "json")!;
    delete json.predictedCores;
    json.keptShare = 0.79;
    r.codecs.find((f) => f.codec === "custom-binary")!.measuredSavedCoreHoursPerDay = est(2, 0.1);
    const text = loadVerdictLines(r).join(" ").replace(/\s+/g, " ");
    expect(text).toBe(
      "At your load (cursors 9,000/s + strokes 600/s, fan-out 50) json's decode + encode alone takes 0.290 cores by the field figures; the drive did not carry it (json sent 7,584 messages a second), so nothing measured is compared; custom-binary, the cheapest by the field figures, would save 0.31 core-hours a day; custom-binary, the smallest, 3.7 TB a day (120 GB where both are deflated): the format matters to the server's CPU here.",
    );
  });

  it("judges by what was measured at the load, and names the field figures' cheapest where the measure disagrees", () => {
    const r = result(0.0162);
    const cb = r.codecs.find((f) => f.codec === "custom-binary")!;
    // Measured, custom-binary cost more than json; json-bytes less, beyond the windows' spread.
    cb.measuredSavedCoreHoursPerDay = est(-0.67, 0.3);
    r.codecs.push({
      codec: "json-bytes",
      codecCores: est(0.02, 0.001, 40),
      keptShare: 1,
      measuredSavedCoreHoursPerDay: est(0.9, 0.2),
    });
    const text = loadVerdictLines(r).join(" ").replace(/\s+/g, " ");
    expect(text).toContain(
      "measured there, json-bytes used the least CPU, 0.90 core-hours a day less than json; by the field figures custom-binary would save 0.31, measured -0.67;",
    );
    // 0.9 core-hours a day is 0.0375 cores: a tenth of json's 0.346 measured.
    expect(text).toMatch(/: the format matters to the server's CPU here\.$/);
    // One window pair has no interval: nothing is apart on it.
    r.codecs.at(-1)!.measuredSavedCoreHoursPerDay = { value: 0.9, low: 0.9, high: 0.9, rounds: 1 };
    expect(loadVerdictLines(r).join(" ").replace(/\s+/g, " ")).toContain(
      "measured there, no codec used less CPU than json beyond the windows' spread (json-bytes, the least, 0.90 core-hours a day)",
    );
    // The least measured within the windows' spread: no change to claim.
    r.codecs.at(-1)!.measuredSavedCoreHoursPerDay = est(0.1, 0.3);
    expect(loadVerdictLines(r).join(" ").replace(/\s+/g, " ")).toMatch(
      /measured there, no codec used less CPU than json beyond the windows' spread \(json-bytes, the least, 0\.10 core-hours a day\).*: the format does not measurably change the server's CPU here\.$/,
    );
  });
});

describe("the load's figures as text", () => {
  it.each([
    [0.0031, "0.00310"],
    [0.084, "0.0840"],
    [0.316, "0.316"],
    [1.254, "1.25"],
  ])("cores %d read %s", (cores, text) => expect(coresText(cores)).toBe(text));

  it.each([
    [950, "950"],
    [89_400, "89.4 k"],
    [268_000, "268 k"],
    [47_310_000, "47.3 M"],
  ])("bytes a second %d read %s", (n, text) => expect(rateBytes(n)).toBe(text));
});
