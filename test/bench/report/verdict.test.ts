/**
 * The verdict follows the figures: fed two runs with opposite winners, it
 * names opposite winners; codecs the intervals cannot separate are called
 * tied; the socket line says whether the codec mattered at that transport's
 * speed.
 */
import { describe, expect, it } from "vitest";
import type { CaseResult, SliceFigures } from "../../../client/harness/results.ts";
import { summarize } from "../../../client/harness/statistics.ts";
import { withRatios } from "../../../client/harness/ratios.ts";
import { VERDICT_MAX_LINES, verdictLines } from "../../../bench/report/verdict.ts";
import { coldCase, type ColdOutcome } from "../../../client/harness/cold-mode.ts";

/** The verdict of these cases, with the ratios their results would carry. */
const verdictOf = (cases: CaseResult[]): string[] => verdictLines(withRatios(cases).cases);

/** A verified case with these per-round totals (ns per message). */
function caseOf(codec: string, payload: string, totals: number[], over: Partial<CaseResult> = {}): CaseResult {
  const raw: SliceFigures[] = totals.map((t, round) => ({
    run: 0,
    round,
    position: 0,
    serializeNs: t / 2,
    deserializeNs: t / 2,
    totalNs: t,
  }));
  const total = summarize(totals);
  return {
    client: "inprocess",
    mode: "codec",
    codec,
    standard: true,
    payload,
    verified: true,
    error: "",
    bytes: 10,
    raw,
    total: { ...total, median: [...totals].sort((a, b) => a - b)[Math.floor(totals.length / 2)]! },
    msgsPerS: 1e9 / total.mean,
    flags: [],
    ...over,
  } as CaseResult;
}

/** Twelve rounds around `ns`, wobbling the same way for every codec (the machine's drift). */
const rounds = (ns: number, wobble = 0): number[] =>
  Array.from({ length: 12 }, (_, i) => ns * (1 + 0.05 * Math.sin(i)) * (1 + wobble * (i % 2 === 0 ? 1 : -1)));

