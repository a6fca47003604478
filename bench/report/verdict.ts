/**
 * The run's answer to "which format for my messages", computed from its own
 * figures: for each payload the fastest codec (or the codecs tied with it,
 * when the paired interval cannot tell them apart) and the smallest on the
 * wire; what the hand-written protocol gains over JSON in time and bytes;
 * and whether, over this transport, the codec matters at all. Nothing here
 * is a conclusion written in advance: another machine's run may say
 * something else. The terminal, report.html and the page all print these
 * lines.
 */

import { knees } from "../../client/harness/knee.ts";
import type { BenchResults, CaseResult, Estimate } from "../../client/harness/results.ts";
import { KEY_ORDER_CHANGED } from "../../client/harness/fidelity.ts";
import { orderPayloads, type PayloadName } from "../../protocols/messages.ts";
import { codecLabel, coldProcessesText, count, ratioText, TERMINAL_WIDTH, wrapLine } from "./format.ts";
import { handWrittenStanding, ranked, vsJsonOf } from "./ranking.ts";
import { overlapsOne, pairedRatio, type RoundFigure } from "../../client/harness/pairing.ts";
import { CALIBRATION_CODEC_NAMES } from "../../protocols/calibration.ts";

/** Most lines the verdict takes after its answer for each payload. */
export const VERDICT_MAX_LINES = 7;

/** Where "fastest" is judged, best first: in process if the run has it, else the socket modes. */
const SPEED_MODES = ["codec", "roundtrip", "stream", "fanout", "latency", "route", "cold"] as const;
type SpeedMode = (typeof SPEED_MODES)[number];
const SPEED_BASIS: Record<SpeedMode, string> = {
  codec: "encode + decode in process",
  roundtrip: "round-trip time",
  stream: "messages per second over the socket",
  fanout: "deliveries per second",
  latency: "mean latency at the lowest rate run",
  route: "the server's CPU per routed message (forwarding)",
  cold: "encode + decode over a fresh process's first messages",
};

/** 171,640 as 172k, 7,727 as 7.7k: short enough for one line per verdict. */
function compact(n: number): string {
  if (n >= 1e6) return `${(n / 1e6).toFixed(n >= 1e7 ? 0 : 1)}M`;
  if (n >= 1e3) return `${(n / 1e3).toFixed(n >= 1e4 ? 0 : 1)}k`;
  return count(n);
}

function candidates(cases: readonly CaseResult[], mode: string, payload: PayloadName): CaseResult[] {
  // raw is no codec, and the calibration codecs are JSON measuring the measurement: neither is a choice.
  const of = cases.filter(
    (c) =>
      c.mode === mode &&
      c.payload === payload &&
      c.verified &&
      c.codec !== "raw" &&
      !CALIBRATION_CODEC_NAMES.includes(c.codec),
  );
  // One client per mode: the first that ran it (a results file holds one, a comparison may hold several).
  const client = of[0]?.client;
  const mine = of.filter((c) => c.client === client);
  // Latency mode: the codecs compared at one load, the lowest rate run.
  const lowest = Math.min(...mine.map((c) => c.socket?.targetRate ?? Number.POSITIVE_INFINITY));
  return mode === "latency" ? mine.filter((c) => c.socket?.targetRate === lowest) : mine;
}

/** Time per message the ranking uses: codec and roundtrip by time, stream and fanout by throughput, route by the server's CPU forwarding. */
function cost(c: CaseResult): number {
  if (c.mode === "route") return c.route?.forward.cpuNs.median ?? Number.NaN;
  return c.mode === "codec" || c.mode === "roundtrip" || c.mode === "latency" || c.mode === "cold"
    ? c.total.median
    : 1 / c.msgsPerS;
}

/** A case's ratio to json by what its mode ranks on: route mode's server CPU forwarding, the others' time per message. */
function speedVsJson(c: CaseResult): Estimate | undefined {
  return c.mode === "route" ? c.ratios?.routeVsJson : c.ratios?.vsJson;
}

/**
 * True when `a` and `b` cannot be told apart: their paired ratio's interval holds 1. A codec
 * against the fastest is no baseline the results carry a ratio to, so the verdict pairs it here.
 */
