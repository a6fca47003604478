/**
 * docs/custom-binary-performance.md's figures: custom-binary against JSON in the three default runs
 * (epyc-default-{1,2,3}.json.gz) and the cross-check's plain loop, the two browsers' codec-mode runs
 * (engines-chromium.json.gz, engines-firefox.json.gz), and every codec in Bun (epyc-every-codec.json.gz),
 * inside the server (epyc-every-codec-field.json.gz) and in Chromium (chromium-every-codec.json.gz).
 * The before/after pair of the browser work is history (sample-list.ts) and stays as written.
 */

import type { CaseResult, Estimate } from "../../../client/harness/results.ts";
import { BUILT_IN } from "../../../protocols/registry.ts";
import { ratioText } from "../../report/format.ts";
import { claim, type PageFigures } from "./figure-spec.ts";
import { fixed, halfWidth, list, ordinal, plusMinus, range, whole, word } from "./prose.ts";
import { caseIn, casesIn, crosscheckRows, machineOf, sampleResults } from "./sample-files.ts";

const two = fixed(2);
const one = fixed(1);
/** Nanoseconds as the page's tables write them: 987, 1,080, 16,600 (three significant digits from 1,000). */
const ns3 = (x: number): string =>
  x < 1000 ? String(Math.round(x)) : Number(x.toPrecision(3)).toLocaleString("en-US");
/** A ratio without a trailing zero: 1.8, 3. */
const short = (x: number): string => String(Number(x.toFixed(1)));
/** Nanoseconds as microseconds to two decimals. */
const us = (ns: number): string => two(ns / 1000);
/** A codec as the page names it: the format's proper name where it has one, else the codec's own name. */
const NAMED: Record<string, string> = { json: "JSON", avro: "Avro", bebop: "Bebop" };
const named = (codec: string): string => NAMED[codec] ?? codec;
/** The payloads made mostly of text (the message generator's). */
const TEXT_HEAVY = ["medium", "large", "chat"];
const SMALL_TO_LARGE = ["small", "medium", "large"];

/** One mode of a committed run. */
interface Run {
  file: string;
  mode: CaseResult["mode"];
}
const DEFAULT_RUNS: Run[] = [1, 2, 3].map((n) => ({ file: `epyc-default-${n}.json.gz`, mode: "codec" }));
const DEFAULT = DEFAULT_RUNS[0]!;
const CHROMIUM: Run = { file: "engines-chromium.json.gz", mode: "codec" };
const FIREFOX: Run = { file: "engines-firefox.json.gz", mode: "codec" };
const BUN_ALL: Run = { file: "epyc-every-codec.json.gz", mode: "codec" };
const FIELD_ALL: Run = { file: "epyc-every-codec-field.json.gz", mode: "stream" };
const CHROMIUM_ALL: Run = { file: "chromium-every-codec.json.gz", mode: "codec" };
/** The machine the profiles were taken on, which the page's "the same machine" means. */
const PROFILED = { cpu: "AMD EPYC", cores: 2 };

const at = (run: Run, payload: string, codec: string): CaseResult =>
  caseIn(run.file, { mode: run.mode, payload, codec });
const cb = (run: Run, payload: string): CaseResult => at(run, payload, "custom-binary");
const payloadsOf = (run: Run): string[] => [...new Set(casesIn(run.file, { mode: run.mode }).map((c) => c.payload))];
/** The codecs of a payload that are codecs: not raw (no codec) nor a calibration codec. */
const codecsOf = (run: Run, payload: string): string[] =>
  casesIn(run.file, { mode: run.mode, payload })
    .map((c) => c.codec)
    .filter((c) => c !== "raw" && !c.startsWith("cal-"));
