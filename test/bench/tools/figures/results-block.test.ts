/** docs/results.md's figures block, made from results built here as the results files hold them. */
import { describe, expect, it } from "vitest";
import { overlapsOne } from "../../../../client/harness/pairing.ts";
import type {
  BenchResults,
  CaseRatios,
  CaseResult,
  Estimate,
  Environment,
  RouteWaySummary,
} from "../../../../client/harness/results.ts";
import type { Mode } from "../../../../client/harness/settings.ts";
import type { ClusterFigures, SocketFigures } from "../../../../client/harness/socket-results.ts";
import { partialSummary, type Summary } from "../../../../client/harness/statistics.ts";
import { sampleFigures } from "../../../../bench/tools/figures/results-block.ts";
import type { Sample } from "../../../../bench/tools/figures/sample-cells.ts";
import { testSettings } from "../../../helpers/settings.ts";

/** Rounds behind every ratio here: enough for an interval to be shown and to say whether it holds 1. */
const ROUNDS = 10;
/** A figure the case does not have. */
const NONE: Summary = partialSummary();
const median = (value: number): Summary => partialSummary({ median: value });

/** A median with the interval every figure here has: 2% below it, 1% above ("±2.0%"). */
const estimate = (value: number): Estimate => ({ value, low: value * 0.98, high: value * 1.01, rounds: ROUNDS });

/** A ratio to json with that interval, and whether the interval holds 1 (then it is shown with ≈). */
function ratio(value: number): Estimate {
  const r = { value, low: value * 0.98, high: value * 1.01, rounds: ROUNDS };
  return { ...r, overlap: overlapsOne(r) };
}

/** A WebSocket case's figures, none measured but those given. */
function socket(over: Partial<SocketFigures> = {}): SocketFigures {
  return {
    clients: NaN,
    window: NaN,
    slice: NaN,
    sent: NaN,
    received: NaN,
    lost: NaN,
    reordered: NaN,
    corrupted: NaN,
    wireBytes: NaN,
    replyBytes: NaN,
    rtt: undefined,
    serverDeserialize: NONE,
    serverSerialize: NONE,
    mbPerS: NaN,
    serverCpuMs: NaN,
    clientCpuMs: NaN,
    elapsedMs: NaN,
    backpressure: NaN,
    dropped: NaN,
    extensions: "",
    ...over,
  };
}

/** A verified case of one mode, payload and codec (in process in codec mode, Bun's client else), no figure but those given. */
function caseOf(mode: Mode, codec: string, payload: string, over: Partial<CaseResult> = {}): CaseResult {
  const batches = { batch: NaN, samples: NaN, p50: NaN, p90: NaN, p99: NaN };
  return {
    client: mode === "codec" ? "inprocess" : "bun",
    clientLibrary: "",
    mode,
    codec,
    standard: true,
    frame: codec === "json" ? "text" : "binary",
    library: "",
    libraryVersion: "",
    payload,
    iterations: NaN,
    runs: ROUNDS,
    rounds: ROUNDS,
    warmup: NaN,
    bytes: NaN,
    bytesMin: NaN,
    bytesMax: NaN,
    verified: true,
    error: "",
    serialize: NONE,
    deserialize: NONE,
    total: NONE,
    totalMs: NONE,
    msgsPerS: NaN,
    serializeBatches: batches,
    deserializeBatches: batches,
    loopFloorNs: NaN,
    flags: [],
    raw: [],
    ...(mode === "codec" ? {} : { socket: socket() }),
    ratios: {},
    ...over,
  };
}

/** The machine every run here was made on, but what a run changes. */
const machine = (over: Partial<Environment> = {}): Environment => ({
  runtime: "bun",
  runtimeVersion: "1.0.0",
  os: "Linux",
  arch: "x64",
  cpu: "Test CPU",
  cores: 2,
  memoryGiB: NaN,
  libraries: {},
  clock: "",
  timerResolutionNs: NaN,
  timerOverheadNs: NaN,
  gcBetweenCases: false,
  msgpackrNative: false,
  ...over,
});