function tied(a: CaseResult, b: CaseResult): boolean {
  const r = pairedRatio(a, b, a.mode === "route" ? (x) => x.route?.forward.cpuNs : undefined);
  return r === undefined || overlapsOne(r);
}

function names(list: readonly CaseResult[]): string {
  const shown = list.slice(0, 3).map(codecLabel);
  return shown.join(" = ") + (list.length > 3 ? ` and ${list.length - 3} more` : "");
}

/** Codecs fastest first (ranking.ts): by their paired ratio to json where they have one, else by their own figure. */
function rank(of: readonly CaseResult[]): CaseResult[] {
  return ranked(of, (c) => speedVsJson(c)?.value, cost);
}

/** The figure of a round the verdict pairs two codecs on: route mode's server CPU forwarding, the others' time per message. */
function roundFigure(mode: SpeedMode): RoundFigure {
  return mode === "route" ? (r) => r.route?.forward.cpuNs : (r) => r.totalNs;
}

/** One payload's answer, as the verdict's line for it says it: where it is judged, who is fastest, who is smallest. */
export interface PayloadAnswer {
  payload: PayloadName;
  /** The mode "fastest" is judged in: codec mode if the run has it, else the first socket mode it has. */
  mode: SpeedMode;
  /** What that mode ranks by, in words ("encode + decode in process"). */
  basis: string;
  /** The codecs' cases, fastest first (by their paired ratio to json where they have one). */
  order: CaseResult[];
  /** The fastest, then every codec tied with it (their paired interval holds 1). */
  fastest: CaseResult[];
  /** The fewest bytes per message, every codec at that size. */
  smallest: CaseResult[];
}

/** `payload`'s answer in `mode`; undefined when no codec was verified there. */
function answerOf(cases: readonly CaseResult[], payload: PayloadName, mode: SpeedMode): PayloadAnswer | undefined {
  const order = rank(candidates(cases, mode, payload));
  if (order.length === 0) return undefined;
  const best = order[0]!;
  const fastest = order.filter((c) => c === best || tied(c, best));
  const bySize = [...order].sort((a, b) => a.bytes - b.bytes);
  const smallest = bySize.filter((c) => Math.round(c.bytes) === Math.round(bySize[0]!.bytes));
  return { payload, mode, basis: SPEED_BASIS[mode], order, fastest, smallest };
}

/** The mode the verdict judges speed in, and the payloads it speaks of, in their order. */
function verdictScope(cases: readonly CaseResult[]): { mode?: SpeedMode; payloads: PayloadName[] } {
  const payloads = orderPayloads(cases.filter((c) => c.verified && c.codec !== "raw").map((c) => c.payload));
  const mode = SPEED_MODES.find((m) => cases.some((c) => c.mode === m && c.verified && c.codec !== "raw"));
  return { ...(mode !== undefined ? { mode } : {}), payloads };
}

/** Every payload's answer, as the verdict's first lines give them (the programmatic API returns these). */
export function payloadAnswers(cases: readonly CaseResult[]): PayloadAnswer[] {
  const { mode, payloads } = verdictScope(cases);
  if (mode === undefined) return [];
  return payloads.map((p) => answerOf(cases, p, mode)).filter((a) => a !== undefined);
}

/** The width of a side's label in a payload's answer ("client: ", "server: ", "bytes:  "). */
const SIDE = 8;

/**
 * A payload's answer on the side that encodes and decodes (the client: codec mode, in process; or
 * the mode the verdict judges speed in): who is fastest, by how much against json, and who ties.
 */
function clientPart(answer: PayloadAnswer): string {
  const { order, fastest, mode } = answer;
  const best = order[0]!;
  const json = order.find((c) => c.codec === "json");
  const vs = json && best !== json ? speedVsJson(best) : undefined;
  const others = fastest.length - 1;
  const details = [
    vs ? `${ratioText(vs, { interval: false })}x json's ${mode === "route" ? "CPU" : "time"}` : "",
    others > 0 ? `tied with ${others === 1 ? names(fastest.slice(1)) : `${others} others`}` : "",
  ].filter((d) => d !== "");
  const why = mode === "codec" ? "fastest to encode + decode in process" : `fastest by ${SPEED_BASIS[mode]}`;
  return `${names([best])} ${why}${details.length > 0 ? `, ${details.join(", ")}` : ""}`;
}