/** A ratio a case carries; throws, naming the case, where it has none. */
const need = <R extends Estimate>(r: R | undefined, c: CaseResult, what: string): R => {
  if (r === undefined) throw new Error(`${c.mode} ${c.payload} ${c.codec}: no ${what}`);
  return r;
};
const vs = (c: CaseResult): Estimate => need(c.ratios?.vsJson, c, "ratio to json");
const vsJson = (c: CaseResult): number => vs(c).value;
const fieldVs = (c: CaseResult): Estimate => need(c.ratios?.fieldVsJson, c, "field ratio to json");
const ser = (c: CaseResult): number => c.serialize.median;
const de = (c: CaseResult): number => c.deserialize.median;
/** ≈ before a ratio whose 95% interval holds 1: the run cannot tell it from JSON's. */
const approx = (r: Estimate): string => (r.low <= 1 && r.high >= 1 ? "≈" : "");
const overlap = (a: Estimate, b: Estimate): boolean => a.low <= b.high && b.low <= a.high;
/** The codecs of a payload fastest first, by a ratio to JSON. */
const order = (run: Run, p: string, ratio: (c: CaseResult) => number = vsJson): string[] =>
  [...codecsOf(run, p)].sort((a, b) => ratio(at(run, p, a)) - ratio(at(run, p, b)));
/** The npm package a codec's work is done by (avsc, protobufjs); the codec's name when built in. */
const library = (run: Run, codec: string): string => at(run, payloadsOf(run)[0]!, codec).library || named(codec);
const isSchema = (codec: string): boolean => BUILT_IN.get(codec)?.family === "schema";
/** A count of payloads as the page writes it: "all six" where it is every one of them, else "five". */
const of = (n: number, all: number): string => (n === all ? `all ${word(n)}` : word(n));
/** The day a run was made. */
const day = (run: Run): string => sampleResults(run.file).timestamp.slice(0, 10);
const oneDay = (runs: Run[], what: string): string => {
  const days = new Set(runs.map(day));
  return claim(days.size === 1, [...days][0]!, `${what} made on one day`);
};
/** Three payloads' figures, "0.35 / 0.51 / 0.63". */
const three = (f: (p: string) => number): string => SMALL_TO_LARGE.map((p) => two(f(p))).join(" / ");
const cpu = (): string => machineOf([DEFAULT.file]).cpu;

/** The default run's decode of one codec over another's. */
const decodeOver = (p: string, codec: string, base: string): number =>
  de(at(DEFAULT, p, codec)) / de(at(DEFAULT, p, base));

/** The engines runs: the verdict on the 0.8 target per payload, from custom-binary's interval. */
const BROWSERS = [
  ["Chromium", CHROMIUM],
  ["Firefox", FIREFOX],
] as const;
const met = (b: Run): string[] => payloadsOf(b).filter((p) => vs(cb(b, p)).high < 0.8);
const missed = (b: Run): string[] => payloadsOf(b).filter((p) => vs(cb(b, p)).low > 0.8);
/** The payloads of a verdict in both browsers, and those of each browser alone, as ", and on small in Chromium". */
function split(verdict: (b: Run) => string[]): { both: string[]; alone: string } {
  const both = verdict(CHROMIUM).filter((p) => verdict(FIREFOX).includes(p));
  const alone = BROWSERS.map(([name, b]) => [name, verdict(b).filter((p) => !both.includes(p))] as const)
    .filter(([, ps]) => ps.length > 0)
    .map(([name, ps]) => `, and on ${list(ps)} in ${name}`)
    .join("");
  return { both, alone };
}
/** An engines row's ratio: ≈ where its interval holds 1, bold where it misses the 0.8 target, then its half-width. */
const targetCell = (c: CaseResult): string => {
  const r = vs(c);
  const shown = ratioText(r, { interval: false });
  return `${r.value > 0.8 ? `**${shown}**` : shown} ${plusMinus(halfWidth(r))}`;
};
const ffDecode = (p: string, codec: string): number => de(at(FIREFOX, p, codec));
const ffBest = (p: string, codec: string): number => at(FIREFOX, p, codec).deserialize.min;
/** JSON charged for its UTF-8: json-bytes over json, and custom-binary over json-bytes. */
const bytesVs = (b: Run, p: string): number => vsJson(at(b, p, "json-bytes"));
const cbOverBytes = (b: Run, p: string): number => vsJson(cb(b, p)) / bytesVs(b, p);

