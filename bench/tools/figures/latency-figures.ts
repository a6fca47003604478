/**
 * docs/latency.md's figures: the latency runs at 2,000 messages/s (epyc-latency-2000.json.gz) and on
 * the large message at 10,000 and 40,000 (epyc-latency-large-{10000,40000}.json.gz), the three
 * back-to-back sweeps (epyc-sweep-{1,2,3}.json.gz: their knees, and the first's CPU and memory), and
 * Chromium at 1,000 and 5,000 (chromium-latency.json.gz).
 */

import type { CaseResult } from "../../../client/harness/results.ts";
import { claim, type PageFigures } from "./figure-spec.ts";
import { fixed, hi, list, lo, ordinal, range, seconds, whole, word } from "./prose.ts";
import { casesIn, machineOf, sampleResults } from "./sample-files.ts";

const AT_2000 = "epyc-latency-2000.json.gz";
const AT_10000 = "epyc-latency-large-10000.json.gz";
const AT_40000 = "epyc-latency-large-40000.json.gz";
const CHROMIUM = "chromium-latency.json.gz";
const SWEEPS = ["epyc-sweep-1.json.gz", "epyc-sweep-2.json.gz", "epyc-sweep-3.json.gz"];
const PAYLOADS = ["small", "medium", "large"] as const;
/** The rates the CPU and memory table shows, of those the first sweep ran. */
const TABLE_RATES = [1000, 5000, 20_000, 50_000, 100_000];
/** A knee "came within 25%" across the sweeps when the highest is at most this over the lowest. */
const STEADY = 1.25;
const MESSAGEPACK = ["msgpack", "msgpackr", "msgpackr-records"];

const BELOW = "below-rate";
const short = (c: CaseResult): boolean => c.flags.includes(BELOW);
const latencyCases = (file: string): CaseResult[] => casesIn(file, { mode: "latency" });
/** A file's latency cases of the codecs, or of raw. */
const codecs = (file: string): CaseResult[] => latencyCases(file).filter((c) => c.codec !== "raw");
const raws = (file: string): CaseResult[] => latencyCases(file).filter((c) => c.codec === "raw");
const rateOf = (c: CaseResult): number => c.socket!.targetRate!;
const achieved = (c: CaseResult): number => c.socket!.achievedRate!;
const late = (c: CaseResult): number => c.socket!.late!;
const sent = (c: CaseResult): number => c.socket!.sent;
const p50 = (c: CaseResult): number => c.socket!.latency!.p50;
const p99 = (c: CaseResult): number => c.socket!.latency!.p99;
const serviceP50 = (c: CaseResult): number => c.socket!.serviceTime!.p50;
const serviceP99 = (c: CaseResult): number => c.socket!.serviceTime!.p99;
/** Nanoseconds as the page writes them: whole µs, ms to one decimal. */
const us = (ns: number): string => (ns / 1000).toFixed(0);
const ms = (ns: number): string => (ns / 1e6).toFixed(1);

/** The one rate a file's cases asked, as the page writes it. */
const onlyRate = (file: string): string => {
  const rates = new Set(latencyCases(file).map(rateOf));
  return claim(rates.size === 1, whole([...rates][0]!), `one rate asked in ${file}`);
};
/** What every case of a file sent, as the page writes it ("6,000"). */
const sentEach = (file: string): string => {
  const counts = new Set(latencyCases(file).map(sent));
  return claim(counts.size === 1, whole([...counts][0]!), `every case of ${file} sending as many messages`);
};

/** A codec as the page names it in prose: JSON, `raw`, the others by their names. */
const named = (codec: string): string => (codec === "json" ? "JSON" : codec === "raw" ? "`raw`" : codec);
/** A codec's possessive as the page writes it: JSON's, msgpackr-records', `raw`'s. */
const whose = (codec: string): string => (codec.endsWith("s") ? `${named(codec)}'` : `${named(codec)}'s`);
/** How many times, as the page writes it: once, twice, 3 times. */
const times = (n: number): string => ["", "once", "twice"][n] ?? `${n} times`;
/** Codecs' possessives as a sentence lists them; all three MessagePack codecs among them are "the three MessagePack codecs'", in the place of the first. */
const theirs = (names: readonly string[]): string => {
  const together = MESSAGEPACK.every((c) => names.includes(c));
  const first = names.find((c) => MESSAGEPACK.includes(c));
  return list(
    names.flatMap((c) =>
      !together || !MESSAGEPACK.includes(c) ? [whose(c)] : c === first ? ["the three MessagePack codecs'"] : [],
    ),
  );
};