/** The socket modes whose field figure the server's side takes, the first that has one: stream's server is the busiest. */
const FIELD_SIDE_MODES = ["stream", "roundtrip", "latency"] as const;

/**
 * A payload's answer on the server's side: the codec that costs the server least per message
 * (the field figure: its decode + encode timed inside the server), against json's; and, where the
 * client's fastest is another codec, what that one costs the server, so the two lines are read
 * for what each applies to. Undefined where no socket mode measured the field with json beside it.
 */
function serverPart(cases: readonly CaseResult[], payload: PayloadName, client: CaseResult): string | undefined {
  for (const mode of FIELD_SIDE_MODES) {
    const of = candidates(cases, mode, payload).filter((c) => c.ratios?.fieldVsJson !== undefined);
    if (!of.some((c) => c.codec === "json") || of.length < 2) continue;
    const least = ranked(
      of,
      (c) => c.ratios?.fieldVsJson?.value,
      () => Number.NaN,
    )[0]!;
    const vs = least.codec === "json" ? "" : `, ${ratioText(least.ratios!.fieldVsJson, { interval: false })}x json's`;
    const head = `${codecLabel(least)} least decode + encode inside the server (${mode})${vs}`;
    const theirs = of.find((c) => c.codec === client.codec);
    if (least.codec === client.codec || !theirs) return head;
    const cost =
      theirs.codec === "json" ? "" : ` ${ratioText(theirs.ratios!.fieldVsJson, { interval: false })}x json's there`;
    return `${head}; the client's ${codecLabel(theirs)}${cost}: this line is what the server pays, the client's what each device pays`;
  }
  return undefined;
}

/** A payload's answer on the wire: the smallest codec with json's size beside it, and the smallest once deflated (codec mode's figures, context kept). */
function bytesPart(cases: readonly CaseResult[], answer: PayloadAnswer): string {
  const { order, smallest } = answer;
  const json = order.find((c) => c.codec === "json");
  const jsonSize = json && !smallest.includes(json) ? ` (json ${count(json.bytes)} B)` : "";
  const plain = `${names(smallest)} smallest, ${count(smallest[0]!.bytes)} B${jsonSize}`;
  const deflated = (c: CaseResult): number => c.compression?.deflateContextBytes ?? Number.NaN;
  const sized = cases
    .filter(
      (c) =>
        c.mode === "codec" &&
        c.payload === answer.payload &&
        c.verified &&
        c.codec !== "raw" &&
        !CALIBRATION_CODEC_NAMES.includes(c.codec) &&
        Number.isFinite(deflated(c)),
    )
    .sort((a, b) => deflated(a) - deflated(b));
  if (sized.length === 0) return plain;
  const first = sized[0]!;
  const deflatedJson = sized.find((c) => c.codec === "json");
  const besideJson = deflatedJson && deflatedJson !== first ? ` (json ${count(deflated(deflatedJson))} B)` : "";
  return `${plain}; deflated, ${codecLabel(first)} smallest, ${count(deflated(first))} B${besideJson}`;
}

/**
 * A payload's answer, a line per side labelled for what a user decides: the client (encode +
 * decode in process), the server (the field figure) and the bytes (plain and deflated); each
 * codec named with why it is named.
 */
function payloadLines(cases: readonly CaseResult[], payload: PayloadName, mode: SpeedMode, width: number): string[] {
  const answer = answerOf(cases, payload, mode);
  if (!answer) return [];
  const indent = " ".repeat(width);
  const server = serverPart(cases, payload, answer.order[0]!);
  return [
    `${payload.padEnd(width)}${(mode === "codec" ? "client:" : "speed:").padEnd(SIDE)}${clientPart(answer)}`,
    ...(server !== undefined ? [`${indent}${"server:".padEnd(SIDE)}${server}`] : []),
    `${indent}${"bytes:".padEnd(SIDE)}${bytesPart(cases, answer)}`,
  ];
}

/**
 * custom-binary against json, time and bytes, per payload where both ran (codec mode if it ran,
 * else the first mode that has both), the payloads named after them unless they are every
 * payload of the verdict, more than three, in its lines' order.
 */
