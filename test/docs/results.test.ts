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
import { casesOf, csvSample, doc, flat, machineOf, num, type Row, sample } from "../helpers/samples.ts";
import { fig, halfWidth, list, plusMinus, range, thousands, whole, word } from "../helpers/prose.ts";

const page = doc("results.md");
/** The page outside the block `bun run readme-figures` writes (a test of its own holds that). */
const prose = flat(page.slice(page.indexOf("<!--/fig-->", page.indexOf("<!--fig:figures-->"))));

const ARTICLE = ["small", "medium", "large"] as const;
const SETS = ["chat", "game-tick", "market"] as const;
const ALL = [...ARTICLE, ...SETS] as const;

/** How the page names a codec in prose (any other by its id). */
const NAMES: Record<string, string> = {
  avro: "Avro",
  bebop: "Bebop",
  flatbuffers: "FlatBuffers",
  capnp: "Cap'n Proto",
  json: "JSON",
};
const named = (codec: string): string => NAMES[codec] ?? codec;
/** A count as the page writes it: in words up to twenty ("no" for none), in digits above. */
const words = (n: number): string => word(n, "no");
/** The start of a sentence: "Protobuf, which…". */
const capital = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);
/** Clauses as a sentence lists them: "a and b", or "a, b, and c" for three or more. */
const clauses = (parts: readonly string[]): string =>
  parts.length < 3 ? list(parts) : `${parts.slice(0, -1).join(", ")}, and ${parts.at(-1)}`;
