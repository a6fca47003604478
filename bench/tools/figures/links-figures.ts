/**
 * docs/links.md's figures: the committed link runs under results/sample/links/: the three profiles
 * (wifi.json.gz, 4g.json.gz, slow-4g.json.gz), 4g with --deflate (4g-deflate.json.gz), each codec's knee over 4g
 * (4g-knees.json.gz) and the crossover sweep (sweep.json).
 */

import { LINK_PROFILES, type LinkUse, rateText } from "../../../client/harness/link.ts";
import type { CaseResult } from "../../../client/harness/results.ts";
import type { Crossover, SweepCodec, SweepStep } from "../../report/crossover.ts";
import { caseLinkUse, heldByText } from "../../report/link-use.ts";
import { claim, type PageFigures } from "./figure-spec.ts";
import { hi, list, lo, mdTable, range, seconds, thousands, whole } from "./prose.ts";
import { caseIn, casesIn, machineOf, sampleResults, sampleText } from "./sample-files.ts";

type Payload = CaseResult["payload"];
type Mode = CaseResult["mode"];
const PAYLOADS: Payload[] = ["small", "medium", "large"];
const PROFILES = ["wifi", "4g", "slow-4g"] as const;
const MOBILE = ["4g", "slow-4g"] as const;
type Run = (typeof PROFILES)[number] | "4g-deflate" | "4g-knees";
const file = (run: Run): string => `links/${run}.json.gz`;
const one = (run: Run, mode: Mode, payload: Payload, codec: string) => caseIn(file(run), { mode, payload, codec });
/** A case's twin in another run. */
const twin = (run: Run, c: CaseResult): CaseResult => one(run, c.mode, c.payload, c.codec);
const streams = (run: Run): CaseResult[] => casesIn(file(run), { mode: "stream" });
/** What the link did to a case (a socket case over a link has one). */
const use = (c: CaseResult): LinkUse => caseLinkUse(c)!;
const sock = (c: CaseResult) => c.socket!;
const rttMs = (c: CaseResult): number => sock(c).rtt!.p50 / 1e6;
const p50 = (c: CaseResult): number => sock(c).latency!.p50;
/** custom-binary's stream rate over JSON's on a run's payload, less 1. */
const cbAhead = (run: Run, payload: Payload): number =>
  one(run, "stream", payload, "custom-binary").msgsPerS / one(run, "stream", payload, "json").msgsPerS - 1;
const pct = (x: number): number => Math.round(x * 100);
/** Shares as a range of percentages: "33-54%" (one figure when both ends read the same). */
const pcts = (v: readonly number[]): string => `${range(v, (x) => String(pct(x)))}%`;
const share1 = (x: number): string => `${(x * 100).toFixed(1)}%`;
/** How far apart some values are: the highest over the lowest, less 1. */
const spread = (v: readonly number[]): number => hi(v) / lo(v) - 1;
const rtSpread = (run: Run, payload: Payload): number =>
  spread(casesIn(file(run), { mode: "roundtrip", payload }).map(rttMs));
/** A table's header: its cells, " | " between them. */
const head = (cells: string): string[] => cells.split(" | ");
const ms = (x: number): string => `${x.toFixed(2)} ms`;

// Each codec's knee over 4g.
const KNEES = file("4g-knees");
const kneeCases = (match: { payload?: Payload; codec?: string } = {}) => casesIn(KNEES, { mode: "latency", ...match });
/** A codec's latency case at a rate. */
const at = (payload: Payload, codec: string, rate: number): CaseResult =>
  kneeCases({ payload, codec }).find((c) => sock(c).targetRate === rate)!;
const kneeOf = (payload: Payload, codec: string): number =>
  sampleResults(KNEES).knees!.find((x) => x.payload === payload && x.codec === codec)!.rate;