function handWrittenLine(cases: readonly CaseResult[], payloads: readonly PayloadName[]): string | undefined {
  for (const mode of SPEED_MODES) {
    const times: string[] = [];
    const bytes: string[] = [];
    const shown: PayloadName[] = [];
    for (const payload of payloads) {
      const of = candidates(cases, mode, payload);
      const cb = of.find((c) => c.codec === "custom-binary");
      const json = of.find((c) => c.codec === "json");
      if (!cb || !json) continue;
      const r = speedVsJson(cb);
      times.push(ratioText(r, { interval: false }));
      bytes.push((cb.bytes / json.bytes).toFixed(2));
      shown.push(payload);
    }
    if (times.length === 0) continue;
    const what =
      mode === "codec"
        ? "time"
        : mode === "roundtrip"
          ? "round-trip time"
          : mode === "latency"
            ? "latency"
            : mode === "route"
              ? "server CPU routing"
              : "time per message";
    // Beyond three payloads the figures close up, so the line stays one line (in the payload lines' order).
    const sep = payloads.length > 3 ? "/" : " / ";
    const named = shown.length < payloads.length || payloads.length <= 3 ? ` (${shown.join("/")})` : "";
    return `custom-binary vs json: ${times.join(sep)}x ${what}, ${bytes.join(sep)}x bytes${named}`;
  }
  return undefined;
}

/**
 * custom-binary is written by hand for these messages, so nothing generic
 * should beat it: per payload, its place among the codecs (fastest first,
 * in the verdict's mode) and its time against the fastest other schema
 * codec (paired, round by round: below 1 it is faster).
 */
function standingLine(
  cases: readonly CaseResult[],
  payloads: readonly PayloadName[],
  mode: SpeedMode,
): string | undefined {
  const places: { place: number; of: number }[] = [];
  const against: string[] = [];
  for (const payload of payloads) {
    const standing = handWrittenStanding(
      rank(candidates(cases, mode, payload)),
      (c) => speedVsJson(c)?.value,
      roundFigure(mode),
    );
    if (!standing) continue;
    places.push(standing);
    const { rival, vsRival } = standing;
    against.push(rival && vsRival ? `${ratioText(vsRival, { interval: false })}x ${codecLabel(rival)}` : "-");
  }
  if (places.length === 0) return undefined;
  // Beyond three payloads, one line: the figures without the rivals' names.
  const many = places.length > 3;
  const sep = many ? "/" : " / ";
  // One rival on every payload is named once; several, after each figure (three payloads or fewer).
  const rivals = [...new Set(against.filter((a) => a !== "-").map((a) => a.replace(/^.*?x /, "")))];
  const one = rivals.length === 1;
  const shown = many || one ? against.map((a) => a.replace(/x .*$/, "")) : against;
  const who = one ? ` (${rivals[0]})` : "";
  const vs = against.every((a) => a === "-")
    ? ""
    : `; vs the fastest other schema codec${who} ${shown.join(sep)}${many || one ? "x" : ""}`;
  const sameCount = places.every((p) => p.of === places[0]!.of);
  const ranks = sameCount
    ? `${places.map((p) => p.place).join(sep)} of ${places[0]!.of}`
    : places.map((p) => `${p.place} of ${p.of}`).join(sep);
  return `custom-binary ranks ${ranks}${vs}`;
}

/** An access pattern of codec mode (bench/report/patterns-table.ts): its name in the verdict, its time and ratio to json's. */
interface Pattern {
  label: string;
  time: (c: CaseResult) => number | undefined;
  ratio: (c: CaseResult) => number | undefined;
}

const PATTERNS: readonly Pattern[] = [
  {
    label: "Read-one (the routing key from a frame)",
    time: (c) => c.readOne?.median,
    ratio: (c) => c.ratios?.readOneVsJson?.value,
  },
  {
    label: "Validated (decode, then the checks a server needs)",
    time: (c) => c.validated?.median,
    ratio: (c) => c.ratios?.validatedVsJson?.value,
  },
];

/**
 * An access pattern's winner per payload (codec mode), its time against json's same pattern, and
 * whether it is encode + decode's winner too: where it is not, what an app does with a message
 * changes the answer.
 */
