/**
 * docs/custom-binary-performance.md's figures, from the three default runs and the cross-check, the two browsers'
 * engines runs, and every codec in Bun, inside the server and in Chromium. The tables carry the detail; a sentence
 * names each finding, and claims it where a remake could undo it. The browser before/after pair is history.
 */

import type { CaseResult, Estimate } from "../../../client/harness/results.ts";
import { BUILT_IN } from "../../../protocols/registry.ts";
import { halfWidthText, ratioText } from "../../report/format.ts";
import { claim, type PageFigures } from "./figure-spec.ts";
import { fixed, halfWidth, list, mdTable, range, whole } from "./prose.ts";
import {
  caseIn,
  casesIn,
  clientEnvironment,
  crosscheckRows,
  estimateIn,
  machineOf,
  sampleResults,
} from "./sample-files.ts";

const [one, two] = [fixed(1), fixed(2)];
const [range1, range2] = [(v: number[]) => range(v, one), (v: number[]) => range(v, two)];
/** Nanoseconds as the engines table writes them: 987, 1,080, 16,600 (three significant digits from 1,000). */
const ns3 = (x: number): string => whole(x < 1000 ? x : Number(x.toPrecision(3)));
const pct = (x: number): string => `${Math.round(Math.abs(x) * 100)}%`;
/** A codec as the page names it: the format's proper name where it has one. */
const named = (codec: string): string => ({ json: "JSON", avro: "Avro", bebop: "Bebop" })[codec] ?? codec;
const [CB, GT] = ["custom-binary", "game-tick"];
const TEXTUAL = ["medium", "large"];
const TEXT_HEAVY = [...TEXTUAL, "chat"];

/** One mode of a committed run. */
type Run = { file: string; mode: CaseResult["mode"] };
const codecRun = (file: string): Run => ({ file, mode: "codec" });
const DEFAULT_RUNS = [1, 2, 3].map((n) => codecRun(`bun-default-${n}.json.gz`));
const DEFAULT = DEFAULT_RUNS[0]!;
const [CHROMIUM, FIREFOX] = [codecRun("engines-chromium.json.gz"), codecRun("engines-firefox.json.gz")];
const BROWSERS = [["Chromium", CHROMIUM] as const, ["Firefox", FIREFOX] as const];
const BUN_ALL = codecRun("bun-every-codec.json.gz");
const FIELD_ALL: Run = { file: "bun-every-codec-field.json.gz", mode: "stream" };
const CHROMIUM_ALL = codecRun("chromium-every-codec.json.gz");

const at = (run: Run, payload: string, codec = CB): CaseResult => caseIn(run.file, { mode: run.mode, payload, codec });
/** A case's ratio to JSON: codec mode's, or in a stream run the server's own (the field figure). */
const vs = (run: Run, payload: string, codec = CB): Estimate =>
  estimateIn(run.file, { mode: run.mode, payload, codec }, run.mode === "codec" ? "vsJson" : "fieldVsJson");
/** custom-binary's total over another codec's, each against JSON. */
const totalOver = (run: Run, p: string, codec: string): number => vs(run, p).value / vs(run, p, codec).value;
type Half = (c: CaseResult) => number;
const ser: Half = (c) => c.serialize.median;
const de: Half = (c) => c.deserialize.median;
/** One half of a codec's time over another's, in a run. */
const over = (run: Run, p: string, half: Half, codec: string, base = CB): number =>
  half(at(run, p, codec)) / half(at(run, p, base));
const halves = (c: CaseResult, ns = whole): string => `${ns(ser(c))} / ${ns(de(c))}`;
const interval = (r: Estimate): string => `${two(r.value)}, its interval ${two(r.low)}-${two(r.high)}`;
const overlap = (a: Estimate, b: Estimate): boolean => a.low <= b.high && b.low <= a.high;
const payloadsOf = (run: Run): string[] => [...new Set(casesIn(run.file, { mode: run.mode }).map((c) => c.payload))];
/** The codecs of a payload (not raw, nor a calibration codec), fastest first by their ratio to JSON. */
const order = (run: Run, p: string): string[] =>
  casesIn(run.file, { mode: run.mode, payload: p })
    .map((c) => c.codec)
    .filter((c) => c !== "raw" && !c.startsWith("cal-"))
    .sort((a, b) => vs(run, p, a).value - vs(run, p, b).value);