/** The codecs (and raw) the first sweep ran on a payload, in its order. */
const codecsOf = (payload: string): string[] => [
  ...new Set(
    latencyCases(SWEEPS[0]!)
      .filter((c) => c.payload === payload)
      .map((c) => c.codec),
  ),
];
/** A codec's knee on a payload in each of the three sweeps. */
const knees = (payload: string, codec: string): number[] =>
  SWEEPS.map((file) => {
    const k = sampleResults(file).knees?.find((x) => x.client === "bun" && x.payload === payload && x.codec === codec);
    if (k === undefined) throw new Error(`results/sample/${file} has no knee of ${payload} ${codec}`);
    return k.rate;
  });
/** How far a codec's knee moved across the sweeps: the highest over the lowest. */
const moved = (payload: string, codec: string): number => hi(knees(payload, codec)) / lo(knees(payload, codec));
/** The lowest and highest knee, as the page writes them: "60,000 to 84,000". */
const kneeSpan = (payload: string, codec: string): string =>
  `${whole(lo(knees(payload, codec)))} to ${whole(hi(knees(payload, codec)))}`;
const steady = (payload: string): string[] => codecsOf(payload).filter((c) => moved(payload, c) <= STEADY);
const unsteady = (payload: string): string[] => codecsOf(payload).filter((c) => moved(payload, c) > STEADY);
/**
 * Codecs' possessives with their knees' spans: codecs whose knees spanned the same rates share one
 * span, "each", after the last of them ("json-bytes', protobuf's (60,000 to 84,000 each) and
 * custom-binary's (71,000 to 100,000)").
 */
const spanned = (payload: string, names: readonly string[]): string => {
  const groups = new Map<string, string[]>();
  for (const c of names) groups.set(kneeSpan(payload, c), [...(groups.get(kneeSpan(payload, c)) ?? []), c]);
  return list(
    [...groups].flatMap(([s, group]) =>
      group.map((c, i) => (i < group.length - 1 ? whose(c) : `${whose(c)} (${s}${group.length > 1 ? " each" : ""})`)),
    ),
  );
};
/** The ladder's top: the highest rate a sweep asks. */
const top = (): number => hi(SWEEPS.flatMap((f) => latencyCases(f).map(rateOf)));
/** The widest move of a knee across the sweeps (the first of the widest, payload by payload in the sweep's order). */
const widest = () =>
  PAYLOADS.flatMap((p) => codecsOf(p).map((c) => ({ p, c, x: moved(p, c) }))).reduce((a, b) => (b.x > a.x ? b : a));
/** Each sweep's highest knee of the codecs (not raw) on the large message. */
const bestLarge = (): number[] => {
  const names = codecsOf("large").filter((c) => c !== "raw");
  return SWEEPS.map((_, i) => hi(names.map((c) => knees("large", c)[i]!)));
};
/** The codecs at the highest knee on the large message in every sweep. */
const leaders = (): string[] =>
  codecsOf("large")
    .filter((c) => c !== "raw")
    .filter((c) => knees("large", c).every((k, i) => k === bestLarge()[i]));
/** How raw's knee went on a payload across the sweeps, as the page writes it. */
const rawCourse = (payload: string): string => {
  const k = knees(payload, "raw");
  return k.every((x) => x === top())
    ? "stayed at the ladder's top"
    : k[0]! < top() && k.slice(1).every((x) => x === top())
      ? `rose from ${whole(k[0]!)} to the ladder's top`
      : `went ${list(k.map(whole))}`;
};

/** The first sweep's codec cases (not raw) at a rate. */
const sweepAt = (rate: number): CaseResult[] => codecs(SWEEPS[0]!).filter((c) => rateOf(c) === rate);
const serverCpuUs = (c: CaseResult): number => c.socket!.serverCpuNsPerMsg! / 1000;
/** The server's CPU as a share of a core, in percent. */
const serverShare = (c: CaseResult): number => (100 * c.socket!.serverCpuNsPerMsg! * achieved(c)) / 1e9;
/** The large message's codec cases (not raw) of the first sweep at 20,000/s. */
const large20k = (): CaseResult[] => {
  const found = sweepAt(20_000).filter((c) => c.payload === "large");
  if (found.length === 0)
    throw new Error(`results/sample/${SWEEPS[0]} has no codec case of the large message at 20,000/s`);
  return found;
};
const serverCodecNs = (c: CaseResult): number => c.socket!.field!.codecNs.median;

