/**
 * docs/access-patterns.md's figures: the every-codec run (read-one and validated against each codec's
 * decode, bun-every-codec.json.gz) and the route run (a router's CPU per message, bun-route.json.gz).
 */

import type { CaseResult } from "../../../client/harness/results.ts";
import { ratioText } from "../../report/format.ts";
import { claim, type PageFigures } from "./figure-spec.ts";
import { fixed, hi, list, lo, mdTable, ordinal, range } from "./prose.ts";
import { type CaseMatch, caseIn, casesIn } from "./sample-files.ts";

const EVERY = "bun-every-codec.json.gz";
const ROUTE = "bun-route.json.gz";

/** How the page names a codec in prose. */
const NAMES: Record<string, string> = {
  ...{ avro: "Avro", bebop: "Bebop", flatbuffers: "FlatBuffers", capnp: "Cap'n Proto", cbor: "CBOR", bson: "BSON" },
  msgpack: "@msgpack/msgpack",
};
const named = (codec: string): string => NAMES[codec] ?? codec;
const [one, two] = [fixed(1), fixed(2)];
const times = (x: number): string => `${two(x)}x`;
/** A range in one format and unit: spread(two, "x")([0.61, 0.68]) is "0.61-0.68x". */
const spread =
  (f: (v: number) => string, unit = "") =>
  (values: number[]) =>
    `${range(values, f)}${unit}`;
const x2 = spread(two, "x");
const us = (ns: number): string => `${(ns / 1000).toFixed(2)} µs`;

// The every-codec run, codec mode.
const lab = (match: CaseMatch = {}): CaseResult[] => casesIn(EVERY, { mode: "codec", ...match });
const at = (payload: string, codec: string): CaseResult => caseIn(EVERY, { mode: "codec", payload, codec });
const decodeNs = (c: CaseResult): number => c.deserialize.median;
const validatedNs = (c: CaseResult): number => c.validated!.median;
const readOneVsJson = (c: CaseResult): number => c.ratios!.readOneVsJson!.value;
/** Read-one against the codec's own decode of the same round, for the codecs that read without a full decode. */
const readShares = (match: CaseMatch = {}): number[] =>
  lab(match).flatMap((c) => (c.keyAccess === "decode" ? [] : [c.readOne!.median / decodeNs(c)]));
/** What the range checks add to a schema decode, per message, in µs; on the payload where they add most, or elsewhere. */
const added = (c: CaseResult): number => (validatedNs(c) - decodeNs(c)) / 1000;
const ranged = (): CaseResult[] => lab().filter((c) => c.addedChecks === "ranges");
const dearest = (): string => ranged().reduce((a, b) => (added(b) > added(a) ? b : a)).payload;
const addedOn = (there: boolean): number[] =>
  ranged().flatMap((c) => ((c.payload === dearest()) === there ? [added(c)] : []));

// The route run.
const routes = (match: CaseMatch = {}): CaseResult[] => casesIn(ROUTE, { mode: "route", ...match });
const routePayloads = (): string[] => [...new Set(routes().map((c) => c.payload))];
const cpuUs = (c: CaseResult): number => c.route!.forward.cpuNs.median / 1000;
const keyNs = (c: CaseResult): number => c.route!.forward.keyNs.median;
const vs = (c: CaseResult): number => c.ratios!.routeVsJson!.value;
const over = (c: CaseResult): number => c.route!.recodeOverForward!.value;
const byVs = (a: CaseResult, b: CaseResult): number => vs(a) - vs(b);
const byOver = (a: CaseResult, b: CaseResult): number => over(b) - over(a);
const sig2 = (x: number): string => x.toPrecision(2);
/** The key reads of some codecs' routers, µs per message. */
const keysUs = (codecs: string[]) => routes().flatMap((c) => (codecs.includes(c.codec) ? [keyNs(c) / 1000] : []));

