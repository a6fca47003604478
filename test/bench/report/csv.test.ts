import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runCodecMode } from "../../../client/harness/codec-mode.ts";
import type { Environment, BenchResults } from "../../../client/harness/results.ts";
import { csvField, toCsv } from "../../../bench/report/csv.ts";
import { CSV_COLUMNS } from "../../../bench/report/csv-columns.ts";
import { parseCsv } from "../../helpers/csv.ts";
import { toJson } from "../../../bench/report/results-json.ts";
import { withRatios } from "../../../client/harness/ratios.ts";
import { BUILT_IN } from "../../../protocols/registry.ts";
import { testSettings } from "../../helpers/settings.ts";

const ROOT = path.resolve(import.meta.dirname, "../../..");

/** The columns the CSV contract promises (later modes and users' sheets rely on them). */
const REQUIRED = (
  "timestamp, runtime, client, mode, codec, payload, iterations, runs, bytes, serialize_ns, serialize_mean_ns, " +
  "deserialize_ns, deserialize_mean_ns, total_ns, total_ci95_low_ns, total_ci95_high_ns, total_mean_ns, total_mean_ci95_ns, total_round_min_ns, total_round_max_ns, " +
  "run_total_ms, msgs_per_s, sent, received, lost, verified, csv_version"
).split(", ");

/** What a spreadsheet shows first: which case, its size, its time (the median, with its interval) and its ratio to JSON. */
const FIRST = [
  "client",
  "mode",
  "payload",
  "codec",
  "verified",
  "bytes",
  "total_ns",
  "total_ci95_low_ns",
  "total_ci95_high_ns",
  "total_vs_json",
];

const NUMERIC = [
  "iterations",
  "runs",
  "bytes",
  "serialize_ns",
  "serialize_mean_ns",
  "deserialize_ns",
  "deserialize_mean_ns",
  "total_ns",
  "total_mean_ns",
  "total_mean_ci95_ns",
  "run_total_ms",
  "msgs_per_s",
  "timer_resolution_ns",
  "csv_version",
];

const environment: Environment = {
  runtime: "bun",
  runtimeVersion: "test",
  os: "Linux, test",
  arch: "x64",
  cpu: 'CPU "quoted", with comma',
  cores: 2,
  memoryGiB: 24,
  libraries: {},
  clock: "performance.now",
  timerResolutionNs: 100,
  timerOverheadNs: 40,
  gcBetweenCases: false,
  msgpackrNative: false,
};

async function smallRun(runs = 2, iterations = 200): Promise<BenchResults> {
  const settings = testSettings({
    modes: ["codec"],
    codecs: BUILT_IN.codecs.map((c) => c.name),
    payloads: ["small", "medium", "large"],
    iterations: { codec: iterations },
    runs,
    warmup: { codec: 50 },
    seed: 1,
    fixed: false,
  });
  const result = await runCodecMode(settings, {
    codecs: BUILT_IN.codecs,
    clock: { name: "performance.now", now: () => performance.now() },
    calibration: { resolutionNs: 100, overheadNs: 40 },
  });
  return {
    timestamp: "2026-11-21T12:00:00.000Z",
    settings: { ...settings, minBatchNs: result.minBatchNs, client: "inprocess" },
    environment,
    order: { codec: result.order },
    ...withRatios(result.cases),
    elapsedMs: 1,
  };
}

