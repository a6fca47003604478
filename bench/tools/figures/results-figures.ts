/**
 * docs/results.md's figures: the line saying what made the samples, the block of every committed
 * run's figures, and the prose around them: the machine and the three default runs
 * (epyc-default-{1,2,3}.json.gz, epyc-default-1.json's settings), the every-codec runs
 * (epyc-every-codec.json.gz, epyc-every-codec-field.json.gz, chromium-every-codec.json.gz), the route run
 * (epyc-route.json.gz) and the engines run's round trips (engines-bun.json.gz). The longer sentences are
 * built in results-prose.ts.
 */

import type { CaseResult, Estimate } from "../../../client/harness/results.ts";
import { ARTICLE_PAYLOADS, MESSAGE_SETS } from "../../../protocols/messages.ts";
import { ratioText } from "../../report/format.ts";
import { claim, type PageFigures } from "./figure-spec.ts";
import { fig, fixed, halfWidth, hi, list, lo, plusMinus, range, thousands, whole } from "./prose.ts";
import { type SampleSet, sampleFigures } from "./results-block.ts";
import {
  across,
  bunClosest,
  bunCodecFirst,
  bunServerFirst,
  CHROMIUM,
  capital,
  chromiumFaster,
  chromiumFirst,
  chromiumVsSchema,
  DEFAULTS,
  ENGINES,
  FIELD,
  fieldVsJson,
  five,
  holdsOne,
  idleRose,
  LAB,
  named,
  onThe,
  one,
  type Pick,
  ranked,
  readOneDecode,
  readOneLead,
  readOneRise,
  ROUTE,
  routeChat,
  routeCpu,
  routeMarket,
  routeTick,
  routeVs,
  schemalessLevel,
  schemalessRouted,
  SCHEMALESS,
  ROUTED_SETS,
  VIEW_NAMES,
  validatedAgainst,
  validatedJsonBehind,
  validatedWhere,
  viewsThatMove,
  vsJson,
  words,
} from "./results-prose.ts";
import type { Sample } from "./sample-cells.ts";
import { casesIn, machineOf, sampleResults } from "./sample-files.ts";
import { madeLine, sampleStates } from "./sample-staleness.ts";

const sample = (file: string): Sample => ({ name: `results/sample/${file}`, results: sampleResults(file) });

/** The runs the block sets side by side. */
function sampleSet(): SampleSet {
  return {
    runs: DEFAULTS.map(sample),
    calibrated: sample("epyc-calibrate.json.gz"),
    sweeps: ["epyc-sweep-1.json.gz", "epyc-sweep-2.json.gz", "epyc-sweep-3.json.gz"].map(sample),
    everyCodec: ["epyc-every-codec.json.gz", "chromium-every-codec.json.gz", "epyc-every-codec-field.json.gz"].map(
      sample,
    ),
    patterns: sample("epyc-every-codec.json.gz"),
    route: sample("epyc-route.json.gz"),
    engines: {
      bun: sample("engines-bun.json.gz"),
      node: sample("engines-node.json.gz"),
      chromium: sample("engines-chromium.json.gz"),
      firefox: sample("engines-firefox.json.gz"),
    },
    cluster: {
      alone: sample("fanout-1-process.json.gz"),
      redis: sample("fanout-1-process-redis.json.gz"),
      cluster: sample("fanout-2-processes-redis.json.gz"),
    },
  };
}

/** A figure of a codec in the three default runs, in the modes and on the payloads given. */
const over = (modes: CaseResult["mode"][], payloads: readonly string[], codec: string, pick: Pick): number[] =>
  DEFAULTS.flatMap((f) => modes.flatMap((m) => payloads.map((p) => pick(one(f, m, p, codec))!)));
const SERVER: CaseResult["mode"][] = ["roundtrip", "stream"];
/** A range of ratios as the prose writes it: "0.35-0.38x". */
const xRange = (values: number[], digits = 2): string => `${range(values, fixed(digits))}x`;
const us = (ns: number): string => String(Math.round(ns / 1000));
const us1 = (ns: number): string => (ns / 1000).toFixed(1);
/** The default runs' cases of a mode (and codec), run after run. */
const defaultCases = (mode: CaseResult["mode"], codec?: string): CaseResult[] =>
  DEFAULTS.flatMap((f) => casesIn(f, codec === undefined ? { mode } : { mode, codec }));