/** A results file of these cases, named `name`, on the machine above unless `more` says otherwise. */
function sample(name: string, cases: CaseResult[], more: Partial<BenchResults> = {}): Sample {
  const settings = testSettings({
    codecs: [...new Set(cases.map((c) => c.codec))],
    payloads: [...new Set(cases.map((c) => c.payload))],
    modes: [...new Set(cases.map((c) => c.mode))],
  });
  return {
    name,
    results: {
      timestamp: "",
      settings: { ...settings, minBatchNs: NaN, client: cases.find((c) => c.mode !== "codec")?.client ?? "inprocess" },
      environment: machine(),
      order: {},
      cases,
      elapsedMs: NaN,
      ...more,
    },
  };
}

function run(name: string, fieldSmall: number): Sample {
  return sample(name, [
    caseOf("codec", "json", "small", { ratios: { vsJson: ratio(1) } }),
    caseOf("codec", "custom-binary", "small", { ratios: { vsJson: ratio(0.3) } }),
    caseOf("roundtrip", "custom-binary", "small", { ratios: { fieldVsJson: ratio(fieldSmall) } }),
    caseOf("roundtrip", "broken", "small", { verified: false, ratios: { fieldVsJson: ratio(9) } }),
  ]);
}

const calibrated = sample("cal.csv", [caseOf("stream", "cal-spin", "large")], {
  calibration: [
    {
      client: "bun",
      mode: "stream",
      payload: "large",
      codec: "cal-spin",
      known: { value: 10123.4, low: NaN, high: NaN, rounds: NaN },
      knownByTimers: estimate(1.02),
    },
  ],
});
/** A sweep's run of json, kept up to `rate`, the rate above it missed (none: it kept every rate run). */
const sweep = (rate: number, missed?: number): Sample =>
  sample(`sweep-${rate}.csv`, [caseOf("latency", "json", "medium")], {
    knees: [{ client: "bun", payload: "medium", codec: "json", rate, ...(missed === undefined ? {} : { missed }) }],
  });

