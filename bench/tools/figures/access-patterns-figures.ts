/**
 * docs/access-patterns.md's figures: the committed every-codec run (read-one and validated
 * against each codec's decode, results/sample/epyc-every-codec.json.gz) and the committed route run
 * (a router's CPU per message, results/sample/epyc-route.json.gz).
 */

import type { CaseResult } from "../../../client/harness/results.ts";
import { claim, type PageFigures } from "./figure-spec.ts";
import { fixed, hi, list, lo, ordinal, range } from "./prose.ts";
import { caseIn, casesIn } from "./sample-files.ts";

const EVERY = "epyc-every-codec.json.gz";
const ROUTE = "epyc-route.json.gz";

/** How the page names a codec in prose. */
const NAMES: Record<string, string> = {
  avro: "Avro",
  bebop: "Bebop",
  flatbuffers: "FlatBuffers",
  capnp: "Cap'n Proto",
  cbor: "CBOR",
  bson: "BSON",
  msgpack: "@msgpack/msgpack",
};
const named = (codec: string): string => NAMES[codec] ?? codec;
const sig = (digits: number) => (x: number) => x.toPrecision(digits);
const times = (x: number): string => `${x.toFixed(2)}x`;

// The every-codec run, codec mode.
const lab = (): CaseResult[] => casesIn(EVERY, { mode: "codec" });
const at = (payload: string, codec: string): CaseResult =>
  caseIn(EVERY, { mode: "codec", payload: payload as CaseResult["payload"], codec });
const decodeNs = (c: CaseResult): number => c.deserialize.median;
const readOneNs = (c: CaseResult): number => c.readOne!.median;
const validatedNs = (c: CaseResult): number => c.validated!.median;
const readOneVsJson = (c: CaseResult): number => c.ratios!.readOneVsJson!.value;
/** Read-one against the codec's own decode of the same round, for the codecs that read without a full decode. */
const readShares = (payload?: string): number[] =>
  lab()
    .filter((c) => c.keyAccess !== "decode" && (payload === undefined || c.payload === payload))
    .map((c) => readOneNs(c) / decodeNs(c));
/** What the range checks add to a schema decode, per message, in µs. */
const added = (c: CaseResult): number => (validatedNs(c) - decodeNs(c)) / 1000;
const ranged = (): CaseResult[] => lab().filter((c) => c.addedChecks === "ranges");
/** The payload where the range checks add the most to a decode: the page's exception. */
const dearest = (): string => ranged().reduce((a, b) => (added(b) > added(a) ? b : a)).payload;
/** The fastest decoder on the dearest payload. */
const fastest = (): CaseResult =>
  lab()
    .filter((c) => c.payload === dearest())
    .reduce((a, b) => (decodeNs(b) < decodeNs(a) ? b : a));
const signed = (x: number): string => `${x > 0 ? "+" : ""}${x.toFixed(2)}`;

// The route run.
const routes = (payload?: string): CaseResult[] =>
  casesIn(ROUTE, { mode: "route" }).filter((c) => payload === undefined || c.payload === payload);
const routed = (payload: string, codec: string): CaseResult =>
  caseIn(ROUTE, { mode: "route", payload: payload as CaseResult["payload"], codec });
const routePayloads = (): string[] => [...new Set(routes().map((c) => c.payload))];
const cpuUs = (c: CaseResult): number => c.route!.forward.cpuNs.median / 1000;
const keyNs = (c: CaseResult): number => c.route!.forward.keyNs.median;
const vs = (c: CaseResult): number => c.ratios!.routeVsJson!.value;
const over = (c: CaseResult): number => c.route!.recodeOverForward!.value;
const cheapestRouter = (): CaseResult => routes().reduce((a, b) => (cpuUs(b) < cpuUs(a) ? b : a));
/** The routers that read the key without decoding. */
const readers = (): string[] => [
  ...new Set(
    routes()
      .filter((c) => c.route!.keyAccess !== "decode")
      .map((c) => c.codec),
  ),
];
/** The slow readers: behind JSON on market and on chat. */
const slowReaders = (): string[] => readers().filter((c) => vs(routed("market", c)) > 1 && vs(routed("chat", c)) > 1);
const fastReaders = (): string[] => readers().filter((c) => !slowReaders().includes(c));
const ratiosOn = (payload: string, codecs: readonly string[]): number[] => codecs.map((c) => vs(routed(payload, c)));
const marketLead = (): CaseResult[] => [...routes("market")].sort((a, b) => vs(a) - vs(b)).slice(0, 2);

