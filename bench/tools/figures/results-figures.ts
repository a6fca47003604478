/**
 * docs/results.md's figures: the line saying what made the samples, the block of every committed
 * run's figures (results-block.ts), and the prose around it: the three default runs, the
 * every-codec runs (Bun in process and streamed, Chromium), the route run and the engines run's
 * round trips. The tables carry the detail; the prose names each finding, and `claim` fails the
 * generator when the samples stop showing it.
 */

import type { CaseRatios, CaseResult, Estimate } from "../../../client/harness/results.ts";
import { ARTICLE_PAYLOADS, MESSAGE_SETS, PAYLOAD_NAMES } from "../../../protocols/messages.ts";
import { halfWidthText, ratioFigure, ratioText } from "../../report/format.ts";
import { claim, type PageFigures } from "./figure-spec.ts";
import { fixed, halfWidth, hi, list, lo, mdTable, range, thousands, whole, word } from "./prose.ts";
import { type SampleSet, sampleFigures } from "./results-block.ts";
import type { Sample } from "./sample-cells.ts";
import { caseIn, casesIn, estimateIn, machineOf, sampleResults } from "./sample-files.ts";
import { madeLine, sampleStates } from "./sample-staleness.ts";

const LAB = "bun-every-codec.json.gz";
const FIELD = "bun-every-codec-field.json.gz";
const CHROMIUM = "chromium-every-codec.json.gz";
const ROUTE = "bun-route.json.gz";
const ENGINES = "engines-bun.json.gz";
const DEFAULTS = ["bun-default-1.json.gz", "bun-default-2.json.gz", "bun-default-3.json.gz"];

const sample = (file: string): Sample => ({ name: `results/sample/${file}`, results: sampleResults(file) });
/** The runs the block sets side by side. */
function sampleSet(): SampleSet {
  const engine = (e: string) => sample(`engines-${e}.json.gz`);
  const fanout = (f: string) => sample(`fanout-${f}.json.gz`);
  return {
    runs: DEFAULTS.map(sample),
    calibrated: sample("bun-calibrate.json.gz"),
    sweeps: [1, 2, 3].map((i) => sample(`bun-sweep-${i}.json.gz`)),
    everyCodec: [LAB, CHROMIUM, FIELD].map(sample),
    patterns: sample(LAB),
    route: sample(ROUTE),
    engines: { bun: engine("bun"), node: engine("node"), chromium: engine("chromium"), firefox: engine("firefox") },
    cluster: { alone: fanout("1-process"), redis: fanout("1-process-redis"), cluster: fanout("2-processes-redis") },
  };
}

/** A claim whose words are the sentence the samples must keep showing. */
const said = (text: string, holds: boolean): string => claim(holds, text, `"${text}"`);
type Mode = CaseResult["mode"];
type Ratio = Exclude<keyof CaseRatios, "bytesVsJson">;
const one = (file: string, mode: Mode, payload: string, codec: string): CaseResult =>
  caseIn(file, { mode, payload, codec });
/** A case's ratio (to JSON's unless named otherwise), and its value. */
const est = (file: string, mode: Mode, payload: string, codec: string, name: Ratio = "vsJson"): Estimate =>
  estimateIn(file, { mode, payload, codec }, name);
const val = (file: string, mode: Mode, payload: string, codec: string, name: Ratio = "vsJson"): number =>
  est(file, mode, payload, codec, name).value;
/** A case's ratio to JSON's (JSON's own 1), NaN where it has none. */
const ratio = (c: CaseResult, name: Ratio = "vsJson"): number =>
  c.codec === "json" ? 1 : (c.ratios?.[name]?.value ?? Number.NaN);
/** The codecs of a file's mode and payload, cheapest first by a ratio to JSON (raw and cal-* left out). */
const ranked = (file: string, mode: Mode, payload: string, name: Ratio = "vsJson"): string[] =>
  casesIn(file, { mode, payload })
    .filter((c) => c.codec !== "raw" && !c.codec.startsWith("cal-") && Number.isFinite(ratio(c, name)))
    .sort((a, b) => ratio(a, name) - ratio(b, name))
    .map((c) => c.codec);
/** A figure of a codec in the three default runs, in the modes and on the payloads given. */
const over = (modes: Mode[], payloads: readonly string[], codec: string, pick: (c: CaseResult) => number): number[] =>
  DEFAULTS.flatMap((f) => modes.flatMap((m) => payloads.map((p) => pick(one(f, m, p, codec)))));