describe("sampleFigures", () => {
  const everyCodec = sample("every.csv", [
    caseOf("codec", "json", "small", { ratios: { vsJson: ratio(1) } }),
    caseOf("codec", "custom-binary", "small", { ratios: { vsJson: ratio(0.4) } }),
    caseOf("codec", "avro", "small", { ratios: { vsJson: ratio(0.5) } }),
    caseOf("codec", "msgpackr", "small", { ratios: { vsJson: ratio(0.2) } }),
    caseOf("codec", "protobuf", "small", { ratios: { vsJson: ratio(0.8) } }),
  ]);
  const inServer = sample("field.csv", [
    caseOf("stream", "json", "chat", { ratios: { fieldVsJson: ratio(1) } }),
    caseOf("stream", "custom-binary", "chat", { ratios: { fieldVsJson: ratio(0.8) } }),
    caseOf("stream", "avro", "chat", { ratios: { fieldVsJson: ratio(0.7) } }),
  ]);
  /** A codec's access patterns on market: encode + decode, read-one and validated, each a time and its ratio to json's. */
  const pattern = (
    codec: string,
    total: number,
    readOneNs: number,
    readOne: number,
    validatedNs: number,
    validated: number,
  ) =>
    caseOf("codec", codec, "market", {
      readOne: median(readOneNs),
      validated: median(validatedNs),
      ratios: { vsJson: ratio(total), readOneVsJson: ratio(readOne), validatedVsJson: ratio(validated) },
    });
  const patterns = sample("patterns.csv", [
    pattern("json", 1, 200, 1, 220, 1),
    pattern("custom-binary", 0.7, 50, 0.25, 100, 0.45),
    pattern("flatbuffers", 2, 2, 0.01, 700, 3),
    pattern("msgpackr", 1.2, 280, 1.4, 290, 1.3),
  ]);
  /** One way of routing: the server's CPU per routed message. */
  const way = (cpuNs: number): RouteWaySummary => ({
    cpuNs: median(cpuNs),
    keyNs: NONE,
    encodeNs: NONE,
    publishNs: NONE,
    msgsPerS: NONE,
  });
  const routed = (codec: string, forward: number, recode: number, ratios: CaseRatios = {}): CaseResult =>
    caseOf("route", codec, "chat", {
      route: {
        rooms: NaN,
        publishers: 4,
        members: 8,
        validate: false,
        keyAccess: codec === "json" ? "decode" : "offset",
        expected: 1000,
        delivered: 1000,
        misrouted: 0,
        forward: way(forward),
        recode: way(recode),
        recodeOverForward: { value: recode / forward, low: NaN, high: NaN, rounds: ROUNDS },
      },
      ratios,
    });
  const route = sample("route.csv", [
    routed("json", 7000, 8000),
    routed("custom-binary", 5600, 6000, { routeVsJson: ratio(0.8), routeRecodeVsJson: ratio(0.75) }),
    routed("protobuf", 6300, 12000, { routeVsJson: ratio(0.9), routeRecodeVsJson: ratio(1.5) }),
  ]);
  /** One engine's run: codec mode where `codecRatio` is given, round trips where `trip` is. */
  const engine = (
    name: string,
    runtime: string,
    version: string,
    client: CaseResult["client"],
    codecRatio: number | undefined,
    trip: number | undefined,
    more: Partial<CaseResult> = {},
    env: Partial<Environment> = {},
  ): Sample =>
    sample(
      name,
      [
        ...(codecRatio === undefined
          ? []
          : [
              caseOf("codec", "json", "large", { client, ratios: { vsJson: ratio(1) } }),
              caseOf("codec", "custom-binary", "large", { client, ratios: { vsJson: ratio(codecRatio) } }),
            ]),
        ...(trip === undefined
          ? []
          : [
              caseOf("roundtrip", "custom-binary", "large", { client, ratios: { clientVsJson: ratio(trip) }, ...more }),
            ]),
      ],
      { environment: machine({ runtime, runtimeVersion: version, ...env }) },
    );
  const engines = {
    bun: engine("bun.csv", "bun", "1.4.4", "bun", 0.6, 0.5),
    // Codec mode runs in Bun whatever the client: a Node run's machine is Bun's, Node in the client library.
    node: engine("node.csv", "bun", "1.4.4", "node", undefined, 1.1, { clientLibrary: "ws 8.23.0 on Node v20.20.2" }),
    chromium: engine("chromium.csv", "browser", "Chrome 156.0.1", "browser", 0.9, 0.95),
    firefox: engine(
      "firefox.csv",
      "browser",
      "Firefox 153.0",
      "browser",
      1.02,
      0.85,
      { flags: ["coarse-clock"] },
      { timerResolutionNs: 20000 },
    ),
  };
  /** A fanout run of json and custom-binary on `processes` processes, through Redis or not. */
  const fanout = (name: string, processes: number, backplane: string, rate: number, cpu: number): Sample =>
    sample(
      name,
      ["json", "custom-binary"].map((codec, i) => {
        const cluster: ClusterFigures = {
          processes,
          backplane,
          cpuNsPerDelivery: median(cpu * (i === 0 ? 1 : 0.75)),
          backplaneBytesPerMsg: median(backplane ? (i === 0 ? 1181 : 860) : 0),
        };
        return caseOf("fanout", codec, "large", {
          bytes: i === 0 ? 329 : 222,
          msgsPerS: rate * (i === 0 ? 1 : 1.3),
          socket: socket({ cluster }),
        });
      }),
    );
  const cluster = {
    alone: fanout("alone.csv", 1, "", 240_000, 1200),
    redis: fanout("redis.csv", 1, "redis", 215_000, 2270),
    cluster: fanout("cluster.csv", 2, "redis", 180_000, 3530),
  };
  const block = sampleFigures({
    runs: [run("a.csv", 0.5), run("b.csv", 0.6)],
    calibrated,
    sweeps: [sweep(20000, 24000), sweep(24000)],
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
