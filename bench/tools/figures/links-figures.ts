/**
 * docs/links.md's figures: the committed link runs under results/sample/links/: the three profiles
 * (wifi.json.gz, 4g.json.gz, slow-4g.json.gz), 4g with --deflate (4g-deflate.json.gz), each codec's knee over 4g
 * (4g-knees.json.gz) and the crossover sweep (sweep.json).
 */

import { LINK_PROFILES, type LinkUse, rateText } from "../../../client/harness/link.ts";
import type { CaseResult } from "../../../client/harness/results.ts";
import type { Crossover } from "../../report/crossover.ts";
import { caseLinkUse, heldByText } from "../../report/link-use.ts";
import { claim, type PageFigures } from "./figure-spec.ts";
import { hi, list, lo, range, seconds, thousands, whole, word } from "./prose.ts";
import { caseIn, casesIn, machineOf, sampleResults, sampleText } from "./sample-files.ts";

type Payload = CaseResult["payload"];
type Mode = CaseResult["mode"];
const PAYLOADS: Payload[] = ["small", "medium", "large"];

/** The three profiles' runs, as the page lists them. */
const PROFILES = ["wifi", "4g", "slow-4g"] as const;
type Profile = (typeof PROFILES)[number] | "4g-deflate";
const file = (link: Profile | "4g-knees"): string => `links/${link}.json.gz`;
const one = (link: Profile, mode: Mode, payload: Payload, codec: string): CaseResult =>
  caseIn(file(link), { mode, payload, codec });
/** What the link did to a case (a socket case over a link has one). */
const use = (c: CaseResult): LinkUse => caseLinkUse(c)!;
const sock = (c: CaseResult) => c.socket!;
const rttP50 = (c: CaseResult): number => sock(c).rtt!.p50;
const ms = (ns: number): string => `${(ns / 1e6).toFixed(2)} ms`;

const pct = (x: number): number => Math.round(x * 100);
/** Shares as a range of percentages: "33-54%" (one figure when both ends read the same). */
const pcts = (v: readonly number[]): string => `${range(v, (x) => String(pct(x)))}%`;
/** A codec as the page names it in prose. */
const named = (codec: string): string => (codec === "json" ? "JSON" : codec);

// The three profiles.

/** How far apart the codecs' median round trips were on a profile's payload. */
const rtSpread = (link: Profile, payload: Payload): number => {
  const p50 = casesIn(file(link), { mode: "roundtrip", payload }).map(rttP50);
  return hi(p50) / lo(p50) - 1;
};
/** Every profile's payload but wifi's large message, which the page names apart. */
const rtSpreadsButWifiLarge = (): number[] =>
  PROFILES.flatMap((l) => PAYLOADS.filter((p) => l !== "wifi" || p !== "large").map((p) => rtSpread(l, p)));
/** The large message's round trip over slow-4g: JSON's beyond custom-binary's, ms; a codec's bytes on the wire, ms. */
const slowLarge = (codec: string): CaseResult => one("slow-4g", "roundtrip", "large", codec);
const slowMore = (): number => (rttP50(slowLarge("json")) - rttP50(slowLarge("custom-binary"))) / 1e6;
const slowWire = (codec: string): number => use(slowLarge(codec)).bytesMs;
const streams = (link: Profile): CaseResult[] => casesIn(file(link), { mode: "stream" });
const MOBILE = ["4g", "slow-4g"] as const;
/** A profile's large-message stream rate of a codec. */
const largeRate = (link: Profile, codec: string, payload: Payload = "large"): number =>
  one(link, "stream", payload, codec).msgsPerS;
const cbMore = (link: Profile): string => {
  const more = largeRate(link, "custom-binary") / largeRate(link, "json") - 1;
  return claim(more > 0, `${pct(more)}% more`, `custom-binary carrying more large messages than JSON over ${link}`);
};
const cbAgainst = (link: Profile): string =>
  `${whole(largeRate(link, "custom-binary"))} against ${whole(largeRate(link, "json"))}`;