/** "every payload", or "every payload but game-tick, where Avro is ahead (the two intervals apart)". */
function firstOn(run: Run): string {
  const behind = payloadsOf(run).filter((p) => order(run, p)[0] !== CB);
  const ahead = behind.map((p) => {
    const lead = order(run, p)[0]!;
    const gap = overlap(vs(run, p, lead), vs(run, p)) ? "overlapping" : "apart";
    return `${named(lead)} is ahead${behind.length > 1 ? ` on ${p}` : ""} (the two intervals ${gap})`;
  });
  return behind.length === 0 ? "every payload" : `every payload but ${list(behind)}, where ${list(ahead)}`;
}
const env = (run: Run) => clientEnvironment(run.file);
/** The day (or days) runs were made. */
const days = (runs: Run[]): string => list([...new Set(runs.map((r) => sampleResults(r.file).timestamp.slice(0, 10)))]);
/** Chromium's every-codec run: one half of a codec's time over custom-binary's. */
const cOver = (p: string, half: Half, codec: string): number => over(CHROMIUM_ALL, p, half, codec);
const cAt = (p: string, codec = CB): CaseResult => at(CHROMIUM_ALL, p, codec);
/** custom-binary's half beats every other codec's (JSON aside) on each of these payloads in Chromium. */
const leadsOn = (payloads: string[], half: Half): boolean =>
  payloads.every((p) => order(CHROMIUM_ALL, p).every((c) => [CB, "json"].includes(c) || cOver(p, half, c) > 1));

