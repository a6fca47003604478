/**
 * The longer sentences of docs/results.md's prose (outside its figures block), clause by clause,
 * as the committed runs write them: where custom-binary stands among every codec
 * (epyc-every-codec.json.gz, epyc-every-codec-field.json.gz, chromium-every-codec.json.gz), what reading one
 * field and validating change, what the router (epyc-route.json.gz) ranks, and which views of the
 * three default runs (epyc-default-{1,2,3}.json.gz) move most. results-figures.ts gives each its span.
 */

import type { CaseResult, Estimate } from "../../../client/harness/results.ts";
import { ARTICLE_PAYLOADS, PAYLOAD_NAMES } from "../../../protocols/messages.ts";
import { BUILT_IN } from "../../../protocols/registry.ts";
import { ratioText } from "../../report/format.ts";
import { claim } from "./figure-spec.ts";
import { fig, fixed, list, range, whole, word } from "./prose.ts";
import { caseIn, casesIn } from "./sample-files.ts";

export const LAB = "epyc-every-codec.json.gz";
export const FIELD = "epyc-every-codec-field.json.gz";
export const CHROMIUM = "chromium-every-codec.json.gz";
export const ROUTE = "epyc-route.json.gz";
export const ENGINES = "engines-bun.json.gz";
export const DEFAULTS = ["epyc-default-1.json.gz", "epyc-default-2.json.gz", "epyc-default-3.json.gz"];

type Mode = CaseResult["mode"];
/** A figure of a case, where it has one. */
export type Pick = (c: CaseResult) => number | undefined;

/** The one case of a file's mode, payload and codec. */
export const one = (file: string, mode: Mode, payload: string, codec: string): CaseResult =>
  caseIn(file, { mode, payload, codec });
/** The codecs of a file's mode and payload, cheapest first by a figure (those without it left out). */
export const ranked = (file: string, mode: Mode, payload: string, pick: Pick): string[] =>
  casesIn(file, { mode, payload })
    .filter((c) => Number.isFinite(pick(c) ?? Number.NaN))
    .sort((a, b) => pick(a)! - pick(b)!)
    .map((c) => c.codec);

export const vsJson: Pick = (c) => c.ratios?.vsJson?.value;
export const fieldVsJson: Pick = (c) => c.ratios?.fieldVsJson?.value;

/** How the page names a codec in prose (any other by its id). */
const NAMES: Record<string, string> = {
  avro: "Avro",
  bebop: "Bebop",
  flatbuffers: "FlatBuffers",
  capnp: "Cap'n Proto",
  json: "JSON",
};
export const named = (codec: string): string => NAMES[codec] ?? codec;
/** A count as the page writes it: in words up to twenty ("no" for none), in digits above. */
export const words = (n: number): string => word(n, "no");
/** The start of a sentence: "Protobuf, which…". */
export const capital = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);
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
export const onThe = (p: string): string =>
  (ARTICLE_PAYLOADS as readonly string[]).includes(p) ? `the ${p} message` : p;
/** Whether two ratios' intervals share a value (the page then calls the two level). */
const overlapping = (a: Estimate, b: Estimate): boolean => a.low <= b.high && b.low <= a.high;
/** Whether a ratio's interval holds 1. */
export const holdsOne = (r: Estimate): boolean => r.low <= 1 && r.high >= 1;

// Every codec on every payload: custom-binary against the other schema codecs, in Bun and in Chromium.

const SCHEMA = BUILT_IN.family("schema");
const otherSchema = (codec: string): boolean => SCHEMA.includes(codec) && codec !== "custom-binary";
const ALL = PAYLOAD_NAMES;