/** The share of the way a case's limit names. */
const limitShare = (u: LinkUse): number =>
  ({ up: u.upShare, down: u.downShare, window: u.windowShare })[u.limit as "up" | "down" | "window"];

// --deflate over 4g.

const reply = (link: Profile, payload: Payload, codec: string): number =>
  sock(one(link, "roundtrip", payload, codec)).replyWireBytes!;
const shrank = (payload: Payload, codec: string): string =>
  `${Math.round(reply("4g", payload, codec))} to ${Math.round(reply("4g-deflate", payload, codec))}`;
/** The two 4g runs' cases of a mode, each with its twin in the other run. */
const deflatePairs = (mode: Mode): [CaseResult, CaseResult][] =>
  casesIn(file("4g"), { mode }).map((c) => [c, one("4g-deflate", mode, c.payload, c.codec)]);

// Each codec's knee over 4g.

const KNEES = file("4g-knees");
const kneeCases = (payload?: Payload, codec?: string): CaseResult[] =>
  casesIn(KNEES, { mode: "latency", ...(payload ? { payload } : {}), ...(codec ? { codec } : {}) });
/** A codec's latency case at a rate. */
const at = (payload: Payload, codec: string, rate: number): CaseResult => {
  const found = kneeCases(payload, codec).filter((c) => sock(c).targetRate === rate);
  if (found.length !== 1)
    throw new Error(`results/sample/${KNEES}: ${found.length} ${payload} ${codec} cases at ${rate}/s`);
  return found[0]!;
};
const kneeOf = (payload: Payload, codec: string): number => {
  const k = sampleResults(KNEES).knees?.find((x) => x.payload === payload && x.codec === codec);
  if (k === undefined) throw new Error(`results/sample/${KNEES}: no knee of ${payload} ${codec}`);
  return k.rate;
};
const kneeCodecs = (): string[] => [...new Set(kneeCases().map((c) => c.codec))];
/** A payload's codecs, smallest frame first. */
const bySize = (payload: Payload): string[] =>
  kneeCodecs().sort((a, b) => sock(kneeCases(payload, a)[0]!).wireBytes - sock(kneeCases(payload, b)[0]!).wireBytes);
const kneeLink = () => sock(kneeCases()[0]!);
/** What the way up lets through for a frame of this many bytes, a second. */
const byUp = (wireBytes: number): number => (kneeLink().link!.upKbps * 1000) / (8 * wireBytes);
const byWindow = (): number => (kneeLink().window * 1000) / kneeLink().link!.rttMs;
const sentAt1000 = (payload: Payload, codec: string): number => sock(at(payload, codec, 1000)).achievedRate!;
const latencyMs = (c: CaseResult): number => Math.round(sock(c).latency!.p50 / 1e6);
/** How far apart the codecs' median latencies were at a rate, payload by payload. */
const latencySpreads = (payloads: Payload[], rate: number): number[] =>
  payloads.map((p) => {
    const v = kneeCodecs().map((c) => sock(at(p, c, rate)).latency!.p50);
    return hi(v) / lo(v) - 1;
  });
const share1 = (x: number): string => `${(x * 100).toFixed(1)}%`;

// The crossover sweep.

/** The sweep's crossovers, a payload each (sweep.json as bench/cli/link-sweep.ts writes it). */
const sweep = (): Crossover[] => (JSON.parse(sampleText("links/sweep.json")) as { crossovers: Crossover[] }).crossovers;
/** The one codec the sweep found fastest (or smallest) on every payload, as the page names it. */
const whoIs = (side: "fast" | "small"): string => {
  const codecs = [...new Set(sweep().map((c) => c[side].codec))];
  return claim(codecs.length === 1, named(codecs[0]!), `one ${side} codec on every payload of the sweep`);
};
/** The share of a step's nominal rate a codec's frames filled: msgs/s x frame bytes x 8 / rate. */
const fill = (msgsPerS: number, wireBytes: number, kbps: number): number => (msgsPerS * wireBytes * 8) / (kbps * 1000);
const steps = () =>
  sweep().flatMap((c) =>
    c.steps.map((r) => ({
      payload: c.payload,
      kbps: r.kbps,
      fast: fill(r.fast, c.fast.wireBytes, r.kbps),
      small: fill(r.small, c.small.wireBytes, r.kbps),
    })),
  );