function patternLine(
  cases: readonly CaseResult[],
  payloads: readonly PayloadName[],
  pattern: Pattern,
): string | undefined {
  const winners: string[] = [];
  const ratios: string[] = [];
  const changed: string[] = [];
  for (const payload of payloads) {
    const of = candidates(cases, "codec", payload).filter((c) => pattern.time(c) !== undefined);
    if (of.length === 0) continue;
    const best = ranked(of, pattern.ratio, (c) => pattern.time(c) ?? Number.NaN)[0]!;
    if (best.codec !== rank(of)[0]!.codec) changed.push(payload);
    winners.push(codecLabel(best));
    ratios.push(ratioText({ value: vsJsonOf(best, pattern.ratio) }, { interval: false }));
  }
  if (winners.length === 0) return undefined;
  const sep = winners.length > 3 ? "/" : " / ";
  const who = new Set(winners).size === 1 ? `${winners[0]} on every payload` : winners.join(sep);
  const change = changed.length > 0 ? `; not encode + decode's winner on ${changed.join(", ")}` : "";
  return `${pattern.label}: fastest ${who}, ${ratios.join(sep)}x json's${change}`;
}

/**
 * Route mode: the router that costs the server least per payload, forwarding the bytes and
 * recoding (each against json's same router), and what recoding costs over forwarding; where the
 * winners differ between the two, how the server routes changes the answer.
 */
function routeLine(cases: readonly CaseResult[], payloads: readonly PayloadName[]): string | undefined {
  const ways = {
    forward: { who: [] as string[], ratio: [] as string[] },
    recode: { who: [] as string[], ratio: [] as string[] },
  };
  const over: number[] = [];
  const changed: string[] = [];
  for (const payload of payloads) {
    const of = candidates(cases, "route", payload).filter((c) => c.route !== undefined);
    if (of.length === 0 || !of.some((c) => c.codec === "json")) continue;
    const least = (ratio: (c: CaseResult) => number | undefined): { c: CaseResult; r: number } => {
      const c = ranked(of, ratio, () => Number.NaN)[0]!;
      return { c, r: vsJsonOf(c, ratio) };
    };
    const f = least((c) => c.ratios?.routeVsJson?.value);
    const r = least((c) => c.ratios?.routeRecodeVsJson?.value);
    ways.forward.who.push(codecLabel(f.c));
    ways.forward.ratio.push(ratioText({ value: f.r }, { interval: false }));
    ways.recode.who.push(codecLabel(r.c));
    ways.recode.ratio.push(ratioText({ value: r.r }, { interval: false }));
    if (f.c.codec !== r.c.codec) changed.push(payload);
    for (const c of of) if (c.route?.recodeOverForward) over.push(c.route.recodeOverForward.value);
  }
  if (ways.forward.who.length === 0) return undefined;
  const sep = ways.forward.who.length > 3 ? "/" : " / ";
  const shown = (w: { who: string[]; ratio: string[] }): string =>
    new Set(w.who).size === 1
      ? `${w.who[0]} ${w.ratio.join(sep)}x`
      : w.who.map((who, i) => `${who} ${w.ratio[i]}`).join(sep) + "x";
  const spread =
    over.length > 0
      ? `; recoding costs ${Math.min(...over).toFixed(2)}-${Math.max(...over).toFixed(2)}x forwarding`
      : "";
  const change = changed.length > 0 ? ` (another winner on ${changed.join(", ")})` : "";
  return `Routing, least server CPU per message vs json's: forwarding bytes ${shown(ways.forward)}; recoding ${shown(ways.recode)}${change}${spread}`;
}