/** Inside the server, custom-binary and Avro are level on a payload where their field intervals overlap. */
const fieldLevel = (p: string): boolean => overlap(fieldVs(cb(FIELD_ALL, p)), fieldVs(at(FIELD_ALL, p, "avro")));
/** Bun's every-codec run: custom-binary's total over Avro's, each against JSON. */
const overAvro = (p: string): number => vsJson(cb(BUN_ALL, p)) / vsJson(at(BUN_ALL, p, "avro"));
const toAvro = (): string[] => payloadsOf(BUN_ALL).filter((p) => overAvro(p) > 1);
/** The payload whose bullet says it goes to Avro. */
const AVRO_BULLET = "game-tick";
const avroBullet = (): { cb: CaseResult; avro: CaseResult; by: string } => {
  const gone = toAvro();
  const by = `${Math.round((overAvro(AVRO_BULLET) - 1) * 100)}%`;
  return {
    cb: cb(BUN_ALL, AVRO_BULLET),
    avro: at(BUN_ALL, AVRO_BULLET, "avro"),
    by: claim(
      gone.length === 1 && gone[0] === AVRO_BULLET,
      by,
      `${AVRO_BULLET} as the one payload whose total goes to Avro in Bun (now: ${list(gone) || "none"})`,
    ),
  };
};
/** How much slower custom-binary's decode is than Avro's in Bun, in percent (below 0: faster). */
const decodeBehind = (p: string): number => (de(cb(BUN_ALL, p)) / de(at(BUN_ALL, p, "avro")) - 1) * 100;
const TEXTUAL = ["medium", "large"];

/** In Chromium's every-codec run: the codecs beside custom-binary and json. */
const chromiumOthers = (p: string): string[] =>
  codecsOf(CHROMIUM_ALL, p).filter((c) => c !== "custom-binary" && c !== "json");
const cSer = (p: string, codec: string): number => ser(at(CHROMIUM_ALL, p, codec));
const cDe = (p: string, codec: string): number => de(at(CHROMIUM_ALL, p, codec));
/** custom-binary's half beats every other codec's (json aside) on each of these payloads. */
const leadsOn = (payloads: string[], half: (p: string, codec: string) => number): boolean =>
  payloads.every((p) => chromiumOthers(p).every((c) => half(p, "custom-binary") < half(p, c)));

const table = (header: string[], rows: string[][]): string =>
  [header, header.map(() => "---"), ...rows].map((cells) => `| ${cells.join(" | ")} |`).join("\n");