const smallerFillsLess = (): boolean => steps().every((r) => r.small < r.fast);
const mbit = (kbps: number): string => String(kbps / 1000);
/** The smaller codec's gain over the faster on each step. */
const gains = (): number[] => sweep().flatMap((c) => c.steps.map((r) => r.small / r.fast - 1));

export const LINKS: PageFigures = {
  page: "docs/links.md",
  figures: {
    "emulator-pace": () =>
      claim(
        sweep().every((c) => {
          const carried = (c.ceilingKbps * 1000) / (8 * c.fast.wireBytes);
          return carried >= 10_000 && carried < 100_000 && carried < Math.min(c.fast.msgsPerS, c.small.msgsPerS);
        }),
        "a few tens of thousands of messages a second with no limit set, well below loopback's rates",
        "the emulator carrying 10,000-100,000 of the faster codec's messages a second with no limit, below both codecs' loopback rates, on every payload",
      ),
    "fill-small-medium": () => {
      const v = steps().filter((r) => r.payload !== "large");
      return `${pcts(v.flatMap((r) => [r.fast, r.small]))} of the nominal rate at ${mbit(lo(v.map((r) => r.kbps)))} to ${mbit(hi(v.map((r) => r.kbps)))} Mbit/s`;
    },
    "fill-large": () => {
      const large = steps().filter((r) => r.payload === "large");
      const rates = [...new Set(large.map((r) => r.kbps))].sort((a, b) => b - a);
      const at = (kbps: number) => pcts(large.filter((r) => r.kbps === kbps).flatMap((r) => [r.fast, r.small]));
      return list(rates.map((kbps, i) => `${at(kbps)} at ${mbit(kbps)}${i === 0 ? " Mbit/s" : ""}`));
    },
    "fill-points": () => {
      const points = steps().map((r) => (r.fast - r.small) * 100);
      return `${Math.round(lo(points))} to ${Math.round(hi(points))}`;
    },
    "fill-less": () =>
      claim(
        smallerFillsLess(),
        "(the smaller frames fill less)",
        "the smaller codec's frames filling less of the link than the faster's on every step",
      ),
    machine: () => {
      const env = machineOf(PROFILES.map(file));
      const bun = new Set(PROFILES.map((l) => sampleResults(file(l)).environment.runtimeVersion));
      return claim(
        bun.size === 1,
        `${env.cores}-core machine (${env.cpu}, Bun ${env.runtimeVersion})`,
        "the three profiles' runs on one version of Bun",
      );
    },
    took: () => list(PROFILES.map((l) => seconds(sampleResults(file(l)).elapsedMs))),
    "profiles-table": () => {
      const rows = PROFILES.flatMap((link) =>
        casesIn(file(link), { mode: "roundtrip" }).map((rt) => {
          const st = one(link, "stream", rt.payload, rt.codec);
          const cells = [
            ...[link, rt.payload, rt.codec, String(rt.bytes)],
            ...[ms(rttP50(rt)), ms(sock(rt).rtt!.p99), `${use(rt).bytesMs.toFixed(2)} ms`],
            ...[whole(st.msgsPerS), heldByText(use(st))],
          ];
          return `| ${cells.join(" | ")} |`;
        }),
      );
      return [
        "| link | payload | codec | bytes | round trip p50 | p99 | on wire | stream msgs/s | held by |",
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- |",
        ...rows,
      ].join("\n");
    },
    "rt-spread": () => share1(hi(rtSpreadsButWifiLarge())),
    "rt-spread-wifi-large": () =>
      claim(
        rtSpread("wifi", "large") > hi(rtSpreadsButWifiLarge()),
        share1(rtSpread("wifi", "large")),
        "wifi's large message as the one where the codecs' median round trips differ most",
      ),
    "rt-links": () => {
      const rtts = PROFILES.map((l) => {
        const values = new Set(casesIn(file(l)).map((c) => sock(c).link!.rttMs));
        if (values.size !== 1) throw new Error(`results/sample/${file(l)}: ${values.size} round trips`);
        return String([...values][0]);
      });
      return `${rtts.slice(0, -1).join(", ")} or ${rtts.at(-1)}`;
    },
    "rt-wire": () => {
      const wire = PROFILES.flatMap((l) => casesIn(file(l), { mode: "roundtrip" })).map((c) => use(c).bytesMs);
      return `${lo(wire).toFixed(2)} to ${hi(wire).toFixed(1)}`;
    },
    "slow-json-more": () =>
      claim(
        slowMore() > 0,
        slowMore().toFixed(1),
        "JSON's large round trip over slow-4g taking longer than custom-binary's",
      ),
    "slow-bytes": () =>
      claim(
        slowWire("json") - slowWire("custom-binary") > 0.75 * slowMore(),
        "almost all of it bytes",
        "the bytes' time on the wire as more than three quarters of what JSON's large round trip over slow-4g costs beyond custom-binary's",
      ),
    "slow-wire": () => {
      return `${slowWire("json").toFixed(2)} against ${slowWire("custom-binary").toFixed(2)}`;
    },
    "mobile-held": () =>
      claim(
        MOBILE.every((l) => streams(l).every((c) => use(c).limit === (c.payload === "large" ? "up" : "window"))),
        "A stream over a mobile link is held by the window, then by the bytes.",
        "every stream over 4g and slow-4g held by the window, but the large message's, held by the way up",
      ),
    "mobile-window": () => {
      const windows = new Set(MOBILE.flatMap((l) => streams(l).map((c) => sock(c).window)));
      if (windows.size !== 1) throw new Error(`the mobile runs' streams have ${windows.size} windows`);
      return String([...windows][0]);
    },
    "mobile-caps": () => {
      const near = (x: number) => Number(x.toPrecision(1)).toLocaleString("en-US");
      const cap = MOBILE.map((l) => {
        const s = sock(streams(l)[0]!);
        return near((s.window * 1000) / s.link!.rttMs);
      });
      return `${cap[0]} and ${cap[1]}`;
    },
    "mobile-small": () =>
      pcts(MOBILE.flatMap((l) => streams(l).filter((c) => c.payload === "small")).map((c) => use(c).windowShare)),
    "mobile-up": () => {
      const up = MOBILE.map((l) => rateText(sock(streams(l)[0]!).link!.upKbps));
      return `${up[0]} (\`4g\`) or ${up[1]} (\`slow-4g\`)`;
    },
    "cb-more-4g": () => cbMore("4g"),
    "cb-rates-4g": () => cbAgainst("4g"),
    "cb-more-slow": () => cbMore("slow-4g"),
    "cb-rates-slow": () => cbAgainst("slow-4g"),
    "wifi-link": () => {
      const l = sock(streams("wifi")[0]!).link!;
      return `${l.upKbps / 1000} Mbit/s up and ${l.downKbps / 1000} down`;
    },
    "wifi-fill": () => {
      const [up, down] = [
        hi(streams("wifi").map((c) => use(c).upShare)),
        hi(streams("wifi").map((c) => use(c).downShare)),
      ];
      return claim(
        up < 1 && down < 1,
        `${pct(up)}% of the way up, ${pct(down)}% of the way down`,
        "wifi's streams filling less than either way of the link",
      );
    },
    "wifi-held": () => {
      const others = streams("wifi")
        .filter((c) => use(c).limit !== "cpu")
        .map((c) => `${c.codec}'s ${c.payload} message at \`${use(c).limit}\`, ${pct(limitShare(use(c)))}% of it`);
      return `\`cpu\`${others.length > 0 ? `; the run puts ${list(others)}` : ""}`;
    },
    "wifi-rate": () => {
      const rates = streams("wifi").map((c) => c.msgsPerS);
      return `${thousands(lo(rates))} to ${thousands(hi(rates))}`;
    },
    "loopback-rate": () => {
      const loopback = sweep().flatMap((c) => [c.fast.msgsPerS, c.small.msgsPerS]);
      return `${thousands(lo(loopback))} to ${thousands(hi(loopback))}`;
    },
    "wifi-ahead": () => {
      const ahead = PAYLOADS.map((p) => largeRate("wifi", "custom-binary", p) / largeRate("wifi", "json", p) - 1);
      return claim(lo(ahead) > 0, pcts(ahead), "custom-binary streaming more than JSON over wifi on every payload");
    },
    "deflate-took": () => seconds(sampleResults(file("4g-deflate")).elapsedMs),
    "deflate-none": () =>
      claim(
        casesIn(file("4g-deflate")).every((c) => sock(c).compressedShare === 0),
        "Bun's client compressed none of its frames",
        "no compressed frame from the client in any case of the --deflate run",
      ),
    "deflate-same-up": () =>
      claim(
        casesIn(file("4g-deflate")).every(
          (c) => sock(c).wireBytes === sock(one("4g", c.mode, c.payload, c.codec)).wireBytes,
        ),
        "so the way up, the one the large messages fill, carried the same bytes",
        "the same frame bytes up in every case with --deflate as without",
      ),
    "deflate-helped": () => {
      const helped = deflatePairs("roundtrip")
        .filter(
          ([plain, deflate]) => Math.round(sock(deflate).replyWireBytes!) < Math.round(sock(plain).replyWireBytes!),
        )
        .map(([c]) => `${c.payload} ${c.codec}`);
      return claim(
        helped.join(", ") === "large json, large msgpackr",
        "helped only JSON and msgpackr on the large message",
        "compression shrinking JSON's and msgpackr's large replies and no other",
      );
    },
    "deflate-shrank": () => `${shrank("large", "json")} bytes, ${shrank("large", "msgpackr")}`,
    "deflate-cost": () =>
      range(
        deflatePairs("roundtrip")
          .filter(([c]) => c.codec === "custom-binary" || c.codec === "protobuf")
          .map(([plain, deflate]) => sock(deflate).replyWireBytes! - sock(plain).replyWireBytes!),
        (x) => String(Math.round(x)),
      ),
    "deflate-cb": () => shrank("large", "custom-binary"),
    "deflate-rtt": () =>
      (
        hi(deflatePairs("roundtrip").map(([plain, deflate]) => Math.abs(rttP50(deflate) - rttP50(plain)))) / 1e6
      ).toFixed(2),
    "deflate-rate": () =>
      share1(hi(deflatePairs("stream").map(([plain, deflate]) => Math.abs(deflate.msgsPerS / plain.msgsPerS - 1)))),
    "knees-took": () => String(Math.round(sampleResults(KNEES).elapsedMs / 60_000)),
    "knees-link": () => {
      const s = kneeLink();
      return `a window of ${s.window} over the round trip (${s.window} / ${s.link!.rttMs} ms, about ${whole(byWindow())} a second) or the way up's ${rateText(s.link!.upKbps)}`;
    },
    "knees-table": () => {
      const rows = PAYLOADS.flatMap((p) =>
        bySize(p).map((codec) => {
          const bytes = sock(kneeCases(p, codec)[0]!).wireBytes;
          const through = byWindow() <= byUp(bytes) ? `${whole(byWindow())} (window)` : `${whole(byUp(bytes))} (up)`;
          return `| ${[p, codec, String(bytes), through, whole(kneeOf(p, codec)), whole(sentAt1000(p, codec))].join(" | ")} |`;
        }),
      );
      return [
        "| payload | codec | frame bytes up | the link lets through | knee | sent at 1,000/s asked |",
        "| --- | --- | --- | --- | --- | --- |",
        ...rows,
      ].join("\n");
    },
    "knees-large-arith": () =>
      claim(
        bySize("large").every(
          (c) => Math.abs(kneeOf("large", c) / byUp(sock(kneeCases("large", c)[0]!).wireBytes) - 1) < 0.2,
        ),
        "the knees are the way up's arithmetic to within the sweep's 20% step",
        "every large-message knee within 20% of what the way up lets through",
      ),
    "knees-sent": () => {
      const large = bySize("large");
      const sent = large.map((c) => sentAt1000("large", c));
      const allowed = large.map((c) => byUp(sock(kneeCases("large", c)[0]!).wireBytes));
      return `${list(sent.map(whole))} a second against ${list(allowed.map(whole))}`;
    },
    "knees-smallest-most": () => {
      const sent = bySize("large").map((c) => sentAt1000("large", c));
      return claim(
        sent.every((x, i) => i === 0 || x < sent[i - 1]!),
        "the smallest frame takes the most messages",
        "the codecs sending more large messages the smaller their frames, asked for 1,000 a second",
      );
    },
    "knees-keeps": () => `${(sentAt1000("large", "custom-binary") / sentAt1000("large", "json")).toFixed(2)}x`,
    "knee-cb": () => {
      const knee = kneeOf("large", "custom-binary");
      const cb = latencyMs(at("large", "custom-binary", knee));
      const rtt = kneeLink().link!.rttMs;
      return `${knee} a second was ${cb} ms (the link's ${rtt} plus ${cb - rtt})`;
    },
    "knee-json": () => {
      const json = at("large", "json", kneeOf("large", "custom-binary"));
      return `${latencyMs(json)} ms, with ${whole(sock(json).late!)} of ${whole(sock(json).sent)}`;
    },
    "knees-window": () => {
      const knee = [...new Set(kneeCodecs().flatMap((c) => ["small", "medium"].map((p) => kneeOf(p as Payload, c))))];
      const rates = [...new Set(kneeCases().map((c) => sock(c).targetRate!))].sort((a, b) => a - b);
      return claim(
        knee.length === 1 && rates[rates.indexOf(1000) - 1] === knee[0],
        `every codec stops at the window, at ${whole(knee[0]!)} a second, the step below 1,000`,
        "one knee for every codec on the small and medium messages, the step below 1,000 a second",
      );
    },
    "knees-in-flight": () => {
      const latencies = kneeCodecs()
        .map((c) => sock(at("small", c, 1000)).latency!.p50)
        .sort((a, b) => a - b);
      if (latencies.length !== 4) throw new Error(`${latencies.length} codecs in the knees' run, not four`);
      const median = (latencies[1]! + latencies[2]!) / 2;
      return `${Math.round((1000 * median) / 1e9)} of the ${kneeLink().window}`;
    },
    "knees-shortest": () =>
      claim(
        bySize("small")[0] === "custom-binary",
        "custom-binary's frames, the shortest on the wire",
        "custom-binary's small frames as the shortest of the knees' run",
      ),
    "knees-late": () => {
      const [cb, json] = [sock(at("small", "custom-binary", 1000)), sock(at("small", "json", 1000))];
      return `${whole(cb.late!)} of ${whole(cb.sent)} sends late (JSON ${whole(json.late!)})`;
    },
    "knees-late-5": () => {
      const cb = sock(at("small", "custom-binary", 1000));
      return claim(
        cb.late! / cb.sent > 0.05,
        "more than the 5% a kept rate allows",
        "custom-binary's small messages more than 5% late at 1,000 a second",
      );
    },
    "knees-below": () => {
      const all = [100, 200].flatMap((rate) => latencySpreads(PAYLOADS, rate));
      const smallMedium = [100, 200].flatMap((rate) => latencySpreads(["small", "medium"], rate));
      return `${share1(hi(all))} of each other at 100 and 200 a second (${share1(hi(smallMedium))} on the small and medium messages)`;
    },
    "knees-json-behind": () => {
      const json = sock(at("large", "json", 500)).latency!.p50;
      return pcts(
        kneeCodecs()
          .filter((c) => c !== "json")
          .map((c) => json / sock(at("large", c, 500)).latency!.p50 - 1),
      );
    },
    "knees-json-fills": () =>
      claim(
        500 / byUp(sock(at("large", "json", 500)).wireBytes) > 0.9,
        "its frames then filling the way up",
        "JSON's large frames at 500 a second filling at least 90% of the way up",
      ),
    "sweep-table": () => {
      const side = (s: Crossover["fast"]) => `${s.codec} ${whole(s.msgsPerS)} msgs/s, ${s.wireBytes} B`;
      const rows = sweep().map((c) => {
        const steps = c.steps.map((r) => `${rateText(r.kbps)}: ${whole(r.fast)} / ${whole(r.small)}`).join("; ");
        const cells = [
          c.payload,
          side(c.fast),
          side(c.small),
          rateText(c.ceilingKbps),
          steps,
          rateText(c.predictedKbps),
        ];
        return `| ${[...cells, c.verdict.replace(/^\w+: /, "")].join(" | ")} |`;
      });
      return [
        "| payload | fast on loopback | small on loopback | emulator carries | steps (fast / small msgs/s) | predicted crossover | verdict |",
        "| --- | --- | --- | --- | --- | --- | --- |",
        ...rows,
      ].join("\n");
    },
    "sweep-who": () => {
      const codecs = (JSON.parse(sampleText("links/sweep.json")) as { settings: { codecs: string[] } }).settings.codecs;
      return claim(
        sweep().every((c) => c.fast.msgsPerS >= c.small.msgsPerS && c.small.wireBytes <= c.fast.wireBytes),
        `${whoIs("fast")} is the fastest of the ${word(codecs.length)} on loopback and ${whoIs("small")} the smallest on every payload`,
        "the sweep's fast codec streaming at least as fast on loopback as its small one, and the small one's frames no larger, on every payload",
      );
    },
    "sweep-apart": () => pcts(sweep().map((c) => c.fast.msgsPerS / c.small.msgsPerS - 1)),
    "sweep-predicted": () => {
      const predicted = sweep().map((c) => c.predictedKbps);
      return `${Math.round(lo(predicted) / 1000)} to ${Math.round(hi(predicted) / 1000)}`;
    },
    "sweep-phones": () => {
      const phones = LINK_PROFILES.filter((p) => ["4g", "slow-4g", "3g"].includes(p.name));
      return claim(
        lo(sweep().map((c) => c.predictedKbps)) > hi(phones.flatMap((p) => [p.downKbps, p.upKbps])),
        "where every link a phone is on lies below",
        "every predicted crossover above the mobile profiles' rates",
      );
    },
    "sweep-cannot": () =>
      claim(
        sweep().every((c) => c.predictedKbps > c.ceilingKbps),
        "cannot carry those rates",
        "every predicted crossover above what the emulator carries",
      ),
    "sweep-ceiling": () => {
      const ceiling = sweep().map((c) => c.ceilingKbps);
      return `${Math.round(lo(ceiling) / 1000)}-${Math.round(hi(ceiling) / 1000)} Mbit/s of ${whoIs("fast")}'s`;
    },
    "sweep-gains": () =>
      claim(
        sweep().every((c) => c.steps.every((r) => r.kbps < c.ceilingKbps)) && lo(gains()) > 0,
        `${whoIs("small")} streams ${pcts(gains())} more messages than ${whoIs("fast")}`,
        "the smaller codec streaming more than the faster on every step, each step below what the emulator carries",
      ),
    "sweep-bytes": () => pcts(sweep().map((c) => c.fast.wireBytes / c.small.wireBytes - 1)),
    "sweep-fills-less": () =>
      claim(
        smallerFillsLess(),
        "fills a smaller share of the link for the smaller frames",
        "the smaller codec's frames filling less of the link than the faster's on every step",
      ),
  },
};