/** Over the socket: how close the codecs come to the transport alone (stream mode, else roundtrip). */
function socketLines(cases: readonly CaseResult[], payloads: readonly PayloadName[]): string[] {
  for (const mode of ["stream", "roundtrip", "fanout"] as const) {
    const shares: { payload: PayloadName; low: number; high: number; raw: number }[] = [];
    for (const payload of payloads) {
      const raw = cases.find((c) => c.mode === mode && c.payload === payload && c.codec === "raw" && c.verified);
      const of = candidates(cases, mode, payload);
      if (!raw || of.length === 0) continue;
      const ratios = of.map((c) => c.ratios?.vsRaw?.value).filter((r): r is number => r !== undefined);
      if (ratios.length === 0) continue;
      shares.push({
        payload,
        low: Math.min(...ratios),
        high: Math.max(...ratios),
        raw: mode === "roundtrip" ? raw.total.median : raw.msgsPerS,
      });
    }
    if (shares.length === 0) continue;
    const client = cases.find((c) => c.mode === mode && c.codec === "raw")!.client;
    const pct = (x: number): string => `${Math.round(100 * x)}`;
    const spread =
      shares.map((s) => (s.low === s.high ? pct(s.low) : `${pct(s.low)}-${pct(s.high)}`)).join(" / ") + "%";
    const worst = Math.min(...shares.map((s) => s.low));
    const widest = Math.max(...shares.map((s) => s.high / s.low));
    const head =
      mode === "roundtrip"
        ? `Socket (roundtrip, ${client} client): codecs keep ${spread} of raw's round-trip speed`
        : `Socket (${mode}, ${client} client): raw ${shares.map((s) => compact(s.raw)).join(" / ")} msg/s, codecs ${spread} of it`;
    const judgement =
      worst >= 0.9
        ? "the transport sets the pace here; the codec hardly matters, pick by size and convenience."
        : `the codec matters here: the fastest does ${widest.toFixed(1)}x the slowest's work in the same time.`;
    return [head, `  so ${judgement}`];
  }
  return [];
}

/**
 * Cold mode: per payload, the codecs fastest on a fresh process's first message and over its
 * first messages (with those tied with them, their paired interval holding 1), and the range of
 * what loading a codec costs (import + set-up), so a user whose clients start often sees which
 * codec starts fastest.
 */
function coldLine(cases: readonly CaseResult[], payloads: readonly PayloadName[]): string | undefined {
  const first: { payload: PayloadName; who: string }[] = [];
  const later: { payload: PayloadName; who: string }[] = [];
  const load = new Map<string, number[]>();
  let messages = 0;
  for (const payload of payloads) {
    const of = candidates(cases, "cold", payload).filter((c) => c.cold !== undefined);
    if (of.length === 0) continue;
    const fastest = (figure: (c: CaseResult) => number, pick: RoundFigure): string => {
      const order = [...of].sort((a, b) => figure(a) - figure(b));
      const best = order[0]!;
      return names(
        order.filter((c) => {
          const r = c === best ? undefined : pairedRatio(c, best, pick);
          return c === best || r === undefined || overlapsOne(r);
        }),
      );
    };
    first.push({
      payload,
      who: fastest(
        (c) => c.cold!.first.median,
        (r) => r.cold?.firstNs,
      ),
    });
    later.push({
      payload,
      who: fastest(
        (c) => c.total.median,
        (r) => r.totalNs,
      ),
    });
    messages = Math.max(messages, of[0]!.iterations);
    for (const c of of)
      load.set(codecLabel(c), [...(load.get(codecLabel(c)) ?? []), c.cold!.import.median + c.cold!.setup.median]);
  }
  if (first.length === 0) return undefined;
  const shown = (per: { payload: PayloadName; who: string }[]): string =>
    new Set(per.map((p) => p.who)).size === 1
      ? `${per[0]!.who}${per.length > 1 ? " on every payload" : ""}`
      : per.map((p) => `${p.payload} ${p.who}`).join(", ");
  const loads = [...load].map(([who, ns]) => ({ who, ns: ns.sort((a, b) => a - b)[ns.length >> 1]! }));
  loads.sort((a, b) => a.ns - b.ns);
  const ms = (ns: number): string => `${(ns / 1e6).toFixed(ns < 1e7 ? 1 : 0)} ms`;
  const range =
    loads.length > 1
      ? `; loading (import + set-up) from ${loads[0]!.who} ${ms(loads[0]!.ns)} to ${loads.at(-1)!.who} ${ms(loads.at(-1)!.ns)}`
      : "";
  // What the codecs' code adds to a page, gzipped, json's nothing aside: the least and the most.
  const paged = [
    ...new Map(
      cases
        .filter((c) => c.mode === "cold" && c.codec !== "json" && c.cold?.bundleGzipBytes !== undefined)
        .map((c) => [codecLabel(c), c.cold!.bundleGzipBytes!] as const),
    ),
  ].sort((a, b) => a[1] - b[1]);
  const kb = (bytes: number): string => `${(bytes / 1000).toFixed(bytes < 10_000 ? 1 : 0)} kB`;
  const page =
    paged.length > 1
      ? `; on a page, gzipped, from ${paged[0]![0]} +${kb(paged[0]![1])} to ${paged.at(-1)![0]} +${kb(paged.at(-1)![1])}`
      : "";
  return `Cold start (${coldProcessesText(cases)}), fastest on the first message: ${shown(first)}; over the first ${count(messages)}: ${shown(later)}${range}${page}`;
}