/** In Bun the closest to custom-binary: the fastest other schema codec on each payload, in the lab and in the server; and the payload whose bytes it writes farthest from custom-binary's. */
export function bunClosest(): string {
  const closestIn = (file: string, mode: Mode, pick: Pick) =>
    ALL.map((p) => ranked(file, mode, p, pick).find(otherSchema)!);
  const closest = [...new Set([...closestIn(LAB, "codec", vsJson), ...closestIn(FIELD, "stream", fieldVsJson)])];
  const near = closest[0]!;
  const bytes = (payload: string, codec: string) => one(LAB, "codec", payload, codec).bytes;
  const apart = (payload: string) => bytes(payload, near) / bytes(payload, "custom-binary");
  const farthest = ALL.reduce((a, b) => (apart(b) > apart(a) ? b : a));
  return `${list(closest.map(named))}, which writes nearly the same bytes (except on ${farthest}: ${whole(bytes(farthest, near))} against ${whole(bytes(farthest, "custom-binary"))})`;
}

/** Codec mode: the first on each payload; where it is not custom-binary, whether their intervals are apart. */
export function bunCodecFirst(): string {
  const labVs = (p: string, codec: string) => one(LAB, "codec", p, codec).ratios!.vsJson!;
  const first = (p: string) => ranked(LAB, "codec", p, vsJson)[0]!;
  const others = ALL.filter((p) => first(p) !== "custom-binary");
  if (others.length === 0) return `custom-binary is first on all ${words(ALL.length)}`;
  const leads = others.map((p) => {
    const [ahead, cb] = [labVs(p, first(p)), labVs(p, "custom-binary")];
    return `${named(first(p))} is first on ${p} (${fig(ahead.value)} against custom-binary's ${fig(cb.value)} of JSON's time, their intervals ${overlapping(ahead, cb) ? "overlapping" : "apart"})`;
  });
  return `${leads.join(", ")} and custom-binary on the other ${words(ALL.length - others.length)}`;
}

/** In the server: where custom-binary is first, and where the closest other codec's interval overlaps its own (level). */
export function bunServerFirst(): string {
  const fieldVs = (p: string, codec: string) => one(FIELD, "stream", p, codec).ratios!.fieldVsJson!;
  const others = ALL.filter((p) => ranked(FIELD, "stream", p, fieldVsJson)[0] !== "custom-binary");
  const level = ALL.flatMap((p) => {
    const rival = ranked(FIELD, "stream", p, fieldVsJson).find((c) => c !== "custom-binary")!;
    const [cb, other] = [fieldVs(p, "custom-binary"), fieldVs(p, rival)];
    return overlapping(cb, other)
      ? [
          `level with ${named(rival)} on ${p} (${fig(cb.value)} against ${fig(other.value)}, their intervals overlapping)`,
        ]
      : [];
  });
  const first =
    others.length === 0 ? `all ${words(ALL.length)}` : `${words(ALL.length - others.length)}, not on ${list(others)}`;
  return `${first}${level.map((l) => `, ${l}`).join("")}`;
}

/** Chromium: custom-binary's time over the fastest other schema codec's, payload by payload. */
export function chromiumVsSchema(): string {
  const against = ALL.map((p) => {
    const other = ranked(CHROMIUM, "codec", p, vsJson).find(otherSchema)!;
    return vsJson(one(CHROMIUM, "codec", p, "custom-binary"))! / vsJson(one(CHROMIUM, "codec", p, other))!;
  });
  return `${range(against, fixed(2))}x`;
}

/**
 * Chromium: on how many payloads custom-binary is first; where another codec is, it is level with
 * custom-binary when their intervals overlap (against JSON: when custom-binary's holds 1) and ahead
 * of it when they are apart, and the clause says when it decodes faster too.
 */
