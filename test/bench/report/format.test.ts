import { describe, expect, it } from "vitest";
import { count, formatNs, markNotes, meanWithInterval, pad, percent } from "../../../bench/report/format.ts";

describe("number formatting", () => {
  it("durations pick their unit", () => {
    expect(formatNs(5.123)).toBe("5.12 ns");
    expect(formatNs(157.34)).toBe("157.3 ns");
    expect(formatNs(1500)).toBe("1.50 µs");
    expect(formatNs(2_400_000)).toBe("2.40 ms");
    expect(formatNs(NaN)).toBe("-");
  });

  it("counts get thousands separators, percentages round", () => {
    expect(count(1792890.4)).toBe("1,792,890");
    expect(count(Infinity)).toBe("-");
    expect(percent(1, 3)).toBe("33%");
    expect(percent(5, 0)).toBe("-");
  });

  it("pads by characters, not UTF-16 units", () => {
    expect(pad("≈0.93", 8, true)).toBe("   ≈0.93");
    expect(pad("µs", 4)).toBe("µs  ");
    expect(pad("toolong", 3)).toBe("toolong");
  });

  it("shows no interval for one sample, never '± 0.00'", () => {
    expect(meanWithInterval({ n: 1, mean: 1500, ci95: 0 })).toBe("1.50 µs");
    expect(meanWithInterval({ n: 3, mean: 1500, ci95: 20 })).toBe("1.50 µs ± 20.0 ns");
  });
});

describe("markNotes: * and ! said of the codecs that carry them", () => {
  const c = (codec: string, standard = true, flags: string[] = []) => ({ codec, standard, flags });
  it("names each non-standard and each lossy codec present, once; nothing for a run with neither", () => {
    expect(markNotes([c("json"), c("raw", false)])).toEqual({});
    expect(markNotes([c("mine", false), c("mine", false), c("json", true, ["lossy"])])).toEqual({
      nonStandard: "* non-standard: mine writes a format that only the same library (or code) reads.",
      lossy:
        "! lossy: json changed values of these messages (the fidelity table says which); timed because --allow-lossy asked.",
    });
    expect(markNotes([c("msgpackr-records", false), c("mine", false)]).nonStandard).toBe(
      "* non-standard: msgpackr-records, mine write formats that only the same library (or code) reads.",
    );
  });
});
