/**
 * Keeps the prose of docs/results.md (outside its generated figures block)
 * true to the committed runs it reads: every figure and every ranking it
 * states is worked out here from the file it comes from.
 */
import { describe, expect, it } from "vitest";
import type { CaseResult, Ratio } from "../../client/harness/results.ts";
import { ratioText } from "../../bench/report/format.ts";
import { BUILT_IN } from "../../protocols/registry.ts";
import { resultsFromFile } from "../../bench/report/results-file.ts";
import { casesOf, csvSample, doc, flat, num, type Row, sample } from "../helpers/samples.ts";

/** The page outside the block `bun run readme-figures` writes (a test of its own holds that). */
const prose = flat(doc("results.md").slice(doc("results.md").indexOf("<!-- figures:end -->")));

const ARTICLE = ["small", "medium", "large"] as const;
const SETS = ["chat", "game-tick", "market"] as const;
const ALL = [...ARTICLE, ...SETS] as const;
const WORDS = ["no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"];
const words = (n: number): string =>
  n < WORDS.length ? WORDS[n]! : n === 15 ? "fifteen" : n === 16 ? "sixteen" : String(n);

/** A ratio to two decimals, or two significant digits below 0.1, as the tables write it. */
const fig = (x: number): string => (x > 0 && x < 0.1 ? x.toPrecision(2) : x.toFixed(2));
/** "lo-hi" of some values, one figure when both read the same. */
const range = (values: number[], f: (x: number) => string): string => {
  const [lo, hi] = [f(Math.min(...values)), f(Math.max(...values))];
  return lo === hi ? lo : `${lo}-${hi}`;
};
const whole = (x: number): string => Math.round(x).toLocaleString("en-US");
const thousands = (x: number): string => (Math.round(x / 1000) * 1000).toLocaleString("en-US");
/** The half-width of a ratio's interval, as the README's intervals are written: "±12%", "±4.2%". */
const pct = (x: number): string => (x >= 0.1 ? `±${Math.round(x * 100)}%` : `±${(x * 100).toFixed(1)}%`);
const half = (r: Ratio): number => Math.max(r.high / r.ratio - 1, 1 - r.low / r.ratio);

type Cases = CaseResult[];
const find = (cases: Cases, mode: string, payload: string, codec: string): CaseResult => {
  const found = cases.filter((c) => c.mode === mode && c.payload === payload && c.codec === codec);
  if (found.length !== 1) throw new Error(`${found.length} cases of ${mode} ${payload} ${codec}`);
  return found[0]!;
};
/** The codecs of a mode and payload, cheapest first by a ratio. */
const ranked = (cases: Cases, mode: string, payload: string, pick: (c: CaseResult) => number | undefined) =>
  cases
    .filter((c) => c.mode === mode && c.payload === payload && Number.isFinite(pick(c) ?? Number.NaN))
    .sort((a, b) => pick(a)! - pick(b)!)
    .map((c) => c.codec);

const SCHEMA = BUILT_IN.family("schema");