describe("the verdict", () => {
  it("names the winners a run measured, and the opposite ones when the figures say so", () => {
    const binaryWins = [
      caseOf("json", "small", rounds(200), { bytes: 33 }),
      caseOf("custom-binary", "small", rounds(100), { bytes: 15 }),
      caseOf("protobuf", "small", rounds(300), { bytes: 16 }),
    ];
    const jsonWins = [
      caseOf("json", "small", rounds(100), { bytes: 12 }),
      caseOf("custom-binary", "small", rounds(250), { bytes: 15 }),
      caseOf("protobuf", "small", rounds(300), { bytes: 16 }),
    ];
    const a = verdictOf(binaryWins);
    const b = verdictOf(jsonWins);
    expect(a[0]).toMatch(/^Verdict from this run \(fastest by encode \+ decode in process/);
    expect(a.slice(1, 3)).toEqual([
      "small  client: custom-binary fastest to encode + decode in process, 0.50x json's time",
      "       bytes:  custom-binary smallest, 15 B (json 33 B)",
    ]);
    expect(b.slice(1, 3)).toEqual([
      "small  client: json fastest to encode + decode in process",
      "       bytes:  json smallest, 12 B",
    ]);
    expect(a).toContain("custom-binary vs json: 0.50x time, 0.45x bytes (small)");
    expect(b).toContain("custom-binary vs json: 2.50x time, 1.25x bytes (small)");
    // A payload json did not run on (it changed the user's messages) has no ratio, and is not named.
    const own = verdictOf([...binaryWins, caseOf("custom-binary", "moves", rounds(80), { bytes: 11 })]);
    expect(own).toContain("custom-binary vs json: 0.50x time, 0.45x bytes (small)");
  });

  it("with fifteen codecs on six payloads, still says each payload's winner, what json costs and custom-binary's standing within the budget", () => {
    const payloads = ["small", "medium", "large", "chat", "game-tick", "market"];
    const codecs = [
      "json",
      "json-bytes",
      "custom-binary",
      "protobuf",
      "pbf",
      "protobuf-es",
      "avro",
      "bebop",
      "msgpack",
      "msgpackr",
      "msgpackr-records",
      "cbor",
      "bson",
      "flatbuffers",
      "capnp",
    ];
    const cases = payloads.flatMap((payload) =>
      codecs.map((codec, i) => caseOf(codec, payload, rounds(100 + 37 * ((i * 7) % 15)), { bytes: 20 + i })),
    );
    const lines = verdictOf(cases);
    // Each payload's answer in full (client, bytes: two lines each here), the rest within the budget.
    expect(lines.length).toBeLessThanOrEqual(1 + 2 * payloads.length + VERDICT_MAX_LINES);
    for (const payload of payloads)
      expect(
        lines.some((l) => l.startsWith(`${payload.padEnd(10)}client: `)),
        payload,
      ).toBe(true);
    expect(lines.some((l) => l.startsWith("custom-binary vs json: "))).toBe(true);
    expect(lines.some((l) => l.startsWith("custom-binary ranks "))).toBe(true);
    for (const line of lines) expect([...line].length, line).toBeLessThanOrEqual(100);
  });

  it("says where custom-binary ranks and how it stands against the fastest other schema codec", () => {
    const cases = [
      caseOf("json", "small", rounds(200)),
      caseOf("custom-binary", "small", rounds(100)),
      caseOf("protobuf", "small", rounds(300)),
      caseOf("msgpackr", "small", rounds(80)),
      caseOf("json", "large", rounds(200), { payload: "large" }),
      caseOf("custom-binary", "large", rounds(150), { payload: "large" }),
      caseOf("protobuf", "large", rounds(100), { payload: "large" }),
      caseOf("msgpackr", "large", rounds(400), { payload: "large" }),
    ];
    expect(verdictOf(cases)).toContain(
      "custom-binary ranks 2 / 2 of 4; vs the fastest other schema codec (protobuf) 0.33 / 1.50x",
    );
    // Without another schema codec, the place alone.
    expect(verdictOf(cases.filter((c) => c.codec !== "protobuf"))).toContain("custom-binary ranks 2 / 1 of 3");
  });

  it("calls codecs tied when their paired interval holds 1", () => {
    const cases = [
      caseOf("json", "medium", rounds(200, 0.1)),
      caseOf("custom-binary", "medium", rounds(200, -0.1)),
      caseOf("msgpack", "medium", rounds(400)),
    ];
    const line = verdictOf(cases).find((l) => l.startsWith("medium"))!;
    expect(line).toMatch(
      /^medium client: (json|custom-binary) fastest to encode \+ decode in process, .*tied with (custom-binary|json)$/,
    );
    expect(line).not.toContain("msgpack");
  });

  it("over the socket: says the codec matters, or that the transport sets the pace", () => {
    const stream = (codec: string, msgsPerS: number): CaseResult =>
      caseOf(codec, "small", rounds(1e9 / msgsPerS), { mode: "stream", client: "bun", msgsPerS });
    const fastTransport = [stream("raw", 200_000), stream("json", 100_000), stream("custom-binary", 180_000)];
    const slowTransport = [stream("raw", 7_000), stream("json", 6_900), stream("custom-binary", 7_000)];
    const fast = verdictOf(fastTransport);
    const slow = verdictOf(slowTransport);
    expect(fast).toContain("Socket (stream, bun client): raw 200k msg/s, codecs 50-90% of it");
    expect(fast.at(-1)).toBe("  so the codec matters here: the fastest does 1.8x the slowest's work in the same time.");
    expect(slow.at(-1)).toMatch(/the transport sets the pace here; the codec hardly matters/);
  });

  it("gives each payload its answer, the rest within the budget, in lines of at most 100 columns; says nothing without a verified case", () => {
    const many = ["small", "medium", "large"].flatMap((p) =>
      ["json", "custom-binary", "protobuf", "msgpack", "msgpackr", "json-bytes"].map((c) =>
        caseOf(c, p, rounds(300, 0.2), { bytes: 100 }),
      ),
    );
    const lines = verdictOf(many);
    expect(lines.length).toBeLessThanOrEqual(1 + 2 * 3 + VERDICT_MAX_LINES);
    for (const l of lines) expect([...l].length).toBeLessThanOrEqual(100);
    expect(verdictOf([{ ...caseOf("json", "small", [1]), verified: false }])).toEqual([]);
  });

  it("for a latency run: fastest at the lowest rate, and each payload's knee, best and worst", () => {
    const latency = (
      codec: string,
      payload: string,
      rate: number,
      ns: number,
      over: { achieved?: number } = {},
    ): CaseResult =>
      caseOf(codec, payload, rounds(ns), {
        client: "bun",
        mode: "latency",
        socket: {
          targetRate: rate,
          achievedRate: over.achieved ?? rate,
          late: 0,
          sent: 1000,
          latency: { samples: 1000, p50: ns, p90: ns, p99: 2 * ns, p999: 3 * ns, p9999: 3 * ns, max: 4 * ns },
        } as CaseResult["socket"],
      });
    const cases = [
      latency("json", "small", 1000, 90_000),
      latency("json", "small", 5000, 95_000),
      latency("json", "small", 20_000, 99_000, { achieved: 15_000 }),
      latency("msgpack", "small", 1000, 60_000),
      latency("msgpack", "small", 5000, 70_000, { achieved: 4000 }),
      latency("custom-binary", "small", 1000, 61_000),
      latency("custom-binary", "small", 5000, 62_000),
      latency("custom-binary", "small", 20_000, 63_000),
    ];
    const lines = verdictOf(cases);
    expect(lines[0]).toContain("mean latency at the lowest rate run");
    // At 1,000/s, not at the higher rates where json and custom-binary were slower.
    expect(lines[1]).toMatch(
      /^small +speed: +msgpack fastest by mean latency at the lowest rate run, 0\.67x json's time$/,
    );
    expect(lines.join(" ").replace(/ +/g, " ")).toContain(
      "Knee (latency, bun client), msgs/s kept, best .. worst: small 20k+ custom-binary .. 1k msgpack",
    );
  });

  it("says each payload's smallest deflated in a stream, with json's deflated size beside it", () => {
    const sized = (codec: string, payload: string, stream: number, bytes: number): CaseResult =>
      caseOf(codec, payload, rounds(codec === "json" ? 1000 : 500), {
        bytes,
        compression: {
          deflateBytes: stream + 5,
          deflateContextBytes: stream,
          zstdBytes: stream + 9,
          zstdNs: 3000,
          zstdEmptyNs: 2500,
        },
      });
    const lines = verdictOf([
      sized("json", "small", 20, 33),
      sized("custom-binary", "small", 17, 15),
      sized("msgpack", "small", 13, 26),
      sized("json", "large", 237, 329),
      sized("custom-binary", "large", 207, 222),
    ]);
    // On small msgpack deflates smallest though custom-binary is the smallest plain; on large custom-binary is both.
    const text = lines.join(" ").replace(/\s+/g, " ");
    expect(text).toContain(
      "bytes: custom-binary smallest, 15 B (json 33 B); deflated, msgpack smallest, 13 B (json 20 B)",
    );
    expect(text).toContain(
      "bytes: custom-binary smallest, 222 B (json 329 B); deflated, custom-binary smallest, 207 B (json 237 B)",
    );
    // Without compressed sizes, the plain size alone.
    expect(
      verdictOf([caseOf("json", "small", rounds(1000)), caseOf("custom-binary", "small", rounds(500))]).join("\n"),
    ).not.toContain("deflated");
  });

  it("gives the server's side from the field figure, and where the client's fastest is another codec says which line applies to what", () => {
    /** A stream case whose server timed decode + encode at `fieldNs` per message (raw's timers taken off). */
    const field = (codec: string, fieldNs: number): CaseResult => {
      const c = caseOf(codec, "strokes", rounds(1e9 / 50_000), { mode: "stream", client: "bun", msgsPerS: 50_000 });
      const ns = rounds(fieldNs);
      c.raw.forEach((r, i) => (r.server = { codecNs: ns[i]!, quietNs: ns[i]!, cpuNs: 2 * ns[i]! } as never));
      return { ...c, socket: { field: {} } as CaseResult["socket"] };
    };
    const lab = [
      caseOf("json", "strokes", rounds(1000)),
      caseOf("custom-binary", "strokes", rounds(300)),
      caseOf("msgpackr", "strokes", rounds(200)),
    ];
    const same = verdictOf([...lab.slice(0, 2), field("json", 20_000), field("custom-binary", 4000)]);
    expect(same).toContain(
      "        server: custom-binary least decode + encode inside the server (stream), 0.20x json's",
    );
    const text = verdictOf([...lab, field("json", 20_000), field("custom-binary", 4000), field("msgpackr", 21_000)])
      .join(" ")
      .replace(/\s+/g, " ");
    expect(text).toContain("strokes client: msgpackr fastest to encode + decode in process, 0.20x json's time");
    expect(text).toContain(
      "server: custom-binary least decode + encode inside the server (stream), 0.20x json's; the client's msgpackr 1.05x json's there: this line is what the server pays, the client's what each device pays",
    );
  });
});

describe("the verdict's read-one line", () => {
  /** A codec-mode case whose read-one rounds take `readNs` and encode + decode `totalNs`. */
  const withReadOne = (codec: string, payload: string, totalNs: number, readNs: number): CaseResult => {
    const c = caseOf(codec, payload, rounds(totalNs));
    const reads = rounds(readNs);
    c.raw.forEach((r, i) => (r.readOneNs = reads[i]!));
    return {
      ...c,
      readOne: summarize(reads),
      keyAccess: codec === "json" ? "decode" : "offset",
      deserialize: summarize(rounds(totalNs / 2)),
    } as CaseResult;
  };

  it("names read-one's winner per payload and where it is not encode + decode's", () => {
    const lines = verdictOf([
      withReadOne("json", "market", 1000, 500),
      withReadOne("custom-binary", "market", 700, 50),
      withReadOne("flatbuffers", "market", 1500, 20),
      withReadOne("json", "chat", 1000, 500),
      withReadOne("custom-binary", "chat", 600, 40),
    ]);
    // Wrapped at the terminal's width: read as one line.
    expect(lines.join(" ").replace(/\s+/g, " ")).toContain(
      "Read-one (the routing key from a frame): fastest custom-binary / flatbuffers, 0.080 / 0.040x json's; not encode + decode's winner on market",
    );
  });

  it("one winner everywhere is named once; a run without read-one has no such line", () => {
    const lines = verdictOf([withReadOne("json", "chat", 1000, 500), withReadOne("custom-binary", "chat", 600, 40)]);
    expect(lines).toContain(
      "Read-one (the routing key from a frame): fastest custom-binary on every payload, 0.080x json's",
    );
    expect(
      verdictOf([caseOf("json", "chat", rounds(1000)), caseOf("custom-binary", "chat", rounds(600))]).join("\n"),
    ).not.toContain("Read-one");
  });
});

describe("route mode in the verdict", () => {
  /** A route case whose slices cost the server `forwardNs` of CPU per message forwarding and `recodeNs` recoding. */
  const routed = (codec: string, payload: string, forwardNs: number, recodeNs: number): CaseResult => {
    const c = caseOf(codec, payload, rounds(10_000), { mode: "route" });
    const fwd = rounds(forwardNs);
    const rec = rounds(recodeNs);
    const way = (cpuNs: number) => ({ totalNs: 10_000, cpuNs, keyNs: 100, encodeNs: 0, publishNs: 400 });
    c.raw.forEach((r, i) => (r.route = { forward: way(fwd[i]!), recode: way(rec[i]!) }));
    const summary = (values: number[]) => ({
      cpuNs: summarize(values),
      keyNs: summarize([100]),
      encodeNs: summarize([0]),
      publishNs: summarize([400]),
      msgsPerS: summarize([1e5]),
    });
    const route = {
      rooms: 8,
      publishers: 4,
      members: 8,
      validate: false,
      keyAccess: "decode" as const,
      expected: 100,
      delivered: 100,
      misrouted: 0,
      forward: summary(fwd),
      recode: summary(rec),
      recodeOverForward: { value: recodeNs / forwardNs, low: 1, high: 2, rounds: 12 },
    };
    return { ...c, route } as CaseResult;
  };

  it("ranks route mode by the server's CPU forwarding, and names each way's least cost and what recoding adds", () => {
    const lines = verdictOf([
      routed("json", "chat", 8000, 8800),
      routed("custom-binary", "chat", 6000, 7000),
      routed("protobuf", "chat", 6400, 12_000),
      routed("json", "market", 5000, 5500),
      routed("custom-binary", "market", 4500, 4800),
    ]);
    const text = lines.join(" ").replace(/\s+/g, " ");
    expect(lines[0]).toMatch(/^Verdict from this run \(fastest by the server's CPU per routed message \(forwarding\)/);
    expect(text).toContain(
      "chat speed: custom-binary fastest by the server's CPU per routed message (forwarding), 0.75x json's CPU",
    );
    expect(text).toContain(
      "Routing, least server CPU per message vs json's: forwarding bytes custom-binary 0.75 / 0.90x; recoding custom-binary 0.80 / 0.87x; recoding costs 1.07-1.88x forwarding",
    );
  });

  it("says where the two ways' winners differ", () => {
    const text = verdictOf([
      routed("json", "chat", 8000, 8800),
      routed("custom-binary", "chat", 6000, 9000),
      routed("flatbuffers", "chat", 5800, 12_000),
    ])
      .join(" ")
      .replace(/\s+/g, " ");
    expect(text).toContain("forwarding bytes flatbuffers 0.73x; recoding json 1.00x (another winner on chat)");
  });
});

describe("the cold-start line", () => {
  const settings = { iterations: { cold: 1000 }, runs: { cold: 6 } } as never;
  const info = { standard: true, frame: "binary" as const, library: "" };
  /** A cold case whose first message and mean per message over its 1,000 are these, repeat by repeat, loading in `loadMs`. */
  const cold = (codec: string, firsts: number[], means: number[], loadMs: number, gzipBytes?: number): CaseResult => {
    const outcomes: ColdOutcome[] = firsts.map((firstNs, repeat) => ({
      run: { codec, payload: "small", repeat, position: 0 },
      measured: {
        slice: { importNs: loadMs * 1e6, setupNs: 0, firstNs, first1000Ns: means[repeat]! },
        serializeNs: means[repeat]! / 2,
        deserializeNs: means[repeat]! / 2,
        totalNs: means[repeat]!,
        bytes: 20,
        bytesMin: 20,
        bytesMax: 20,
        clockResolutionNs: 1,
      },
    }));
    const c = coldCase(codec, "small", outcomes, settings, info);
    if (gzipBytes !== undefined) Object.assign(c.cold!, { bundleBytes: gzipBytes * 3, bundleGzipBytes: gzipBytes });
    return c;
  };
  const jitter = (base: number): number[] => [1, 1.02, 0.98, 1.01, 0.99, 1.03].map((f) => base * f);

  it("names the fastest on the first message and over the first 1,000, those tied with it, and the ranges of loading and page bytes", () => {
    const lines = verdictOf([
      cold("json", jitter(60_000), jitter(1_300), 0.7, 0),
      // Slower on the first message, the same over the thousand (its own spread holds json's).
      cold("custom-binary", jitter(900_000), [1_250, 1_380, 1_260, 1_350, 1_290, 1_310], 8, 11_000),
      cold("protobuf", jitter(6_000_000), jitter(12_000), 52, 39_600),
    ]);
    const at = lines.findIndex((l) => l.startsWith("Cold start"));
    const line = lines
      .slice(at, at + 3)
      .map((l) => l.trim())
      .join(" ");
    expect(line).toMatch(
      /fastest on the first message: json; over the first 1,000: (json = custom-binary|custom-binary = json);/,
    );
    expect(line).toMatch(/loading \(import \+ set-up\) from json 0\.7 ms to protobuf 52 ms/);
    expect(line).toMatch(/on a page, gzipped, from custom-binary \+11 kB to protobuf \+40 kB/);
  });

  it("says nothing of cold start where the run has no cold mode", () => {
    expect(
      verdictOf([caseOf("json", "small", [100, 101, 99]), caseOf("msgpack", "small", [90, 91, 89])]).join("\n"),
    ).not.toMatch(/Cold start/);
  });
});
