/** docs/results.md's figures block, made from results files read back (here CSVs). */
import { describe, expect, it } from "vitest";
import { resultsFromFile } from "../../../../bench/report/results-file.ts";
import { sampleFigures } from "../../../../bench/tools/figures/results-block.ts";
import type { Sample } from "../../../../bench/tools/figures/sample-cells.ts";

const COLUMNS = [
  "mode",
  "codec",
  "payload",
  "verified",
  "cpu",
  "cores",
  "runtime",
  "runtime_version",
  "os",
  "total_vs_json",
  "total_vs_json_ci95_low",
  "total_vs_json_ci95_high",
  "field_vs_json",
  "field_vs_json_ci95_low",
  "field_vs_json_ci95_high",
  "calibration_known_ns",
  "calibration_field_share",
  "calibration_field_share_ci95_low",
  "calibration_field_share_ci95_high",
  "knee_rate",
  "knee_missed_rate",
  "read_one_ns",
  "read_one_vs_json",
  "read_one_vs_json_ci95_low",
  "read_one_vs_json_ci95_high",
  "validated_ns",
  "validated_vs_json",
  "validated_vs_json_ci95_low",
  "validated_vs_json_ci95_high",
  "key_access",
  "route_cpu_ns",
  "route_recode_cpu_ns",
  "route_recode_over_forward",
  "route_members",
  "route_routers",
  "route_deliveries_expected",
  "route_delivered",
  "route_misrouted",
  "route_cpu_vs_json",
  "route_cpu_vs_json_ci95_low",
  "route_cpu_vs_json_ci95_high",
  "route_recode_cpu_vs_json",
  "route_recode_cpu_vs_json_ci95_low",
  "route_recode_cpu_vs_json_ci95_high",
  "client",
  "client_codec_vs_json",
  "client_codec_vs_json_ci95_low",
  "client_codec_vs_json_ci95_high",
  "client_library",
  "flags",
  "timer_resolution_ns",
  "bytes",
  "msgs_per_s",
  "server_processes",
  "backplane",
  "cluster_cpu_ns_per_delivery",
  "backplane_bytes_per_msg",
];

/** A results CSV of the given rows (each a partial record by column name). */
function csv(rows: Record<string, string | number>[]): string {
  const machine = {
    verified: "true",
    cpu: "Test CPU",
    cores: 2,
    runtime: "bun",
    runtime_version: "1.0.0",
    os: "Linux",
  };
  return [
    COLUMNS.join(","),
    ...rows.map((r) => COLUMNS.map((c) => String({ ...machine, ...r }[c] ?? "")).join(",")),
  ].join("\n");
}

const ratio = (column: string, value: number) => ({
  [column]: value,
  [`${column}_ci95_low`]: value * 0.98,
  [`${column}_ci95_high`]: value * 1.01,
});

function run(name: string, fieldSmall: number): Sample {
  return {
    name,
    results: resultsFromFile(
      csv([
        { mode: "codec", codec: "json", payload: "small", ...ratio("total_vs_json", 1) },
        { mode: "codec", codec: "custom-binary", payload: "small", ...ratio("total_vs_json", 0.3) },
        { mode: "roundtrip", codec: "custom-binary", payload: "small", ...ratio("field_vs_json", fieldSmall) },
        { mode: "roundtrip", codec: "broken", payload: "small", verified: "false", ...ratio("field_vs_json", 9) },
      ]),
    ),
  };
}

const calibrated: Sample = {
  name: "cal.csv",
  results: resultsFromFile(
    csv([
      {
        mode: "stream",
        codec: "cal-spin",
        payload: "large",
        calibration_known_ns: 10123.4,
        ...ratio("calibration_field_share", 1.02),
      },
    ]),
  ),
};
const sweep = (rate: number, missed: number | ""): Sample => ({
  name: `sweep-${rate}.csv`,
  results: resultsFromFile(
    csv([{ mode: "latency", codec: "json", payload: "medium", knee_rate: rate, knee_missed_rate: missed }]),
  ),
});