describe("docs/results.md", () => {
  const lab = casesOf("epyc-every-codec.csv");
  const field = casesOf("epyc-every-codec-field.csv");
  const chromium = casesOf("chromium-every-codec.csv");
  const vsJson = (c: CaseResult) => c.ratios?.vsJson?.ratio;
  const fieldVsJson = (c: CaseResult) => c.ratios?.fieldVsJson?.ratio;

  it("what it says of every codec on every payload is the three every-codec runs'", () => {
    // In Bun the closest to custom-binary among the other schema codecs is Avro, in the lab and in the server.
    for (const payload of ALL) {
      expect(ranked(lab, "codec", payload, vsJson).filter((c) => SCHEMA.includes(c) && c !== "custom-binary")[0]).toBe(
        "avro",
      );
      expect(
        ranked(field, "stream", payload, fieldVsJson).filter((c) => SCHEMA.includes(c) && c !== "custom-binary")[0],
      ).toBe("avro");
    }
    const bytes = (payload: string, codec: string) => find(lab, "codec", payload, codec).bytes;
    const apart = (payload: string) => bytes(payload, "avro") / bytes(payload, "custom-binary");
    expect(Math.max(...ALL.map(apart))).toBe(apart("game-tick"));
    expect(prose).toContain(
      `In Bun the closest is Avro, which writes nearly the same bytes (except on game-tick: ${whole(bytes("game-tick", "avro"))} against ${whole(bytes("game-tick", "custom-binary"))})`,
    );

    // Codec mode: Avro first on game-tick, their intervals apart; custom-binary first on the other five.
    const firsts = ALL.map((p) => ranked(lab, "codec", p, vsJson)[0]);
    expect(firsts).toEqual(ALL.map((p) => (p === "game-tick" ? "avro" : "custom-binary")));
    const labAvro = find(lab, "codec", "game-tick", "avro").ratios!.vsJson!;
    const labCb = find(lab, "codec", "game-tick", "custom-binary").ratios!.vsJson!;
    expect(labAvro.high).toBeLessThan(labCb.low);
    expect(prose).toContain(
      `in codec mode Avro is first on game-tick (${fig(labAvro.ratio)} against custom-binary's ${fig(labCb.ratio)} of JSON's time, their intervals apart) and custom-binary on the other five`,
    );

    // In the server: custom-binary first on all six, level with Avro on game-tick.
    expect(ALL.map((p) => ranked(field, "stream", p, fieldVsJson)[0])).toEqual(ALL.map(() => "custom-binary"));
    const inAvro = find(field, "stream", "game-tick", "avro").ratios!.fieldVsJson!;
    const inCb = find(field, "stream", "game-tick", "custom-binary").ratios!.fieldVsJson!;
    expect(inCb.high).toBeGreaterThanOrEqual(inAvro.low);
    expect(prose).toContain(
      `inside the server custom-binary is first on all six, level with Avro on game-tick (${fig(inCb.ratio)} against ${fig(inAvro.ratio)}, their intervals overlapping)`,
    );

    // Chromium: custom-binary against the fastest other schema codec, and where it is not first.
    const against = ALL.map((p) => {
      const cb = vsJson(find(chromium, "codec", p, "custom-binary"))!;
      const other = ranked(chromium, "codec", p, vsJson).find((c) => SCHEMA.includes(c) && c !== "custom-binary")!;
      return cb / vsJson(find(chromium, "codec", p, other))!;
    });
    const notFirst = ALL.filter((p) => ranked(chromium, "codec", p, vsJson)[0] !== "custom-binary");
    expect(notFirst).toEqual(["large"]);
    expect(ranked(chromium, "codec", "large", vsJson)[0]).toBe("json");
    const large = find(chromium, "codec", "large", "custom-binary");
    expect(prose).toContain(
      `In Chromium custom-binary is ${range(against, (x) => x.toFixed(2))}x the fastest other schema codec's time on every payload and first on ${words(ALL.length - notFirst.length)}; on the large message JSON is level with it (custom-binary ${ratioText(large.ratios!.vsJson!, { interval: false })}) and decodes it faster.`,
    );
    expect(find(chromium, "codec", "large", "json").deserialize.median).toBeLessThan(large.deserialize.median);
    // Which schema codecs beat custom-binary at one half of the work in Chromium.
    const beats = (half: "serialize" | "deserialize") =>
      Object.fromEntries(
        ALL.map((p) => {
          const cb = find(chromium, "codec", p, "custom-binary")[half].median;
          const faster = chromium
            .filter((c) => c.mode === "codec" && c.payload === p && SCHEMA.includes(c.codec) && c[half].median < cb)
            .map((c) => c.codec)
            .sort();
          return [p, faster];
        }).filter(([, faster]) => faster!.length > 0),
      );
    expect(beats("deserialize")).toEqual({ "game-tick": ["bebop"], small: ["protobuf"] });
    expect(beats("serialize")).toEqual({ market: ["bebop", "pbf"] });
    expect(prose).toContain(
      "Among the schema codecs, Bebop decodes game-tick faster, protobuf decodes small faster, and Bebop and pbf encode market faster.",
    );
  });

  it("what it says of the access patterns is the every-codec run's read-one and validated figures", () => {
    const readOne = (c: CaseResult) => c.ratios?.readOneVsJson?.ratio;
    const validated = (c: CaseResult) => c.ratios?.validatedVsJson?.ratio;
    for (const p of ALL) expect(ranked(lab, "codec", p, readOne).slice(0, 2), p).toEqual(["custom-binary", "avro"]);
    const cbReads = ALL.map((p) => readOne(find(lab, "codec", p, "custom-binary"))!);
    expect(prose).toContain(
      `custom-binary reads the key fastest on every payload (${range(cbReads, fig)}x the time JSON takes to parse the message) and Avro second`,
    );
    // FlatBuffers and the Protobuf scans pass, reading one field, a codec that encodes and decodes faster.
    for (const codec of ["flatbuffers", "protobuf", "pbf"]) {
      const passes = ALL.some((p) => {
        const it = find(lab, "codec", p, codec);
        return lab.some(
          (c) =>
            c.mode === "codec" &&
            c.payload === p &&
            vsJson(c)! < vsJson(it)! &&
            (readOne(c) ?? Number.POSITIVE_INFINITY) > readOne(it)!,
        );
      });
      expect(passes, codec).toBe(true);
    }
    // A codec that reaches the key only by decoding reads one field in its decode's time.
    for (const r of csvSample("epyc-every-codec.csv")
      .where({ mode: "codec" })
      .filter((x) => x("key_access") === "decode"))
      expect(num(r, "read_one_ns") / num(r, "deserialize_ns"), `${r("payload")} ${r("codec")}`).toBeCloseTo(1, 1);
    expect(prose).toContain("everything that can only decode stays at its decode");
    // Validating: Avro ahead of custom-binary on medium and large, level on small, JSON behind both.
    const v = (p: string, codec: string) => validated(find(lab, "codec", p, codec))!;
    for (const p of ["medium", "large"]) {
      expect(ranked(lab, "codec", p, validated)[0], p).toBe("avro");
      expect(ranked(lab, "codec", p, vsJson)[0], p).toBe("custom-binary");
    }
    for (const p of ARTICLE) expect(v(p, "json")).toBeGreaterThan(Math.max(v(p, "avro"), v(p, "custom-binary")));
    expect(fig(v("small", "avro"))).toBe(fig(v("small", "custom-binary")));
    expect(prose).toContain(
      `costs less than custom-binary's decode on medium and large (${fig(v("medium", "avro"))}x and ${fig(v("large", "avro"))}x JSON's time against ${fig(v("medium", "custom-binary"))}x and ${fig(v("large", "custom-binary"))}x; on small they are level, ${fig(v("small", "custom-binary"))}x)`,
    );
  });

  it("what it says of the router is the committed route run's", () => {
    const route = csvSample("epyc-route.csv");
    const rows = route.where({ mode: "route" });
    const cheapest = rows.reduce((a, b) => (num(b, "route_cpu_ns") < num(a, "route_cpu_ns") ? b : a));
    expect([cheapest("codec"), cheapest("payload")]).toEqual(["avro", "market"]);
    expect(prose).toContain(
      `the cheapest router here, Avro on market, costs the server ${(num(cheapest, "route_cpu_ns") / 1000).toFixed(2)} µs per message, of which reading the key is ${Math.round(num(cheapest, "route_key_ns"))} ns`,
    );
    /** The five codecs that cost the server least forwarding a payload's messages. */
    const five = (payload: string) =>
      route
        .where({ mode: "route", payload })
        .sort((a, b) => num(a, "route_cpu_ns") - num(b, "route_cpu_ns"))
        .slice(0, 5);
    const names = (rs: Row[]) => rs.map((r) => r("codec")).sort();
    const withoutDecoding = (rs: Row[]) => rs.filter((r) => r("key_access") !== "decode");
    expect(names(five("game-tick"))).toEqual(["avro", "custom-binary", "flatbuffers", "pbf", "protobuf"]);
    expect(withoutDecoding(five("game-tick"))).toHaveLength(5);
    expect(names(five("chat").filter((r) => r("key_access") === "decode"))).toEqual(["json-bytes"]);
    const level = (r: Row, col: string) => num(r, `${col}_ci95_low`) <= 1 && num(r, `${col}_ci95_high`) >= 1;
    expect(five("market").every((r) => level(r, "route_cpu_vs_json"))).toBe(true);
    const jsonBytes = (payload: string) => num(route.row({ mode: "route", payload, codec: "json" }), "bytes");
    expect(jsonBytes("market")).toBeLessThan(Math.min(jsonBytes("chat"), jsonBytes("game-tick")));
    expect(prose).toContain(
      "on game-tick the five that cost the server least forwarding are the codecs that read it without decoding (custom-binary, the Protobuf scans, Avro, FlatBuffers), on chat four of them and json-bytes, and on market, the smallest message, the five cheapest are level with JSON within their intervals",
    );

    // The decoding schemaless codecs: dear in codec mode, much less so in a router, and still behind JSON.
    const schemaless = ["msgpack", "msgpackr", "msgpackr-records", "cbor", "bson"];
    const both = ["chat", "market"];
    const inCodecMode = both.flatMap((p) => schemaless.map((c) => vsJson(find(lab, "codec", p, c))!));
    const routed = both.flatMap((p) => schemaless.map((c) => route.row({ mode: "route", payload: p, codec: c })));
    const levelOnes = routed.filter((r) => level(r, "route_cpu_vs_json")).map((r) => `${r("codec")} ${r("payload")}`);
    expect(levelOnes.sort()).toEqual(["msgpack market", "msgpackr-records chat", "msgpackr-records market"]);
    expect(routed.every((r) => num(r, "route_cpu_vs_json") > 1)).toBe(true);
    expect(routed.every((r) => r("key_access") === "decode")).toBe(true);
    expect(prose).toContain(
      `MessagePack, CBOR and BSON, ${range(inCodecMode, (x) => x.toFixed(1))}x JSON's time in codec mode on chat and market, cost a router ${range(
        routed.map((r) => num(r, "route_cpu_vs_json")),
        (x) => x.toFixed(2),
      )}x JSON's CPU there (msgpackr-records on both and msgpack on market level with it within their intervals)`,
    );

    // Game-tick: forwarding against recoding.
    const tick = route.where({ mode: "route", payload: "game-tick" });
    const kb = range(
      tick.map((r) => num(r, "bytes")),
      (x) => String(Math.round(x / 1000)),
    );
    const cb = route.row({ mode: "route", payload: "game-tick", codec: "custom-binary" });
    const recode = tick.map((r) => num(r, "route_recode_over_forward"));
    const dearest = [...tick]
      .sort((a, b) => num(b, "route_recode_over_forward") - num(a, "route_recode_over_forward"))
      .slice(0, 2)
      .map((r) => r("codec"));
    expect(dearest.sort()).toEqual(["capnp", "protobuf-es"]);
    expect(prose).toContain(
      `On game-tick, where a message is ${kb} KB, forwarding with custom-binary costs ${num(cb, "route_cpu_vs_json").toFixed(2)}x JSON's CPU (the five cheapest ${range(
        five("game-tick").map((r) => num(r, "route_cpu_vs_json")),
        (x) => x.toFixed(2),
      )}x), and recoding instead of forwarding costs ${Math.min(...recode).toFixed(2)}-${Math.max(...recode).toFixed(1)}x as much, most with the slow encoders (Cap'n Proto, protobuf-es).`,
    );

    const delivered = rows.reduce((sum, r) => sum + num(r, "route_delivered"), 0);
    expect(delivered).toBe(rows.reduce((sum, r) => sum + num(r, "route_deliveries_expected"), 0));
    expect(rows.every((r) => num(r, "route_misrouted") === 0)).toBe(true);
    expect(prose).toContain(
      `Every one of the ${(delivered / 1e6).toFixed(1)} million deliveries reached exactly its room's members.`,
    );
  });

  describe("what to take from the default runs", () => {
    const runs = [1, 2, 3].map((n) => casesOf(`epyc-default-${n}.csv`));
    const rows = [1, 2, 3].map((n) => csvSample(`epyc-default-${n}.csv`));
    const codecs = (mode: string) => [...new Set(runs[0]!.filter((c) => c.mode === mode).map((c) => c.codec))];
    /** A ratio of a codec on some payloads, in every run and the modes given. */
    const over = (
      modes: string[],
      payloads: readonly string[],
      codec: string,
      pick: (c: CaseResult) => number | undefined,
    ) => runs.flatMap((cases) => modes.flatMap((m) => payloads.map((p) => pick(find(cases, m, p, codec))!)));

    it("custom-binary's bytes, and its place in the lab and in the server, are the three runs'", () => {
      const bytes = (codec: string) => ARTICLE.map((p) => find(runs[0]!, "codec", p, codec).bytes).join(" / ");
      expect(prose).toContain(
        `(${bytes("custom-binary")} bytes against JSON's ${bytes("json")}, Protobuf's ${bytes("protobuf")})`,
      );
      for (const cases of runs)
        for (const p of ARTICLE) {
          const sizes = cases.filter((c) => c.mode === "codec" && c.payload === p && c.codec !== "custom-binary");
          expect(
            sizes.every((c) => c.bytes > find(cases, "codec", p, "custom-binary").bytes),
            p,
          ).toBe(true);
          for (const m of ["roundtrip", "stream"])
            expect(ranked(cases, m, p, fieldVsJson).filter((c) => c !== "raw")[0], `${m} ${p}`).toBe("custom-binary");
        }
      const f2 = (x: number) => x.toFixed(2);
      expect(prose).toContain(
        `(the field figures of the three runs: ${range(over(["roundtrip", "stream"], ["small"], "custom-binary", fieldVsJson), f2)}x JSON's cost on the small message, ${range(over(["roundtrip", "stream"], ["medium", "large"], "custom-binary", fieldVsJson), f2)}x on the others)`,
      );
      const labOf = (p: string) => over(["codec"], [p], "custom-binary", vsJson);
      expect(Math.max(...labOf("small"))).toBeLessThan(Math.min(...labOf("medium")));
      expect(Math.max(...labOf("medium"))).toBeLessThan(Math.min(...labOf("large")));
      expect(prose).toContain(
        `In the lab its lead narrows as messages grow: ${range(labOf("small"), f2)}x JSON's time on the small message, ${range(labOf("medium"), f2)}x on the medium, ${range(labOf("large"), f2)}x on the large.`,
      );
    });

    it("the MessagePack codecs and protobuf cost more than JSON as the three runs say", () => {
      const f2 = (x: number) => x.toFixed(2);
      const f1 = (x: number) => x.toFixed(1);
      for (const cases of runs)
        for (const codec of ["msgpack", "msgpackr", "protobuf"])
          for (const p of ARTICLE) {
            const labRatio = find(cases, "codec", p, codec).ratios!.vsJson!;
            if (codec === "msgpackr" && p === "small") expect(labRatio.overlap).toBe(true);
            else expect(labRatio.low, `${codec} ${p} lab`).toBeGreaterThan(1);
            for (const m of ["roundtrip", "stream"])
              expect(find(cases, m, p, codec).ratios!.fieldVsJson!.low, `${codec} ${p} ${m}`).toBeGreaterThan(1);
          }
      const server = ["roundtrip", "stream"];
      expect(prose).toContain(
        `everywhere but msgpackr on the small message in the lab, level with JSON there (≈${range(over(["codec"], ["small"], "msgpackr", vsJson), f2)})`,
      );
      expect(prose).toContain(
        `on the small message msgpackr is level with JSON in process and ${range(over(server, ["small"], "msgpackr", fieldVsJson), f1)}x its cost inside a server, msgpackr-records ${range(over(["codec"], ["small"], "msgpackr-records", vsJson), f2)}x in process and ${range(over(server, ["small"], "msgpackr-records", fieldVsJson), f1)}x inside a server, busy or idle`,
      );
    });

    it("its transport figures (stream rates, the cost on top of raw, each side's CPU) are the three runs'", () => {
      const rawRates = over(["stream"], ARTICLE, "raw", (c) => c.msgsPerS);
      expect(Math.min(...rawRates)).toBeGreaterThan(100_000);
      expect(new Set(rows.flatMap((run) => run.rows.map((r) => r("cores"))))).toEqual(new Set(["2"]));
      expect(prose).toContain(
        `Stream mode moves over 100,000 raw messages per second on two cores (${range(rawRates, thousands)} in the three runs)`,
      );
      // Time per message relative to raw: the inverse of the rate relative to raw.
      const onTop = (p: string, codec: string) => over(["stream"], [p], codec, (c) => 1 / c.ratios!.vsRaw!.ratio);
      const others = codecs("stream").filter((c) => c !== "raw" && c !== "json");
      const small = others.flatMap((c) => onTop("small", c));
      const large = others.map((c) => [c, Math.max(...onTop("large", c))] as const).sort((a, b) => b[1] - a[1]);
      expect(large[0]![0]).toBe("msgpack");
      expect(prose).toContain(
        `of that: ${range(small, (x) => String(Math.round((x - 1) * 100)))}% on the small message, up to about twice the transport's time on the large one (msgpack ${range(onTop("large", "msgpack"), (x) => x.toFixed(1))}x)`,
      );
      const cpu = (col: string) =>
        rows.flatMap((run) => ARTICLE.map((p) => num(run.row({ mode: "stream", payload: p, codec: "raw" }), col)));
      const us1 = (ns: number) => (ns / 1000).toFixed(1);
      expect(Math.min(...cpu("client_cpu_ns_per_msg"))).toBeGreaterThan(Math.max(...cpu("server_cpu_ns_per_msg")));
      expect(prose).toContain(
        `with \`raw\`, ${range(cpu("client_cpu_ns_per_msg"), us1)} µs of CPU against ${range(cpu("server_cpu_ns_per_msg"), us1)} µs`,
      );
    });

    it("its round-trip figures are the committed roundtrip runs'", () => {
      const us = (ns: number) => String(Math.round(ns / 1000));
      const p50 = (codec?: string) =>
        rows.flatMap((run) =>
          run
            .where({ mode: "roundtrip" })
            .filter((r) => codec === undefined || r("codec") === codec)
            .map((r) => num(r, "rtt_p50_ns")),
        );
      expect(prose).toContain(
        `One message in flight takes a median of ${range(p50(), us)} µs per round trip here, against ${range(p50("raw"), us)} µs with no codec at all`,
      );
      const server = rows.flatMap((run) =>
        run
          .where({ mode: "roundtrip" })
          .filter((r) => r("codec") !== "raw")
          .map((r) => num(r, "field_total_ns")),
      );
      const roundTrips = runs.flatMap((cases) =>
        cases.filter((c) => c.mode === "roundtrip" && c.codec !== "json" && c.codec !== "raw").map((c) => vsJson(c)!),
      );
      expect(prose).toContain(
        `The server's decode + encode is ${range(server, us)} µs of it, so roundtrip ratios stay within ${range(roundTrips, (x) => x.toFixed(2))} of JSON's.`,
      );
    });
  });

  it("its message-set figures are the every-codec runs' (in process, streamed, in Chromium, compressed) and the engines run's", () => {
    const streamRows = csvSample("epyc-every-codec-field.csv").where({ mode: "stream" });
    const labRows = csvSample("epyc-every-codec.csv").where({ mode: "codec" });
    expect([...labRows, ...streamRows].every((r) => r("verified") === "true")).toBe(true);
    expect(streamRows.every((r) => num(r, "lost") === 0 && num(r, "iterations") === 100_000)).toBe(true);
    const all = new Set(labRows.map((r) => r("codec"))).size;
    expect(prose).toContain(
      `messages per codec streamed over a socket, the wall time per message), every row verified, lost 0. Four of the ${words(all)} codecs:`,
    );

    // Game-tick.
    const r = (cases: Cases, mode: string, p: string, codec: string) => vsJson(find(cases, mode, p, codec))!;
    const cb = find(lab, "codec", "game-tick", "custom-binary");
    const rate = (codec: string) => find(field, "stream", "game-tick", codec).msgsPerS;
    expect(prose).toContain(
      `In process it takes ${fig(r(lab, "codec", "game-tick", "custom-binary"))}x JSON's time at ${fig(cb.ratios!.bytesVsJson!)}x the bytes, and over a socket the server moves ${(rate("custom-binary") / rate("json")).toFixed(1)}x the messages JSON does (${thousands(rate("custom-binary"))} against ${thousands(rate("json"))} a second).`,
    );
    const four = ["custom-binary", "json", "protobuf", "msgpackr"];
    expect(ranked(lab, "codec", "game-tick", vsJson).filter((c) => four.includes(c))[1]).toBe("protobuf");
    expect(prose).toContain(
      `Protobuf, which also skips zeros, is second of these four at ${fig(r(lab, "codec", "game-tick", "protobuf"))}x.`,
    );
    const order = ranked(lab, "codec", "game-tick", vsJson);
    expect(order.slice(0, 2)).toEqual(["avro", "custom-binary"]);
    expect(order.slice(2, 5).sort()).toEqual(["bebop", "flatbuffers", "pbf"]);
    const next = order.slice(2, 5).map((c) => r(lab, "codec", "game-tick", c));
    const overSocket = (codec: string) => r(field, "stream", "game-tick", codec);
    expect(overSocket("avro")).toBeGreaterThan(overSocket("custom-binary"));
    expect(prose).toContain(
      `Of all ${words(all)}, Avro is a little ahead of custom-binary in process (${fig(r(lab, "codec", "game-tick", "avro"))}x against ${fig(r(lab, "codec", "game-tick", "custom-binary"))}x) and behind it over a socket (${fig(overSocket("avro"))}x against ${fig(overSocket("custom-binary"))}x); FlatBuffers, Bebop and pbf come next at ${range(next, fig)}x in process.`,
    );

    // Chat, and Chromium.
    expect(prose).toContain(
      `custom-binary is ${fig(r(lab, "codec", "chat", "custom-binary"))}x JSON's time in process in Bun and ${fig(r(field, "stream", "chat", "custom-binary"))}x over a socket, and ${fig(r(chromium, "codec", "chat", "custom-binary"))}x in Chromium`,
    );
    expect(prose).toContain(
      `There game-tick is ${fig(r(chromium, "codec", "game-tick", "custom-binary"))}x and market ${fig(r(chromium, "codec", "market", "custom-binary"))}x.`,
    );
    const onChat = (codecs: string[]) =>
      [lab, chromium].flatMap((cases) => codecs.map((c) => r(cases, "codec", "chat", c)));
    expect(Math.min(...onChat(["protobuf", "msgpack", "msgpackr"]))).toBeGreaterThan(1);
    expect(prose).toContain(
      `Protobuf and both MessagePack libraries cost more than JSON on chat in process, in Bun and in Chromium: ${range(onChat(["protobuf", "msgpack", "msgpackr"]), (x) => x.toFixed(1))}x (msgpackr's records ${range(onChat(["msgpackr-records"]), (x) => x.toFixed(1))}x).`,
    );

    // Market: under a microsecond, level with JSON in a stream and in round trips.
    for (const codec of four) expect(find(lab, "codec", "market", codec).total.median, codec).toBeLessThan(1000);
    const streamed = find(field, "stream", "market", "custom-binary").ratios!.vsJson!;
    expect(streamed.overlap).toBe(true);
    expect(prose).toContain(
      `In stream mode custom-binary is level with JSON (${ratioText(streamed).replace(/^≈/, "").replace("†", "")}: the interval holds 1)`,
    );
    const engines = csvSample("engines-bun.csv");
    const trip = (codec: string) => engines.row({ mode: "roundtrip", payload: "market", codec });
    const level = trip("custom-binary");
    expect(num(level, "total_vs_json_ci95_low")).toBeLessThanOrEqual(1);
    expect(num(level, "total_vs_json_ci95_high")).toBeGreaterThanOrEqual(1);
    const p50 = four.map((c) => num(trip(c), "rtt_p50_ns"));
    expect(range(p50, (ns) => String(Math.round(ns / 10_000) * 10))).toBe("50");
    const longer = ["protobuf", "msgpackr"].map((c) => num(trip(c), "total_vs_json"));
    expect(prose).toContain(
      `(one message in flight, about 50 µs each; the engines run, \`results/sample/engines-bun.csv\`) it is level too (${fig(num(level, "total_vs_json"))}, ${fig(num(level, "total_vs_json_ci95_low"))}-${fig(num(level, "total_vs_json_ci95_high"))}), while protobuf and msgpackr take ${range(longer, (x) => String(Math.round((x - 1) * 100)))}% longer than JSON.`,
    );

    // Compressed in a stream, and the share of game-tick's win a schema gets.
    const kept = (p: string, codec: string) => find(lab, "codec", p, codec).compression!.deflateContextBytes;
    const gaps = ["chat", "market"].flatMap((p) =>
      ["protobuf", "msgpackr"].map((c) => kept(p, c) - kept(p, "custom-binary")),
    );
    expect(prose).toContain(
      `a chat message is ${whole(kept("chat", "custom-binary"))} bytes as custom-binary and ${whole(kept("chat", "json"))} as JSON, a market quote ${whole(kept("market", "custom-binary"))} and ${whole(kept("market", "json"))}; protobuf and msgpackr are within ${range(gaps, whole)} bytes of custom-binary on both.`,
    );
    const win = (codec: string) => 1 - r(lab, "codec", "game-tick", codec);
    const share = win("protobuf") / win("custom-binary");
    expect(share).toBeGreaterThan(0.25);
    expect(share).toBeLessThan(0.42);
    expect(win("avro")).toBeGreaterThanOrEqual(win("custom-binary"));
    expect(prose).toContain(
      `Protobuf gets about a third of the win on game-tick from a 20-line schema (${fig(r(lab, "codec", "game-tick", "protobuf"))}x against ${fig(r(lab, "codec", "game-tick", "custom-binary"))}x), Avro all of it`,
    );
  });

  describe("how far a ratio holds across the three default runs", () => {
    const runs = [1, 2, 3].map((n) => casesOf(`epyc-default-${n}.csv`));
    type Pick = (c: CaseResult) => Ratio | undefined;
    /** The block's six views: each codec's ratio in the three runs (json and raw left out), by payload. */
    const views: Record<string, { mode: string; pick: Pick; invert?: boolean }> = {
      lab: { mode: "codec", pick: (c) => c.ratios?.vsJson },
      echo: { mode: "codec", pick: (c) => c.ratios?.echoVsJson },
      fieldRoundtrip: { mode: "roundtrip", pick: (c) => c.ratios?.fieldVsJson },
      fieldStream: { mode: "stream", pick: (c) => c.ratios?.fieldVsJson },
      roundtrip: { mode: "roundtrip", pick: (c) => c.ratios?.vsJson },
      vsRaw: { mode: "stream", pick: (c) => c.ratios?.vsRaw, invert: true },
    };
    const across = (view: keyof typeof views) => {
      const { mode, pick, invert } = views[view]!;
      return runs[0]!
        .filter((c) => c.mode === mode && c.codec !== "json" && c.codec !== "raw")
        .map((c) => {
          const ratios = runs.map((cases) => {
            const x = pick(find(cases, mode, c.payload, c.codec))!.ratio;
            return invert ? 1 / x : x;
          });
          return { payload: c.payload, codec: c.codec, ratios, spread: Math.max(...ratios) / Math.min(...ratios) };
        });
    };
    const movers = (view: keyof typeof views, x: number) => across(view).filter((r) => r.spread > x);
    /** Whether the payloads named hold the most of a view's ratios that moved by more than 5%. */
    const mostOn = (view: keyof typeof views, payloads: string[]) => {
      const count = (p: string) => movers(view, 1.05).filter((r) => r.payload === p).length;
      const rest = ARTICLE.filter((p) => !payloads.includes(p));
      return Math.min(...payloads.map(count)) > Math.max(...rest.map(count));
    };

    it("the counts of ratios within 5% are the block's six views'", () => {
      const all = Object.keys(views).flatMap((v) => across(v));
      const held = all.filter((r) => r.spread <= 1.05).length;
      const idle = movers("fieldRoundtrip", 1.05).length;
      expect(prose).toContain(
        `On this machine most ratios hold within 5% from run to run (${held} of the block's ${all.length} across the three committed runs); those that move more are the field ratios in an idle server (roundtrip mode, ${idle} of ${across("fieldRoundtrip").length}, on the small and medium messages most), the lab echo on the small message, and the codecs on the medium message in stream mode.`,
      );
      expect(held).toBeGreaterThan(all.length / 2);
      expect(mostOn("fieldRoundtrip", ["small", "medium"])).toBe(true);
      expect(mostOn("echo", ["small"])).toBe(true);
      expect(mostOn("vsRaw", ["medium"])).toBe(true);
    });

    it("the field figures it says repeat, and the small message's that rose, are the three runs'", () => {
      const stream = across("fieldStream");
      const idle = across("fieldRoundtrip");
      const widest = (rs: { spread: number }[]) => Math.max(...rs.map((r) => r.spread)).toFixed(2);
      expect(prose).toContain(
        `In the three committed runs every stream-mode field ratio (${stream.length}) came within ${widest(stream)}x of the other runs'.`,
      );
      const rose = idle.filter(
        (r) => r.payload === "small" && r.ratios[0]! < r.ratios[1]! && r.ratios[1]! < r.ratios[2]!,
      );
      const smallOnes = idle.filter((r) => r.payload === "small");
      const listed = (codec: string) =>
        smallOnes
          .find((r) => r.codec === codec)!
          .ratios.map((x) => x.toFixed(2))
          .join(", ");
      expect(rose.map((r) => r.codec)).toEqual(expect.arrayContaining(["msgpackr-records", "msgpackr"]));
      const sixWord = words(smallOnes.length);
      expect(prose).toContain(
        `In an idle server (roundtrip mode) ${idle.filter((r) => r.spread <= 1.1).length} of ${idle.length} came within 1.10x, but the small message's rose in each later run for ${words(rose.length)} of its ${sixWord} codecs (msgpackr-records ${listed("msgpackr-records")}; msgpackr ${listed("msgpackr")})`,
      );
      const echoSmall = across("echo").filter((r) => r.payload === "small");
      const most = echoSmall.reduce((a, b) => (b.spread > a.spread ? b : a));
      expect(most.ratios[2]!).toBeGreaterThan(most.ratios[0]!);
      expect(prose).toContain(`which moved the same way by up to ${most.spread.toFixed(2)}x.`);
    });

    it("its processes, slices and the field's widest intervals are the default runs'", () => {
      const forks = resultsFromFile(sample("epyc-default-1.json")).settings.forks;
      expect(prose).toContain(`Codec mode therefore spreads its rounds over ${forks} fresh processes (\`--forks\`)`);
      const run = csvSample("epyc-default-1.csv");
      const slice = (mode: string) => run.where({ mode }).map((r) => r("round_msgs"));
      expect(new Set(slice("roundtrip")).size).toBe(1);
      expect(new Set(slice("stream")).size).toBe(1);
      const halves = (mode: string) =>
        runs.flatMap((cases) =>
          cases
            .filter((c) => c.mode === mode && c.codec !== "json" && c.codec !== "raw")
            .map((c) => half(c.ratios!.fieldVsJson!)),
        );
      expect(Math.max(...halves("roundtrip"))).toBeGreaterThan(Math.max(...halves("stream")));
      expect(prose).toContain(
        `Roundtrip mode times ${slice("roundtrip")[0]} messages a slice against stream's ${slice("stream")[0]}, and its intervals are the field's widest (up to ${pct(Math.max(...halves("roundtrip")))}).`,
      );
    });
  });
});