/** The Protobuf codecs that reach the key by scanning its bytes. */
const SCANS = ["protobuf", "pbf", "protobuf-es"];
/** Codecs as the page names them, in the order given; two or more Protobuf scans are "the Protobuf scans", where the first of them stands. */
const grouped = (codecs: readonly string[]): string[] => {
  const scans = codecs.filter((c) => SCANS.includes(c));
  if (scans.length < 2) return codecs.map(named);
  return codecs.flatMap((c) => (c === scans[0] ? ["the Protobuf scans"] : SCANS.includes(c) ? [] : [named(c)]));
};
/** Codecs as a sentence lists them: "FlatBuffers and the Protobuf scans". */
const listed = (codecs: readonly string[]): string => list(grouped(codecs));
/** How the page places a payload: "the large message" for the article's, a message set by its name. */
const onThe = (p: string): string => ((ARTICLE as readonly string[]).includes(p) ? `the ${p} message` : p);
/** Whether two ratios' intervals share a value (the page then calls the two level). */
const overlapping = (a: Ratio, b: Ratio): boolean => a.low <= b.high && b.low <= a.high;
/** A ratio with its interval, for a failure message: "0.391 [0.376-0.403]". */
const interval = (r: Ratio): string => `${r.ratio.toFixed(3)} [${r.low.toFixed(3)}-${r.high.toFixed(3)}]`;

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
    // In Bun the closest to custom-binary: the fastest other schema codec on each payload, in the lab and in the server.
    const closestIn = (cases: Cases, mode: string, pick: (c: CaseResult) => number | undefined) =>
      ALL.map((p) => ranked(cases, mode, p, pick).find((c) => SCHEMA.includes(c) && c !== "custom-binary")!);
    const closest = [...new Set([...closestIn(lab, "codec", vsJson), ...closestIn(field, "stream", fieldVsJson)])];
    const near = closest[0]!;
    // The payload whose bytes it writes farthest from custom-binary's is the exception the page names.
    const bytes = (payload: string, codec: string) => find(lab, "codec", payload, codec).bytes;
    const apart = (payload: string) => bytes(payload, near) / bytes(payload, "custom-binary");
    const farthest = ALL.reduce((a, b) => (apart(b) > apart(a) ? b : a));
    expect(prose).toContain(
      `In Bun the closest is ${list(closest.map(named))}, which writes nearly the same bytes (except on ${farthest}: ${whole(bytes(farthest, near))} against ${whole(bytes(farthest, "custom-binary"))})`,
    );

    // Codec mode: the first on each payload; where it is not custom-binary, whether their intervals are apart.
    const labVs = (p: string, codec: string) => find(lab, "codec", p, codec).ratios!.vsJson!;
    const labFirst = (p: string) => ranked(lab, "codec", p, vsJson)[0]!;
    const labOthers = ALL.filter((p) => labFirst(p) !== "custom-binary");
    const labLeads = labOthers.map((p) => {
      const [first, cb] = [labVs(p, labFirst(p)), labVs(p, "custom-binary")];
      return `${named(labFirst(p))} is first on ${p} (${fig(first.ratio)} against custom-binary's ${fig(cb.ratio)} of JSON's time, their intervals ${overlapping(first, cb) ? "overlapping" : "apart"})`;
    });
    expect(prose).toContain(
      `in codec mode ${labOthers.length === 0 ? `custom-binary is first on all ${words(ALL.length)}` : `${labLeads.join(", ")} and custom-binary on the other ${words(ALL.length - labOthers.length)}`}`,
    );

    // In the server: where custom-binary is first, and where the closest other codec's interval overlaps its own (level).
    const fieldVs = (p: string, codec: string) => find(field, "stream", p, codec).ratios!.fieldVsJson!;
    const fieldOthers = ALL.filter((p) => ranked(field, "stream", p, fieldVsJson)[0] !== "custom-binary");
    const levelInServer = ALL.flatMap((p) => {
      const rival = ranked(field, "stream", p, fieldVsJson).find((c) => c !== "custom-binary")!;
      const [cb, other] = [fieldVs(p, "custom-binary"), fieldVs(p, rival)];
      return overlapping(cb, other)
        ? [
            `level with ${named(rival)} on ${p} (${fig(cb.ratio)} against ${fig(other.ratio)}, their intervals overlapping)`,
          ]
        : [];
    });
    expect(prose).toContain(
      `inside the server custom-binary is first on ${fieldOthers.length === 0 ? `all ${words(ALL.length)}` : `${words(ALL.length - fieldOthers.length)}, not on ${list(fieldOthers)}`}${levelInServer.map((l) => `, ${l}`).join("")}`,
    );

    // Chromium: custom-binary against the fastest other schema codec, and where it is not first.
    const against = ALL.map((p) => {
      const cb = vsJson(find(chromium, "codec", p, "custom-binary"))!;
      const other = ranked(chromium, "codec", p, vsJson).find((c) => SCHEMA.includes(c) && c !== "custom-binary")!;
      return cb / vsJson(find(chromium, "codec", p, other))!;
    });
    const chromiumFirst = (p: string) => ranked(chromium, "codec", p, vsJson)[0]!;
    const notFirst = ALL.filter((p) => chromiumFirst(p) !== "custom-binary");
    // Where another codec is first, it is level with custom-binary when their intervals overlap (against JSON:
    // when custom-binary's holds 1) and ahead of it when they are apart; and the page says when it decodes faster too.
    const ahead = notFirst.map((p) => {
      const first = find(chromium, "codec", p, chromiumFirst(p));
      const cb = find(chromium, "codec", p, "custom-binary");
      const [cbVs, firstVs] = [cb.ratios!.vsJson!, first.ratios?.vsJson ?? { ratio: 1, low: 1, high: 1, rounds: 0 }];
      const figures =
        first.codec === "json"
          ? `custom-binary ${ratioText(cbVs, { interval: false })}`
          : `custom-binary ${fig(cbVs.ratio)} against ${fig(firstVs.ratio)}`;
      const decodes = first.deserialize.median < cb.deserialize.median ? " and decodes it faster" : "";
      return `; on ${onThe(p)} ${named(first.codec)} is ${overlapping(cbVs, firstVs) ? "level with it" : "ahead of it"} (${figures})${decodes}`;
    });
    expect(prose).toContain(
      `In Chromium custom-binary is ${range(against, (x) => x.toFixed(2))}x the fastest other schema codec's time on every payload and first on ${notFirst.length === 0 ? `all ${words(ALL.length)}` : words(ALL.length - notFirst.length)}${ahead.join("")}.`,
    );
    // Which schema codecs beat custom-binary at one half of the work in Chromium.
    // One clause per payload and half, the decoding ones first; within each, by the first codec named (alphabetically).
    const beats = (half: "serialize" | "deserialize") =>
      ALL.map((p) => {
        const cb = find(chromium, "codec", p, "custom-binary")[half].median;
        const faster = chromium
          .filter((c) => c.mode === "codec" && c.payload === p && SCHEMA.includes(c.codec) && c[half].median < cb)
          .map((c) => c.codec)
          .sort();
        const verb = half === "deserialize" ? "decode" : "encode";
        return { faster, text: `${list(faster.map(named))} ${verb}${faster.length === 1 ? "s" : ""} ${p} faster` };
      })
        .filter((b) => b.faster.length > 0)
        .sort((a, b) => a.faster[0]!.localeCompare(b.faster[0]!))
        .map((b) => b.text);
    const faster = [...beats("deserialize"), ...beats("serialize")];
    expect(prose).toContain(
      faster.length === 0
        ? "No schema codec decodes or encodes any payload faster than custom-binary."
        : `Among the schema codecs, ${clauses(faster)}.`,
    );
  });

  it("what it says of the access patterns is the every-codec run's read-one and validated figures", () => {
    const readOne = (c: CaseResult) => c.ratios?.readOneVsJson?.ratio;
    const validated = (c: CaseResult) => c.ratios?.validatedVsJson?.ratio;
    // The first and the second at read-one on every payload.
    const atReadOne = ALL.map((p) => ranked(lab, "codec", p, readOne));
    const firstAtReadOne = [...new Set(atReadOne.map((order) => order[0]!))];
    const secondAtReadOne = [...new Set(atReadOne.map((order) => order[1]!))];
    const firstReads = ALL.map((p) => readOne(find(lab, "codec", p, firstAtReadOne[0]!))!);
    // Below those two, a codec rises when it is third at read-one on a payload (the table's last column) ahead of
    // a codec that encodes and decodes faster; both have a read-one figure (ranked() keeps only those). Named alphabetically.
    const risers = [
      ...new Set(
        ALL.flatMap((p, i) => {
          const third = atReadOne[i]![2];
          if (third === undefined) return [];
          const it = find(lab, "codec", p, third);
          const passed = lab.filter(
            (c) =>
              c.mode === "codec" &&
              c.payload === p &&
              Number.isFinite(readOne(c) ?? Number.NaN) &&
              vsJson(c)! < vsJson(it)! &&
              readOne(c)! > readOne(it)!,
          );
          return passed.length > 0 ? [third] : [];
        }),
      ),
    ].sort();
    const rise =
      risers.length === 0
        ? "no codec rises past one that encodes and decodes faster"
        : `${listed(risers)} ${risers.length === 1 ? "rises" : "rise"} past codecs that encode and decode faster`;
    expect(prose).toContain(
      `${list(firstAtReadOne.map(named))} reads the key fastest on every payload (${range(firstReads, fig)}x the time JSON takes to parse the message) and ${list(secondAtReadOne.map(named))} second, ${rise}, and everything that can only decode stays at its decode`,
    );
    // A codec that reaches the key only by decoding reads one field in its decode's time.
    const decoding = csvSample("epyc-every-codec.csv")
      .where({ mode: "codec" })
      .filter((x) => x("key_access") === "decode");
    expect(decoding.length).toBeGreaterThan(0);
    for (const r of decoding)
      expect(num(r, "read_one_ns"), `${r("payload")} ${r("codec")}`).toBe(num(r, "deserialize_ns"));

    // Validating: the article's messages on which it puts another codec first than encode + decode does.
    const changed = ARTICLE.filter((p) => ranked(lab, "codec", p, validated)[0] !== ranked(lab, "codec", p, vsJson)[0]);
    expect(changed.length, "the article's messages on which validating puts another codec first").toBeGreaterThan(0);
    const [top, beaten] = [
      ranked(lab, "codec", changed[0]!, validated)[0]!,
      ranked(lab, "codec", changed[0]!, vsJson)[0]!,
    ];
    // The two against each other on each of the article's messages: apart (less or more) or level (intervals overlapping).
    const V = (p: string, codec: string) => find(lab, "codec", p, codec).ratios!.validatedVsJson!;
    const less = ARTICLE.filter((p) => V(p, top).high < V(p, beaten).low);
    const level = ARTICLE.filter((p) => overlapping(V(p, top), V(p, beaten)));
    const more = ARTICLE.filter((p) => V(p, top).low > V(p, beaten).high);
    const xs = (ps: readonly string[], codec: string) => ps.map((p) => `${fig(V(p, codec).ratio)}x`).join(" and ");
    // Level ones get one figure when both read the same, both ("0.38-0.39x") when they do not.
    const levelText = level.map(
      (p) => `; on ${p} they are level, ${range([V(p, top).ratio, V(p, beaten).ratio], fig)}x`,
    );
    const moreText =
      more.length > 0 ? `; on ${list(more)} it costs more (${xs(more, top)} against ${xs(more, beaten)})` : "";
    // "The article's larger messages": the two above the smallest.
    const messages =
      changed.join() === ARTICLE.slice(1).join()
        ? "the article's larger messages"
        : `the ${list(changed)} message${changed.length > 1 ? "s" : ""}`;
    for (const p of ARTICLE)
      expect(
        V(p, "json").ratio,
        `${p}: JSON's validated against ${top}'s ${interval(V(p, top))} and ${beaten}'s ${interval(V(p, beaten))}`,
      ).toBeGreaterThan(Math.max(V(p, top).ratio, V(p, beaten).ratio));
    expect(prose).toContain(
      `Validating changes the top on ${messages}: validated is a decode and its checks, no encode, and ${named(top)}'s decode with its range checks costs less than ${named(beaten)}'s decode on ${list(less)} (${xs(less, top)} JSON's time against ${xs(less, beaten)}${levelText.join("")}${moreText}); JSON with its schema validator stays behind both.`,
    );
  });

  it("what it says of the router is the committed route run's", () => {
    const route = csvSample("epyc-route.csv");
    const rows = route.where({ mode: "route" });
    const cheapest = rows.reduce((a, b) => (num(b, "route_cpu_ns") < num(a, "route_cpu_ns") ? b : a));
    expect(prose).toContain(
      `the cheapest router here, ${named(cheapest("codec"))} on ${cheapest("payload")}, costs the server ${(num(cheapest, "route_cpu_ns") / 1000).toFixed(2)} µs per message, of which reading the key is ${Math.round(num(cheapest, "route_key_ns"))} ns`,
    );
    /** The five codecs that cost the server least forwarding a payload's messages (json, what each is held to, left out). */
    const five = (payload: string) =>
      route
        .where({ mode: "route", payload })
        .filter((r) => r("codec") !== "json")
        .sort((a, b) => num(a, "route_cpu_ns") - num(b, "route_cpu_ns"))
        .slice(0, 5);
    /** From the most direct read of the key to the least (an offset, a scan, a lazy view, a full decode), cheapest first within each. */
    const KEY_ORDER = ["offset", "scan", "lazy", "decode"];
    const byKey = (rs: Row[]) =>
      [...rs]
        .sort(
          (a, b) =>
            KEY_ORDER.indexOf(a("key_access")) - KEY_ORDER.indexOf(b("key_access")) ||
            num(a, "route_cpu_ns") - num(b, "route_cpu_ns"),
        )
        .map((r) => r("codec"));
    const tickFive = five("game-tick");
    const reading = byKey(tickFive.filter((r) => r("key_access") !== "decode"));
    const decoding = byKey(tickFive.filter((r) => r("key_access") === "decode"));
    const tickText = `the ${words(tickFive.length)} that cost the server least forwarding are ${reading.length === tickFive.length ? "the codecs" : words(reading.length)} that read it without decoding (${grouped(reading).join(", ")})${decoding.length > 0 ? ` and ${listed(decoding)}` : ""}`;
    // Chat's five: how many of game-tick's, and the others by name, cheapest first.
    const chat = five("chat").map((r) => r("codec"));
    const ofTick = chat.filter((c) => tickFive.some((r) => r("codec") === c));
    const notOfTick = chat.filter((c) => !ofTick.includes(c));
    const chatText =
      notOfTick.length === 0 ? "the same five" : `${words(ofTick.length)} of them and ${listed(notOfTick)}`;
    // Market's five: level with JSON when the interval of the router's CPU against JSON's holds 1.
    const level = (r: Row, col: string) => num(r, `${col}_ci95_low`) <= 1 && num(r, `${col}_ci95_high`) >= 1;
    const market = five("market");
    const levelFive = market.filter((r) => level(r, "route_cpu_vs_json"));
    const marketText =
      levelFive.length === market.length
        ? `the ${words(market.length)} cheapest are level with JSON within their intervals`
        : `${words(levelFive.length)} of the ${words(market.length)} cheapest (${listed(levelFive.map((r) => r("codec")))}) ${levelFive.length === 1 ? "is" : "are"} level with JSON within ${levelFive.length === 1 ? "its interval" : "their intervals"}`;
    const jsonBytes = (payload: string) => num(route.row({ mode: "route", payload, codec: "json" }), "bytes");
    expect(jsonBytes("market"), "market's JSON bytes against chat's and game-tick's").toBeLessThan(
      Math.min(jsonBytes("chat"), jsonBytes("game-tick")),
    );
    expect(prose).toContain(
      `on game-tick ${tickText}, on chat ${chatText}, and on market, the smallest message, ${marketText}`,
    );

    // The decoding schemaless codecs: dear in codec mode, much less so in a router, and still behind JSON.
    const schemaless = ["msgpack", "msgpackr", "msgpackr-records", "cbor", "bson"];
    const both = ["chat", "market"];
    const inCodecMode = both.flatMap((p) => schemaless.map((c) => vsJson(find(lab, "codec", p, c))!));
    const routed = both.flatMap((p) => schemaless.map((c) => route.row({ mode: "route", payload: p, codec: c })));
    const routedText = (r: Row) =>
      `${r("codec")} on ${r("payload")} ${num(r, "route_cpu_vs_json")} [${num(r, "route_cpu_vs_json_ci95_low")}-${num(r, "route_cpu_vs_json_ci95_high")}], key by ${r("key_access")}`;
    for (const r of routed) {
      // Behind JSON, or level with it within the interval (those are named below).
      expect(
        num(r, "route_cpu_vs_json") > 1 || level(r, "route_cpu_vs_json"),
        `behind JSON or level with it: ${routedText(r)}`,
      ).toBe(true);
      expect(r("key_access"), `decodes to find the key: ${routedText(r)}`).toBe("decode");
    }
    // Those whose interval holds 1, codec by codec: the codec level on more payloads first (then as listed above), "on both" for chat and market.
    const levelBy = schemaless
      .map((codec) => ({
        codec,
        on: both.filter((p) => level(route.row({ mode: "route", payload: p, codec }), "route_cpu_vs_json")),
      }))
      .filter((x) => x.on.length > 0)
      .sort((a, b) => b.on.length - a.on.length);
    const levelText = levelBy.map((x) => `${x.codec} on ${x.on.length === both.length ? "both" : list(x.on)}`);
    expect(prose).toContain(
      `MessagePack, CBOR and BSON, ${range(inCodecMode, (x) => x.toFixed(1))}x JSON's time in codec mode on chat and market, cost a router ${range(
        routed.map((r) => num(r, "route_cpu_vs_json")),
        (x) => x.toFixed(2),
      )}x JSON's CPU there${levelText.length > 0 ? ` (${list(levelText)} level with it within their intervals)` : ""}, behind it because they decode the whole message to find the key`,
    );

    // Game-tick: forwarding against recoding.
    const tick = route.where({ mode: "route", payload: "game-tick" });
    const kb = range(
      tick.map((r) => num(r, "bytes")),
      (x) => String(Math.round(x / 1000)),
    );
    const cb = route.row({ mode: "route", payload: "game-tick", codec: "custom-binary" });
    const recode = tick.map((r) => num(r, "route_recode_over_forward"));
    // The two whose recoding costs most against their forwarding, named alphabetically.
    const dearest = [...tick]
      .sort((a, b) => num(b, "route_recode_over_forward") - num(a, "route_recode_over_forward"))
      .slice(0, 2)
      .map((r) => r("codec"))
      .sort();
    expect(prose).toContain(
      `On game-tick, where a message is ${kb} KB, forwarding with custom-binary costs ${num(cb, "route_cpu_vs_json").toFixed(2)}x JSON's CPU (the five cheapest ${range(
        five("game-tick").map((r) => num(r, "route_cpu_vs_json")),
        (x) => x.toFixed(2),
      )}x), and recoding instead of forwarding costs ${Math.min(...recode).toFixed(2)}-${Math.max(...recode).toFixed(1)}x as much, most with the slow encoders (${dearest.map(named).join(", ")}).`,
    );

    const delivered = rows.reduce((sum, r) => sum + num(r, "route_delivered"), 0);
    expect(delivered).toBe(rows.reduce((sum, r) => sum + num(r, "route_deliveries_expected"), 0));
    expect(
      rows.reduce((sum, r) => sum + num(r, "route_misrouted"), 0),
      "messages misrouted",
    ).toBe(0);
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
          const own = find(cases, "codec", p, "custom-binary").bytes;
          const smaller = cases
            .filter((c) => c.mode === "codec" && c.payload === p && c.codec !== "custom-binary" && c.bytes <= own)
            .map((c) => `${c.codec} ${c.bytes}`);
          expect(smaller, `${p}: codecs no larger than custom-binary's ${own} bytes`).toEqual([]);
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
      const dear = ["msgpack", "msgpackr", "protobuf"];
      const labOf = (cases: Cases, p: string, codec: string) => find(cases, "codec", p, codec).ratios!.vsJson!;
      // The exceptions the page names: a codec and message whose lab interval reaches 1 in any of the runs.
      const exceptions = dear.flatMap((codec) =>
        ARTICLE.filter((p) => runs.some((cases) => labOf(cases, p, codec).low <= 1)).map((p) => ({ codec, p })),
      );
      for (const [n, cases] of runs.entries())
        for (const codec of dear)
          for (const p of ARTICLE) {
            const labRatio = labOf(cases, p, codec);
            const where = `${codec} ${p}, run ${n + 1}, lab ${interval(labRatio)}`;
            if (!exceptions.some((e) => e.codec === codec && e.p === p)) expect(labRatio.low, where).toBeGreaterThan(1);
            for (const m of ["roundtrip", "stream"])
              expect(find(cases, m, p, codec).ratios!.fieldVsJson!.low, `${codec} ${p} ${m}`).toBeGreaterThan(1);
          }
      const server = ["roundtrip", "stream"];
      // In how many of the three runs each exception's interval holds 1: "(≈1.00-1.02)" when in all, else "in one of the three runs (1.00-1.11)".
      const levelRuns = exceptions.map(
        (e) =>
          runs.filter((cases) => labOf(cases, e.p, e.codec).low <= 1 && labOf(cases, e.p, e.codec).high >= 1).length,
      );
      const levelText = levelRuns.every((n) => n === runs.length)
        ? `(≈${exceptions.map((e) => range(over(["codec"], [e.p], e.codec, vsJson), f2)).join(", ")})`
        : `in ${list(levelRuns.map((n) => words(n)))} of the three runs (${exceptions.map((e) => range(over(["codec"], [e.p], e.codec, vsJson), f2)).join(", ")})`;
      expect(prose).toContain(
        exceptions.length === 0
          ? "cost more than JSON** in the lab and in the server, everywhere."
          : `everywhere but ${list(exceptions.map((e) => `${e.codec} on ${onThe(e.p)}`))} in the lab, level with JSON there ${levelText}`,
      );
      // msgpackr on the small message in process: "level with JSON" when its interval holds 1 in every run.
      const msgpackrSmall = runs.map((cases) => labOf(cases, "small", "msgpackr"));
      const inProcess = msgpackrSmall.every((r) => r.low <= 1 && r.high >= 1)
        ? "level with JSON"
        : `${range(
            msgpackrSmall.map((r) => r.ratio),
            f2,
          )}x JSON's time`;
      expect(prose).toContain(
        `on the small message msgpackr is ${inProcess} in process and ${range(over(server, ["small"], "msgpackr", fieldVsJson), f1)}x its cost inside a server, msgpackr-records ${range(over(["codec"], ["small"], "msgpackr-records", vsJson), f2)}x in process and ${range(over(server, ["small"], "msgpackr-records", fieldVsJson), f1)}x inside a server, busy or idle`,
      );
    });

    it("its transport figures (stream rates, the cost on top of raw, each side's CPU) are the three runs'", () => {
      const rawRates = over(["stream"], ARTICLE, "raw", (c) => c.msgsPerS);
      // The machine the three runs were made on, as the page's introduction and this paragraph name it.
      const { cpu: processor, cores } = machineOf(
        "the three default runs",
        rows.flatMap((run) => run.rows),
      );
      expect(flat(doc("results.md"))).toContain(
        `three back-to-back runs of plain \`bun run bench\` on the ${cores}-core ${processor} cloud machine this project is developed on`,
      );
      expect(prose).toContain(
        `Stream mode moves over 100,000 raw messages per second on ${words(Number(cores))} cores (${range(rawRates, thousands)} in the three runs)`,
      );
      // Time per message relative to raw: the inverse of the rate relative to raw.
      const onTop = (p: string, codec: string) => over(["stream"], [p], codec, (c) => 1 / c.ratios!.vsRaw!.ratio);
      const others = codecs("stream").filter((c) => c !== "raw" && c !== "json");
      const small = others.flatMap((c) => onTop("small", c));
      const large = others.map((c) => [c, Math.max(...onTop("large", c))] as const).sort((a, b) => b[1] - a[1]);
      const [dearest, most] = large[0]!;
      // "About twice" (or N times) the transport's time: the dearest codec's largest, to the nearest whole multiple.
      const times = Math.round(most) === 2 ? "twice" : `${Math.round(most)} times`;
      expect(prose).toContain(
        `of that: ${range(small, (x) => String(Math.round((x - 1) * 100)))}% on the small message, up to about ${times} the transport's time on the large one (${dearest} ${range(onTop("large", dearest), (x) => x.toFixed(1))}x)`,
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
    const rowName = (r: Row) => `${r("mode")} ${r("payload")} ${r("codec")}`;
    expect(
      [...labRows, ...streamRows].filter((r) => r("verified") !== "true").map(rowName),
      "rows not verified",
    ).toEqual([]);
    expect(streamRows.filter((r) => num(r, "lost") !== 0).map(rowName), "streamed rows that lost messages").toEqual([]);
    for (const r of streamRows) expect(num(r, "iterations"), `messages streamed, ${rowName(r)}`).toBe(100_000);
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
    const second = ranked(lab, "codec", "game-tick", vsJson).filter((c) => four.includes(c))[1]!;
    expect(prose).toContain(
      `${capital(named(second))}, which also skips zeros, is second of these four at ${fig(r(lab, "codec", "game-tick", second))}x.`,
    );
    // Of all codecs: the closest to custom-binary in process, ahead of or behind it there and over a socket,
    // then the next three in the order they come.
    const order = ranked(lab, "codec", "game-tick", vsJson);
    const rival = order.find((c) => c !== "custom-binary")!;
    const inProcess = (codec: string) => r(lab, "codec", "game-tick", codec);
    const overSocket = (codec: string) => r(field, "stream", "game-tick", codec);
    const after = order.filter((c) => c !== rival && c !== "custom-binary").slice(0, 3);
    expect(prose).toContain(
      `Of all ${words(all)}, ${named(rival)} is a little ${inProcess(rival) < inProcess("custom-binary") ? "ahead of" : "behind"} custom-binary in process (${fig(inProcess(rival))}x against ${fig(inProcess("custom-binary"))}x) and ${fig(overSocket(rival)) === fig(overSocket("custom-binary")) ? "level with it" : overSocket(rival) > overSocket("custom-binary") ? "behind it" : "ahead of it"} over a socket (${fig(overSocket(rival))}x against ${fig(overSocket("custom-binary"))}x); ${list(after.map(named))} come next at ${range(after.map(inProcess), fig)}x in process.`,
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
    // Level with JSON where the interval holds 1; otherwise ahead of it (below 1) or behind it.
    const standing = (ratio: number, low: number, high: number) =>
      low <= 1 && high >= 1 ? "level" : ratio < 1 ? "ahead" : "behind";
    const withJson = { level: "level with JSON", ahead: "ahead of JSON", behind: "behind JSON" };
    const streamed = find(field, "stream", "market", "custom-binary").ratios!.vsJson!;
    const streamedLevel = streamed.low <= 1 && streamed.high >= 1;
    expect(prose).toContain(
      `In stream mode custom-binary is ${withJson[standing(streamed.ratio, streamed.low, streamed.high)]} (${ratioText(streamed).replace(/^≈/, "").replace("†", "")}: the interval ${streamedLevel ? "holds" : "leaves out"} 1)`,
    );
    const engines = csvSample("engines-bun.csv");
    const trip = (codec: string) => engines.row({ mode: "roundtrip", payload: "market", codec });
    const cbTrip = trip("custom-binary");
    const [tripRatio, tripLow, tripHigh] = ["", "_ci95_low", "_ci95_high"].map((s) => num(cbTrip, `total_vs_json${s}`));
    const tripStanding = standing(tripRatio!, tripLow!, tripHigh!);
    // "About N µs each": the four codecs' median round trips, to the nearest 10 µs.
    const p50 = four.map((c) => num(trip(c), "rtt_p50_ns"));
    const longer = ["protobuf", "msgpackr"].map((c) => num(trip(c), "total_vs_json"));
    expect(
      Math.min(...longer),
      `protobuf's and msgpackr's round trips against JSON's: ${longer.join(", ")}`,
    ).toBeGreaterThan(1);
    expect(prose).toContain(
      `(one message in flight, about ${range(p50, (ns) => String(Math.round(ns / 10_000) * 10))} µs each; the engines run, \`results/sample/engines-bun.csv\`) it is ${tripStanding === standing(streamed.ratio, streamed.low, streamed.high) ? `${tripStanding} too` : withJson[tripStanding]} (${fig(tripRatio!)}, ${fig(tripLow!)}-${fig(tripHigh!)}), while protobuf and msgpackr take ${range(longer, (x) => String(Math.round((x - 1) * 100)))}% longer than JSON.`,
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
    // A share of custom-binary's win, as the page words it: "all of it" from the whole win up, else the nearest of these fractions.
    const FRACTIONS: [number, string][] = [
      [1 / 4, "a quarter"],
      [1 / 3, "a third"],
      [1 / 2, "half"],
      [2 / 3, "two thirds"],
      [3 / 4, "three quarters"],
    ];
    const shareOf = (codec: string) => {
      const share = win(codec) / win("custom-binary");
      if (share >= 1) return "all of it";
      const [, word] = FRACTIONS.reduce((a, b) => (Math.abs(b[0] - share) < Math.abs(a[0] - share) ? b : a));
      return `about ${word} of the win`;
    };
    expect(prose).toContain(
      `Protobuf gets ${shareOf("protobuf")} on game-tick from a 20-line schema (${fig(r(lab, "codec", "game-tick", "protobuf"))}x against ${fig(r(lab, "codec", "game-tick", "custom-binary"))}x), Avro ${shareOf("avro").replace(" of the win", " of it")}`,
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
    /** How many of a view's ratios moved by more than 5%, by payload. */
    const moved = (view: keyof typeof views) =>
      ARTICLE.map((p) => [p, movers(view, 1.05).filter((r) => r.payload === p).length] as const);
    /** Where a view's ratios moved most: the payloads that hold its highest count of those moving more than 5%, "on the small and medium messages". */
    const mostOn = (view: keyof typeof views) => {
      const counts = moved(view);
      const top = Math.max(...counts.map(([, n]) => n));
      const ps = counts.filter(([, n]) => n === top).map(([p]) => p);
      return `on the ${list(ps)} message${ps.length > 1 ? "s" : ""}`;
    };

    it("the counts of ratios within 5% are the block's six views'", () => {
      const all = Object.keys(views).flatMap((v) => across(v));
      const held = all.filter((r) => r.spread <= 1.05).length;
      const idle = movers("fieldRoundtrip", 1.05).length;
      // The views the page names: those with more ratios moving by more than 5% than the median view, most first.
      const count = (view: string) => movers(view, 1.05).length;
      const counts = Object.keys(views)
        .map(count)
        .sort((a, b) => a - b);
      const median = (counts[2]! + counts[3]!) / 2;
      const said: Record<string, string> = {
        fieldRoundtrip: `the field ratios in an idle server (roundtrip mode, ${idle} of ${across("fieldRoundtrip").length}, ${mostOn("fieldRoundtrip")} most)`,
        fieldStream: `the field ratios in a busy server (stream mode) ${mostOn("fieldStream")}`,
        echo: `the lab echo ${mostOn("echo")}`,
        lab: `the in-process ratios ${mostOn("lab")}`,
        roundtrip: `the round trips ${mostOn("roundtrip")}`,
        vsRaw: `the codecs' cost on top of \`raw\` ${mostOn("vsRaw")} in stream mode (${count("vsRaw")} of ${across("vsRaw").length})`,
      };
      const named = Object.keys(views)
        .filter((v) => count(v) > median)
        .sort((a, b) => count(b) - count(a))
        .map((v) => said[v]!);
      expect(prose).toContain(
        `On this machine most ratios hold within 5% from run to run (${held} of the block's ${all.length} across the three committed runs); those that move more are ${list(named)}.`,
      );
      expect(held).toBeGreaterThan(all.length / 2);
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
      // The page's examples: the two that rose most, from the first run to the last, most first.
      const examples = [...rose]
        .sort((a, b) => b.ratios[2]! / b.ratios[0]! - a.ratios[2]! / a.ratios[0]!)
        .slice(0, 2)
        .map((r) => `${r.codec} ${r.ratios.map((x) => x.toFixed(2)).join(", ")}`);
      expect(prose).toContain(
        `In an idle server (roundtrip mode) ${idle.filter((r) => r.spread <= 1.1).length} of ${idle.length} came within 1.10x, but the small message's rose in each later run for ${words(rose.length)} of its ${words(smallOnes.length)} codecs (${examples.join("; ")})`,
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
            .map((c) => halfWidth(c.ratios!.fieldVsJson!)),
        );
      expect(Math.max(...halves("roundtrip"))).toBeGreaterThan(Math.max(...halves("stream")));
      expect(prose).toContain(
        `Roundtrip mode times ${slice("roundtrip")[0]} messages a slice against stream's ${slice("stream")[0]}, and its intervals are the field's widest (up to ${plusMinus(Math.max(...halves("roundtrip")))}).`,
      );
    });
  });

  it("the page's message-set figures are the committed runs': bytes, ratio to json in process and in stream mode, compressed sizes", () => {
    const load = (name: string) => {
      const run = csvSample(name);
      return (payload: string, codec: string) => {
        const r = run.row({ payload, codec });
        return (col: string): number => num(r, col);
      };
    };
    const inProcessRun = load("epyc-every-codec.csv");
    const streamRun = load("epyc-every-codec-field.csv");
    const section = page.slice(
      page.indexOf("## Messages of real applications"),
      page.indexOf("## How far a ratio holds"),
    );
    const lines = section.split("\n").filter((l) => /^\| (chat|game-tick|market) \|/.test(l));
    expect(lines).toHaveLength(12);
    for (const line of lines) {
      const [payload, codec, bytes, inProcess, stream, deflated] = line
        .split("|")
        .slice(1, 7)
        .map((c) => c.trim());
      const k = inProcessRun(payload!, codec!);
      const s = streamRun(payload!, codec!);
      expect(s("lost"), line).toBe(0);
      expect(bytes, line).toBe(whole(k("bytes")));
      expect(inProcess!.split(" ")[0], line).toBe(k("total_vs_json").toFixed(2));
      expect(stream!.split(" ")[0], line).toBe(s("total_vs_json").toFixed(2));
      expect(deflated, line).toBe(whole(k("deflate_context_bytes")));
    }
  });
});