export const CUSTOM_BINARY_PERFORMANCE: PageFigures = {
  page: "docs/custom-binary-performance.md",
  figures: {
    // The three default runs, the default run and the cross-check.
    "same-machine": () => {
      const m = machineOf(DEFAULT_RUNS.map((r) => r.file));
      return claim(
        m.cpu === PROFILED.cpu && m.cores === PROFILED.cores,
        "The same machine",
        `the three default runs on the ${PROFILED.cores}-core ${PROFILED.cpu} the profiles were taken on`,
      );
    },
    "default-ratios": () =>
      SMALL_TO_LARGE.map((p) =>
        range(
          DEFAULT_RUNS.map((r) => vsJson(cb(r, p))),
          two,
        ),
      ).join(" / "),
    "default-day": () => oneDay(DEFAULT_RUNS, "the three default runs"),
    "floor-cpu": cpu,
    "decode-vs-json": () =>
      `${two(decodeOver("medium", "custom-binary", "json"))}x and ${two(decodeOver("large", "custom-binary", "json"))}x`,
    "bytes-decode": () => {
      const [medium, large] = TEXTUAL.map((p) => one(decodeOver(p, "json-bytes", "json")));
      return claim(
        medium === large,
        `${medium}x`,
        `json-bytes' decode the same multiple of json's on the medium and large messages (${medium}x and ${large}x)`,
      );
    },
    "decode-vs-bytes": () =>
      `${two(decodeOver("medium", "custom-binary", "json-bytes"))}x (medium) and ${two(decodeOver("large", "custom-binary", "json-bytes"))}x (large)`,
    "bytes-cpu": cpu,
    "default-machine": () => {
      const e = machineOf([DEFAULT.file]);
      return `${e.cpu}, ${e.cores} cores, Bun ${e.runtimeVersion}`;
    },
    "default-vs-json": () => three((p) => vsJson(cb(DEFAULT, p))),
    "default-vs-bytes": () => three((p) => cb(DEFAULT, p).total.median / at(DEFAULT, p, "json-bytes").total.median),
    "plain-loop": () => {
      const plain = crosscheckRows().filter((r) => r.codec === "custom-binary");
      return three((p) => plain.find((r) => r.payload === p)!.plain);
    },

    // Both browsers, the engines runs.
    "engines-day": () => oneDay([CHROMIUM, FIREFOX], "the Chromium and Firefox engines runs"),
    "chromium-version": () => browserMajor(CHROMIUM, "Chrome"),
    "firefox-version": () => browserMajor(FIREFOX, "Firefox"),
    isolated: () =>
      claim(
        [CHROMIUM, FIREFOX].every((b) => sampleResults(b.file).environment.crossOriginIsolated === true),
        "both cross-origin isolated",
        "both engines runs cross-origin isolated",
      ),
    ticks: () =>
      [CHROMIUM, FIREFOX]
        .map((b) => String(Math.round(sampleResults(b.file).environment.timerResolutionNs / 1000)))
        .join(" and "),
    "engines-table": () => {
      const halves = (c: CaseResult) => `${ns3(ser(c))} / ${ns3(de(c))}`;
      const side = (b: Run, p: string) => [targetCell(cb(b, p)), `${halves(cb(b, p))} vs ${halves(at(b, p, "json"))}`];
      return table(
        [
          "payload",
          "Chromium",
          "serialize / deserialize, custom-binary vs json",
          "Firefox",
          "serialize / deserialize, custom-binary vs json",
        ],
        payloadsOf(CHROMIUM).map((p) => [p, ...side(CHROMIUM, p), ...side(FIREFOX, p)]),
      );
    },
    "target-holds": () => {
      const holds = split(met);
      return `${list(holds.both)} in both browsers${holds.alone}`;
    },
    "target-missed": () => {
      const misses = split(missed);
      return claim(
        misses.both.every((p) => TEXT_HEAVY.includes(p)),
        `${word(misses.both.length)} text-heavy payloads, ${list(misses.both)}, in both${misses.alone}`,
        "only text-heavy payloads missing the target in both browsers",
      );
    },
    "target-unsettled": () => {
      const unsettled = BROWSERS.flatMap(([name, b]) =>
        payloadsOf(b)
          .filter((p) => !met(b).includes(p) && !missed(b).includes(p))
          .map((p) => {
            const r = vs(cb(b, p));
            return `On ${p} in ${name} the ratio is ${two(r.value)} but its interval runs from ${two(r.low)} to ${two(r.high)}, so this run does not show the target met there.`;
          }),
      );
      return claim(
        unsettled.length > 0,
        unsettled.join(" "),
        "a payload where a browser's run neither meets nor misses the target",
      );
    },
    "ff-parse-medium": () => ns3(ffDecode("medium", "json")),
    "ff-decode-medium": () => ns3(ffDecode("medium", "custom-binary")),
    "ff-large": () => `${ns3(ffDecode("large", "json"))} against ${ns3(ffDecode("large", "custom-binary"))}`,
    "ff-fastest": () => `${ns3(ffBest("medium", "custom-binary"))} and ${ns3(ffBest("large", "custom-binary"))}`,
    // "within N%": the farther of the two medians from JSON.parse's fastest round, rounded up to a whole percent.
    "parse-within": () =>
      `${Math.ceil((Math.max(...TEXTUAL.map((p) => ffDecode(p, "json") / ffBest(p, "json"))) - 1) * 100)}%`,
    "ff-times-large": () => one(ffDecode("large", "custom-binary") / ffBest("large", "custom-binary")),
    "ff-times-medium": () => one(ffDecode("medium", "custom-binary") / ffBest("medium", "custom-binary")),
    "ff-best-slower": () =>
      claim(
        TEXTUAL.every((p) => ffBest(p, "custom-binary") > ffDecode(p, "json")),
        "even at its best it is slower than `JSON.parse` on medium and large",
        "custom-binary's fastest Firefox decode round slower than JSON.parse's median on medium and large",
      ),
    "ff-stringify": () =>
      claim(
        payloadsOf(FIREFOX).every(
          (p) =>
            ser(at(FIREFOX, p, "json")) > ser(at(CHROMIUM, p, "json")) &&
            ser(cb(FIREFOX, p)) < ser(at(FIREFOX, p, "json")),
        ),
        "Firefox's `JSON.stringify` is slower than V8's, and custom-binary's encoder beats it on every payload.",
        "Firefox's JSON.stringify slower than Chromium's, and custom-binary's encode faster than it, on every payload",
      ),
    "committed-sum": () => range([cb(CHROMIUM, "medium"), cb(CHROMIUM, "chat"), cb(FIREFOX, "chat")].map(vsJson), two),
    "ff-medium": () => ratioText(vs(cb(FIREFOX, "medium")), { interval: false }),
    "bytes-chromium": () =>
      range(
        TEXT_HEAVY.map((p) => bytesVs(CHROMIUM, p)),
        one,
      ),
    "bytes-firefox": () =>
      range(
        TEXT_HEAVY.map((p) => bytesVs(FIREFOX, p)),
        one,
      ),
    "cb-bytes-chromium": () => {
      const ratios = TEXT_HEAVY.map((p) => cbOverBytes(CHROMIUM, p));
      return claim(
        Math.max(...ratios) < 0.8,
        range(ratios, two),
        "custom-binary under 0.8x of json-bytes in Chromium on medium, large and chat",
      );
    },
    "cb-bytes-firefox": () => {
      const ratios = ["medium", "chat"].map((p) => cbOverBytes(FIREFOX, p));
      return claim(
        Math.max(...ratios) < 0.8,
        ratios.map((r) => `${two(r)}x`).join(", "),
        "custom-binary under 0.8x of json-bytes in Firefox on medium and chat",
      );
    },
    "cb-bytes-ff-large": () => two(cbOverBytes(FIREFOX, "large")),

    // Every codec in Bun.
    "bun-first": () => {
      const payloads = payloadsOf(BUN_ALL);
      const firstOn = payloads.filter((p) => order(BUN_ALL, p)[0] === "custom-binary");
      const others = payloads.filter((p) => !firstOn.includes(p));
      // Where another codec is first: which, both ratios, and "apart" where the two intervals do not overlap.
      const ahead = (p: string) => {
        const c = order(BUN_ALL, p)[0]!;
        const [rival, own] = [vs(at(BUN_ALL, p, c)), vs(cb(BUN_ALL, p))];
        return `${named(c)} is ahead, at ${two(rival.value)} of JSON's time against custom-binary's ${two(own.value)} (the two intervals ${overlap(rival, own) ? "overlapping" : "apart"})`;
      };
      const rest =
        others.length === 1
          ? `; on the ${ordinal(payloads.length)}, ${others[0]}, ${ahead(others[0]!)}`
          : others.map((p) => `; on ${p}, ${ahead(p)}`).join("");
      return `${of(firstOn.length, payloads.length)} payloads in Bun${rest}`;
    },
    "bun-rival": () => {
      const payloads = payloadsOf(BUN_ALL);
      const behind = (p: string) => order(BUN_ALL, p).filter((c) => c !== "custom-binary");
      const schemaFirst = (p: string) => behind(p).find(isSchema) ?? "none";
      const rival = schemaFirst(payloads[0]!);
      const notClosest = payloads.filter((p) => behind(p)[0] !== rival);
      return claim(
        payloads.every((p) => schemaFirst(p) === rival) &&
          notClosest.every((p) => behind(p)[0] === "json" && behind(p)[1] === rival),
        `${named(rival)} (${library(BUN_ALL, rival)}) is the fastest other schema codec on every payload, and the closest ${notClosest.length > 0 ? `on all but ${list(notClosest)}, where only JSON is closer:` : "on every one"}`,
        `${rival} as the fastest schema codec after custom-binary on every payload in Bun, with JSON alone closer where ${rival} is not the closest`,
      );
    },
    "field-first": () => {
      const payloads = payloadsOf(FIELD_ALL);
      const firstIn = payloads.filter((p) => order(FIELD_ALL, p, (c) => fieldVs(c).value)[0] === "custom-binary");
      return of(firstIn.length, payloads.length);
    },
    "field-vs-avro": () => {
      const payloads = payloadsOf(FIELD_ALL);
      const ratio = (p: string, codec: string) => fieldVs(at(FIELD_ALL, p, codec)).value;
      const level = payloads.filter(fieldLevel);
      const apart = payloads.filter((p) => !fieldLevel(p));
      const levelOn = level.map(
        (p) =>
          `${p} (${two(ratio(p, "custom-binary"))} of JSON's cost against ${two(ratio(p, "avro"))}, the intervals overlapping)`,
      );
      return `${range(
        apart.map((p) => ratio(p, "custom-binary") / ratio(p, "avro")),
        two,
      )}x Avro's cost on ${word(apart.length)} payloads${level.length > 0 ? `, and level with Avro on ${list(levelOn)}` : ""}`;
    },
    // On a level payload: which half of the server's work is custom-binary's slower one, and which its faster.
    "field-halves": () => {
      const level = payloadsOf(FIELD_ALL).filter(fieldLevel);
      const halves = level.map((p) => {
        const [own, avro] = [cb(FIELD_ALL, p).socket!, at(FIELD_ALL, p, "avro").socket!];
        const [enc, dec] = [
          [own.serverSerialize.mean, avro.serverSerialize.mean],
          [own.serverDeserialize.mean, avro.serverDeserialize.mean],
        ] as const;
        const half = ([a, b]: readonly [number, number]) => (a > b ? "slower" : "faster");
        return `on ${p} custom-binary's encode is the ${half(enc)} half there too (${us(enc[0])} against ${us(enc[1])} µs, the server's means), and its decode the ${half(dec)} (${us(dec[0])} against ${us(dec[1])} µs)`;
      });
      return claim(
        level.length > 0,
        halves.join("; "),
        "a payload where custom-binary and Avro are level inside the server",
      );
    },
    "avro-table": () =>
      table(
        ["payload", "custom-binary", "avro", "custom-binary vs avro, total"],
        payloadsOf(BUN_ALL).map((p) => {
          const halves = (c: CaseResult) => `${whole(ser(c))} / ${whole(de(c))}`;
          return [p, halves(cb(BUN_ALL, p)), halves(at(BUN_ALL, p, "avro")), two(overAvro(p))];
        }),
      ),
    // The decodes are "level" while within 5% of each other; the gap on each is printed, to a tenth under 1%.
    "decode-text": () => {
      const avsc = library(BUN_ALL, "avro");
      const pct = (x: number) => (Math.abs(x) < 1 ? one(Math.abs(x)) : String(Math.round(Math.abs(x))));
      const leader = (p: string) => (decodeBehind(p) > 0 ? avsc : "custom-binary");
      const gaps = TEXTUAL.map((p, i) =>
        i > 0 && leader(p) === leader(TEXTUAL[i - 1]!)
          ? `${pct(decodeBehind(p))}% on ${p}`
          : `${leader(p)} ${pct(decodeBehind(p))}% ahead on ${p}`,
      ).join(", ");
      const level = TEXTUAL.every((p) => Math.abs(decodeBehind(p)) < 5);
      return `${level ? "level" : "apart"} on ${list(TEXTUAL)} (${gaps})`;
    },
    // The encode ratios between whole numbers: the least rounded down, the most rounded up ("2-3x" for 2.1 and 2.7).
    "encode-text": () => {
      const faster = TEXTUAL.map((p) => ser(at(BUN_ALL, p, "avro")) / ser(cb(BUN_ALL, p)));
      return claim(
        Math.min(...faster) > 1,
        `${Math.floor(Math.min(...faster))}-${Math.ceil(Math.max(...faster))}x`,
        "custom-binary encoding medium and large faster than Avro in Bun",
      );
    },
    "avro-by": () => avroBullet().by,
    "avro-behind": () => two(overAvro(AVRO_BULLET)),
    // "as fast" where the two read the same to 10 ns, "a little faster" within 10% of Avro's decode.
    "avro-halves": () => {
      const { cb: own, avro } = avroBullet();
      const same = us(de(own)) === us(de(avro));
      const ratio = de(own) / de(avro);
      const decodes = same ? "as fast" : ratio < 0.9 ? "faster" : ratio < 1 ? "a little faster" : "slower";
      const encodes = ser(own) < ser(avro) ? "faster" : "slower";
      return `decodes ${decodes} (${us(de(own))} against ${us(de(avro))} µs) and encodes ${encodes} (${us(ser(own))} against ${us(ser(avro))} µs)`;
    },
    "avro-bytes": () => {
      const { cb: own, avro } = avroBullet();
      const smaller = 1 - own.bytes / avro.bytes;
      return `${Math.round(Math.abs(smaller) * 100)}% ${smaller >= 0 ? "smaller" : "larger"} than Avro's (${whole(own.bytes)} against ${whole(avro.bytes)} bytes)`;
    },
    "avro-stays": () => avroBullet().by,
    "avro-extra": () => {
      const { cb: own, avro } = avroBullet();
      return String(Math.round((ser(own) - ser(avro)) / 10) * 10);
    },
    "avro-field": () => (fieldLevel(AVRO_BULLET) ? "level" : "apart"),
    "market-encodes": () => (ser(at(BUN_ALL, "market", "avro")) < ser(cb(BUN_ALL, "market")) ? "faster" : "slower"),
    "market-encode-ns": () =>
      `${whole(ser(at(BUN_ALL, "market", "avro")))} against ${whole(ser(cb(BUN_ALL, "market")))}`,
    // "twice as fast" while Avro's decode over custom-binary's is 2 to one decimal; any other ratio as itself.
    "market-decodes": () => {
      const [own, avro] = [de(cb(BUN_ALL, "market")), de(at(BUN_ALL, "market", "avro"))];
      const times = short(avro / own);
      return `${times === "2" ? "twice" : `${times}x`} as fast (${whole(own)} against ${whole(avro)} ns)`;
    },
    "market-total": () => two(overAvro("market")),

    // Every codec in Chromium.
    "chromium-first": () => {
      const payloads = payloadsOf(CHROMIUM_ALL);
      const notFirst = payloads.filter((p) => order(CHROMIUM_ALL, p)[0] !== "custom-binary");
      // Where another codec is first: "level with" it while custom-binary's interval holds 1 (JSON's ratio), "behind" it otherwise.
      const standing = (p: string) => {
        const r = vs(cb(CHROMIUM_ALL, p));
        return ` and ${approx(r) ? "level with" : "behind"} ${named(order(CHROMIUM_ALL, p)[0]!)} on ${p} (${approx(r)}${two(r.value)}, its interval ${two(r.low)}-${two(r.high)})`;
      };
      return `${of(payloads.length - notFirst.length, payloads.length)} payloads${notFirst.map(standing).join("")}`;
    },
    "chromium-ahead": () => {
      const payloads = payloadsOf(CHROMIUM_ALL);
      const aheadOf = payloads.filter((p) => order(CHROMIUM_ALL, p).filter((c) => c !== "json")[0] === "custom-binary");
      return of(aheadOf.length, payloads.length);
    },
    "chromium-vs-schema": () =>
      range(
        payloadsOf(CHROMIUM_ALL).map((p) => {
          const rival = order(CHROMIUM_ALL, p).find((c) => c !== "custom-binary" && isSchema(c)) ?? "none";
          return vsJson(cb(CHROMIUM_ALL, p)) / vsJson(at(CHROMIUM_ALL, p, rival));
        }),
        two,
      ),
    // The range is of the payloads where avsc costs at least twice JSON's time; a cheaper one is named on its own.
    "chromium-avro": () => {
      const payloads = payloadsOf(CHROMIUM_ALL);
      const avroX = (p: string) => vsJson(at(CHROMIUM_ALL, p, "avro"));
      const dear = payloads.filter((p) => avroX(p) >= 2);
      const cheap = payloads.filter((p) => avroX(p) < 2);
      return `${range(dear.map(avroX), one)}x JSON's time in this run${cheap.map((p) => `, ${one(avroX(p))}x on ${p}`).join("")}`;
    },
    "chromium-table": () => {
      const codecs = ["custom-binary", "bebop", "pbf", "protobuf", "json"];
      return table(
        ["payload", ...codecs],
        payloadsOf(CHROMIUM_ALL).map((p) => [p, ...codecs.map((c) => `${whole(cSer(p, c))} / ${whole(cDe(p, c))}`)]),
      );
    },
    "text-lead": () =>
      claim(
        leadsOn(TEXT_HEAVY, cSer) && leadsOn(TEXT_HEAVY, cDe),
        "both halves lead",
        "custom-binary's encode and decode each faster than every other codec's but JSON's on medium, large and chat in Chromium",
      ),
    "text-encoder": () =>
      range(
        TEXT_HEAVY.flatMap((p) => ["bebop", "pbf"].map((c) => cSer(p, c) / cSer(p, "custom-binary"))),
        short,
      ),
    "text-decoder": () =>
      range(
        TEXT_HEAVY.map((p) => cDe(p, "bebop") / cDe(p, "custom-binary")),
        short,
      ),
    "parse-large": () =>
      claim(
        cDe("large", "json") < cDe("large", "custom-binary"),
        `${whole(cDe("large", "json"))} against ${whole(cDe("large", "custom-binary"))}`,
        "JSON.parse decoding the large message faster than custom-binary in Chromium",
      ),
    // small: the best other codec on each half.
    "small-halves": () => {
      const best = (half: (p: string, c: string) => number) =>
        codecsOf(CHROMIUM_ALL, "small")
          .filter((c) => c !== "custom-binary")
          .sort((a, b) => half("small", a) - half("small", b))[0]!;
      const [encodes, decodes] = [best(cSer), best(cDe)];
      return `${library(CHROMIUM_ALL, encodes)} encodes in ${whole(cSer("small", encodes))} ns against its ${whole(cSer("small", "custom-binary"))}, ${library(CHROMIUM_ALL, decodes)} decodes in ${whole(cDe("small", decodes))} against its ${whole(cDe("small", "custom-binary"))}`;
    },
    "small-sum": () =>
      claim(
        order(CHROMIUM_ALL, "small")[0] === "custom-binary",
        "ahead on the sum",
        "custom-binary first on the small message's total in Chromium",
      ),
    "game-tick-encoder": () =>
      claim(
        leadsOn(["game-tick"], cSer),
        "the encoder carries it",
        "custom-binary's encode of game-tick faster than every other codec's in Chromium",
      ),
    "bebop-game-tick": () => one(cDe("game-tick", "custom-binary") / cDe("game-tick", "bebop")),
    "market-decoder": () =>
      claim(
        leadsOn(["market"], cDe),
        "the decoder carries it",
        "custom-binary's decode of market faster than every other codec's in Chromium",
      ),
    "market-decode-ns": () => whole(cDe("market", "custom-binary")),
    "market-protobuf": () => whole(cDe("market", "protobuf")),
    // "over N": the faster of Bebop's and pbf's decodes, rounded down to a hundred.
    "market-over": () => String(Math.floor(Math.min(cDe("market", "bebop"), cDe("market", "pbf")) / 100) * 100),
    "market-half": () =>
      claim(
        ["bebop", "pbf"].every((c) => Math.abs(cSer("market", c) / cSer("market", "custom-binary") - 0.5) < 0.1),
        "about half",
        "Bebop's and pbf's encodes of market within 0.4-0.6x of custom-binary's in Chromium",
      ),
  },
};

/** A browser's major version, from its run's runtime version ("Chrome 156.0.7600.0"). */
function browserMajor(b: Run, browser: string): string {
  const version = sampleResults(b.file).environment.runtimeVersion;
  const m = new RegExp(`^${browser} (\\d+)\\.`).exec(version);
  if (!m) throw new Error(`results/sample/${b.file}: runtime version "${version}" is not ${browser}'s`);
  return m[1]!;
}