/** Percent over 1: "6-21". */
const percentOver = (values: number[]): string => range(values, (x) => String(Math.round((x - 1) * 100)));

/** What the custom-binary bullet claims: in each run the smallest format on every payload, and the cheapest inside a server (both modes). */
const cbSmallest = (): boolean =>
  DEFAULTS.every((f) =>
    ARTICLE_PAYLOADS.every((p) => {
      const own = one(f, "codec", p, "custom-binary").bytes;
      return casesIn(f, { mode: "codec", payload: p }).every((c) => c.codec === "custom-binary" || c.bytes > own);
    }),
  );
const cbCheapestInServer = (): boolean =>
  DEFAULTS.every((f) =>
    ARTICLE_PAYLOADS.every((p) =>
      SERVER.every((m) => ranked(f, m, p, fieldVsJson).filter((c) => c !== "raw")[0] === "custom-binary"),
    ),
  );

/** msgpack, msgpackr and protobuf: the codecs and messages whose lab interval reaches 1 in any of the runs. */
const DEAR = ["msgpack", "msgpackr", "protobuf"];
const labRatio = (f: string, p: string, codec: string) => one(f, "codec", p, codec).ratios!.vsJson!;
const dearExceptions = () =>
  DEAR.flatMap((codec) =>
    ARTICLE_PAYLOADS.filter((p) => DEFAULTS.some((f) => labRatio(f, p, codec).low <= 1)).map((p) => ({ codec, p })),
  );

/** Stream mode's time per message over raw's (the inverse of the rate over raw's), in the three runs. */
const onTop = (p: string, codec: string): number[] => over(["stream"], [p], codec, (c) => 1 / c.ratios!.vsRaw!.value);
/** The codec whose cost on top of raw on the large message is largest, and that cost. */
function dearestOnLarge(): [string, number] {
  const others = [...new Set(casesIn(DEFAULTS[0]!, { mode: "stream" }).map((c) => c.codec))].filter(
    (c) => c !== "raw" && c !== "json",
  );
  return others.map((c) => [c, hi(onTop("large", c))] as [string, number]).sort((a, b) => b[1] - a[1])[0]!;
}
/** raw's CPU per message in stream mode, client or server, over the runs and the article's messages. */
const rawCpu = (side: "clientCpuNsPerMsg" | "serverCpuNsPerMsg"): number[] =>
  over(["stream"], ARTICLE_PAYLOADS, "raw", (c) => c.socket![side]);
const rawRates = (): number[] => over(["stream"], ARTICLE_PAYLOADS, "raw", (c) => c.msgsPerS);

/** The four codecs the message-set table shows, in its order. */
const FOUR = ["custom-binary", "json", "protobuf", "msgpackr"];
/** A ratio to JSON of a file's mode, payload and codec. */
const r = (file: string, mode: CaseResult["mode"], p: string, codec: string): number =>
  vsJson(one(file, mode, p, codec))!;
const tick = (codec: string) => r(LAB, "codec", "game-tick", codec);
const tickOverSocket = (codec: string) => r(FIELD, "stream", "game-tick", codec);
const streamRate = (codec: string) => one(FIELD, "stream", "game-tick", codec).msgsPerS;
/** Game-tick in process: the closest to custom-binary of every codec, and the three that come next. */
const tickOrder = () => ranked(LAB, "codec", "game-tick", vsJson);
const tickRival = (): string => tickOrder().find((c) => c !== "custom-binary")!;
const tickNext = (): string[] =>
  tickOrder()
    .filter((c) => c !== tickRival() && c !== "custom-binary")
    .slice(0, 3);