export function chromiumFirst(): string {
  const first = (p: string) => ranked(CHROMIUM, "codec", p, vsJson)[0]!;
  const notFirst = ALL.filter((p) => first(p) !== "custom-binary");
  const ahead = notFirst.map((p) => {
    const [lead, cb] = [one(CHROMIUM, "codec", p, first(p)), one(CHROMIUM, "codec", p, "custom-binary")];
    const [cbVs, leadVs] = [cb.ratios!.vsJson!, lead.ratios?.vsJson ?? { value: 1, low: 1, high: 1, rounds: 0 }];
    const figures =
      lead.codec === "json"
        ? `custom-binary ${ratioText(cbVs, { interval: false })}`
        : `custom-binary ${fig(cbVs.value)} against ${fig(leadVs.value)}`;
    const decodes = lead.deserialize.median < cb.deserialize.median ? " and decodes it faster" : "";
    return `; on ${onThe(p)} ${named(lead.codec)} is ${overlapping(cbVs, leadVs) ? "level with it" : "ahead of it"} (${figures})${decodes}`;
  });
  return `${notFirst.length === 0 ? `all ${words(ALL.length)}` : words(ALL.length - notFirst.length)}${ahead.join("")}`;
}

/** Which schema codecs beat custom-binary at one half of the work in Chromium: a clause per payload and half, the decoding ones first, within each by the first codec named. */
export function chromiumFaster(): string {
  const beats = (half: "serialize" | "deserialize") =>
    ALL.map((p) => {
      const cb = one(CHROMIUM, "codec", p, "custom-binary")[half].median;
      const faster = casesIn(CHROMIUM, { mode: "codec", payload: p })
        .filter((c) => SCHEMA.includes(c.codec) && c[half].median < cb)
        .map((c) => c.codec)
        .sort();
      const verb = half === "deserialize" ? "decode" : "encode";
      return { faster, text: `${list(faster.map(named))} ${verb}${faster.length === 1 ? "s" : ""} ${p} faster` };
    })
      .filter((b) => b.faster.length > 0)
      .sort((a, b) => a.faster[0]!.localeCompare(b.faster[0]!))
      .map((b) => b.text);
  const faster = [...beats("deserialize"), ...beats("serialize")];
  return faster.length === 0
    ? "No schema codec decodes or encodes any payload faster than custom-binary."
    : `Among the schema codecs, ${clauses(faster)}.`;
}

// The access patterns: reading one field, and validating.

const readOne: Pick = (c) => c.ratios?.readOneVsJson?.value;
const atReadOne = () => ALL.map((p) => ranked(LAB, "codec", p, readOne));

/** The first and the second at read-one on every payload, and what the first takes. */
export function readOneLead(): string {
  const first = [...new Set(atReadOne().map((order) => order[0]!))];
  const second = [...new Set(atReadOne().map((order) => order[1]!))];
  const reads = ALL.map((p) => readOne(one(LAB, "codec", p, first[0]!))!);
  return `${list(first.map(named))} reads the key fastest on every payload (${range(reads, fig)}x the time JSON takes to parse the message) and ${list(second.map(named))} second`;
}

/**
 * Below those two, a codec rises when it is third at read-one on a payload ahead of a codec that
 * encodes and decodes faster (both with a read-one figure), named alphabetically.
 */
export function readOneRise(): string {
  const risers = [
    ...new Set(
      ALL.flatMap((p, i) => {
        const third = atReadOne()[i]![2];
        if (third === undefined) return [];
        const it = one(LAB, "codec", p, third);
        const passed = casesIn(LAB, { mode: "codec", payload: p }).filter(
          (c) => Number.isFinite(readOne(c) ?? Number.NaN) && vsJson(c)! < vsJson(it)! && readOne(c)! > readOne(it)!,
        );
        return passed.length > 0 ? [third] : [];
      }),
    ),
  ].sort();
  return risers.length === 0
    ? "no codec rises past one that encodes and decodes faster"
    : `${listed(risers)} ${risers.length === 1 ? "rises" : "rise"} past codecs that encode and decode faster`;
}