const kneeCodecs = (): string[] => [...new Set(kneeCases().map((c) => c.codec))];
const frameUp = (payload: Payload, codec: string): number => sock(kneeCases({ payload, codec })[0]!).wireBytes;
/** A payload's codecs, smallest frame first. */
const bySize = (payload: Payload): string[] => kneeCodecs().sort((a, b) => frameUp(payload, a) - frameUp(payload, b));
const kneeLink = () => sock(kneeCases()[0]!);
/** What the way up lets through a second for a frame of this many bytes; and the window over the round trip. */
const byUp = (wireBytes: number): number => (kneeLink().link!.upKbps * 1000) / (8 * wireBytes);
const byWindow = (): number => (kneeLink().window * 1000) / kneeLink().link!.rttMs;
const sentAt1000 = (payload: Payload, codec: string): number => sock(at(payload, codec, 1000)).achievedRate!;
const latencyMs = (c: CaseResult): number => Math.round(p50(c) / 1e6);
/** How far apart the codecs' median latencies were on a payload at a rate. */
const latencySpread = (p: Payload, rate: number) => spread(kneeCodecs().map((c) => p50(at(p, c, rate))));

// The crossover sweep.
/** The sweep's crossovers, a payload each (sweep.json as bench/cli/link-sweep.ts writes it). */
const sweep = (): Crossover[] => (JSON.parse(sampleText("links/sweep.json")) as { crossovers: Crossover[] }).crossovers;
/** The share of a step's nominal rate a codec's frames filled: msgs/s x frame bytes x 8 / rate. */
const fill = (c: Crossover, r: SweepStep, side: "fast" | "small"): number =>
  (r[side] * c[side].wireBytes * 8) / (r.kbps * 1000);
const steps = () => sweep().flatMap((c) => c.steps.map((r) => ({ c, r })));