/**
 * Latency mode at several rates: per payload, the highest rate the best and the worst codec kept
 * (client/harness/knee.ts), so a newcomer sees which codec breaks first under load.
 */
function kneeLine(cases: readonly CaseResult[], payloads: readonly PayloadName[]): string | undefined {
  const found = knees(cases).filter((k) => k.codec !== "raw");
  const client = found[0]?.client;
  const parts: string[] = [];
  for (const payload of payloads) {
    const of = found.filter((k) => k.payload === payload && k.client === client).sort((a, b) => b.rate - a.rate);
    if (of.length === 0) continue;
    // "20k custom-binary +4": the rate, the first codec at it and how many more.
    const at = (rate: number): string => {
      const with_ = of.filter((k) => k.rate === rate);
      const shown =
        with_.length === of.length && of.length > 1
          ? "all"
          : `${with_[0]!.codec}${with_.length > 1 ? ` +${with_.length - 1}` : ""}`;
      // "+": kept every rate tried (the sweep's top, or a run stopped early), so the knee may be higher.
      const plus = with_.every((k) => k.missed === undefined) ? "+" : "";
      return `${rate <= 0 ? "none" : rate % 1000 === 0 ? `${rate / 1000}k` : compact(rate)}${plus} ${shown}`;
    };
    const top = of[0]!.rate;
    const bottom = of[of.length - 1]!.rate;
    parts.push(`${payload} ${at(top)}${bottom !== top ? ` .. ${at(bottom)}` : ""}`);
  }
  if (parts.length === 0) return undefined;
  return `Knee (latency, ${client} client), msgs/s kept, best .. worst: ${parts.join("; ")}`;
}

/**
 * Why no codec was timed on `payload`: the codecs that changed its messages (grouped by the
 * first change each made, with its place and how many messages), those that cannot carry it,
 * and cases that failed; with what to do where there is something to do.
 */
function whyNotTimed(results: Pick<BenchResults, "cases" | "settings" | "fidelity">, payload: PayloadName): string {
  const asked = results.settings.codecs.filter((c) => c !== "raw" && !CALIBRATION_CODEC_NAMES.includes(c));
  const groups = new Map<string, string[]>();
  const add = (what: string, codec: string): void => void groups.set(what, [...(groups.get(what) ?? []), codec]);
  // Every change that made a codec lossy here, by kind ("cannot carry" for one that threw).
  const losses = new Set<string>();
  for (const r of results.fidelity ?? []) {
    if (r.payload !== payload || !r.lossy || !asked.includes(r.codec)) continue;
    if (r.error) losses.add("cannot carry");
    for (const c of r.changes) if (!c.equal && c.change !== KEY_ORDER_CHANGED) losses.add(c.change);
    const first = r.changes.find((c) => c.change !== KEY_ORDER_CHANGED);
    add(
      r.error
        ? "cannot carry them"
        : first
          ? `${first.change} at ${first.path} (${first.messages} of ${r.messages} messages)`
          : "changed them",
      r.codec,
    );
  }
  const lossy = groups.size > 0;
  for (const e of results.settings.excluded)
    if (
      e.payload === payload &&
      asked.includes(e.codec) &&
      !(results.fidelity ?? []).some((r) => r.codec === e.codec && r.payload === payload && r.lossy)
    )
      add(e.why.replace(/^not applicable: /, ""), e.codec);
  const failed = results.cases.filter((c) => c.payload === payload && !c.verified && c.codec !== "raw");
  const parts = [...groups].map(([what, codecs]) => `${codecs.join(", ")}: ${what}`);
  if (failed.length > 0) parts.push(`${failed.length} case${failed.length === 1 ? "" : "s"} failed (named above)`);
  if (parts.length === 0) return "not timed (the run stopped before it)";
  // What would time them: --allow-lossy always; --equal where every change is of a kind it declares no loss.
  const kinds = [...losses].map((l) =>
    l === "-0 became 0"
      ? "negative-zero"
      : l === "undefined dropped" || l.startsWith("undefined became ")
        ? "undefined"
        : "",
  );
  const equal = kinds.length > 0 && kinds.every((k) => k !== "") ? [...new Set(kinds)].sort().join(",") : undefined;
  const remedy =
    lossy && !results.settings.allowLossy
      ? `; --allow-lossy times them${equal ? `, --equal ${equal} treats them as equal` : ""}`
      : "";
  return `not timed: ${parts.join("; ")}${remedy}`;
}