/** A codec that reaches the key only by decoding reads one field in its decode's time. */
export function readOneDecode(): string {
  const decoding = casesIn(LAB, { mode: "codec" }).filter((c) => c.keyAccess === "decode");
  return claim(
    decoding.length > 0 && decoding.every((c) => c.readOne?.median === c.deserialize.median),
    "everything that can only decode stays at its decode",
    "codecs that reach the key only by decoding, each reading one field in its decode's time",
  );
}

const validated: Pick = (c) => c.ratios?.validatedVsJson?.value;
const validatedVs = (p: string, codec: string) => one(LAB, "codec", p, codec).ratios!.validatedVsJson!;
/** The article's messages on which validating puts another codec first than encode + decode does; the new first and the old. */
function validating(): { changed: string[]; top: string; beaten: string } {
  const changed = ARTICLE_PAYLOADS.filter(
    (p) => ranked(LAB, "codec", p, validated)[0] !== ranked(LAB, "codec", p, vsJson)[0],
  );
  claim(changed.length > 0, "", "validating putting another codec first on some of the article's messages");
  const [top, beaten] = [
    ranked(LAB, "codec", changed[0]!, validated)[0]!,
    ranked(LAB, "codec", changed[0]!, vsJson)[0]!,
  ];
  return { changed, top, beaten };
}

/** "The article's larger messages": the two above the smallest; else the messages by name. */
export function validatedWhere(): string {
  const { changed } = validating();
  return changed.join() === ARTICLE_PAYLOADS.slice(1).join()
    ? "the article's larger messages"
    : `the ${list(changed)} message${changed.length > 1 ? "s" : ""}`;
}

/** The new first against the old on each of the article's messages: apart (less or more) or level (intervals overlapping). */
export function validatedAgainst(): string {
  const { top, beaten } = validating();
  const V = validatedVs;
  const less = ARTICLE_PAYLOADS.filter((p) => V(p, top).high < V(p, beaten).low);
  const level = ARTICLE_PAYLOADS.filter((p) => overlapping(V(p, top), V(p, beaten)));
  const more = ARTICLE_PAYLOADS.filter((p) => V(p, top).low > V(p, beaten).high);
  const xs = (ps: readonly string[], codec: string) => ps.map((p) => `${fig(V(p, codec).value)}x`).join(" and ");
  // Level ones get one figure when both read the same, both ("0.38-0.39x") when they do not.
  const levelText = level.map((p) => `; on ${p} they are level, ${range([V(p, top).value, V(p, beaten).value], fig)}x`);
  const moreText =
    more.length > 0 ? `; on ${list(more)} it costs more (${xs(more, top)} against ${xs(more, beaten)})` : "";
  return `${named(top)}'s decode with its range checks costs less than ${named(beaten)}'s decode on ${list(less)} (${xs(less, top)} JSON's time against ${xs(less, beaten)}${levelText.join("")}${moreText})`;
}

export function validatedJsonBehind(): string {
  const { top, beaten } = validating();
  return claim(
    ARTICLE_PAYLOADS.every(
      (p) => validatedVs(p, "json").value > Math.max(validatedVs(p, top).value, validatedVs(p, beaten).value),
    ),
    "JSON with its schema validator stays behind both",
    `JSON's validated behind ${top}'s and ${beaten}'s on each of the article's messages`,
  );
}

// The router (route mode).

const routed = (payload?: string): CaseResult[] =>
  casesIn(ROUTE, payload === undefined ? { mode: "route" } : { mode: "route", payload });
export const routeCpu = (c: CaseResult): number => c.route!.forward.cpuNs.median;
export const routeVs = (c: CaseResult): Estimate => c.ratios!.routeVsJson!;
/** The five codecs that cost the server least forwarding a payload's messages (json, what each is held to, left out). */
export const five = (payload: string): CaseResult[] =>
  routed(payload)
    .filter((c) => c.codec !== "json")
    .sort((a, b) => routeCpu(a) - routeCpu(b))
    .slice(0, 5);
