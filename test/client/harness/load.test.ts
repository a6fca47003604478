/**
 * A user's load priced: --load's text read strictly, and each codec's cores predicted from raw's
 * measured cores and the field figures, its bytes a second each way, and what switching from
 * JSON saves a day, from figures made by hand so every sum can be checked.
 */
import { describe, expect, it } from "vitest";
import { loadFigures, loadCell, loadText, parseLoad, type LoadMeasurement } from "../../../client/harness/load.ts";
import type { CaseResult, Estimate } from "../../../client/harness/results.ts";
import { caseOf } from "../../helpers/cases.ts";

const est = (value: number, half = 0, rounds = 8): Estimate => ({
  value,
  low: value - half,
  high: value + half,
  rounds,
});

/** A stream case with a field figure (ns per message) and its figure less json's. */
function streamCase(codec: string, payload: string, fieldNs: number, jsonNs: number, bytes: number): CaseResult {
  return caseOf(codec, [1, 1], {
    client: "bun",
    mode: "stream",
    payload,
    bytes,
    ratios: { field: est(fieldNs, fieldNs / 10), fieldOverJson: est(fieldNs - jsonNs, 5) },
  });
}

/** A codec-mode case: its bytes, and deflate's with context kept. */
function sizes(codec: string, payload: string, bytes: number, deflated: number): CaseResult {
  return caseOf(codec, [1, 1], {
    payload,
    bytes,
    compression: { deflateBytes: deflated + 5, deflateContextBytes: deflated, zstdBytes: 0, zstdNs: 0, zstdEmptyNs: 0 },
  });
}

const SPEC = {
  rates: [
    { payload: "cursors", rate: 9000 },
    { payload: "strokes", rate: 600 },
  ],
  fanout: 50,
};

const CASES: CaseResult[] = [
  streamCase("json", "cursors", 400, 400, 45),
  streamCase("json", "strokes", 21_000, 21_000, 2304),
  streamCase("custom-binary", "cursors", 100, 400, 20),
  streamCase("custom-binary", "strokes", 4_000, 21_000, 1277),
  sizes("json", "cursors", 45, 14),
  sizes("json", "strokes", 2304, 900),
  sizes("custom-binary", "cursors", 20, 13),
  sizes("custom-binary", "strokes", 1277, 1100),
];

const windows = (cores: number[]) =>
  cores.map((c, round) => ({
    round,
    cores: c,
    sentPerS: 9600,
  }));

const MEASURED: LoadMeasurement = {
  spec: SPEC,
  windowMs: 2000,
  drives: [
    { codec: "json", rounds: windows([0.33, 0.34, 0.32]) },
    { codec: "raw", rounds: windows([0.3, 0.31, 0.29]) },
    { codec: "custom-binary", rounds: windows([0.31, 0.32, 0.3]) },
  ],
};

/** MEASURED with one codec's drive sending only `sentPerS` messages a second. */
const sending = (codec: string, sentPerS: number): LoadMeasurement => ({
  ...MEASURED,
  drives: MEASURED.drives.map((d) =>
    d.codec === codec ? { ...d, rounds: d.rounds.map((r) => ({ ...r, sentPerS })) } : d,
  ),
});