describe("sampleFigures", () => {
  const everyCodec: Sample = {
    name: "every.csv",
    results: resultsFromFile(
      csv([
        { mode: "codec", codec: "json", payload: "small", ...ratio("total_vs_json", 1) },
        { mode: "codec", codec: "custom-binary", payload: "small", ...ratio("total_vs_json", 0.4) },
        { mode: "codec", codec: "avro", payload: "small", ...ratio("total_vs_json", 0.5) },
        { mode: "codec", codec: "msgpackr", payload: "small", ...ratio("total_vs_json", 0.2) },
        { mode: "codec", codec: "protobuf", payload: "small", ...ratio("total_vs_json", 0.8) },
      ]),
    ),
  };
  const inServer: Sample = {
    name: "field.csv",
    results: resultsFromFile(
      csv([
        { mode: "stream", codec: "json", payload: "chat", ...ratio("field_vs_json", 1) },
        { mode: "stream", codec: "custom-binary", payload: "chat", ...ratio("field_vs_json", 0.8) },
        { mode: "stream", codec: "avro", payload: "chat", ...ratio("field_vs_json", 0.7) },
      ]),
    ),
  };
  const patterns: Sample = {
    name: "patterns.csv",
    results: resultsFromFile(
      csv([
        {
          mode: "codec",
          codec: "json",
          payload: "market",
          ...ratio("total_vs_json", 1),
          read_one_ns: 200,
          ...ratio("read_one_vs_json", 1),
          validated_ns: 220,
          ...ratio("validated_vs_json", 1),
        },
        {
          mode: "codec",
          codec: "custom-binary",
          payload: "market",
          ...ratio("total_vs_json", 0.7),
          read_one_ns: 50,
          ...ratio("read_one_vs_json", 0.25),
          validated_ns: 100,
          ...ratio("validated_vs_json", 0.45),
        },
        {
          mode: "codec",
          codec: "flatbuffers",
          payload: "market",
          ...ratio("total_vs_json", 2),
          read_one_ns: 2,
          ...ratio("read_one_vs_json", 0.01),
          validated_ns: 700,
          ...ratio("validated_vs_json", 3),
        },
        {
          mode: "codec",
          codec: "msgpackr",
          payload: "market",
          ...ratio("total_vs_json", 1.2),
          read_one_ns: 280,
          ...ratio("read_one_vs_json", 1.4),
          validated_ns: 290,
          ...ratio("validated_vs_json", 1.3),
        },
      ]),
    ),
  };
  const routed = (codec: string, forward: number, recode: number, over: Partial<Record<string, number>> = {}) => ({
    mode: "route",
    codec,
    payload: "chat",
    key_access: codec === "json" ? "decode" : "offset",
    route_cpu_ns: forward,
    route_recode_cpu_ns: recode,
    route_recode_over_forward: recode / forward,
    route_members: 8,
    route_routers: 4,
    route_deliveries_expected: 1000,
    route_delivered: 1000,
    route_misrouted: 0,
    ...over,
  });
  const route: Sample = {
    name: "route.csv",
    results: resultsFromFile(
      csv([
        routed("json", 7000, 8000),
        {
          ...routed("custom-binary", 5600, 6000),
          ...ratio("route_cpu_vs_json", 0.8),
          ...ratio("route_recode_cpu_vs_json", 0.75),
        },
        {
          ...routed("protobuf", 6300, 12000),
          ...ratio("route_cpu_vs_json", 0.9),
          ...ratio("route_recode_cpu_vs_json", 1.5),
        },
      ]),
    ),
  };
  /** One engine's run: codec mode where `codec` is given, round trips where `trip` is. */
  const engine = (
    name: string,
    runtime: string,
    version: string,
    client: string,
    codecRatio: number | undefined,
    trip: number | undefined,
    more: Record<string, string | number> = {},
    common: Record<string, string | number> = {},
  ): Sample => ({
    name,
    results: resultsFromFile(
      csv([
        ...(codecRatio === undefined
          ? []
          : [
              {
                mode: "codec",
                client,
                codec: "json",
                payload: "large",
                runtime,
                runtime_version: version,
                ...ratio("total_vs_json", 1),
                ...common,
              },
              {
                mode: "codec",
                client,
                codec: "custom-binary",
                payload: "large",
                runtime,
                runtime_version: version,
                ...ratio("total_vs_json", codecRatio),
                ...common,
              },
            ]),
        ...(trip === undefined
          ? []
          : [
              {
                mode: "roundtrip",
                client,
                codec: "custom-binary",
                payload: "large",
                runtime,
                runtime_version: version,
                ...ratio("client_codec_vs_json", trip),
                ...more,
                ...common,
              },
            ]),
      ]),
    ),
  });
  const engines = {
    bun: engine("bun.csv", "bun", "1.4.4", "bun", 0.6, 0.5),
    // Codec mode runs in Bun whatever the client: a Node run's rows name Bun as the runtime, Node in the client library.
    node: engine("node.csv", "bun", "1.4.4", "node", undefined, 1.1, { client_library: "ws 8.23.0 on Node v20.20.2" }),
    chromium: engine("chromium.csv", "browser", "Chrome 156.0.1", "browser", 0.9, 0.95),
    firefox: engine(
      "firefox.csv",
      "browser",
      "Firefox 153.0",
      "browser",
      1.02,
      0.85,
      { flags: "coarse-clock" },
      { timer_resolution_ns: 20000 },
    ),
  };
  /** A fanout run of json and custom-binary on `processes` processes, through Redis or not. */
  const fanout = (name: string, processes: number, backplane: string, rate: number, cpu: number): Sample => ({
    name,
    results: resultsFromFile(
      csv(
        ["json", "custom-binary"].map((codec, i) => ({
          mode: "fanout",
          codec,
          payload: "large",
          bytes: i === 0 ? 329 : 222,
          msgs_per_s: rate * (i === 0 ? 1 : 1.3),
          server_processes: processes,
          backplane,
          cluster_cpu_ns_per_delivery: cpu * (i === 0 ? 1 : 0.75),
          backplane_bytes_per_msg: backplane ? (i === 0 ? 1181 : 860) : 0,
        })),
      ),
    ),
  });
  const cluster = {
    alone: fanout("alone.csv", 1, "", 240_000, 1200),
    redis: fanout("redis.csv", 1, "redis", 215_000, 2270),
    cluster: fanout("cluster.csv", 2, "redis", 180_000, 3530),
  };
  const block = sampleFigures({
    runs: [run("a.csv", 0.5), run("b.csv", 0.6)],
    calibrated,
    sweeps: [sweep(20000, 24000), sweep(24000, "")],
    everyCodec: [everyCodec, inServer],
    patterns,
    route,
    engines,
    cluster,
  });

  it("sets fanout on one process, one through Redis and two through Redis side by side", () => {
    const part = block.slice(block.indexOf("fanout beyond one process (`alone.csv`, `redis.csv`, `cluster.csv`"));
    expect(part).toContain(
      "| large | json | 329 | 240,000 | 1.20 µs | 215,000 | 2.27 µs | 1,181 | 180,000 | 3.53 µs | 1,181 |",
    );
    expect(part).toContain(
      "| large | custom-binary | 222 | 312,000 | 900.0 ns | 279,500 | 1.70 µs | 860 | 234,000 | 2.65 µs | 860 |",
    );
    // Codecs the file does not have are left out, not shown empty.
    expect(part).not.toContain("| protobuf |");
  });

  it("sets the engines side by side: codec mode where it runs, the client's codec work in round trips per client", () => {
    const part = block.slice(
      block.indexOf("The same codecs in each engine (`bun.csv`, `node.csv`, `chromium.csv`, `firefox.csv`"),
    );
    expect(part).toContain(
      "| payload | codec | codec, bun 1.4.4 | codec, Chrome 156 | codec, Firefox 153 | round trip, bun 1.4.4 | round trip, Node 20.20.2 | round trip, Chrome 156 | round trip, Firefox 153 |",
    );
    expect(part).toContain(
      "| large | custom-binary | 0.60 ±2.0% | 0.90 ±2.0% | ≈1.02 ±2.0% | 0.50 ±2.0% | 1.10 ±2.0% | 0.95 ±2.0% | 0.85 ±2.0% † |",
    );
    expect(part).toContain(
      "† The client's clock ticks in steps of 20.00 µs (Firefox 153), longer than most of these calls",
    );
  });

  it("shows the router's CPU per message forwarding and recoding, least first, and the deliveries", () => {
    const part = block.slice(block.indexOf("The server as a router, `route.csv`"));
    expect(part).toContain(
      "| chat (room) | custom-binary | offset | 5.60 µs | 0.80 ±2.0% | 6.00 µs | 0.75 ±2.0% | 1.07 |\n| chat (room) | protobuf | offset | 6.30 µs | 0.90 ±2.0% | 12.00 µs | 1.50 ±2.0% | 1.90 |\n| chat (room) | json | decode | 7.00 µs | 1.00 | 8.00 µs | 1.00 | 1.14 |",
    );
    expect(part).toContain(
      "Deliveries, every codec: 3,000 of 3,000 expected (8 members, 4 routers per way), 0 misrouted.",
    );
  });

  it("ranks every codec inside the server too, by the field figure", () => {
    const part = block.slice(
      block.indexOf("Every codec on every payload, inside the server (stream mode's field figure"),
    );
    expect(part).toContain("| chat | 0.80 ±2.0% | 2 of 3 | avro (0.70) | 1.14 | avro |");
  });

  it("names the three fastest at each access pattern, each against json's same work", () => {
    const part = block.slice(block.indexOf("What an app does with a message, `patterns.csv`"));
    expect(part).toContain(
      "| market (symbol) | custom-binary 0.70, json 1.00, msgpackr 1.20 | flatbuffers 0.010, custom-binary 0.25, json 1.00 | custom-binary 0.45, json 1.00, msgpackr 1.30 |",
    );
  });

  it("says where custom-binary stands among every codec: its place, the fastest other schema codec and how far", () => {
    const part = block.slice(block.indexOf("Every codec on every payload, codec mode, `every.csv`"));
    expect(part).toContain("| small | 0.40 ±2.0% | 2 of 5 | avro (0.50) | 0.80 | msgpackr |");
  });

  it("names the files and the machine", () => {
    expect(block).toContain("`a.csv`, `b.csv`");
    expect(block).toContain("Test CPU (2 cores), bun 1.0.0, Linux");
  });

  it("puts each run's field ratio in its column with its interval, and the largest over the smallest at the end", () => {
    const field = block.slice(block.indexOf("Field, roundtrip mode"));
    expect(field).toMatch(
      /^Field, roundtrip mode .*: 0 of 1 ratios within 1\.10x across the runs, the widest 1\.200x apart\./,
    );
    expect(field).toContain("| small | custom-binary | 0.50 ±2.0% | 0.60 ±2.0% | 1.200 |");
  });

  it("leaves out rows that failed verification", () => {
    expect(block).not.toContain("broken");
  });

  it("shows lab and field side by side", () => {
    expect(block).toContain("| small | custom-binary | 0.30 ±2.0% | - | 0.50 ±2.0% | - |");
  });

  it("shows what the calibration recovered, with its interval", () => {
    expect(block).toContain("| stream | large | cal-spin | 10,123 | 1.02 [1.00-1.03] | - | - | - |");
  });

  it("shows each sweep's knee, the rate missed above it, and whether they agree within 25%", () => {
    expect(block).toContain("1 of 1 knees within 25% of each other across the sweeps.");
    expect(block).toContain("| medium | json | 20,000 (24,000) | 24,000+ | 1.20 |");
  });
});