/** From the most direct read of the key to the least (an offset, a scan, a lazy view, a full decode), cheapest first within each. */
const KEY_ORDER = ["offset", "scan", "lazy", "decode"];
const byKey = (cs: CaseResult[]): string[] =>
  [...cs]
    .sort(
      (a, b) =>
        KEY_ORDER.indexOf(a.route!.keyAccess) - KEY_ORDER.indexOf(b.route!.keyAccess) || routeCpu(a) - routeCpu(b),
    )
    .map((c) => c.codec);

/** Game-tick's five cheapest: those that read the key without decoding, then the others. */
export function routeTick(): string {
  const tick = five("game-tick");
  const reading = byKey(tick.filter((c) => c.route!.keyAccess !== "decode"));
  const decoding = byKey(tick.filter((c) => c.route!.keyAccess === "decode"));
  return `the ${words(tick.length)} that cost the server least forwarding are ${reading.length === tick.length ? "the codecs" : words(reading.length)} that read it without decoding (${grouped(reading).join(", ")})${decoding.length > 0 ? ` and ${listed(decoding)}` : ""}`;
}

/** Chat's five: how many of game-tick's, and the others by name, cheapest first. */
export function routeChat(): string {
  const tick = five("game-tick").map((c) => c.codec);
  const chat = five("chat").map((c) => c.codec);
  const ofTick = chat.filter((c) => tick.includes(c));
  const notOfTick = chat.filter((c) => !ofTick.includes(c));
  return notOfTick.length === 0 ? "the same five" : `${words(ofTick.length)} of them and ${listed(notOfTick)}`;
}

/** Market's five: level with JSON when the interval of the router's CPU against JSON's holds 1. */
export function routeMarket(): string {
  const market = five("market");
  const level = market.filter((c) => holdsOne(routeVs(c)));
  return level.length === market.length
    ? `the ${words(market.length)} cheapest are level with JSON within their intervals`
    : `${words(level.length)} of the ${words(market.length)} cheapest (${listed(level.map((c) => c.codec))}) ${level.length === 1 ? "is" : "are"} level with JSON within ${level.length === 1 ? "its interval" : "their intervals"}`;
}

/** The decoding schemaless codecs, and the two message sets the page sets them on. */
export const SCHEMALESS = ["msgpack", "msgpackr", "msgpackr-records", "cbor", "bson"];
export const ROUTED_SETS = ["chat", "market"];
export const schemalessRouted = (): CaseResult[] =>
  ROUTED_SETS.flatMap((p) => SCHEMALESS.map((codec) => one(ROUTE, "route", p, codec)));

/** Those whose interval holds 1, codec by codec: the codec level on more payloads first (then as listed), "on both" for chat and market. */
export function schemalessLevel(): string {
  const level = SCHEMALESS.map((codec) => ({
    codec,
    on: ROUTED_SETS.filter((p) => holdsOne(routeVs(one(ROUTE, "route", p, codec)))),
  }))
    .filter((x) => x.on.length > 0)
    .sort((a, b) => b.on.length - a.on.length)
    .map((x) => `${x.codec} on ${x.on.length === ROUTED_SETS.length ? "both" : list(x.on)}`);
  return level.length > 0 ? ` (${list(level)} level with it within their intervals)` : "";
}

// How far the default runs' ratios move from run to run.

/** A view of the block: its mode, the ratio it shows of each codec, and whether it shows that ratio inverted (time per message over raw's). */
interface ViewSpec {
  mode: Mode;
  pick: (c: CaseResult) => Estimate | undefined;
  invert?: boolean;
}
/** The block's six views: each codec's ratio in the three runs (json and raw left out), by payload. */
const VIEWS = {
  lab: { mode: "codec", pick: (c) => c.ratios?.vsJson },
  echo: { mode: "codec", pick: (c) => c.ratios?.echoVsJson },
  fieldRoundtrip: { mode: "roundtrip", pick: (c) => c.ratios?.fieldVsJson },
  fieldStream: { mode: "stream", pick: (c) => c.ratios?.fieldVsJson },
  roundtrip: { mode: "roundtrip", pick: (c) => c.ratios?.vsJson },
  vsRaw: { mode: "stream", pick: (c) => c.ratios?.vsRaw, invert: true },
} satisfies Record<string, ViewSpec>;
type View = keyof typeof VIEWS;
export const VIEW_NAMES = Object.keys(VIEWS) as View[];