const by = (name: Ratio) => (c: CaseResult) => ratio(c, name);
const SERVER: Mode[] = ["roundtrip", "stream"];
/** A range of ratios as the prose writes it: "0.35-0.38x". */
const xRange = (values: number[], digits = 2): string => `${range(values, fixed(digits))}x`;
/** custom-binary's ratio in the three runs, payload group by group: "0.35-0.38x JSON's time on the small message, 0.51-0.52x on the medium". */
const byGroup = (modes: Mode[], name: Ratio, what: string, groups: [string, string[]][]): string =>
  groups
    .map(([on, ps], i) => `${xRange(over(modes, ps, "custom-binary", by(name)))}${i === 0 ? ` ${what}` : ""} on ${on}`)
    .join(", ");
/** A codec's range on the small message in process and inside a server. */
const labServer = (codec: string): string =>
  `${xRange(over(["codec"], ["small"], codec, by("vsJson")))} JSON's time in process and ${xRange(over(SERVER, ["small"], codec, by("fieldVsJson")), 1)} its cost inside a server`;
/** The default runs' cases of a mode, run after run (json and raw left out unless asked for). */
const defaultCases = (mode: Mode, keep: (codec: string) => boolean = (c) => c !== "json" && c !== "raw") =>
  DEFAULTS.flatMap((f) => casesIn(f, { mode })).filter((c) => keep(c.codec));
const us = (values: number[], digits = 0): string => `${range(values, (ns) => (ns / 1000).toFixed(digits))} µs`;
/** Percent over 1: "6-21". */
const percentOver = (values: number[]): string => range(values, (x) => String(Math.round((x - 1) * 100)));
const holdsOne = (r: Estimate): boolean => r.low <= 1 && r.high >= 1;
const ratios = (cases: CaseResult[], name: Ratio = "vsJson"): number[] => cases.map((c) => ratio(c, name));
/** How the prose names a codec (any other by its id). */
const named = (codec: string): string =>
  ({ avro: "Avro", bebop: "Bebop", flatbuffers: "FlatBuffers", capnp: "Cap'n Proto", json: "JSON" })[codec] ?? codec;

/** The router: each case's CPU forwarding, its ratio to JSON's, and the five cheapest of a payload (JSON left out). */
const routeCpu = (c: CaseResult): number => c.route!.forward.cpuNs.median;
const routeVs = (c: CaseResult): Estimate => c.ratios!.routeVsJson!;
/** Recoding over forwarding, the server's CPU per routed message. */
const recode = (c: CaseResult): number => c.route!.recodeOverForward!.value;
const routed = (payload: string): CaseResult[] => casesIn(ROUTE, { mode: "route", payload });
const five = (payload: string): CaseResult[] =>
  routed(payload)
    .filter((c) => c.codec !== "json")
    .sort((a, b) => routeCpu(a) - routeCpu(b))
    .slice(0, 5);
/** The schemaless codecs that decode to find the key, on chat and market. */
const schemaless = (file: string, mode: Mode): CaseResult[] =>
  ["chat", "market"].flatMap((p) =>
    ["msgpack", "msgpackr", "msgpackr-records", "cbor", "bson"].map((codec) => one(file, mode, p, codec)),
  );

/** Stream mode's time per message over raw's (the inverse of its rate over raw's), in the three runs. */
const onTop = (p: string, codec: string): number[] => over(["stream"], [p], codec, (c) => 1 / c.ratios!.vsRaw!.value);
const streamCodecs = (): string[] => [...new Set(defaultCases("stream").map((c) => c.codec))];
const ofRaw = (pick: (c: CaseResult) => number): number[] => over(["stream"], ARTICLE_PAYLOADS, "raw", pick);
const rawRates = (): number[] => ofRaw((c) => c.msgsPerS);
const rawCpu = (side: "clientCpuNsPerMsg" | "serverCpuNsPerMsg"): number[] => ofRaw((c) => c.socket![side]!);