/** Each payload the run asked for on which no codec was timed, with why (the verdict gives each a line). */
export function notTimedPayloads(results: Pick<BenchResults, "cases" | "settings" | "fidelity">): NotTimed[] {
  const timed = new Set(results.cases.filter((c) => c.verified && c.codec !== "raw").map((c) => c.payload));
  return results.settings.payloads
    .filter((p) => !timed.has(p))
    .map((payload) => ({ payload, why: whyNotTimed(results, payload) }));
}

/** A payload the run asked for on which no codec was timed, and why, in a few words a user can act on. */
export interface NotTimed {
  payload: PayloadName;
  why: string;
}

/**
 * The verdict: each payload's answer (a line per side: client, server, bytes; or why nothing
 * ran on it), then at most VERDICT_MAX_LINES lines of what the run says across payloads; empty
 * when the run has nothing verified and no payload to explain.
 */
export function verdictLines(
  cases: readonly CaseResult[],
  notTimed: readonly NotTimed[] = [],
  asked: readonly PayloadName[] = [],
): string[] {
  const { mode, payloads } = verdictScope(cases);
  const untimed = notTimed.filter((n) => !payloads.includes(n.payload));
  if ((mode === undefined || payloads.length === 0) && untimed.length === 0) return [];
  const wrap = (ls: readonly (string | undefined)[], indent = "    "): string[] =>
    ls.filter((l) => l !== undefined).flatMap((l) => wrapLine(l, TERMINAL_WIDTH, indent));
  // In the order the run asked for them (its --payloads, its --messages files), else the usual one.
  const rank = (p: PayloadName): number => (asked.includes(p) ? asked.indexOf(p) : asked.length);
  const all = orderPayloads([...payloads, ...untimed.map((n) => n.payload)]).sort((a, b) => rank(a) - rank(b));
  const width = Math.max(6, ...all.map((q) => q.length)) + 1;
  const head = [
    ...wrap([
      mode !== undefined
        ? `Verdict from this run (fastest by ${SPEED_BASIS[mode]}; another machine may differ):`
        : "Verdict from this run:",
    ]),
    ...all.flatMap((p) => {
      const n = untimed.find((u) => u.payload === p);
      return n
        ? wrap([`${p.padEnd(width)}${n.why}`], " ".repeat(width))
        : wrap(payloadLines(cases, p, mode!, width), " ".repeat(width + SIDE));
    }),
  ];
  if (mode === undefined || payloads.length === 0) return head;
  const parts = {
    hand: wrap([handWrittenLine(cases, payloads)]),
    standing: wrap([standingLine(cases, payloads, mode)]),
    patterns: wrap(PATTERNS.map((p) => patternLine(cases, payloads, p))),
    route: wrap([routeLine(cases, payloads)]),
    knee: wrap([kneeLine(cases, payloads)]),
    socket: wrap(socketLines(cases, payloads)),
    cold: wrap([coldLine(cases, payloads)]),
  };
  // Within the budget, whole statements only: cold start first, the knee, then custom-binary against json, routing, custom-binary's place, the socket, the access patterns' winners.
  let room = VERDICT_MAX_LINES;
  const fits = (ls: string[]): string[] => {
    if (ls.length > room) return [];
    room -= ls.length;
    return ls;
  };
  const cold = fits(parts.cold);
  const knee = fits(parts.knee);
  const handLines = fits(parts.hand);
  const route = fits(parts.route);
  const standing = fits(parts.standing);
  const socket = fits(parts.socket);
  const patterns = fits(parts.patterns);
  return [...head, ...handLines, ...standing, ...patterns, ...route, ...knee, ...cold, ...socket];
}