describe("--load's text", () => {
  const payloads = ["cursors", "strokes", "chat"];
  it("reads each payload's rate, underscores allowed", () => {
    expect(parseLoad("--load", "cursors=9_000, strokes=600", payloads)).toEqual(SPEC.rates);
  });

  it.each([
    ["cursors", /takes PAYLOAD=RATE\[,PAYLOAD=RATE\.\.\.\]/],
    ["cursors=1e3", /takes PAYLOAD=RATE/],
    ["mice=10", /'mice' is not a payload of this run; valid values: cursors, strokes, chat/],
    ["cursors=1,cursors=2", /names cursors twice/],
    ["cursors=0", /cursors's rate must be an integer from 1 to 1000000, got '0'/],
    ["cursors=1000001", /from 1 to 1000000/],
  ])("refuses %j", (raw, message) => {
    expect(() => parseLoad("--load", raw, payloads)).toThrow(message);
  });

  it("reads back as a line and as a CSV cell", () => {
    expect(loadText(SPEC)).toBe("cursors 9,000/s + strokes 600/s, fan-out 50");
    expect(loadCell(SPEC)).toBe("cursors=9000+strokes=600");
  });
});

describe("a load's figures", () => {
  const load = loadFigures(MEASURED, CASES);
  const of = (codec: string) => load.codecs.find((f) => f.codec === codec)!;

  it("puts raw, the transport, first, with its measured cores and no prediction of its own", () => {
    expect(load.codecs.map((f) => f.codec)).toEqual(["raw", "json", "custom-binary"]);
    expect(of("raw").measuredCores?.value).toBeCloseTo(0.3, 6);
    expect(of("raw").predictedCores).toBeUndefined();
  });

  it("predicts raw's cores plus each payload's rate times its field figure", () => {
    // json: 9,000 x 400 ns + 600 x 21,000 ns = 3.6 ms + 12.6 ms a second.
    expect(of("json").codecCores?.value).toBeCloseTo(0.0162, 6);
    expect(of("json").predictedCores?.value).toBeCloseTo(0.3 + 0.0162, 6);
    // The interval's ends from raw's and the field figures' ends.
    expect(of("json").predictedCores!.high).toBeGreaterThan(of("json").predictedCores!.value);
    // Measured over predicted window by window, each with raw's window on the same server process.
    const paired = [0.33 / (0.3 + 0.0162), 0.34 / (0.31 + 0.0162), 0.32 / (0.29 + 0.0162)];
    expect(of("json").agreement).toBeCloseTo(paired.reduce((a, b) => a + b) / 3 - 1, 6);
    expect(of("custom-binary").codecCores?.value).toBeCloseTo(9000 * 100e-9 + 600 * 4000e-9, 9);
  });

  it("counts bytes up at the rates and down times the fan-out, plain and deflated", () => {
    expect(of("json").bytesUpPerS).toBe(9000 * 45 + 600 * 2304);
    expect(of("json").bytesDownPerS).toBe(50 * (9000 * 45 + 600 * 2304));
    expect(of("json").deflatedUpPerS).toBe(9000 * 14 + 600 * 900);
    expect(of("custom-binary").deflatedDownPerS).toBe(50 * (9000 * 13 + 600 * 1100));
  });

  it("says what switching from JSON saves a day from the field figures less JSON's", () => {
    const saved = of("custom-binary").savedCoreHoursPerDay!;
    // (9,000 x 300 ns + 600 x 17,000 ns) a second, 24 hours a day.
    expect(saved.value).toBeCloseTo((9000 * 300e-9 + 600 * 17_000e-9) * 24, 6);
    expect(saved.low).toBeLessThan(saved.high);
    const up = 9000 * 45 + 600 * 2304 - (9000 * 20 + 600 * 1277);
    expect(of("custom-binary").savedGbPerDay).toBeCloseTo((up * 51 * 86_400) / 1e9, 6);
    expect(of("json").savedCoreHoursPerDay).toBeUndefined();
    // Measured: json's windows less custom-binary's on the same server process, 0.02 cores each, a day.
    expect(of("custom-binary").measuredSavedCoreHoursPerDay?.value).toBeCloseTo(0.02 * 24, 6);
    expect(of("custom-binary").windows?.map((w) => w.cores)).toEqual([0.31, 0.32, 0.3]);
  });

  it("says why a codec has no prediction, and when the load was not carried", () => {
    const short: LoadMeasurement = {
      ...MEASURED,
      drives: [
        ...MEASURED.drives,
        { codec: "msgpack", rounds: windows([0.4]).map((w) => ({ ...w, sentPerS: 4800 })), error: "round 2: closed" },
      ],
    };
    const msgpack = loadFigures(short, CASES).codecs.find((f) => f.codec === "msgpack")!;
    expect(msgpack.predictedCores).toBeUndefined();
    expect(msgpack.why).toBe(
      "round 2: closed; no field figure on cursors (no roundtrip, latency or stream case of it verified with json); sent 4,800 of 9,600 messages a second: the load was not carried",
    );
    expect(msgpack.keptShare).toBeCloseTo(0.5, 6);
    expect(msgpack.carried).toBe(false);
    expect(of("json").carried).toBe(true);
  });

  it("compares measured with predicted only where the drive carried the load", () => {
    const cb = loadFigures(sending("custom-binary", 4800), CASES).codecs.find((f) => f.codec === "custom-binary")!;
    expect(cb.predictedCores).toBeDefined();
    expect(cb.agreement).toBeUndefined();
    expect(cb.carried).toBe(false);
  });

  it("predicts nothing from a transport that did not carry the load", () => {
    const json = loadFigures(sending("raw", 4000), CASES).codecs.find((f) => f.codec === "json")!;
    expect(json.predictedCores).toBeUndefined();
    expect(json.codecCores?.value).toBeCloseTo(0.0162, 6);
    expect(json.why).toBe("raw, the transport alone, did not carry the load: nothing to predict from");
  });

  it("without raw measured, predicts nothing but still prices the codec", () => {
    const noRaw = loadFigures({ ...MEASURED, drives: MEASURED.drives.filter((d) => d.codec !== "raw") }, CASES);
    const json = noRaw.codecs.find((f) => f.codec === "json")!;
    expect(json.predictedCores).toBeUndefined();
    expect(json.codecCores?.value).toBeCloseTo(0.0162, 6);
    expect(json.why).toBe("raw, the transport alone, was not measured at the load");
  });
});