export const ACCESS_PATTERNS: PageFigures = {
  page: "docs/access-patterns.md",
  figures: {
    "read-shares": () =>
      `${range(readShares(), two)} of it, ${range(readShares({ payload: "market" }), two)} on market's small messages`,
    "read-by-decode": () => {
      const all = lab().every((c) => c.keyAccess !== "decode" || c.readOne!.median === decodeNs(c));
      return claim(all, "the ones that read by decode all of it", "every read-one by decode equal to its decode");
    },
    "protobuf-chat": () => {
      const decode = decodeNs(at("chat", "protobuf")) / decodeNs(at("chat", "json"));
      const readOne = readOneVsJson(at("chat", "protobuf"));
      const text = `its decode ${times(decode)} JSON's, its read-one ${times(readOne)}`;
      return claim(decode > 1 && readOne < 1, text, "protobuf decoding chat slower than JSON, reading its key faster");
    },
    "lazy-market": () => {
      const lazy = ["flatbuffers", "capnp"].map((codec) => at("market", codec));
      const dear = lazy.every((c) => c.keyAccess === "lazy" && readOneVsJson(c) > 1);
      return claim(dear, list(lazy.map((c) => `${sig2(readOneVsJson(c))}x`)), "lazy reads dearer than JSON's parse");
    },
    validated: () => {
      const same = lab({ codec: "custom-binary" }).every((c) => validatedNs(c) === decodeNs(c));
      const shares = lab().flatMap((c) => (c.addedChecks === "validator" ? [validatedNs(c) / decodeNs(c)] : []));
      const text = `custom-binary's validated is its decode, and the validator adds little to a schema-less decode: each one's validated, timed in a loop of its own, came out at ${x2(shares)}`;
      return claim(same, text, "custom-binary's validated equal to its decode");
    },
    ranges: () => {
      const signed = (x: number): string => `${x > 0 ? "+" : ""}${two(x)}`;
      const [on, off] = [addedOn(true), addedOn(false)];
      const text = `little to a schema decode (${signed(lo(off))} to ${signed(hi(off))} µs per message) except on ${dearest()}, whose entities each carry integers and a state to check: there they add ${range(on, one)}`;
      return claim(dearest() === "game-tick" && lo(on) > hi(off), text, "game-tick where range checks add most");
    },
    "tick-table": () => {
      const tick = lab({ payload: dearest() }).sort((a, b) => validatedNs(a) - validatedNs(b));
      const rows = tick.map((c) => [c.codec, c.addedChecks!, us(decodeNs(c)), us(validatedNs(c))]);
      return mdTable(["codec", "checks added", "decode", "validated"], rows);
    },
    "validated-place": () => {
      const tick = lab({ payload: dearest() });
      const first = tick.reduce((a, b) => (decodeNs(b) < decodeNs(a) ? b : a));
      const place = tick.filter((c) => validatedNs(c) < validatedNs(first)).length;
      const text = `${named(first.codec)}, the fastest decode there, falls to ${ordinal(place + 1)}: its checks make it ${one(validatedNs(first) / decodeNs(first))}x as long`;
      return claim(place > 0 && first.addedChecks === "ranges", text, "range checks moving the fastest decoder down");
    },
    "route-run": () => {
      const members = new Set(routes().map((c) => c.route!.members));
      const every = routePayloads().every((p) => routes({ payload: p }).length === lab({ payload: p }).length);
      const text = `every codec, ${list(routePayloads())}, ${[...members][0]} members`;
      return claim(every && members.size === 1, text, "every codec routed, to one number of members");
    },
    "cheapest-router": () => {
      const c = routes().reduce((a, b) => (cpuUs(b) < cpuUs(a) ? b : a));
      return `${named(c.codec)} on ${c.payload}, costs the server ${two(cpuUs(c))} µs per message, of which its key read is ${Math.round(keyNs(c))} ns`;
    },
    "market-routers": () => spread(one, " µs")(routes({ payload: "market" }).map(cpuUs)),
    "offset-key": () => {
      const keys = routes({ codec: "custom-binary" }).map(keyNs);
      return claim(lo(keys) > 0, spread(fixed(0), " ns")(keys), "custom-binary's key read timed");
    },
    "decode-keys": () =>
      `JSON's parse ${spread(one, " µs")(keysUs(["json"]))}, @msgpack/msgpack's, CBOR's and BSON's decode ${spread(sig2, " µs")(keysUs(["msgpack", "cbor", "bson"]))}`,
    "route-table": () => {
      const vsCell = (c: CaseResult) => (c.codec === "json" ? "1.00" : ratioText(c.ratios!.routeVsJson));
      const row = (cs: CaseResult[]) => [cs[0]!.codec, ...cs.map(vsCell), x2(cs.map(over)), cs[0]!.route!.keyAccess];
      const byCodec = [...new Set(routes().map((c) => c.codec))].map((codec) => routes({ codec }));
      return mdTable(["codec", ...routePayloads(), "recoding / forwarding", "reads key by"], byCodec.map(row));
    },
    readers: () => {
      const read = [...new Set(routes().flatMap((c) => (c.route!.keyAccess === "decode" ? [] : [c.codec])))];
      const trails = (codec: string) => ["market", "chat"].every((payload) => vs(routes({ payload, codec })[0]!) > 1);
      const slow = read.filter(trails);
      const fast = read.filter((c) => !slow.includes(c));
      const cheapest = (payload: string, n: number) => routes({ payload }).sort(byVs).slice(0, n);
      const lead = (p: string) => cheapest(p, 4).every((c) => fast.includes(c.codec) && vs(c) < 1);
      const text = `the codecs that read the key without decoding lead on chat and game-tick, and on market, whose messages are small, ${list(cheapest("market", 2).map((c) => named(c.codec)))} lead; ${list(slow.map(named))}, which read without decoding but slowly, trail JSON on market and chat`;
      return claim(slow.length > 0 && ["chat", "game-tick"].every(lead), text, "readers leading");
    },
    decoders: () => {
      const all = routes().filter((c) => c.route!.keyAccess === "decode" && c.codec !== "json");
      const fast = all.filter((c) => decodeNs(at(c.payload, c.codec)) < decodeNs(at(c.payload, "json")) / 2);
      const dear = (codec: string) => routes({ codec }).every((c) => c.ratios!.routeVsJson!.low > 1);
      const behind = [...new Set(all.map((c) => c.codec))].filter(dear);
      const near = all.filter((c) => !fast.includes(c) && !behind.includes(c.codec)).map(vs);
      const text = `stay near JSON (${x2(near)}) or, ${list(behind.map(named))}, behind it, unless their decode beats \`JSON.parse\` by far: ${list(fast.map((c) => `${named(c.codec)} on ${c.payload} (${times(vs(c))})`))}`;
      return claim(behind.length > 0 && fast.length > 0 && hi(fast.map(vs)) < lo(near), text, "decoders' places");
    },
    recode: () => {
      const top = routes().sort(byOver).slice(0, 2);
      const who = list(top.map((c) => `${named(c.codec)} on ${c.payload} (${one(over(c))}x)`));
      return `${range(routes().map(over), two, one)}x forwarding's CPU, most where an encoder is slow: ${who}`;
    },
  },
};
