/**
 * docs/latency.md's figures: the latency runs at 2,000 messages/s (bun-latency-2000.json.gz) and on
 * the large message at 10,000 and 40,000 (bun-latency-large-{10000,40000}.json.gz), the three
 * back-to-back sweeps (bun-sweep-{1,2,3}.json.gz: their knees, and the first's CPU and memory), and
 * Chromium at 1,000 and 5,000 (chromium-latency.json.gz).
 */

import type { CaseResult } from "../../../client/harness/results.ts";
import { claim, type PageFigures } from "./figure-spec.ts";
import { fixed, hi, list, lo, mdTable, range, seconds, whole } from "./prose.ts";
import { casesIn, machineOf, sampleResults } from "./sample-files.ts";

const AT_2000 = "bun-latency-2000.json.gz";
const AT_10000 = "bun-latency-large-10000.json.gz";
const AT_40000 = "bun-latency-large-40000.json.gz";
const CHROMIUM = "chromium-latency.json.gz";
const SWEEPS = ["bun-sweep-1.json.gz", "bun-sweep-2.json.gz", "bun-sweep-3.json.gz"];
const PAYLOADS = ["small", "medium", "large"] as const;
/** The rates the CPU and memory table shows, of those the first sweep ran. */
const TABLE_RATES = [1000, 5000, 20_000, 50_000, 100_000];

const short = (c: CaseResult): boolean => c.flags.includes("below-rate");
/** A file's latency cases: of the codecs, or of raw; at one rate if given. */
const codecs = (file: string, rate?: number): CaseResult[] =>
  casesIn(file, { mode: "latency" }).filter((c) => c.codec !== "raw" && (rate === undefined || rateOf(c) === rate));
const raws = (file: string): CaseResult[] => casesIn(file, { mode: "latency", codec: "raw" });
const rateOf = (c: CaseResult): number => c.socket!.targetRate!;
const achieved = (c: CaseResult): number => c.socket!.achievedRate!;
const late = (c: CaseResult): number => c.socket!.late!;
const sent = (c: CaseResult): number => c.socket!.sent;
const p50 = (c: CaseResult): number => c.socket!.latency!.p50;
const p99 = (c: CaseResult): number => c.socket!.latency!.p99;
const serviceP99 = (c: CaseResult): number => c.socket!.serviceTime!.p99;
/** A table's header: its cells, " | " between them. */
const head = (cells: string): string[] => cells.split(" | ");
/** Some cases' nanoseconds as the page writes them: whole µs, or ms to one decimal. */
const usRange = (v: number[]): string => `${range(v, (ns) => (ns / 1000).toFixed(0))} µs`;
const msRange = (v: number[]): string => `${range(v, (ns) => (ns / 1e6).toFixed(1))} ms`;

/** A codec's (or raw's) knee on a payload in each of the three sweeps. */
const knees = (payload: string, codec: string): number[] =>
  SWEEPS.map((file) => {
    const k = sampleResults(file).knees?.find((x) => x.client === "bun" && x.payload === payload && x.codec === codec);
    if (k === undefined) throw new Error(`results/sample/${file} has no knee of ${payload} ${codec}`);
    return k.rate;
  });
/** The codecs (and raw) the first sweep ran on a payload. */
const codecsOf = (payload: string): string[] => [
  ...new Set(casesIn(SWEEPS[0]!, { mode: "latency", payload: payload as CaseResult["payload"] }).map((c) => c.codec)),
];
/** The ladder's top: the highest rate a sweep asks. */
const top = (): number => hi(SWEEPS.flatMap((f) => casesIn(f, { mode: "latency" }).map(rateOf)));
const moved = (payload: string, codec: string): number => hi(knees(payload, codec)) / lo(knees(payload, codec));

const tookMs = (file: string): number => sampleResults(file).elapsedMs;
const codecUs = (c: CaseResult): number => c.socket!.field!.codecNs.median / 1000;
const serverCpuUs = (c: CaseResult): number => c.socket!.serverCpuNsPerMsg! / 1000;
/** The server's CPU as a share of a core, in percent. */
const serverShare = (c: CaseResult): number => (100 * c.socket!.serverCpuNsPerMsg! * achieved(c)) / 1e9;