export const LINKS: PageFigures = {
  page: "docs/links.md",
  figures: {
    "emulator-pace": () => {
      const carried = sweep().map((c) => ({ c, n: (c.ceilingKbps * 1000) / (8 * c.fast.wireBytes) }));
      return claim(
        carried.every(({ c, n }) => n >= 10_000 && n < 100_000 && n < Math.min(c.fast.msgsPerS, c.small.msgsPerS)),
        "a few tens of thousands of messages a second with no limit set, well below loopback's rates",
        "the emulator carrying 10,000-100,000 of the faster codec's messages a second with no limit, below both codecs' loopback rates",
      );
    },
    fill: () => {
      const shares = steps().map(({ c, r }) => [fill(c, r, "fast"), fill(c, r, "small")]);
      const less = shares.filter(([fast, small]) => small! < fast!).length;
      return claim(
        less > shares.length / 2,
        `${pcts(shares.flat())} of the nominal rate (each step's share is in the sweep's table below), the smaller frames less${less < shares.length ? ` on ${less} of ${shares.length} steps` : ""}`,
        "the smaller codec's frames filling less of the link than the faster's on most steps",
      );
    },
    machine: () => {
      const env = machineOf(PROFILES.map(file));
      return `${env.cores}-core machine (${env.cpu}, Bun ${env.runtimeVersion})`;
    },
    took: () => list(PROFILES.map((l) => seconds(sampleResults(file(l)).elapsedMs))),
    "profiles-table": () =>
      mdTable(
        head("link | payload | codec | bytes | round trip p50 | p99 | on wire | stream msgs/s | held by"),
        PROFILES.flatMap((link) =>
          casesIn(file(link), { mode: "roundtrip" }).map((rt) => {
            const st = one(link, "stream", rt.payload, rt.codec);
            const rtt = [ms(rttMs(rt)), ms(sock(rt).rtt!.p99 / 1e6), ms(use(rt).bytesMs)];
            return [link, rt.payload, rt.codec, String(rt.bytes), ...rtt, whole(st.msgsPerS), heldByText(use(st))];
          }),
        ),
      ),
    "rt-spread": () => share1(hi(PROFILES.flatMap((l) => PAYLOADS.map((payload) => rtSpread(l, payload))))),
    "slow-large": () => {
      const [jc, cc] = ["json", "custom-binary"].map((codec) => one("slow-4g", "roundtrip", "large", codec));
      const [json, cb, more] = [use(jc!), use(cc!), rttMs(jc!) - rttMs(cc!)];
      return claim(
        more > 0 && json.bytesMs - cb.bytesMs > 0.75 * more,
        `the large message's JSON costs ${more.toFixed(1)} ms more per round trip than custom-binary's, almost all of it bytes (${json.bytesMs.toFixed(2)} against ${cb.bytesMs.toFixed(2)} ms on the wire)`,
        "JSON's large round trip over slow-4g longer than custom-binary's, more than three quarters of it the bytes' time on the wire",
      );
    },
    mobile: () => {
      const [s4g, slow] = MOBILE.map((l) => sock(streams(l)[0]!));
      const near = (s = s4g!) => Number(((s.window * 1000) / s.link!.rttMs).toPrecision(1)).toLocaleString("en-US");
      const more = MOBILE.map((l) => cbAhead(l, "large"));
      const held = MOBILE.flatMap(streams).every((c) => use(c).limit === (c.payload === "large" ? "up" : "window"));
      return claim(
        held && lo(more) > 0 && s4g!.window === slow!.window,
        `A stream over a mobile link is held by the window, then by the bytes.** Over \`4g\` and \`slow-4g\` a window of ${s4g!.window} over the round trip caps every codec near ${near(s4g)} and ${near(slow)} messages a second (each stream's share of it is its \`held by\`). The large messages fill the way up instead, and there the stream's rate follows the bytes: custom-binary carries ${list(more.map((x) => `${pct(x)}%`))}`,
        "every stream over 4g and slow-4g held by the window, the large message's by the way up; one window; custom-binary streaming more large messages than JSON over both",
      );
    },
    "wifi-fill": () => {
      const [up, down] = (["upShare", "downShare"] as const).map((way) => hi(streams("wifi").map((c) => use(c)[way])));
      const wifi = streams("wifi").map((c) => c.msgsPerS);
      const loopback = sweep().flatMap((c) => [c.fast.msgsPerS, c.small.msgsPerS]);
      const ahead = PAYLOADS.map((p) => cbAhead("wifi", p));
      return claim(
        up! < 1 && down! < 1 && lo(ahead) > 0,
        `(at most ${pct(up!)}% of the way up, ${pct(down!)}% of the way down); what holds them, where the table says \`cpu\`, is the proxy's own work on the same two cores: about ${thousands(lo(wifi))} to ${thousands(hi(wifi))} messages a second through it, where the sweep's loopback runs below carried ${thousands(lo(loopback))} to ${thousands(hi(loopback))}. Even so the codecs' order is the CPU's: custom-binary ${pcts(ahead)} ahead of JSON`,
        "wifi's streams filling less than either way of the link, and custom-binary streaming more than JSON over wifi on every payload",
      );
    },
    "deflate-took": () => seconds(sampleResults(file("4g-deflate")).elapsedMs),
    deflate: () => {
      const moved = (mode: Mode, by: (plain: CaseResult, deflate: CaseResult) => number) =>
        hi(casesIn(file("4g"), { mode }).map((c) => Math.abs(by(c, twin("4g-deflate", c)))));
      const rt = moved("roundtrip", (a, b) => rttMs(b) - rttMs(a));
      const stream = moved("stream", (a, b) => b.msgsPerS / a.msgsPerS - 1);
      const same = (c: CaseResult) => sock(c).wireBytes === sock(twin("4g", c)).wireBytes;
      const up = casesIn(file("4g-deflate")).every((c) => sock(c).compressedShare === 0 && same(c));
      const reply = (c: CaseResult) => Math.round(sock(c).replyWireBytes!);
      const helped = casesIn(file("4g"), { mode: "roundtrip" }).filter((c) => reply(twin("4g-deflate", c)) < reply(c));
      const only = helped.map((c) => `${c.payload} ${c.codec}`).join() === "large json,large msgpackr";
      // The stream case that moved most, named where it moved more than a user would shrug off.
      const most = casesIn(file("4g"), { mode: "stream" }).reduce((a, b) =>
        Math.abs(twin("4g-deflate", b).msgsPerS / b.msgsPerS - 1) >
        Math.abs(twin("4g-deflate", a).msgsPerS / a.msgsPerS - 1)
          ? b
          : a,
      );
      const moves =
        stream < 0.02
          ? `nothing changed that a user would see. Round trips moved by at most ${rt.toFixed(2)} ms and stream rates by at most ${share1(stream)}, both ways.`
          : `the round trips did not change (by at most ${rt.toFixed(2)} ms either way); stream rates moved by up to ${share1(stream)} (${most.codec} on the ${most.payload} message, ${whole(most.msgsPerS)} to ${whole(twin("4g-deflate", most).msgsPerS)}/s).`;
      return claim(
        rt < 1 && up && only,
        `${moves} Bun's client compressed none of its frames, so the way up, the one the large messages fill, carried the same bytes; the server compressed its replies, which helped only JSON and msgpackr on the large message`,
        "round trips within 1 ms with --deflate, no compressed frame and the same bytes up, and only JSON's and msgpackr's large replies shrinking",
      );
    },
    "deflate-table": () =>
      mdTable(
        head("payload | codec | reply bytes | deflated | round trip p50 | deflated | stream msgs/s | deflated"),
        casesIn(file("4g"), { mode: "roundtrip" }).map((c) => {
          const both = (of: (run: Run) => string) => [of("4g"), of("4g-deflate")];
          const reply = (run: Run) => whole(sock(twin(run, c)).replyWireBytes!);
          const streamed = (run: Run) => whole(one(run, "stream", c.payload, c.codec).msgsPerS);
          return [c.payload, c.codec, ...both(reply), ...both((run) => ms(rttMs(twin(run, c)))), ...both(streamed)];
        }),
      ),
    "knees-took": () => String(Math.round(sampleResults(KNEES).elapsedMs / 60_000)),
    "knees-table": () =>
      mdTable(
        head("payload | codec | frame bytes up | the link lets through | knee | sent at 1,000/s asked"),
        PAYLOADS.flatMap((p) =>
          bySize(p).map((codec) => {
            const up = byUp(frameUp(p, codec));
            const through = byWindow() <= up ? `${whole(byWindow())} (window)` : `${whole(up)} (up)`;
            return [p, codec, String(frameUp(p, codec)), through, whole(kneeOf(p, codec)), whole(sentAt1000(p, codec))];
          }),
        ),
      ),
    "knees-large": () => {
      const near = (c: string, x: number, within: number) => Math.abs(x / byUp(frameUp("large", c)) - 1) < within;
      const sent = bySize("large").map((c) => sentAt1000("large", c));
      const knee = kneeOf("large", "custom-binary");
      const [cb, json] = [at("large", "custom-binary", knee), at("large", "json", knee)];
      const rtt = kneeLink().link!.rttMs;
      return claim(
        bySize("large").every((c, i) => near(c, kneeOf("large", c), 0.2) && near(c, sent[i]!, 0.05)) &&
          sent.every((x, i) => i === 0 || x < sent[i - 1]!),
        `the knees are the way up's arithmetic to within the sweep's 20% step, and asked for more, each codec sent what its bytes allow: over a mobile uplink the smallest frame takes the most messages, and custom-binary keeps ${(sentAt1000("large", "custom-binary") / sentAt1000("large", "json")).toFixed(2)}x JSON's rate. Its median latency at ${knee} a second was ${latencyMs(cb)} ms (the link's ${rtt} plus ${latencyMs(cb) - rtt}); JSON's, asked the same, ${latencyMs(json)} ms, with ${whole(sock(json).late!)} of ${whole(sock(json).sent)} sends late`,
        "every large-message knee within 20% of what the way up lets through, each codec sending within 5% of it asked for 1,000 a second, the smaller frames the more",
      );
    },
    "knees-window": () => {
      const pairs = kneeCodecs().flatMap((c) =>
        (["small", "medium"] as const).map((p) => ({ p, c, rate: kneeOf(p, c) })),
      );
      const rates = [...new Set(kneeCases().map((c) => sock(c).targetRate!))].sort((a, b) => a - b);
      const below = rates[rates.indexOf(1000) - 1]!;
      // The codecs that kept 1,000 a second, where the window let a step more through.
      const beyond = pairs.filter((x) => x.rate !== below);
      const inFlight = kneeCodecs().reduce((sum, c) => sum + p50(at("small", c, 1000)), 0) / kneeCodecs().length / 1e6;
      const shortest = bySize("small")[0]!;
      const [s, json] = [sock(at("small", shortest, 1000)), sock(at("small", "json", 1000))];
      const lateShare = s.late! / s.sent;
      return claim(
        beyond.length < pairs.length / 2 && beyond.every((x) => x.rate === 1000),
        `${beyond.length === 0 ? "every codec stops" : "the codecs stop"} at the window, at ${whole(below)} a second, the step below 1,000${beyond.length > 0 ? ` (${list(beyond.map((x) => `${x.c} on the ${x.p} message at 1,000`))})` : ""}: at 1,000 a second about ${Math.round(inFlight)} of the ${kneeLink().window} allowed are in flight, and ${shortest}'s frames, the shortest on the wire, left ${whole(s.late!)} of ${whole(s.sent)} sends late (JSON ${whole(json.late!)}), ${lateShare > 0.05 ? "more than" : "within"} the 5% a kept rate allows`,
        "most codecs' knee on the small and medium messages the step below 1,000 a second, the rest at 1,000",
      );
    },
    "knees-below": () => share1(hi([100, 200].flatMap((rate) => PAYLOADS.map((p) => latencySpread(p, rate))))),
    "knees-json-behind": () => {
      const json = at("large", "json", 500);
      const behind = kneeCodecs().flatMap((c) => (c === "json" ? [] : [p50(json) / p50(at("large", c, 500)) - 1]));
      return claim(
        lo(behind) > 0 && 500 / byUp(sock(json).wireBytes) > 0.9,
        `JSON's large message is ${pcts(behind)} behind the others', its frames then filling the way up`,
        "JSON's large message slower than every other codec's at 500 a second, its frames filling at least 90% of the way up",
      );
    },
    "sweep-table": () => {
      const side = (s: SweepCodec) => `${s.codec} ${whole(s.msgsPerS)} msgs/s, ${s.wireBytes} B`;
      const rate = (c: Crossover, r: SweepStep, side: "fast" | "small") =>
        `${whole(r[side])} (${pct(fill(c, r, side))}%)`;
      return mdTable(
        head(
          "payload | fast on loopback | small on loopback | emulator carries | steps: fast / small msgs/s (share of the link) | predicted crossover | verdict",
        ),
        sweep().map((c) => {
          const steps = c.steps.map((r) => `${rateText(r.kbps)}: ${rate(c, r, "fast")} / ${rate(c, r, "small")}`);
          const cells = [c.payload, side(c.fast), side(c.small), rateText(c.ceilingKbps), steps.join("; ")];
          return [...cells, rateText(c.predictedKbps), c.verdict.replace(/^\w+: /, "")];
        }),
      );
    },
    "sweep-predicted": () => {
      const predicted = sweep().map((c) => c.predictedKbps);
      const mobile = LINK_PROFILES.filter((p) => ["4g", "slow-4g", "3g"].includes(p.name));
      return claim(
        lo(predicted) > hi(mobile.flatMap((p) => [p.downKbps, p.upKbps])) &&
          sweep().every((c) => c.predictedKbps > c.ceilingKbps),
        `${pcts(sweep().map((c) => c.fast.msgsPerS / c.small.msgsPerS - 1))} of each other, so the arithmetic puts the crossover high: ${Math.round(lo(predicted) / 1000)} to ${Math.round(hi(predicted) / 1000)} Mbit/s, above every link a phone is on and above what the emulator carries here`,
        "every predicted crossover above the mobile profiles' rates and above what the emulator carries",
      );
    },
    "sweep-gains": () => {
      const [fast, small] = (["fast", "small"] as const).map((side) => [...new Set(sweep().map((c) => c[side].codec))]);
      const gains = steps().map(({ r }) => r.small / r.fast - 1);
      const below = steps().every(({ c, r }) => r.kbps < c.ceilingKbps);
      return claim(
        fast!.length === 1 && small!.length === 1 && below && lo(gains) > 0,
        `${small![0]} streams ${pcts(gains)} more messages than ${fast![0] === "json" ? "JSON" : fast![0]}, against the ${pcts(sweep().map((c) => c.fast.wireBytes / c.small.wireBytes - 1))} more its bytes alone would give`,
        "one fast and one small codec in the sweep, the smaller streaming more than the faster on every step below what the emulator carries",
      );
    },
  },
};