export const CUSTOM_BINARY_PERFORMANCE: PageFigures = {
  page: "docs/custom-binary-performance.md",
  figures: {
    // The three default runs, the default run and the cross-check.
    // The EPYC's ratios above are history: the default runs name the machine they came from.
    "same-machine": () => {
      const { cpu, cores } = machineOf(DEFAULT_RUNS.map((r) => r.file));
      return cpu === "AMD EPYC"
        ? claim(cores === 2, "The same machine", "the default runs on the 2-core EPYC")
        : `A ${cores}-core ${cpu}`;
    },
    "default-ratios": () =>
      ["small", "medium", "large"].map((p) => range2(DEFAULT_RUNS.map((r) => vs(r, p).value))).join(" / "),
    "default-day": () => days(DEFAULT_RUNS),
    "floor-cpu": () => env(DEFAULT).cpu,
    "bytes-decode": () =>
      `${range1(TEXTUAL.map((p) => over(DEFAULT, p, de, "json-bytes", "json")))}x what the \`json\` codec's does on the medium and large messages, and custom-binary's ${range2(TEXTUAL.map((p) => over(DEFAULT, p, de, CB, "json-bytes")))}x of that`,
    "default-machine": () => `${env(DEFAULT).cpu}, ${env(DEFAULT).cores} cores, Bun ${env(DEFAULT).runtimeVersion}`,
    "default-table": () => {
      const plain = crosscheckRows().filter((r) => r.codec === CB);
      return mdTable(
        ["payload", "total / json", "total / json-bytes", "plain loop / json", "decode / json", "decode / json-bytes"],
        ["small", "medium", "large"].map((p) => [
          p,
          ratioText({ ...vs(DEFAULT, p), wide: false }),
          two(at(DEFAULT, p).total.median / at(DEFAULT, p, "json-bytes").total.median),
          two(plain.find((r) => r.payload === p)!.plain),
          ...["json", "json-bytes"].map((base) => two(over(DEFAULT, p, de, CB, base))),
        ]),
      );
    },

    // Both browsers, the engines runs.
    "engines-day": () => days([CHROMIUM, FIREFOX]),
    engines: () => {
      const [chromium, firefox] = [CHROMIUM, FIREFOX].map((b) => /^\S+ (\d+)\./.exec(env(b).runtimeVersion)![1]);
      const ticks = [CHROMIUM, FIREFOX].map((b) => Math.round(env(b).timerResolutionNs / 1000)).join(" and ");
      return claim(
        BROWSERS.every(([, b]) => env(b).crossOriginIsolated),
        `headless Chromium ${chromium} (V8) and Firefox ESR ${firefox} (SpiderMonkey), both cross-origin isolated, their clocks ticking every ${ticks} µs`,
        "both engines runs cross-origin isolated",
      );
    },
    // Each browser's ratio: ≈ where its interval holds 1, bold where it misses the 0.8 target, then its half-width.
    "engines-table": () => {
      const side = (b: Run, p: string, r = vs(b, p)): string[] => [
        `${r.value > 0.8 ? `**${ratioText(r, { interval: false })}**` : ratioText(r, { interval: false })} ${halfWidthText(halfWidth(r))}`,
        `${halves(at(b, p), ns3)} vs ${halves(at(b, p, "json"), ns3)}`,
      ];
      const head = "serialize / deserialize, custom-binary vs json";
      return mdTable(
        ["payload", "Chromium", head, "Firefox", head],
        payloadsOf(CHROMIUM).map((p) => [p, ...side(CHROMIUM, p), ...side(FIREFOX, p)]),
      );
    },
    // Held: the whole interval below 0.8; missed: all of it above; else shown neither way.
    target: () =>
      BROWSERS.map(([name, b]) => {
        const where = (test: (r: Estimate) => boolean) => payloadsOf(b).filter((p) => test(vs(b, p)));
        const [held, missed] = [where((r) => r.high < 0.8), where((r) => r.low > 0.8)];
        const open = payloadsOf(b).filter((p) => !held.includes(p) && !missed.includes(p));
        const text = `In ${name} it is ${held.length > 0 ? `held on ${list(held)}; ` : ""}missed on the text-heavy ${list(missed)}${open.map((p) => `; shown neither way on ${p} (${interval(vs(b, p))})`).join("")}.`;
        return claim(missed.length > 0 && missed.every((p) => TEXT_HEAVY.includes(p)), text, `${name}'s misses`);
      }).join(" "),
    // "within N%": the farther of JSON.parse's medians from its fastest round, rounded up to a whole percent.
    firefox: () => {
      const best = (p: string, codec = CB) => at(FIREFOX, p, codec).deserialize.min;
      const stringify = (b: Run, p: string) => ser(at(b, p, "json"));
      const median = (p: string, codec = CB) => de(at(FIREFOX, p, codec));
      const ns = (f: (p: string) => number) => TEXTUAL.map((p) => ns3(f(p))).join(" and ");
      const spread = (codec: string) => range1(TEXTUAL.map((p) => median(p, codec) / best(p, codec)));
      const beaten = (p: string) =>
        stringify(CHROMIUM, p) < stringify(FIREFOX, p) && ser(at(FIREFOX, p)) < stringify(FIREFOX, p);
      return claim(
        payloadsOf(FIREFOX).every(beaten) && TEXTUAL.every((p) => median(p) > median(p, "json")),
        `the loss is the decoder's. custom-binary's encoder beats Firefox's \`JSON.stringify\`, slower than V8's, on every payload; its decoder's median rounds on medium and large took ${ns((p) => median(p))} ns against \`JSON.parse\`'s ${ns((p) => median(p, "json"))}, and its fastest rounds ${ns((p) => best(p))} against \`JSON.parse\`'s ${ns((p) => best(p, "json"))}: its medians sit ${spread(CB)} times its fastest rounds, \`JSON.parse\`'s ${spread("json")}.`,
        "Firefox's JSON.stringify slower than V8's and custom-binary's, custom-binary's decode slower than JSON.parse on medium and large",
      );
    },
    bytes: () => {
      const [c, f] = [CHROMIUM, FIREFOX].map((b) => (ps: string[]) => ps.map((p) => totalOver(b, p, "json-bytes")));
      const costs = BROWSERS.map(
        ([name, b]) => `${range1(TEXT_HEAVY.map((p) => vs(b, p, "json-bytes").value))}x (${name})`,
      );
      const [chromium, firefox, ffLarge] = [c!(TEXT_HEAVY), f!(["medium", "chat"]), f!(["large"])[0]!];
      return claim(
        Math.max(...chromium, ...firefox) < 0.8 && ffLarge >= 0.8,
        `${costs.join(" and ")} of its codec-mode time on these three payloads in the committed runs, and custom-binary is well under 0.8x of that in Chromium (${range2(chromium)}x) and on medium and chat in Firefox (${range2(firefox)}x); on large in Firefox, with the slow decoder above, it is ${two(ffLarge)}x`,
        "custom-binary under 0.8x of json-bytes on the text in both browsers, but on large in Firefox",
      );
    },

    // Every codec in Bun, and inside the server.
    "bun-first": () =>
      claim(
        payloadsOf(BUN_ALL).every((p) => order(BUN_ALL, p).filter((c) => ![CB, "json"].includes(c))[0] === "avro"),
        `${firstOn(BUN_ALL)}. Avro (${at(BUN_ALL, "small", "avro").library}) is the nearest of the other codecs on every payload, JSON aside:`,
        "Avro the fastest codec after custom-binary on every payload in Bun, JSON aside",
      ),
    // Where the two are level inside the server, which of custom-binary's halves is the slower there.
    field: () => {
      const level = payloadsOf(FIELD_ALL).filter((p) => overlap(vs(FIELD_ALL, p), vs(FIELD_ALL, p, "avro")));
      const detail = level.map((p) => {
        const [own, avro] = [at(FIELD_ALL, p).socket!, at(FIELD_ALL, p, "avro").socket!];
        const half = (a: number, b: number) =>
          `${a > b ? "slower" : "faster"} half (${two(a / 1000)} against ${two(b / 1000)} µs)`;
        return `; on ${p} its encode is the ${half(own.serverSerialize.mean, avro.serverSerialize.mean)}, its decode the ${half(own.serverDeserialize.mean, avro.serverDeserialize.mean)}, the server's means`;
      });
      const but = level.length > 0 ? ` but ${list(level)}, where the two are level (≈: their intervals overlap)` : "";
      return claim(
        payloadsOf(FIELD_ALL).every((p) => level.includes(p) || totalOver(FIELD_ALL, p, "avro") < 1),
        `${firstOn(FIELD_ALL)}, its cost below Avro's on every payload${but}${detail.join("")}`,
        "custom-binary's server cost below Avro's wherever the two are apart",
      );
    },
    "avro-table": () =>
      mdTable(
        ["payload", CB, "avro", "total, custom-binary / avro", "inside the server", "bytes, custom-binary / avro"],
        payloadsOf(BUN_ALL).map((p) => {
          const [own, avro] = [at(BUN_ALL, p), at(BUN_ALL, p, "avro")];
          const [fOwn, fAvro] = [vs(FIELD_ALL, p), vs(FIELD_ALL, p, "avro")];
          const field = `${overlap(fOwn, fAvro) ? "≈" : ""}${two(fOwn.value / fAvro.value)}`;
          const bytes = `${whole(own.bytes)} / ${whole(avro.bytes)}`;
          return [p, halves(own), halves(avro), two(totalOver(BUN_ALL, p, "avro")), field, bytes];
        }),
      ),
    // custom-binary's halves against Avro's: "level" within 5%; "2-3x" the encode ratios between whole numbers.
    "avro-halves": () => {
      const [cbDe, cbSer] = [de, ser].map((half) => (p: string) => over(BUN_ALL, p, half, CB, "avro"));
      const level = (x: number) => Math.abs(x - 1) < 0.05;
      const encodes = TEXTUAL.map((p) => 1 / cbSer!(p));
      const gone = payloadsOf(BUN_ALL).filter((p) => totalOver(BUN_ALL, p, "avro") > 1);
      const smaller = 1 - at(BUN_ALL, GT).bytes / at(BUN_ALL, GT, "avro").bytes;
      const holds = [...TEXTUAL, GT].every((p) => level(cbDe!(p))) && Math.min(...encodes) > 1 && gone.join() === GT;
      // On market the decoder carries custom-binary; its encoder against avsc's has gone either way.
      const market =
        cbSer!("market") > 1
          ? `On market avsc encodes faster and custom-binary decodes ${one(1 / cbDe!("market"))}x as fast.`
          : `On market custom-binary does both faster, the decode most (${one(1 / cbDe!("market"))}x as fast, the encode ${one(1 / cbSer!("market"))}x).`;
      return claim(
        holds && cbSer!(GT) > 1 && smaller > 0 && cbDe!("market") < Math.min(1, cbSer!("market")),
        `On medium and large the two decode level (within 5%) and custom-binary encodes ${Math.floor(Math.min(...encodes))}-${Math.ceil(Math.max(...encodes))}x faster. ${GT} goes to Avro by ${pct(totalOver(BUN_ALL, GT, "avro") - 1)}: custom-binary decodes about as fast, encodes slower, and its frames are ${pct(smaller)} smaller. ${market}`,
        `each half against Avro's as the page says, ${GT} the one payload whose total goes to Avro (now: ${list(gone) || "none"})`,
      );
    },

    // Every codec in Chromium.
    "chromium-first": () => {
      const rival = (p: string) =>
        order(CHROMIUM_ALL, p).find((c) => c !== CB && BUILT_IN.get(c)?.family === "schema")!;
      const avro = payloadsOf(CHROMIUM_ALL).map((p) => vs(CHROMIUM_ALL, p, "avro").value);
      return claim(
        payloadsOf(CHROMIUM_ALL).every((p) => order(CHROMIUM_ALL, p).filter((c) => c !== "json")[0] === CB) &&
          Math.min(...avro) > 1,
        `${firstOn(CHROMIUM_ALL)}; no other codec is ahead of it on any, and it takes ${range2(payloadsOf(CHROMIUM_ALL).map((p) => totalOver(CHROMIUM_ALL, p, rival(p))))}x the fastest other schema codec's time. Avro is no rival there, at ${range1(avro)}x JSON's time`,
        "custom-binary ahead of every codec but JSON on every payload in Chromium, and Avro behind JSON",
      );
    },
    "chromium-table": () => {
      const codecs = [CB, "bebop", "pbf", "protobuf", "json"];
      return mdTable(
        ["payload", "custom-binary / json, total", ...codecs],
        payloadsOf(CHROMIUM_ALL).map((p) => [
          p,
          ratioText(vs(CHROMIUM_ALL, p)),
          ...codecs.map((c) => halves(cAt(p, c))),
        ]),
      );
    },
    // small: the best other codec on each half, and its time against custom-binary's.
    "chromium-halves": () => {
      const small = (half: Half, c = CB) => whole(half(cAt("small", c)));
      const lib = (c: string) => cAt("small", c).library || c;
      const others = order(CHROMIUM_ALL, "small").filter((c) => c !== CB);
      const [e, d] = [ser, de].map((half) => others.sort((a, b) => half(cAt("small", a)) - half(cAt("small", b)))[0]);
      const encoder = TEXT_HEAVY.flatMap((p) => ["bebop", "pbf"].map((c) => cOver(p, ser, c)));
      const text = leadsOn(TEXT_HEAVY, ser) && leadsOn(TEXT_HEAVY, de) && cOver("large", de, "json") < 1;
      const rest = leadsOn([GT], ser) && cOver(GT, de, "bebop") < 1 && leadsOn(["market"], de);
      // A half of another codec faster than custom-binary's on small, if any.
      const faster = (half: Half, c: string, verb: string) =>
        half(cAt("small", c)) < half(cAt("small"))
          ? `${lib(c)} ${verb} in ${small(half, c)} ns against its ${small(half)}`
          : "";
      const beaten = [faster(ser, e!, "encodes"), faster(de, d!, "decodes")].filter(Boolean);
      const onSmall =
        beaten.length > 0
          ? `On small ${beaten.join(" and ")}, but custom-binary is ahead on the sum.`
          : "On small both halves lead too.";
      const marketEncodes = ["bebop", "pbf"].map((c) => cOver("market", ser, c));
      const market = Math.max(...marketEncodes) < 0.9;
      return claim(
        text && rest && market && order(CHROMIUM_ALL, "small")[0] === CB,
        `On the text (medium, large, chat) both halves lead the other codecs': the encoder is ${range1(encoder)}x faster than Bebop's and pbf's, the decoder ${range1(TEXT_HEAVY.map((p) => cOver(p, de, "bebop")))}x faster than Bebop's, and only \`JSON.parse\` decodes large faster. ${onSmall} On ${GT} the encoder carries it and Bebop decodes ${one(1 / cOver(GT, de, "bebop"))}x faster; on market the decoder carries it, and Bebop and pbf encode in ${range2(marketEncodes)}x its time.`,
        "custom-binary's halves in Chromium as the page says: both lead on the text, the encoder on game-tick, the decoder on market",
      );
    },
  },
};