/** Game-tick in process: the second of the table's four. */
const tickSecond = (): string => tickOrder().filter((c) => FOUR.includes(c))[1]!;
const codecCount = (): string => words(new Set(casesIn(LAB, { mode: "codec" }).map((c) => c.codec)).size);
/** A table cell of a ratio with its interval, json's own as 1.00. */
const withInterval = (c: CaseResult): string => {
  const v = c.ratios!.vsJson!;
  return c.codec === "json" ? fig(v.value) : `${fig(v.value)} ${plusMinus(halfWidth(v))}`;
};
const WITH_JSON = { level: "level with JSON", ahead: "ahead of JSON", behind: "behind JSON" };
/** Where a ratio to JSON stands: level (its interval holds 1), ahead (below 1) or behind. */
const standing = (v: Estimate): keyof typeof WITH_JSON => (holdsOne(v) ? "level" : v.value < 1 ? "ahead" : "behind");
const marketStream = () => one(FIELD, "stream", "market", "custom-binary").ratios!.vsJson!;
const marketTrip = (codec: string) => one(ENGINES, "roundtrip", "market", codec);
const deflated = (p: string, codec: string): string =>
  whole(one(LAB, "codec", p, codec).compression!.deflateContextBytes);
/** A share of custom-binary's win on game-tick, as the page words it: "all of it" from the whole win up, else the nearest of these fractions. */
const FRACTIONS: [number, string][] = [
  [1 / 4, "a quarter"],
  [1 / 3, "a third"],
  [1 / 2, "half"],
  [2 / 3, "two thirds"],
  [3 / 4, "three quarters"],
];
function shareOf(codec: string): string {
  const share = (1 - tick(codec)) / (1 - tick("custom-binary"));
  if (share >= 1) return "all of it";
  const [, fraction] = FRACTIONS.reduce((a, b) => (Math.abs(b[0] - share) < Math.abs(a[0] - share) ? b : a));
  return `about ${fraction} of the win`;
}

/** The block's ratios across the three runs, every view's. */
const everyView = () => VIEW_NAMES.flatMap(across);
/** The half-widths of the field's ratios to JSON in a mode, over the three runs (json and raw left out). */
const fieldHalves = (mode: CaseResult["mode"]): number[] =>
  defaultCases(mode)
    .filter((c) => c.codec !== "json" && c.codec !== "raw")
    .map((c) => halfWidth(c.ratios!.fieldVsJson!));
/** Messages per timed slice of a mode in the first default run: one figure, or a claim fails. */
function slice(mode: CaseResult["mode"]): string {
  const slices = new Set(casesIn(DEFAULTS[0]!, { mode }).map((c) => c.socket!.slice));
  return claim(slices.size === 1, String([...slices][0]), `one slice size for every case of ${mode} mode`);
}