describe("CSV contract", () => {
  it("parses back: header with every promised column, one row per codec x payload, numbers where numbers belong", async () => {
    const results = await smallRun();
    const text = toCsv(results);
    expect(text.startsWith("client,mode,payload,codec,")).toBe(true);
    expect(text).not.toMatch(/^#/m);
    const rows = parseCsv(text);
    const header = rows[0]!;
    for (const col of REQUIRED) expect(header, col).toContain(col);
    expect(header.slice(0, FIRST.length)).toEqual(FIRST);
    expect(new Set(header).size).toBe(header.length);
    const body = rows.slice(1);
    expect(body).toHaveLength(BUILT_IN.codecs.length * 3);
    const at = (row: string[], col: string): string => row[header.indexOf(col)]!;
    for (const row of body) {
      expect(row).toHaveLength(header.length);
      expect(at(row, "timestamp")).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/);
      expect(at(row, "client")).toBe("inprocess");
      expect(at(row, "mode")).toBe("codec");
      expect(at(row, "verified")).toBe("true");
      expect(at(row, "cpu")).toBe('CPU "quoted", with comma');
      for (const col of NUMERIC) {
        const v = at(row, col);
        expect(v, `${col} = ${v}`).toMatch(/^-?\d+(\.\d+)?$/);
        expect(Number.isFinite(Number(v))).toBe(true);
      }
      expect(at(row, "sent")).toBe("");
      expect(at(row, "lost")).toBe("");
    }
    const jsonSmall = body.find((r) => at(r, "codec") === "json" && at(r, "payload") === "small")!;
    expect(at(jsonSmall, "bytes")).toBe("33");
    expect(at(jsonSmall, "total_vs_json")).toBe("1");
    const records = body.find((r) => at(r, "codec") === "msgpackr-records")!;
    expect(at(records, "standard")).toBe("false");
    expect(at(records, "flags")).toContain("non-standard");
  });

  it("a --load run ends with a row per codec at the load, mode load, its payload cell the load", async () => {
    const results = await smallRun(1, 50);
    const est = (value: number) => ({ value, low: value * 0.9, high: value * 1.1, rounds: 3 });
    results.load = {
      spec: { rates: [{ payload: "small", rate: 900 }], fanout: 4 },
      windowMs: 2000,
      codecs: [
        { codec: "raw", measuredCores: est(0.05), keptShare: 1 },
        {
          codec: "json",
          codecCores: est(0.001),
          predictedCores: est(0.051),
          measuredCores: est(0.052),
          bytesUpPerS: 29_700,
          bytesDownPerS: 118_800,
          keptShare: 0.5,
          why: "sent 450 of 900 messages a second: the load was not carried",
        },
      ],
    };
    const rows = parseCsv(toCsv(results));
    const header = rows[0]!;
    const load = rows.slice(1).filter((r) => r[header.indexOf("mode")] === "load");
    expect(load).toHaveLength(2);
    const at = (row: string[], col: string): string => row[header.indexOf(col)]!;
    expect(load.map((r) => at(r, "codec"))).toEqual(["raw", "json"]);
    const json = load[1]!;
    expect(at(json, "payload")).toBe("small=900");
    expect(at(json, "client")).toBe("bun");
    expect(at(json, "load_server_cores")).toBe("0.051");
    expect(at(json, "load_measured_server_cores")).toBe("0.052");
    expect(at(json, "load_codec_cores")).toBe("0.001");
    expect(at(json, "load_bytes_per_s_up")).toBe("29700");
    expect(at(json, "load_bytes_per_s_down")).toBe("118800");
    expect(at(json, "load_fanout")).toBe("4");
    expect(at(json, "verified")).toBe("false");
    expect(at(json, "error")).toBe("sent 450 of 900 messages a second: the load was not carried");
    expect(at(json, "cpu")).toBe('CPU "quoted", with comma');
    expect(at(load[0]!, "load_server_cores")).toBe("");
    expect(at(load[0]!, "load_measured_server_cores")).toBe("0.05");
  });

  it("a failed case is a row with verified=false, its error, and empty figures", async () => {
    const results = await smallRun();
    const c = results.cases[0]!;
    results.cases[0] = {
      ...c,
      verified: false,
      error: 'message #3 did not round-trip: field "text", expected\nx',
      runs: 0,
      serialize: { ...c.serialize, mean: NaN },
    };
    const rows = parseCsv(toCsv(results));
    const header = rows[0]!;
    const row = rows[1]!;
    expect(row[header.indexOf("verified")]).toBe("false");
    expect(row[header.indexOf("error")]).toBe('message #3 did not round-trip: field "text", expected\nx');
    expect(row[header.indexOf("serialize_mean_ns")]).toBe("");
    expect(JSON.parse(toJson(results)).cases[0].serialize.mean).toBeNull();
  });

  it("quotes fields per RFC 4180 and writes plain dot decimals", () => {
    expect(csvField("a,b")).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField("line\r\nbreak")).toBe('"line\r\nbreak"');
    expect(csvField(1234567.891234)).toBe("1234567.891");
    expect(csvField(0.00001)).toBe("0");
    expect(csvField(1e21)).toBe("1000000000000000000000");
    expect(csvField(NaN)).toBe("");
    expect(csvField(true)).toBe("true");
    expect(parseCsv('a,"b,""c"""\r\n1,2\r\n')).toEqual([
      ["a", 'b,"c"'],
      ["1", "2"],
    ]);
  });

  it("no two columns hold the same figure in every row", async () => {
    // Five rounds of enough messages that a mean, a median and a batch percentile can differ.
    const rows = parseCsv(toCsv(await smallRun(5, 3000)));
    const header = rows[0]!;
    const body = rows.slice(1);
    const same: string[] = [];
    // The built-in messages vary in content, not size (client/harness/generator.ts), so their
    // smallest and largest are the mean; a user's own messages differ.
    const sizes = new Set(["bytes", "bytes_min", "bytes_max"]);
    for (let i = 0; i < header.length; i++) {
      if (sizes.has(header[i]!)) continue;
      for (let j = i + 1; j < header.length; j++) {
        const varies = body.some((r) => r[i] !== "" && r[i] !== body[0]![i]);
        if (varies && body.every((r) => r[i] === r[j])) same.push(`${header[i]} = ${header[j]}`);
      }
    }
    expect(same).toEqual([]);
  });

  it("every column is described in docs/results-columns.md, and nothing there is not a column", () => {
    const doc = readFileSync(path.join(ROOT, "docs/results-columns.md"), "utf8");
    const table = doc.slice(doc.indexOf("| column"), doc.indexOf("## Version 1"));
    const named = new Set([...table.matchAll(/^\| `([a-z0-9_]+)`/gm)].map((m) => m[1]!));
    expect(CSV_COLUMNS.filter((c) => !named.has(c))).toEqual([]);
    expect([...named].filter((c) => !CSV_COLUMNS.includes(c))).toEqual([]);
  });

  it("column names carry their units", () => {
    const timeColumns = CSV_COLUMNS.filter(
      (c) => /^(serialize|deserialize|total|loop_floor|timer)_/.test(c) && !c.includes("_vs_json"),
    );
    expect(timeColumns.length).toBeGreaterThan(20);
    for (const col of timeColumns) expect(col).toMatch(/_(ns|ms|msgs)$/);
  });
});