/** Chromium's codec cases (not raw) at a rate. */
const chromiumAt = (rate: number): CaseResult[] => codecs(CHROMIUM).filter((c) => rateOf(c) === rate);
/** Bun's client in the first sweep at 1,000/s, the codecs. */
const bunAt1000 = (): CaseResult[] => sweepAt(1000);

export const LATENCY: PageFigures = {
  page: "docs/latency.md",
  figures: {
    "machine-2000": () => {
      const m = machineOf([AT_2000]);
      return `${m.cpu}, ${m.cores} cores`;
    },
    "rate-2000": () => onlyRate(AT_2000),
    "kept-2000": () =>
      claim(
        !codecs(AT_2000).some(short),
        "every codec kept the rate",
        `every codec keeping the rate in ${AT_2000} (none flagged ${BELOW})`,
      ),
    "achieved-2000": () => range(latencyCases(AT_2000).map(achieved), whole),
    "late-2000": () => whole(hi(latencyCases(AT_2000).map(late))),
    "sent-2000": () => sentEach(AT_2000),
    "p50-2000": () => `${range(codecs(AT_2000).map(p50), us)} µs`,
    "p50-2000-raw": () => `${range(raws(AT_2000).map(p50), us)} µs`,
    "p99-2000": () => `${range(codecs(AT_2000).map(p99), ms)} ms`,
    "rate-10000": () => onlyRate(AT_10000),
    "keep-10000": () => {
      const all = codecs(AT_10000);
      const kept = all.filter((c) => !short(c)).map((c) => named(c.codec));
      const fell = all.filter(short);
      const rate = rateOf(all[0]!);
      const got = fell.map(achieved);
      // "Just short" while every codec that fell short still sent 95% of the rate or more.
      const just = got.every((a) => a >= 0.95 * rate) ? "just short" : "short";
      const keep = kept.length === 0 ? "none keeps up" : `${list(kept)} keep${kept.length === 1 ? "s" : ""} up`;
      if (fell.length === 0) return keep;
      return `${keep} and ${list(fell.map((c) => named(c.codec)))} ${fell.length === 1 ? "falls" : "fall"} ${just} (${range(got, whole)} achieved, flagged \`${BELOW}\`)`;
    },
    "count-10000": () => word(latencyCases(AT_10000).length),
    "late-10000": () => range(latencyCases(AT_10000).map(late), whole),
    "sent-10000": () => sentEach(AT_10000),
    "p99-10000": () => `${range(codecs(AT_10000).map(p99), ms)} ms`,
    "rate-40000": () => onlyRate(AT_40000),
    "none-40000": () => claim(codecs(AT_40000).every(short), "none does", `every codec at 40,000/s flagged ${BELOW}`),
    "achieved-40000": () => range(codecs(AT_40000).map(achieved), whole),
    "all-flagged-40000": () =>
      claim(
        latencyCases(AT_40000).every(short),
        `all flagged \`${BELOW}\`, and \`raw\` too`,
        `every case at 40,000/s, raw's too, flagged ${BELOW}`,
      ),
    "p99-40000": () => `${range(codecs(AT_40000).map(p99), ms)} ms`,
    "most-40000": () => `${hi(codecs(AT_40000).map((c) => p99(c) / serviceP99(c))).toFixed(2)}x`,
    "service-40000": () => `${range(codecs(AT_40000).map(serviceP99), ms)} ms`,
    "late-40000": () => range(codecs(AT_40000).map(late), whole),
    "sent-40000": () => sentEach(AT_40000),
    "sweep-took": () =>
      range(
        SWEEPS.map((f) => sampleResults(f).elapsedMs),
        seconds,
      ),
    "sweep-machine": () => machineOf(SWEEPS).cpu,
    "sweeps-machine": () => machineOf(SWEEPS).cpu,
    top: () => whole(top()),
    "small-knees": () => {
      const missed = codecsOf("small").flatMap((c) => {
        const below = knees("small", c).filter((k) => k < top());
        return below.length === 0 ? [] : [`${named(c)} ${times(below.length)} (${list(below.map(whole))})`];
      });
      return `all three${missed.length === 0 ? "" : ` but ${list(missed)}`}`;
    },
    "ladder-ran-out": () =>
      claim(
        codecsOf("small").every((c) => knees("small", c).includes(top())),
        "there the ladder ran out before the codecs did",
        "every codec and raw at the ladder's top on the small message in at least one sweep",
      ),
    "medium-steady": () =>
      unsteady("medium").length === 0
        ? "On the medium message every knee came within 25% across the three sweeps"
        : steady("medium").length === 0
          ? `On the medium message no knee came within 25% across the three sweeps: ${spanned("medium", unsteady("medium"))}`
          : `On the medium message ${theirs(steady("medium"))} knees came within 25% across the three sweeps, ${spanned("medium", unsteady("medium"))} did not`,
    "large-steady": () => {
      const large = steady("large");
      if (large.length === 0) return "none did";
      if (large.length < codecsOf("large").length) return `only ${spanned("large", large)} did`;
      return unsteady("medium").length === 0 ? "all did too" : "all did";
    },
    "large-rose": () => {
      const names = codecsOf("large");
      const rose = names.filter((c) => knees("large", c)[1]! > knees("large", c)[0]!);
      return rose.length === names.length
        ? "every knee rose"
        : rose.length === 0
          ? "no knee rose"
          : `${theirs(rose)} knees rose`;
    },
    "large-again": () => {
      const again = codecsOf("large").filter((c) => knees("large", c)[2]! > knees("large", c)[1]!);
      return again.length === 0 ? "none" : theirs(again);
    },
    "large-fell": () => {
      const fell = codecsOf("large").filter((c) => knees("large", c)[2]! < knees("large", c)[1]!);
      return fell.length === 0 ? "none" : theirs(fell);
    },
    "raw-course": () => {
      const [medium, large] = [rawCourse("medium"), rawCourse("large")];
      return medium === large
        ? `${medium} on the medium and the large message alike`
        : `${medium} on the medium message and ${large} on the large`;
    },
    cores: () => `${machineOf(SWEEPS).cores}-core`,
    "ten-minutes": () => {
      const first = sampleResults(SWEEPS[0]!);
      const last = sampleResults(SWEEPS.at(-1)!);
      const took = Date.parse(last.timestamp) + last.elapsedMs - Date.parse(first.timestamp);
      return claim(
        took <= 10 * 60_000,
        "within ten minutes",
        "the three sweeps, first start to last end, within ten minutes",
      );
    },
    widest: () => {
      const w = widest();
      return `${w.x.toFixed(1)}x (${named(w.c)} on the ${w.p} message, ${kneeSpan(w.p, w.c)})`;
    },
    "one-step": () => {
      const w = widest();
      const [low, high] = [lo(knees(w.p, w.c)), hi(knees(w.p, w.c))];
      const between = SWEEPS.flatMap((f) => latencyCases(f))
        .filter((c) => c.payload === w.p && c.codec === w.c)
        .map(rateOf)
        .filter((r) => r > low && r < high);
      return claim(
        between.length === 0,
        "one step of the ladder",
        `no rate any sweep ran ${w.c} on the ${w.p} message at between its lowest and highest knee`,
      );
    },
    leader: () => {
      const found = leaders();
      return claim(
        found.length > 0,
        named(found[0] ?? ""),
        `a codec at the highest knee of the codecs on the large message in every sweep (highest: ${bestLarge().join(", ")})`,
      );
    },
    "leader-knees": () => {
      const best = bestLarge();
      const leader = leaders()[0];
      const matched = codecsOf("large")
        .filter((c) => c !== "raw" && c !== leader)
        .map((c) => ({ c, at: SWEEPS.map((_, i) => i).filter((i) => knees("large", c)[i] === best[i]) }))
        .filter((m) => m.at.length > 0);
      const also = matched
        .map((m) => `${named(m.c)} matched it in the ${list(m.at.map((i) => ordinal(i + 1)))}`)
        .join("; ");
      return `${list(best.map(whole))}${also ? `; ${also}` : ""}`;
    },
    "sweep-first-machine": () => machineOf([SWEEPS[0]!]).cpu,
    "cpu-table": () => {
      const span = (values: number[], unit: string): string => `${range(values, fixed(0))}${unit}`;
      const rows = TABLE_RATES.map((rate) => {
        const at = sweepAt(rate);
        if (at.length === 0) throw new Error(`results/sample/${SWEEPS[0]} has no codec case at ${whole(rate)}/s`);
        return `| ${whole(rate)} | ${[
          span(at.map(serverCpuUs), " µs"),
          span(at.map(serverShare), "%"),
          span(
            at.map((c) => c.socket!.clientBusyNsPerMsg! / 1000),
            " µs",
          ),
          span(
            at.map((c) => c.socket!.serverRssPeakBytes! / 2 ** 20),
            " MiB",
          ),
        ].join(" | ")} |`;
      });
      return [
        "| rate (msgs/s) | server CPU per message | server CPU share of a core | client busy per message | server RSS |",
        "| --- | --- | --- | --- | --- |",
        ...rows,
      ].join("\n");
    },
    "cpu-falls": () => {
      const per = TABLE_RATES.map((r) => sweepAt(r).map(serverCpuUs));
      const falls = per.every((v, i) => i === 0 || (lo(v) < lo(per[i - 1]!) && hi(v) < hi(per[i - 1]!)));
      return claim(
        falls,
        "the server's CPU falls as the rate rises",
        "the least and the most server CPU per message both falling from each rate of the table to the next",
      );
    },
    "codec-small-part": () => {
      const most = hi(large20k().map(serverCodecNs)) / 1000;
      return claim(
        most < lo(large20k().map(serverCpuUs)) / 2,
        "the codec is a small part of it",
        "the server's encode + decode of the large message at 20,000/s under half its least CPU per message",
      );
    },
    "codec-20000": () => {
      const byCodec = [...large20k()].sort((a, b) => serverCodecNs(a) - serverCodecNs(b));
      const [least, most] = [byCodec[0]!, byCodec.at(-1)!];
      const us1 = (c: CaseResult) => (serverCodecNs(c) / 1000).toFixed(1);
      return `${us1(least)} µs (${least.codec}) to ${us1(most)} µs (${most.codec}) of ${range(large20k().map(serverCpuUs), fixed(0))} µs`;
    },
    "not-full-core": () =>
      claim(
        codecs(SWEEPS[0]!).every((c) => serverShare(c) < 100 && c.socket!.clientBusyNsPerMsg! * achieved(c) < 1e9),
        "Neither side is at a full core when the knee comes",
        "the server's CPU and the client's busy time each under a full core at every rate of the first sweep",
      ),
    "chromium-slower": () =>
      claim(
        lo(chromiumAt(1000).map(p50)) > hi(bunAt1000().map(p50)),
        "Chromium's WebSocket is slower to deliver than Bun's",
        "Chromium's least corrected p50 at 1,000/s above the most of Bun's client in the first sweep",
      ),
    "chromium-kept-1000": () =>
      claim(
        !chromiumAt(1000).some(short),
        "every codec kept the rate",
        `every codec keeping 1,000/s in ${CHROMIUM} (none flagged ${BELOW})`,
      ),
    "chromium-p50-1000": () => `${range(chromiumAt(1000).map(p50), us)} µs`,
    "bun-p50-1000": () => `${range(bunAt1000().map(p50), us)} µs`,
    "chromium-5000": () => {
      const at = chromiumAt(5000);
      return `${at.filter(short).length} of the ${at.length} cases fell short of it (the ${at.length} achieved ${range(at.map(achieved), whole)})`;
    },
    "chromium-p50-5000": () => `${range(chromiumAt(5000).map(p50), ms)} ms`,
    "chromium-p50s": () => {
      const at = latencyCases(CHROMIUM).filter((c) => rateOf(c) === 1000);
      const apart = hi(at.map((c) => Math.abs(p50(c) / serviceP50(c) - 1)));
      return claim(
        at.length > 0 && apart <= 0.05,
        "within 5%",
        `Chromium's corrected and service p50 at 1,000/s within 5% of each other (up to ${(apart * 100).toFixed(1)}% apart)`,
      );
    },
  },
};