export const LATENCY: PageFigures = {
  page: "docs/latency.md",
  figures: {
    "machine-2000": () => `${machineOf([AT_2000]).cpu}, ${machineOf([AT_2000]).cores} cores`,
    "runs-table": () =>
      mdTable(
        head("asked msgs/s | cases | achieved msgs/s | late sends | corrected p50 | p99 | service p99 | `below-rate`"),
        [AT_2000, AT_10000, AT_40000].flatMap((f) =>
          [codecs(f), raws(f)].map((cs) => [
            range(cs.map(rateOf), whole),
            cs[0]!.codec === "raw" ? `\`raw\` (${cs.length})` : `the codecs (${cs.length})`,
            range(cs.map(achieved), whole),
            `${range(cs.map(late), whole)} of ${range(cs.map(sent), whole)}`,
            usRange(cs.map(p50)),
            msRange(cs.map(p99)),
            msRange(cs.map(serviceP99)),
            `${cs.filter(short).length} of ${cs.length}`,
          ]),
        ),
      ),
    kept: () => {
      const missed = codecs(AT_2000).filter(short);
      const kept2000 =
        missed.length === 0
          ? "every codec kept the rate"
          : `every codec kept the rate but ${list(missed.map((c) => `${c.codec} on the ${c.payload} message (${whole(achieved(c))}/s)`))}`;
      /** How a rate went on the large message: every codec kept it, every one (raw too) fell a little short, or some did. */
      const large = (file: string): string => {
        const all = casesIn(file, { mode: "latency" });
        const rate = whole(rateOf(all[0]!));
        if (!all.some(short)) return `every codec keeps up at ${rate}/s`;
        const got = range(all.map(achieved), whole);
        return all.every(short)
          ? `at ${rate}/s none kept up, not even \`raw\` (${got}/s)`
          : `at ${rate}/s ${all.filter(short).length} of the ${all.length} fell short (${got}/s)`;
      };
      return claim(
        hi(codecs(AT_2000).map(p50)) < 2 * hi(raws(AT_2000).map(p50)) &&
          casesIn(AT_40000, { mode: "latency" }).every(short),
        `${kept2000}, and at that load the codec shows little: corrected p50 ${usRange(codecs(AT_2000).map(p50))} against \`raw\`'s ${usRange(raws(AT_2000).map(p50))}. On the large message ${large(AT_10000)}, and ${large(AT_40000)}`,
        "every codec's corrected p50 at 2,000/s under twice raw's, and none, raw included, keeping 40,000/s on the large message",
      );
    },
    "service-40000": () => {
      const cs = codecs(AT_40000);
      return claim(
        hi(cs.map(late)) < 0.05 * lo(cs.map(sent)),
        `${hi(cs.map((c) => p99(c) / serviceP99(c))).toFixed(2)}x the service time's: at most ${whole(hi(cs.map(late)))} of ${range(cs.map(sent), whole)} sends were late`,
        "under 5% of sends late at 40,000/s",
      );
    },
    "sweep-took": () => range(SWEEPS.map(tookMs), seconds),
    "sweep-machine": () => machineOf(SWEEPS).cpu,
    steady: () =>
      claim(
        codecsOf("small").every((c) => knees("small", c).includes(top())) &&
          ["medium", "large"].every((p) => knees(p, "raw").every((k) => k === top())),
        `every codec and \`raw\` kept ${whole(top())} messages/s, the top of the ladder, on the small message in at least one sweep: there the ladder ran out before the codecs did. \`raw\`'s knee (no codec at all) stayed at the ladder's top on the medium and the large message`,
        "every codec and raw at the ladder's top on the small message in a sweep, raw's at the top on the medium and large message",
      ),
    widest: () => {
      const w = PAYLOADS.flatMap((p) => codecsOf(p).map((c) => ({ p, c, k: knees(p, c) }))).reduce((a, b) =>
        moved(b.p, b.c) > moved(a.p, a.c) ? b : a,
      );
      const [low, high] = [lo(w.k), hi(w.k)];
      // The ladder's steps between the lowest knee and the highest: the rates any sweep ran that case at.
      const ran = new Set(SWEEPS.flatMap((f) => casesIn(f, { mode: "latency", codec: w.c, payload: w.p })).map(rateOf));
      const steps = [...ran].filter((r) => r > low && r <= high).length;
      const [first, last] = [sampleResults(SWEEPS[0]!), sampleResults(SWEEPS.at(-1)!)];
      return claim(
        steps > 0 && Date.parse(last.timestamp) + last.elapsedMs - Date.parse(first.timestamp) <= 15 * 60_000,
        `${machineOf(SWEEPS).cores}-core machine can move changed within a quarter of an hour, and the knees moved with it, by up to ${(high / low).toFixed(1)}x (${w.c} on the ${w.p} message, ${whole(low)} to ${whole(high)}): ${steps === 1 ? "one step" : `${steps} steps`} of the ladder`,
        "the three sweeps within a quarter of an hour, and a knee that moved between them",
      );
    },
    leader: () => {
      const names = codecsOf("large").filter((c) => c !== "raw");
      const best = SWEEPS.map((_, i) => hi(names.map((c) => knees("large", c)[i]!)));
      const leader = names.find((c) => knees("large", c).every((k, i) => k === best[i]));
      return claim(
        leader !== undefined,
        `${leader} kept the highest rate of the codecs on the large message in all three`,
        `a codec at the highest knee of the codecs on the large message in every sweep (highest: ${best.join(", ")})`,
      );
    },
    "sweep-first-machine": () => machineOf([SWEEPS[0]!]).cpu,
    "cpu-table": () => {
      const span = (at: CaseResult[], of: (c: CaseResult) => number, unit: string) =>
        range(at.map(of), fixed(0)) + unit;
      return mdTable(
        head(
          "rate (msgs/s) | server CPU per message | server CPU share of a core | client busy per message | server RSS",
        ),
        TABLE_RATES.map((rate) => {
          const at = codecs(SWEEPS[0]!, rate);
          if (at.length === 0) throw new Error(`results/sample/${SWEEPS[0]} has no codec case at ${whole(rate)}/s`);
          return [
            whole(rate),
            span(at, serverCpuUs, " µs"),
            span(at, serverShare, "%"),
            span(at, (c) => c.socket!.clientBusyNsPerMsg! / 1000, " µs"),
            span(at, (c) => c.socket!.serverRssPeakBytes! / 2 ** 20, " MiB"),
          ];
        }),
      );
    },
    "cpu-falls": () => {
      const per = TABLE_RATES.map((r) => codecs(SWEEPS[0]!, r).map(serverCpuUs));
      const falls = (i: number) => lo(per[i]!) < lo(per[i - 1]!) && hi(per[i]!) < hi(per[i - 1]!);
      // Levelling off: the least still falls, the most within 10% of the rate below's.
      const levels = (i: number) => lo(per[i]!) < lo(per[i - 1]!) && hi(per[i]!) < 1.1 * hi(per[i - 1]!);
      const last = per.length - 1;
      return claim(
        per.every((_, i) => i === 0 || falls(i) || (i === last && levels(i))),
        falls(last)
          ? "the server's CPU falls as the rate rises"
          : "the server's CPU falls as the rate rises, then levels off at the top",
        "the least and the most server CPU per message falling from each rate of the table to the next, the top's most within 10%",
      );
    },
    "codec-20000": () => {
      const at = codecs(SWEEPS[0]!, 20_000)
        .filter((c) => c.payload === "large")
        .sort((a, b) => codecUs(a) - codecUs(b));
      const us = (c: CaseResult) => `${codecUs(c).toFixed(1)} µs (${c.codec})`;
      return claim(
        at.length > 0 && at.every((c) => codecUs(c) < serverCpuUs(c) / 2),
        `the codec is under half of it: on the large message the server's encode + decode took ${us(at[0]!)} to ${us(at.at(-1)!)} of ${range(at.map(serverCpuUs), fixed(0))} µs`,
        "the server's encode + decode of the large message at 20,000/s under half its CPU per message, for every codec",
      );
    },
    "not-full-core": () =>
      claim(
        codecs(SWEEPS[0]!).every((c) => serverShare(c) < 100 && c.socket!.clientBusyNsPerMsg! * achieved(c) < 1e9),
        "Neither side is at a full core when the knee comes",
        "the server's CPU and the client's busy time each under a full core at every rate of the first sweep",
      ),
    chromium: () => {
      const [at1000, at5000, bun] = [codecs(CHROMIUM, 1000), codecs(CHROMIUM, 5000), codecs(SWEEPS[0]!, 1000)];
      return claim(
        lo(at1000.map(p50)) > hi(bun.map(p50)) && !at1000.some(short),
        `Chromium's WebSocket was slower to deliver than Bun's: at 1,000 messages/s every codec kept the rate with corrected p50 ${usRange(at1000.map(p50))} (Bun's client in the first sweep above: ${usRange(bun.map(p50))}), and at 5,000/s ${at5000.filter(short).length} of the ${at5000.length} cases fell short of it (the ${at5000.length} achieved ${range(at5000.map(achieved), whole)}) with p50 ${msRange(at5000.map(p50))}`,
        "every codec in Chromium keeping 1,000/s, its least corrected p50 there above the most of Bun's client in the first sweep",
      );
    },
    "chromium-p50s": () => {
      const at = casesIn(CHROMIUM, { mode: "latency" }).filter((c) => rateOf(c) === 1000);
      const apart = hi(at.map((c) => Math.abs(p50(c) / c.socket!.serviceTime!.p50 - 1)));
      return claim(
        apart <= 0.1,
        `within ${Math.max(1, Math.ceil(apart * 100))}%`,
        `Chromium's corrected and service p50 at 1,000/s within 10% (${apart})`,
      );
    },
  },
};