/** The four codecs the message-set table shows, in its order. */
const FOUR = ["custom-binary", "json", "protobuf", "msgpackr"];
const tick = (codec: string): number => val(LAB, "codec", "game-tick", codec);
const chat = (file: string, codec: string): number => val(file, "codec", "chat", codec);
const streamRate = (codec: string): number => one(FIELD, "stream", "game-tick", codec).msgsPerS;
const deflated = (p: string, codec: string): number => one(LAB, "codec", p, codec).compression!.deflateContextBytes!;
const withJson = (v: Estimate): string =>
  `${holdsOne(v) ? "level with JSON" : v.value < 1 ? "ahead of JSON" : "behind JSON"} (${ratioText(v)})`;
/** The share of JSON's time on game-tick a codec saves. */
const win = (codec: string): number => 1 - tick(codec);

/** The block's six views of the three default runs: a label for the table, a name for the prose, the mode and ratio. */
type View = [label: string, prose: string, mode: Mode, name: Ratio];
const VIEWS: View[] = [
  ["lab, codec mode", "the in-process ratios", "codec", "vsJson"],
  ["lab echo", "the lab echo", "codec", "echoVsJson"],
  ["field, roundtrip mode", "the field ratios in an idle server (roundtrip mode)", "roundtrip", "fieldVsJson"],
  ["field, stream mode", "the field ratios in a busy server (stream mode)", "stream", "fieldVsJson"],
  ["round trips", "the round trips", "roundtrip", "vsJson"],
  ["stream mode, vs raw", "the codecs' cost on top of `raw` in stream mode", "stream", "vsRaw"],
];
/** Each codec's ratio of a view in the three runs (json and raw left out; vsRaw as time), and how far apart they were. */
const across = (mode: Mode, name: Ratio) =>
  casesIn(DEFAULTS[0]!, { mode })
    .filter((c) => c.codec !== "json" && c.codec !== "raw")
    .map(({ payload, codec }) => {
      const ratios = over([mode], [payload], codec, by(name)).map((x) => (name === "vsRaw" ? 1 / x : x));
      return { payload, codec, ratios, spread: hi(ratios) / lo(ratios) };
    });
const within = (rows: { spread: number }[], x: number): number => rows.filter((r) => r.spread <= x).length;
const fieldHalves = (mode: Mode): number[] => defaultCases(mode).map((c) => halfWidth(c.ratios!.fieldVsJson!));
/** Messages per timed slice of a mode in the first default run: one figure, or a claim fails. */
function slice(mode: Mode): string {
  const slices = new Set(casesIn(DEFAULTS[0]!, { mode }).map((c) => c.socket!.slice));
  return claim(slices.size === 1, String([...slices][0]), `one slice size for every case of ${mode} mode`);
}