/** One codec's ratio of a view in the three runs, and how far apart they were. */
interface Across {
  payload: string;
  codec: string;
  ratios: number[];
  spread: number;
}
export function across(view: View): Across[] {
  const { mode, pick, invert }: ViewSpec = VIEWS[view];
  return casesIn(DEFAULTS[0]!, { mode })
    .filter((c) => c.codec !== "json" && c.codec !== "raw")
    .map(({ payload, codec }) => {
      const ratios = DEFAULTS.map((f) => {
        const x = pick(one(f, mode, payload, codec))!.value;
        return invert ? 1 / x : x;
      });
      return { payload, codec, ratios, spread: Math.max(...ratios) / Math.min(...ratios) };
    });
}
const movers = (view: View, x: number) => across(view).filter((r) => r.spread > x);

/** Where a view's ratios moved most: the payloads that hold its highest count of those moving more than 5%, "on the small and medium messages". */
function mostOn(view: View): string {
  const counts = ARTICLE_PAYLOADS.map((p) => [p, movers(view, 1.05).filter((r) => r.payload === p).length] as const);
  const top = Math.max(...counts.map(([, n]) => n));
  const ps = counts.filter(([, n]) => n === top).map(([p]) => p);
  return `on the ${list(ps)} message${ps.length > 1 ? "s" : ""}`;
}

/** The views that move more: those with more ratios moving by more than 5% than the median view, most first. */
export function viewsThatMove(): string {
  const count = (view: View) => movers(view, 1.05).length;
  const counts = VIEW_NAMES.map(count).sort((a, b) => a - b);
  const median = (counts[2]! + counts[3]!) / 2;
  const said: Record<View, () => string> = {
    fieldRoundtrip: () =>
      `the field ratios in an idle server (roundtrip mode, ${count("fieldRoundtrip")} of ${across("fieldRoundtrip").length}, ${mostOn("fieldRoundtrip")} most)`,
    fieldStream: () => `the field ratios in a busy server (stream mode) ${mostOn("fieldStream")}`,
    echo: () => `the lab echo ${mostOn("echo")}`,
    lab: () => `the in-process ratios ${mostOn("lab")}`,
    roundtrip: () => `the round trips ${mostOn("roundtrip")}`,
    vsRaw: () =>
      `the codecs' cost on top of \`raw\` ${mostOn("vsRaw")} in stream mode (${count("vsRaw")} of ${across("vsRaw").length})`,
  };
  return list(
    VIEW_NAMES.filter((v) => count(v) > median)
      .sort((a, b) => count(b) - count(a))
      .map((v) => said[v]!()),
  );
}

/** The idle server's small-message field ratios that rose in each later run: how many of how many, and the two that rose most, first run to last. */
export function idleRose(): string {
  const small = across("fieldRoundtrip").filter((r) => r.payload === "small");
  const rose = small.filter((r) => r.ratios[0]! < r.ratios[1]! && r.ratios[1]! < r.ratios[2]!);
  const examples = [...rose]
    .sort((a, b) => b.ratios[2]! / b.ratios[0]! - a.ratios[2]! / a.ratios[0]!)
    .slice(0, 2)
    .map((r) => `${r.codec} ${r.ratios.map(fixed(2)).join(", ")}`);
  return claim(
    rose.length > 0,
    `${words(rose.length)} of its ${words(small.length)} codecs (${examples.join("; ")})`,
    "a small-message field ratio in an idle server rising in each later run",
  );
}