/** The routers that can only decode (JSON aside), sorted into near JSON, behind it, and the exceptions. */
function decoders(): { near: CaseResult[]; behind: CaseResult[]; behindCodecs: string[]; exceptions: CaseResult[] } {
  const all = routes().filter((c) => c.route!.keyAccess === "decode" && c.codec !== "json");
  const payloads = routePayloads();
  // Beating JSON.parse by far: a decode under half of JSON's on the payload in the every-codec run.
  const exceptions = all.filter((c) => decodeNs(at(c.payload, c.codec)) < decodeNs(at(c.payload, "json")) / 2);
  // Behind JSON: dearer than JSON on every payload, and beyond doubt (its 95% interval above 1) on most.
  const behindCodecs = [...new Set(all.map((c) => c.codec))].filter((codec) => {
    const mine = all.filter((c) => c.codec === codec && !exceptions.includes(c));
    return (
      mine.length === payloads.length &&
      mine.every((c) => vs(c) > 1) &&
      mine.filter((c) => c.ratios!.routeVsJson!.low > 1).length > payloads.length / 2
    );
  });
  const behind = all.filter((c) => behindCodecs.includes(c.codec));
  const near = all.filter((c) => !behind.includes(c) && !exceptions.includes(c));
  return { near, behind, behindCodecs, exceptions };
}
const recodeTop = (): CaseResult[] => [...routes()].sort((a, b) => over(b) - over(a)).slice(0, 2);