export const RESULTS: PageFigures = {
  page: "docs/results.md",
  figures: {
    made: () => madeLine(sampleStates()),
    machine: () => `${machineOf(DEFAULTS).cores}-core ${machineOf(DEFAULTS).cpu}`,
    figures: () => sampleFigures(sampleSet()),

    // Every codec on every payload: where custom-binary is first, in each of the three standing tables.
    "cb-first": () => {
      const tables: [string, Mode, Ratio, string][] = [
        [LAB, "codec", "vsJson", "in Bun's codec mode"],
        [FIELD, "stream", "fieldVsJson", "inside the server"],
        [CHROMIUM, "codec", "vsJson", "in Chromium"],
      ];
      const behind = tables.map(([file, mode, name, where]) =>
        PAYLOAD_NAMES.map((p) => [p, ranked(file, mode, p, name)[0]!])
          .filter(([, first]) => first !== "custom-binary")
          .map(([p, first]) => `${named(first!)} on ${p} ${where}`),
      );
      const firsts = tables.map(([, , , where], i) => `${PAYLOAD_NAMES.length - behind[i]!.length} ${where}`);
      const text = `of the ${PAYLOAD_NAMES.length} payloads custom-binary is first on ${list(firsts)}`;
      return claim(
        behind.flat().length <= 3,
        `almost nowhere: ${text}${behind.flat().length > 0 ? ` (behind ${list(behind.flat())})` : ""}`,
        "custom-binary first on all but three or fewer of the eighteen payloads of the three standing tables",
      );
    },

    // The access patterns.
    "read-one": () => {
      const top = (p: string) => ranked(LAB, "codec", p, "readOneVsJson");
      // The codec second on most payloads, and the payloads where another is.
      const seconds = PAYLOAD_NAMES.map((p) => top(p)[1]!);
      const common = seconds.toSorted(
        (a, b) => seconds.filter((c) => c === b).length - seconds.filter((c) => c === a).length,
      )[0]!;
      const others = PAYLOAD_NAMES.filter((_, i) => seconds[i] !== common).map((p, i) => `${p} (${named(top(p)[1]!)})`);
      return claim(
        PAYLOAD_NAMES.every((p) => top(p)[0] === "custom-binary") && others.length < PAYLOAD_NAMES.length / 2,
        `custom-binary reads the key fastest on every payload and ${named(common)} second${others.length > 0 ? ` on every one but ${list(others)}` : ""}`,
        "custom-binary reading the key fastest on every payload, one codec second on most",
      );
    },
    // A scan rises when a codec that encodes and decodes faster reads one field slower.
    "read-one-rise": () =>
      said(
        "the Protobuf scans rise past codecs that encode and decode faster",
        ["protobuf", "pbf"].every((scan) =>
          PAYLOAD_NAMES.some((p) => {
            const [it, all] = [one(LAB, "codec", p, scan), casesIn(LAB, { mode: "codec", payload: p })];
            return all.some((c) => ratio(c) < ratio(it) && ratio(c, "readOneVsJson") > ratio(it, "readOneVsJson"));
          }),
        ),
      ),
    "read-one-decode": () => {
      const decoding = casesIn(LAB, { mode: "codec" }).filter((c) => c.keyAccess === "decode");
      return said(
        "everything that can only decode stays at its decode",
        decoding.length > 0 && decoding.every((c) => c.readOne?.median === c.deserialize.median),
      );
    },
    validated: () => {
      const first = (p: string, name: Ratio = "vsJson") => ranked(LAB, "codec", p, name)[0];
      const changed = ARTICLE_PAYLOADS.filter((p) => first(p, "validatedVsJson") !== first(p));
      const v = (p: string, codec: string) => est(LAB, "codec", p, codec, "validatedVsJson");
      const level = changed.filter((p) => v(p, "avro").high >= v(p, "custom-binary").low);
      return said(
        `on ${list(changed)} Avro's decode with its range checks comes first, ahead of custom-binary's${level.length > 0 ? ` (level with it within their intervals on ${list(level)})` : ""}`,
        changed.length > 0 &&
          changed.every((p) => first(p, "validatedVsJson") === "avro" && first(p) === "custom-binary"),
      );
    },
    "validated-json": () => {
      const v = (p: string, codec: string) => val(LAB, "codec", p, codec, "validatedVsJson");
      return said(
        "JSON with its schema validator stays behind both",
        ARTICLE_PAYLOADS.every((p) => v(p, "json") > Math.max(v(p, "avro"), v(p, "custom-binary"))),
      );
    },

    // The router.
    "route-cheapest": () => {
      const c = casesIn(ROUTE, { mode: "route" }).reduce((a, b) => (routeCpu(b) < routeCpu(a) ? b : a));
      return `${named(c.codec)} on ${c.payload}, costs the server ${us([routeCpu(c)], 2)} per message, of which reading the key is ${Math.round(c.route!.forward.keyNs.median)} ns`;
    },
    "route-readers": () =>
      said(
        "the five that cost the server least forwarding all read the key without decoding",
        ["game-tick", "chat"].every((p) => five(p).every((c) => c.route!.keyAccess !== "decode")),
      ),
    "route-market": () => {
      const level = five("market").filter((c) => holdsOne(routeVs(c)));
      const levelText = `${list(level.map((c) => named(c.codec)))} level with it within ${level.length === 1 ? "its interval" : "their intervals"}`;
      return `the five cheapest cost ${xRange(five("market").map((c) => routeVs(c).value))} JSON's CPU${level.length > 0 ? `, ${levelText}` : ""}`;
    },
    "schemaless-codec": () => xRange(ratios(schemaless(LAB, "codec")), 1),
    "schemaless-route": () => xRange(ratios(schemaless(ROUTE, "route"), "routeVsJson")),
    "schemaless-behind": () => {
      const routes = schemaless(ROUTE, "route");
      const level = routes.filter((c) => holdsOne(routeVs(c))).length;
      return said(
        level === 0
          ? "(all behind it)"
          : `(${level} of these ${routes.length} level with it within their intervals, the others behind it)`,
        routes.every((c) => (routeVs(c).value > 1 || holdsOne(routeVs(c))) && c.route!.keyAccess === "decode"),
      );
    },
    "tick-kb": () => {
      const bytes = routed("game-tick").map((c) => c.bytes);
      return range(bytes, (x) => String(Math.round(x / 1000)));
    },
    "tick-five": () => xRange(ratios(five("game-tick"), "routeVsJson")),
    "tick-recode": () => `${range(routed("game-tick").map(recode), fixed(2), fixed(1))}x`,
    "tick-dearest": () => {
      const dearest = routed("game-tick")
        .sort((a, b) => recode(b) - recode(a))
        .slice(0, 2);
      return list(dearest.map((c) => named(c.codec)).sort());
    },

    // What to take from it: custom-binary.
    "cb-smallest": () =>
      said(
        "custom-binary is the smallest format on every payload",
        DEFAULTS.every((f) =>
          ARTICLE_PAYLOADS.every((p) => {
            const own = one(f, "codec", p, "custom-binary").bytes;
            return casesIn(f, { mode: "codec", payload: p }).every((c) => c.codec === "custom-binary" || c.bytes > own);
          }),
        ),
      ),
    sizes: () => {
      const bytes = (codec: string) =>
        ARTICLE_PAYLOADS.map((p) => one(DEFAULTS[0]!, "codec", p, codec).bytes).join(" / ");
      return `${bytes("custom-binary")} bytes against JSON's ${bytes("json")}, Protobuf's ${bytes("protobuf")}`;
    },
    "cb-cheapest": () =>
      said(
        "cheapest inside a server on every payload",
        DEFAULTS.every((f) =>
          ARTICLE_PAYLOADS.every((p) => SERVER.every((m) => ranked(f, m, p, "fieldVsJson")[0] === "custom-binary")),
        ),
      ),
    "cb-field": () =>
      byGroup(SERVER, "fieldVsJson", "JSON's cost", [
        ["the small message", ["small"]],
        ["the others", ["medium", "large"]],
      ]),
    "cb-lead-narrows": () => {
      const [small, medium, large] = ARTICLE_PAYLOADS.map((p) => over(["codec"], [p], "custom-binary", by("vsJson")));
      return said("In the lab its lead narrows as messages grow", hi(small!) < lo(medium!) && hi(medium!) < lo(large!));
    },
    "cb-lab": () =>
      byGroup(["codec"], "vsJson", "JSON's time", [
        ["the small message", ["small"]],
        ["the medium", ["medium"]],
        ["the large", ["large"]],
      ]),

    // What to take from it: msgpack, msgpackr and protobuf behind JSON, but where a lab interval reaches 1.
    "dear-where": () => {
      const DEAR = ["msgpack", "msgpackr", "protobuf"];
      const reaches = (codec: string, p: string) => DEFAULTS.some((f) => est(f, "codec", p, codec).low <= 1);
      const exceptions = DEAR.flatMap((c) =>
        ARTICLE_PAYLOADS.filter((p) => reaches(c, p)).map((p) => `${c} on the ${p} message`),
      );
      const lows = DEAR.flatMap((codec) => over(SERVER, ARTICLE_PAYLOADS, codec, (c) => c.ratios!.fieldVsJson!.low));
      return claim(
        lo(lows) > 1,
        exceptions.length === 0 ? "everywhere" : `everywhere but ${list(exceptions)} in the lab`,
        "msgpack, msgpackr and protobuf costing more than JSON in the server",
      );
    },
    "msgpackr-small": () => labServer("msgpackr"),
    "records-small": () => labServer("msgpackr-records"),

    // What to take from it: the transport.
    "raw-over": () => claim(lo(rawRates()) > 100_000, "100,000", "raw over 100,000 messages a second in every run"),
    "raw-cores": () => word(machineOf(DEFAULTS).cores),
    "raw-rates": () => range(rawRates(), thousands),
    "raw-small": () => `${percentOver(streamCodecs().flatMap((c) => onTop("small", c)))}%`,
    "raw-large": () => {
      const [dearest] = streamCodecs().sort((a, b) => hi(onTop("large", b)) - hi(onTop("large", a)));
      return `${xRange(onTop("large", dearest!), 1)} the transport's time on the large one (${dearest})`;
    },
    "client-busier": () =>
      said("the client side is the busier one", lo(rawCpu("clientCpuNsPerMsg")) > hi(rawCpu("serverCpuNsPerMsg"))),
    "raw-cpu": () => `${us(rawCpu("clientCpuNsPerMsg"), 1)} of CPU against ${us(rawCpu("serverCpuNsPerMsg"), 1)}`,

    // What to take from it: round trips.
    "rtt-all": () => us(defaultCases("roundtrip", () => true).map((c) => c.socket!.rtt!.p50)),
    "rtt-raw": () => us(defaultCases("roundtrip", (c) => c === "raw").map((c) => c.socket!.rtt!.p50)),
    "rtt-server": () => us(defaultCases("roundtrip", (c) => c !== "raw").map((c) => c.ratios!.field!.value)),
    "rtt-ratios": () => range(ratios(defaultCases("roundtrip")), fixed(2)),

    // The message sets.
    streamed: () => {
      const counts = new Set(casesIn(FIELD, { mode: "stream" }).map((c) => c.iterations));
      return claim(counts.size === 1, whole([...counts][0]!), "one count of messages streamed for every codec");
    },
    "sets-verified": () => {
      const [lab, stream] = [casesIn(LAB, { mode: "codec" }), casesIn(FIELD, { mode: "stream" })];
      return said(
        "every row verified, lost 0",
        [...lab, ...stream].every((c) => c.verified) && stream.every((c) => c.socket!.lost === 0),
      );
    },
    "codec-count": () => word(new Set(casesIn(LAB, { mode: "codec" }).map((c) => c.codec)).size),
    "sets-table": () => {
      const cell = (c: CaseResult) => (c.codec === "json" ? "1.00" : ratioText(c.ratios!.vsJson!));
      const row = (p: string, codec: string, k = one(LAB, "codec", p, codec)) => [
        ...[p, codec, whole(k.bytes), cell(k)],
        ...[cell(one(FIELD, "stream", p, codec)), whole(deflated(p, codec))],
      ];
      return mdTable(
        ["payload", "codec", "bytes", "in process, vs json", "stream, vs json", "deflated in a stream"],
        MESSAGE_SETS.flatMap((p) => FOUR.map((codec) => row(p, codec))),
      );
    },
    "tick-time": () => `${ratioFigure(tick("custom-binary"))}x`,
    "tick-bytes": () => `${ratioFigure(one(LAB, "codec", "game-tick", "custom-binary").ratios!.bytesVsJson!)}x`,
    "tick-rate": () => `${(streamRate("custom-binary") / streamRate("json")).toFixed(1)}x`,
    "tick-rates": () => `${thousands(streamRate("custom-binary"))} against ${thousands(streamRate("json"))}`,
    "tick-second": () =>
      said(
        "Protobuf, which also skips zeros, is second of these four",
        ranked(LAB, "codec", "game-tick").filter((c) => FOUR.includes(c))[1] === "protobuf",
      ),
    "tick-rival": () => {
      const rival = ranked(LAB, "codec", "game-tick").find((c) => c !== "custom-binary")!;
      const [lab, socket] = [
        (c: string) => ratioFigure(tick(c)),
        (c: string) => ratioFigure(val(FIELD, "stream", "game-tick", c)),
      ];
      return `${named(rival)} is the closest: ${lab(rival)}x in process and ${socket(rival)}x over a socket, against custom-binary's ${lab("custom-binary")}x and ${socket("custom-binary")}x`;
    },
    "tick-next": () => {
      const next = ranked(LAB, "codec", "game-tick")
        .filter((c) => c !== "custom-binary")
        .slice(1, 4);
      return `${list(next.map(named))} come next at ${xRange(next.map(tick))}`;
    },
    "chat-bun": () => `${ratioFigure(chat(LAB, "custom-binary"))}x`,
    "chat-socket": () => `${ratioFigure(val(FIELD, "stream", "chat", "custom-binary"))}x`,
    "chat-chromium": () => `${ratioFigure(chat(CHROMIUM, "custom-binary"))}x`,
    "chat-dear": () => {
      const onChat = ["protobuf", "msgpack", "msgpackr"].flatMap((c) => [chat(LAB, c), chat(CHROMIUM, c)]);
      return claim(lo(onChat) > 1, xRange(onChat, 1), "protobuf and both MessagePack libraries behind JSON on chat");
    },
    "chat-records": () => xRange([chat(LAB, "msgpackr-records"), chat(CHROMIUM, "msgpackr-records")], 1),
    "market-fast": () => {
      const totals = FOUR.map((c) => one(LAB, "codec", "market", c).total.median);
      return claim(
        hi(totals) < 2000,
        hi(totals) < 1000 ? "under a microsecond" : `${range(totals, (ns) => (ns / 1000).toFixed(1))} µs`,
        "a market quote taking under 2 µs in each of the four codecs",
      );
    },
    "market-stream": () => withJson(est(FIELD, "stream", "market", "custom-binary")),
    "market-rtt": () => {
      const rtts = FOUR.map((c) => one(ENGINES, "roundtrip", "market", c).socket!.rtt!.p50);
      return range(rtts, (ns) => String(Math.round(ns / 10_000) * 10));
    },
    "market-trip": () => withJson(est(ENGINES, "roundtrip", "market", "custom-binary")),
    "market-longer": () => {
      const longer = ["protobuf", "msgpackr"].map((c) => val(ENGINES, "roundtrip", "market", c));
      return claim(lo(longer) > 1, `${percentOver(longer)}%`, "protobuf and msgpackr behind JSON in round trips");
    },
    "deflate-gap": () => {
      const past = (c: string) => ["chat", "market"].map((p) => deflated(p, c) - deflated(p, "custom-binary"));
      return `protobuf and msgpackr come within ${range([...past("protobuf"), ...past("msgpackr")], whole)} bytes of custom-binary on chat and market, and JSON within ${range(past("json"), whole)}`;
    },
    "share-protobuf": () => `${Math.round((100 * win("protobuf")) / win("custom-binary"))}%`,
    "share-ratios": () => `${ratioFigure(tick("protobuf"))}x against ${ratioFigure(tick("custom-binary"))}x`,
    "share-avro": () =>
      claim(win("avro") >= win("custom-binary"), "all of it", "Avro saving all custom-binary saves on game-tick"),

    // How far a ratio holds.
    forks: () => String(sampleResults(DEFAULTS[0]!).settings.forks),
    held: () => {
      const all = VIEWS.flatMap(([, , mode, name]) => across(mode, name));
      const held = within(all, 1.05);
      return claim(held > all.length / 2, `${held} of the block's ${all.length}`, "most ratios within 5%");
    },
    "held-table": () =>
      mdTable(
        ["ratios", "within 5%", "within 10%", "widest apart"],
        VIEWS.map(([label, , mode, name]) => {
          const rows = across(mode, name);
          const of = (x: number) => `${within(rows, x)} of ${rows.length}`;
          return [label, of(1.05), of(1.1), `${hi(rows.map((r) => r.spread)).toFixed(3)}x`];
        }),
      ),
    movers: () => {
      const held = ([, , mode, name]: View) => within(across(mode, name), 1.05) / across(mode, name).length;
      const most = [...VIEWS].sort((a, b) => held(a) - held(b)).slice(0, 2);
      return list(most.map(([, prose]) => prose));
    },
    "stream-held": () => {
      const [stream, idle] = [across("stream", "fieldVsJson"), across("roundtrip", "fieldVsJson")];
      const widest = hi(stream.map((r) => r.spread));
      return claim(
        widest <= 1.1 && within(idle, 1.1) < stream.length,
        `every stream-mode field ratio (${stream.length}) came within ${widest.toFixed(2)}x of the other runs'; in an idle server (roundtrip mode) ${within(idle, 1.1)} of ${idle.length} came within 1.10x`,
        "every stream-mode field ratio within 1.10x across the three runs, and fewer roundtrip-mode ones",
      );
    },
    "idle-rose": () => {
      const small = across("roundtrip", "fieldVsJson").filter((r) => r.payload === "small");
      const rose = small.filter(({ ratios: [a, b, c] }) => a! < b! && b! < c!).map((r) => r.codec);
      return claim(rose.length > 0, list(rose.sort()), "a small idle-server ratio rising run by run");
    },
    "echo-small": () => {
      const small = across("codec", "echoVsJson").filter((x) => x.payload === "small");
      const most = small.reduce((a, b) => (b.spread > a.spread ? b : a));
      return claim(most.ratios[2]! > most.ratios[0]!, `${most.spread.toFixed(2)}x`, "the small echo rising");
    },
    slices: () => `${slice("roundtrip")} messages a slice against stream's ${slice("stream")}`,
    "idle-widest": () => {
      const [idle, busy] = [hi(fieldHalves("roundtrip")), hi(fieldHalves("stream"))];
      return claim(idle > busy, halfWidthText(idle), "roundtrip mode's field intervals wider than stream mode's");
    },
  },
};