export const RESULTS: PageFigures = {
  page: "docs/results.md",
  figures: {
    made: () => madeLine(sampleStates()),
    machine: () => {
      const m = machineOf(DEFAULTS);
      return `${m.cores}-core ${m.cpu}`;
    },
    figures: () => sampleFigures(sampleSet()),

    // Every codec on every payload.
    "bun-closest": bunClosest,
    "bun-codec-first": bunCodecFirst,
    "bun-server-first": bunServerFirst,
    "chromium-vs-schema": chromiumVsSchema,
    "chromium-first": chromiumFirst,
    "chromium-faster": chromiumFaster,

    // The access patterns.
    "read-one": readOneLead,
    "read-one-rise": readOneRise,
    "read-one-decode": readOneDecode,
    "validated-where": validatedWhere,
    validated: validatedAgainst,
    "validated-json": validatedJsonBehind,

    // The router.
    "route-cheapest": () => {
      const c = casesIn(ROUTE, { mode: "route" }).reduce((a, b) => (routeCpu(b) < routeCpu(a) ? b : a));
      return `${named(c.codec)} on ${c.payload}, costs the server ${(routeCpu(c) / 1000).toFixed(2)} µs per message, of which reading the key is ${Math.round(c.route!.forward.keyNs.median)} ns`;
    },
    "route-tick": routeTick,
    "route-chat": routeChat,
    "route-market-smallest": () => {
      const bytes = (p: string) => one(ROUTE, "route", p, "json").bytes;
      return claim(
        bytes("market") < Math.min(bytes("chat"), bytes("game-tick")),
        "the smallest message",
        "market's JSON message smaller than chat's and game-tick's",
      );
    },
    "route-market": routeMarket,
    "schemaless-codec": () =>
      xRange(
        ROUTED_SETS.flatMap((p) => SCHEMALESS.map((c) => r(LAB, "codec", p, c))),
        1,
      ),
    "schemaless-route": () => xRange(schemalessRouted().map((c) => routeVs(c).value)),
    "schemaless-level": schemalessLevel,
    "schemaless-behind": () =>
      claim(
        schemalessRouted().every(
          (c) => (routeVs(c).value > 1 || holdsOne(routeVs(c))) && c.route!.keyAccess === "decode",
        ),
        "behind it because they decode the whole message to find the key",
        "MessagePack, CBOR and BSON routing behind JSON (or level with it) and decoding to find the key",
      ),
    "tick-kb": () =>
      range(
        casesIn(ROUTE, { mode: "route", payload: "game-tick" }).map((c) => c.bytes),
        (x) => String(Math.round(x / 1000)),
      ),
    "tick-forward": () => xRange([routeVs(one(ROUTE, "route", "game-tick", "custom-binary")).value]),
    "tick-five": () => xRange(five("game-tick").map((c) => routeVs(c).value)),
    "tick-recode": () =>
      `${range(
        casesIn(ROUTE, { mode: "route", payload: "game-tick" }).map((c) => c.route!.recodeOverForward!.value),
        fixed(2),
        fixed(1),
      )}x`,
    "tick-dearest": () =>
      casesIn(ROUTE, { mode: "route", payload: "game-tick" })
        .sort((a, b) => b.route!.recodeOverForward!.value - a.route!.recodeOverForward!.value)
        .slice(0, 2)
        .map((c) => c.codec)
        .sort()
        .map(named)
        .join(", "),
    "route-delivered": () => {
      const routes = casesIn(ROUTE, { mode: "route" }).map((c) => c.route!);
      const sum = (f: (x: (typeof routes)[number]) => number) => routes.reduce((n, x) => n + f(x), 0);
      return claim(
        sum((x) => x.delivered) === sum((x) => x.expected) && sum((x) => x.misrouted) === 0,
        `Every one of the ${(sum((x) => x.delivered) / 1e6).toFixed(1)} million deliveries reached exactly its room's members`,
        "every delivery the route run called for made, and none misrouted",
      );
    },

    // What to take from it: custom-binary.
    "cb-smallest": () =>
      claim(
        cbSmallest(),
        "custom-binary is the smallest format on every payload",
        "custom-binary the smallest on every payload",
      ),
    "cb-bytes": () => ARTICLE_PAYLOADS.map((p) => one(DEFAULTS[0]!, "codec", p, "custom-binary").bytes).join(" / "),
    "json-bytes": () => ARTICLE_PAYLOADS.map((p) => one(DEFAULTS[0]!, "codec", p, "json").bytes).join(" / "),
    "protobuf-bytes": () => ARTICLE_PAYLOADS.map((p) => one(DEFAULTS[0]!, "codec", p, "protobuf").bytes).join(" / "),
    "cb-cheapest": () =>
      claim(
        cbCheapestInServer(),
        "cheapest inside a server on every payload",
        "custom-binary the cheapest inside a server on every payload, in each run and both server modes",
      ),
    "cb-field-small": () => xRange(over(SERVER, ["small"], "custom-binary", fieldVsJson)),
    "cb-field-others": () => xRange(over(SERVER, ["medium", "large"], "custom-binary", fieldVsJson)),
    "cb-lead-narrows": () => {
      const [small, medium, large] = ARTICLE_PAYLOADS.map((p) => over(["codec"], [p], "custom-binary", vsJson));
      return claim(
        hi(small!) < lo(medium!) && hi(medium!) < lo(large!),
        "In the lab its lead narrows as messages grow",
        "custom-binary's lab ratio growing from the small message to the medium to the large",
      );
    },
    "cb-lab-small": () => xRange(over(["codec"], ["small"], "custom-binary", vsJson)),
    "cb-lab-medium": () => xRange(over(["codec"], ["medium"], "custom-binary", vsJson)),
    "cb-lab-large": () => xRange(over(["codec"], ["large"], "custom-binary", vsJson)),

    // What to take from it: msgpack, msgpackr and protobuf.
    "dear-where": () => {
      const exceptions = dearExceptions();
      const inServer = DEFAULTS.every((f) =>
        DEAR.every((codec) =>
          ARTICLE_PAYLOADS.every((p) => SERVER.every((m) => one(f, m, p, codec).ratios!.fieldVsJson!.low > 1)),
        ),
      );
      if (exceptions.length === 0)
        return claim(inServer, "everywhere", "msgpack, msgpackr and protobuf costing more than JSON in the server");
      // In how many of the three runs each exception's interval holds 1.
      const levelRuns = exceptions.map((e) => DEFAULTS.filter((f) => holdsOne(labRatio(f, e.p, e.codec))).length);
      const figures = exceptions.map((e) => range(over(["codec"], [e.p], e.codec, vsJson), fixed(2))).join(", ");
      const level = levelRuns.every((n) => n === DEFAULTS.length)
        ? `(≈${figures})`
        : `in ${list(levelRuns.map(words))} of the three runs (${figures})`;
      return claim(
        inServer,
        `everywhere but ${list(exceptions.map((e) => `${e.codec} on ${onThe(e.p)}`))} in the lab, level with JSON there ${level}`,
        "msgpack, msgpackr and protobuf costing more than JSON in the server",
      );
    },
    "msgpackr-small-lab": () => {
      const runs = DEFAULTS.map((f) => labRatio(f, "small", "msgpackr"));
      return runs.every(holdsOne) ? "level with JSON" : `${xRange(runs.map((x) => x.value))} JSON's time`;
    },
    "msgpackr-small-server": () => xRange(over(SERVER, ["small"], "msgpackr", fieldVsJson), 1),
    "records-small-lab": () => xRange(over(["codec"], ["small"], "msgpackr-records", vsJson)),
    "records-small-server": () => xRange(over(SERVER, ["small"], "msgpackr-records", fieldVsJson), 1),

    // What to take from it: the transport.
    "raw-over": () =>
      claim(
        lo(rawRates()) > 100_000,
        "100,000",
        "raw moving over 100,000 messages a second in stream mode in every run",
      ),
    "raw-cores": () => words(machineOf(DEFAULTS).cores),
    "raw-rates": () => range(rawRates(), thousands),
    "raw-small": () => {
      const others = [...new Set(casesIn(DEFAULTS[0]!, { mode: "stream" }).map((c) => c.codec))].filter(
        (c) => c !== "raw" && c !== "json",
      );
      return `${percentOver(others.flatMap((c) => onTop("small", c)))}%`;
    },
    "raw-times": () => {
      const times = Math.round(dearestOnLarge()[1]);
      return times === 2 ? "twice" : `${times} times`;
    },
    "raw-large": () => {
      const [dearest] = dearestOnLarge();
      return `${dearest} ${xRange(onTop("large", dearest), 1)}`;
    },
    "client-busier": () =>
      claim(
        lo(rawCpu("clientCpuNsPerMsg")) > hi(rawCpu("serverCpuNsPerMsg")),
        "the client side is the busier one",
        "raw's client CPU per message above its server's in every run and on every message",
      ),
    "raw-client-cpu": () => `${range(rawCpu("clientCpuNsPerMsg"), us1)} µs`,
    "raw-server-cpu": () => `${range(rawCpu("serverCpuNsPerMsg"), us1)} µs`,

    // What to take from it: round trips.
    "rtt-all": () =>
      `${range(
        defaultCases("roundtrip").map((c) => c.socket!.rtt!.p50),
        us,
      )} µs`,
    "rtt-raw": () =>
      `${range(
        defaultCases("roundtrip", "raw").map((c) => c.socket!.rtt!.p50),
        us,
      )} µs`,
    "rtt-server": () =>
      `${range(
        defaultCases("roundtrip")
          .filter((c) => c.codec !== "raw")
          .map((c) => c.ratios!.field!.value),
        us,
      )} µs`,
    "rtt-ratios": () =>
      range(
        defaultCases("roundtrip")
          .filter((c) => c.codec !== "json" && c.codec !== "raw")
          .map((c) => vsJson(c)!),
        fixed(2),
      ),

    // The message sets.
    streamed: () => {
      const counts = new Set(casesIn(FIELD, { mode: "stream" }).map((c) => c.iterations));
      return claim(counts.size === 1, whole([...counts][0]!), "one count of messages streamed for every codec");
    },
    "sets-verified": () => {
      const [lab, stream] = [casesIn(LAB, { mode: "codec" }), casesIn(FIELD, { mode: "stream" })];
      return claim(
        [...lab, ...stream].every((c) => c.verified) && stream.every((c) => c.socket!.lost === 0),
        "every row verified, lost 0",
        "every row of the every-codec runs verified, and no message lost in the stream run",
      );
    },
    "codec-count": codecCount,
    "sets-table": () =>
      [
        "| payload | codec | bytes | in process, vs json | stream, vs json | deflated in a stream |",
        "| --- | --- | --- | --- | --- | --- |",
        ...MESSAGE_SETS.flatMap((p) =>
          FOUR.map((codec) => {
            const k = one(LAB, "codec", p, codec);
            return `| ${p} | ${codec} | ${whole(k.bytes)} | ${withInterval(k)} | ${withInterval(one(FIELD, "stream", p, codec))} | ${deflated(p, codec)} |`;
          }),
        ),
      ].join("\n"),
    "tick-time": () => `${fig(tick("custom-binary"))}x`,
    "tick-bytes": () => `${fig(one(LAB, "codec", "game-tick", "custom-binary").ratios!.bytesVsJson!)}x`,
    "tick-rate": () => `${(streamRate("custom-binary") / streamRate("json")).toFixed(1)}x`,
    "tick-rates": () => `${thousands(streamRate("custom-binary"))} against ${thousands(streamRate("json"))}`,
    "tick-second": () => capital(named(tickSecond())),
    "tick-second-at": () => `${fig(tick(tickSecond()))}x`,
    "tick-all": codecCount,
    "tick-rival": () => {
      const rival = tickRival();
      const [socket, cbSocket] = [tickOverSocket(rival), tickOverSocket("custom-binary")];
      const there = fig(socket) === fig(cbSocket) ? "level with it" : socket > cbSocket ? "behind it" : "ahead of it";
      return `${named(rival)} is a little ${tick(rival) < tick("custom-binary") ? "ahead of" : "behind"} custom-binary in process (${fig(tick(rival))}x against ${fig(tick("custom-binary"))}x) and ${there} over a socket (${fig(socket)}x against ${fig(cbSocket)}x)`;
    },
    "tick-next": () => list(tickNext().map(named)),
    "tick-next-at": () => xRange(tickNext().map(tick)),
    "chat-bun": () => `${fig(r(LAB, "codec", "chat", "custom-binary"))}x`,
    "chat-socket": () => `${fig(r(FIELD, "stream", "chat", "custom-binary"))}x`,
    "chat-chromium": () => `${fig(r(CHROMIUM, "codec", "chat", "custom-binary"))}x`,
    "chromium-tick": () => `${fig(r(CHROMIUM, "codec", "game-tick", "custom-binary"))}x`,
    "chromium-market": () => `${fig(r(CHROMIUM, "codec", "market", "custom-binary"))}x`,
    "chat-dear": () => {
      const onChat = [LAB, CHROMIUM].flatMap((f) =>
        ["protobuf", "msgpack", "msgpackr"].map((c) => r(f, "codec", "chat", c)),
      );
      return claim(
        lo(onChat) > 1,
        xRange(onChat, 1),
        "protobuf and both MessagePack libraries costing more than JSON on chat, in Bun and in Chromium",
      );
    },
    "chat-records": () =>
      xRange(
        [LAB, CHROMIUM].map((f) => r(f, "codec", "chat", "msgpackr-records")),
        1,
      ),
    "market-fast": () =>
      claim(
        FOUR.every((c) => one(LAB, "codec", "market", c).total.median < 1000),
        "under a microsecond",
        "a market quote taking under a microsecond in each of the four codecs",
      ),
    "market-stream": () => {
      const v = marketStream();
      return `${WITH_JSON[standing(v)]} (${ratioText(v).replace(/^≈/, "").replace("†", "")}: the interval ${holdsOne(v) ? "holds" : "leaves out"} 1)`;
    },
    "market-rtt": () =>
      range(
        FOUR.map((c) => marketTrip(c).socket!.rtt!.p50),
        (ns) => String(Math.round(ns / 10_000) * 10),
      ),
    "market-trip": () => {
      const v = marketTrip("custom-binary").ratios!.vsJson!;
      const [trip, stream] = [standing(v), standing(marketStream())];
      return `${trip === stream ? `${trip} too` : WITH_JSON[trip]} (${fig(v.value)}, ${fig(v.low)}-${fig(v.high)})`;
    },
    "market-longer": () => {
      const longer = ["protobuf", "msgpackr"].map((c) => marketTrip(c).ratios!.vsJson!.value);
      return claim(
        lo(longer) > 1,
        `${percentOver(longer)}%`,
        "protobuf's and msgpackr's round trips on market longer than JSON's",
      );
    },
    "deflate-chat-cb": () => deflated("chat", "custom-binary"),
    "deflate-chat-json": () => deflated("chat", "json"),
    "deflate-market-cb": () => deflated("market", "custom-binary"),
    "deflate-market-json": () => deflated("market", "json"),
    "deflate-gap": () => {
      const kept = (p: string, codec: string) => one(LAB, "codec", p, codec).compression!.deflateContextBytes;
      return range(
        ROUTED_SETS.flatMap((p) => ["protobuf", "msgpackr"].map((c) => kept(p, c) - kept(p, "custom-binary"))),
        whole,
      );
    },
    "share-protobuf": () => shareOf("protobuf"),
    "share-ratios": () => `${fig(tick("protobuf"))}x against ${fig(tick("custom-binary"))}x`,
    "share-avro": () => shareOf("avro").replace(" of the win", " of it"),

    // How far a ratio holds.
    forks: () => String(sampleResults("epyc-default-1.json.gz").settings.forks),
    held: () => {
      const all = everyView();
      const held = all.filter((x) => x.spread <= 1.05).length;
      return claim(held > all.length / 2, String(held), "most of the block's ratios holding within 5% across the runs");
    },
    "held-all": () => String(everyView().length),
    movers: viewsThatMove,
    "stream-count": () => String(across("fieldStream").length),
    "stream-widest": () => `${hi(across("fieldStream").map((x) => x.spread)).toFixed(2)}x`,
    "idle-held": () => {
      const idle = across("fieldRoundtrip");
      return `${idle.filter((x) => x.spread <= 1.1).length} of ${idle.length}`;
    },
    "idle-rose": idleRose,
    "echo-small": () => {
      const most = across("echo")
        .filter((x) => x.payload === "small")
        .reduce((a, b) => (b.spread > a.spread ? b : a));
      return claim(
        most.ratios[2]! > most.ratios[0]!,
        `${most.spread.toFixed(2)}x`,
        "the lab echo's most-moved small-message ratio rising from the first run to the last",
      );
    },
    "slice-roundtrip": () => slice("roundtrip"),
    "slice-stream": () => slice("stream"),
    "idle-widest": () =>
      claim(
        hi(fieldHalves("roundtrip")) > hi(fieldHalves("stream")),
        plusMinus(hi(fieldHalves("roundtrip"))),
        "roundtrip mode's field intervals wider than stream mode's",
      ),
  },
};