export const ACCESS_PATTERNS: PageFigures = {
  page: "docs/access-patterns.md",
  figures: {
    "read-share": () => range(readShares(), fixed(2)),
    "read-share-market": () => range(readShares("market"), fixed(2)),
    "read-by-decode": () =>
      claim(
        lab().some((c) => c.keyAccess === "decode") &&
          lab()
            .filter((c) => c.keyAccess === "decode")
            .every((c) => readOneNs(c) === decodeNs(c)),
        "the ones that read by decode all of it",
        "every codec that reads by decode with its read-one equal to its decode",
      ),
    "protobuf-chat-decode": () => {
      const x = decodeNs(at("chat", "protobuf")) / decodeNs(at("chat", "json"));
      return claim(x > 1, times(x), "protobuf's full decode on chat slower than JSON's");
    },
    "protobuf-chat-read-one": () => {
      const x = readOneVsJson(at("chat", "protobuf"));
      return claim(x < 1, times(x), "protobuf's read-one on chat faster than JSON's");
    },
    "lazy-market": () => {
      const [fb, capnp] = [at("market", "flatbuffers"), at("market", "capnp")];
      return claim(
        fb.keyAccess === "lazy" && capnp.keyAccess === "lazy" && readOneVsJson(fb) > 1 && readOneVsJson(capnp) > 1,
        `${sig(2)(readOneVsJson(fb))}x and ${sig(2)(readOneVsJson(capnp))}x`,
        "flatbuffers and capnp reading market's key lazily, and dearer than JSON's full parse",
      );
    },
    "validated-is-decode": () =>
      claim(
        lab()
          .filter((c) => c.codec === "custom-binary")
          .every((c) => validatedNs(c) === decodeNs(c)),
        "custom-binary's validated is its decode",
        "custom-binary's validated equal to its decode on every payload",
      ),
    "validator-share": () => {
      const validator = lab().filter((c) => c.addedChecks === "validator");
      return `${range(
        validator.map((c) => validatedNs(c) / decodeNs(c)),
        fixed(2),
      )}x`;
    },
    "ranges-elsewhere": () => {
      const off = ranged().filter((c) => c.payload !== dearest());
      return `${signed(lo(off.map(added)))} to ${signed(hi(off.map(added)))}`;
    },
    "ranges-dearest": () => {
      const on = ranged().filter((c) => c.payload === dearest());
      const off = ranged().filter((c) => c.payload !== dearest());
      return claim(
        dearest() === "game-tick" && lo(on.map(added)) > hi(off.map(added)),
        dearest(),
        "game-tick as the payload where the range checks add more to every schema decode than anywhere else",
      );
    },
    "ranges-there": () =>
      range(
        ranged()
          .filter((c) => c.payload === dearest())
          .map(added),
        fixed(1),
      ),
    "ranges-fastest": () => {
      const first = fastest();
      // The others whose decode the checks more than double there, named before the fastest.
      const doubled = ranged().filter(
        (c) => c.payload === dearest() && c.codec !== first.codec && validatedNs(c) > 2 * decodeNs(c),
      );
      return claim(
        first.addedChecks === "ranges",
        `${doubled.length === 0 ? "" : `more than doubling ${list(doubled.map((c) => `${named(c.codec)}'s`))} decode and `}making ${named(first.codec)}'s, the fastest there, ${(validatedNs(first) / decodeNs(first)).toFixed(1)}x as long`,
        `range checks on the fastest decoder on ${dearest()}`,
      );
    },
    "validated-place": () => {
      const tick = lab().filter((c) => c.payload === dearest());
      const order = [...tick].sort((a, b) => validatedNs(a) - validatedNs(b)).map((c) => c.codec);
      const first = fastest().codec;
      const place = order.indexOf(first);
      return place === 0
        ? `${named(first)} stays first`
        : `${named(first)} falls from first to ${ordinal(place + 1)}, behind ${list(order.slice(0, place).map(named))}`;
    },
    "route-run": () => {
      const codecs = [...new Set(lab().map((c) => c.codec))].sort();
      const members = new Set(routes().map((c) => c.route!.members));
      return claim(
        routePayloads().every(
          (p) =>
            String(
              routes(p)
                .map((c) => c.codec)
                .sort(),
            ) === String(codecs),
        ) && members.size === 1,
        `every codec, ${list(routePayloads())}, ${[...members][0]} members`,
        "the route run routing every codec on each of its payloads, with one number of members",
      );
    },
    "cheapest-router": () => `${named(cheapestRouter().codec)} on ${cheapestRouter().payload}`,
    "cheapest-cpu": () => `${cpuUs(cheapestRouter()).toFixed(2)} µs`,
    "cheapest-key": () => `${Math.round(keyNs(cheapestRouter()))} ns`,
    "market-routers": () => `${range(routes("market").map(cpuUs), fixed(1))} µs`,
    "offset-key": () => {
      // A median above zero is a time the page gives; at or below zero, less than the timer can tell.
      const cb = (p: string) => keyNs(routed(p, "custom-binary"));
      const timed = routePayloads().filter((p) => cb(p) > 0);
      const untold = routePayloads().filter((p) => cb(p) <= 0);
      const told = timed.map(
        (p, i) => `${Math.round(cb(p))} ns${i === 0 ? " of the server's time per message" : ""} on ${p}`,
      );
      return timed.length === 0
        ? `less than the server's timer can tell on ${list(untold)}`
        : `${list(told)}${untold.length === 0 ? "" : `, and on ${list(untold)} less than the server's timer can tell`}`;
    },
    "json-key": () =>
      `${range(
        routes()
          .filter((c) => c.codec === "json")
          .map((c) => keyNs(c) / 1000),
        fixed(1),
      )} µs`,
    "decoders-key": () =>
      `${range(
        routes()
          .filter((c) => ["msgpack", "cbor", "bson"].includes(c.codec))
          .map((c) => keyNs(c) / 1000),
        sig(2),
      )} µs`,
    "readers-lead": () =>
      claim(
        ["chat", "game-tick"].every((p) => {
          const cheapest = [...routes(p)].sort((a, b) => vs(a) - vs(b)).slice(0, 4);
          return (
            ratiosOn(p, fastReaders()).every((x) => x < 1) && cheapest.every((c) => fastReaders().includes(c.codec))
          );
        }),
        "the codecs that read the key without decoding lead",
        "the codecs that read the key without decoding (the slow readers aside) cheaper than JSON, and the cheapest four, on chat and game-tick",
      ),
    "fast-readers": () => list(fastReaders().map(named)),
    "fast-chat": () => `${range(ratiosOn("chat", fastReaders()), fixed(2))}x`,
    "fast-tick": () => `${range(ratiosOn("game-tick", fastReaders()), fixed(2))}x`,
    "market-lead": () => list(marketLead().map((c) => named(c.codec))),
    "market-lead-ratios": () =>
      marketLead()
        .map((c) => times(vs(c)))
        .join(" and "),
    "slow-readers": () =>
      list([...slowReaders()].sort((a, b) => vs(routed("market", b)) - vs(routed("market", a))).map(named)),
    "slow-trail": () =>
      `${range(
        ["market", "chat"].flatMap((p) => ratiosOn(p, slowReaders())),
        sig(3),
        sig(2),
      )}x`,
    near: () => `${range(decoders().near.map(vs), fixed(2))}x`,
    "behind-codecs": () => {
      const { behindCodecs } = decoders();
      return claim(behindCodecs.length > 0, list(behindCodecs.map(named)), "codecs that decode behind JSON's router");
    },
    behind: () => `${range(decoders().behind.map(vs), fixed(2))}x`,
    "beats-parse": () => {
      const { near, exceptions } = decoders();
      /** The exceptions by payload: "Bebop and msgpackr-records on game-tick (0.44x and 0.51x)". */
      const text = list(
        routePayloads().flatMap((p) => {
          const here = exceptions.filter((c) => c.payload === p);
          return here.length === 0
            ? []
            : [`${list(here.map((c) => named(c.codec)))} on ${p} (${list(here.map((c) => times(vs(c))))})`];
        }),
      );
      // A decode that beats JSON's by far shows: those routers are cheaper than every one near JSON.
      return claim(
        exceptions.length > 0 && near.length > 0 && hi(exceptions.map(vs)) < lo(near.map(vs)),
        text,
        "routers whose decode beats JSON.parse by far, each cheaper than every router near JSON",
      );
    },
    "recode-all": () => `${range(routes().map(over), fixed(2), fixed(1))}x`,
    "recode-market": () => {
      // The codecs that decode to read the key on market, whose encode is all recoding adds.
      const market = routes("market").filter((c) => c.route!.keyAccess === "decode");
      return claim(
        market.length > 0,
        `${range(market.map(over), fixed(2), fixed(1))}x`,
        "codecs that decode to read market's key",
      );
    },
    "recode-top": () => {
      const top = recodeTop();
      // The two dearest: on one payload the page names it once, else each one's.
      const where = [...new Set(top.map((c) => c.payload))];
      const who =
        where.length === 1
          ? `${list(top.map((c) => named(c.codec)))} on ${where[0]}`
          : list(top.map((c) => `${named(c.codec)} on ${c.payload}`));
      return `${who}, ${top.map((c) => `${over(c).toFixed(1)}x`).join(" and ")}`;
    },
  },
};
