/**
 * Keeps docs/custom-binary-performance.md true to the committed runs it
 * quotes: custom-binary against JSON in the three default runs, its decode
 * against JSON's, the two browsers' codec-mode runs, and every codec in Bun,
 * inside the server and in Chromium.
 */
import { describe, expect, it } from "vitest";
import { BUILT_IN } from "../../protocols/registry.ts";
import { codecRows, crosscheckRows, csvSample, doc, flat, num, type Row } from "../helpers/samples.ts";
import { fixed, halfWidth, list, ordinal, plusMinus, range, whole, word } from "../helpers/prose.ts";

const page = doc("custom-binary-performance.md");
const text = flat(page);
const two = fixed(2);
const one = fixed(1);
/** Nanoseconds as the page's tables write them: 987, 1,080, 16,600 (three significant digits from 1,000). */
const ns3 = (x: number) => (x < 1000 ? String(Math.round(x)) : Number(x.toPrecision(3)).toLocaleString("en-US"));
/** A ratio without a trailing zero: 1.8, 3. */
const short = (x: number) => String(Number(x.toFixed(1)));
/** A codec as the page names it: the format's proper name where it has one, else the codec's own name. */
const NAMED: Record<string, string> = { json: "JSON", avro: "Avro", bebop: "Bebop" };
const named = (codec: string) => NAMED[codec] ?? codec;
/** The npm package a codec's work is done by (avsc, protobufjs), as the page names it; the codec's name when built in. */
const library = (codec: string) => BUILT_IN.get(codec)?.library || named(codec);
/** The payloads made mostly of text (the message generator's). */
const TEXT_HEAVY = ["medium", "large", "chat"];
const vsJson = (r: Row) => num(r, "total_vs_json");
const low = (r: Row) => num(r, "total_vs_json_ci95_low");
const high = (r: Row) => num(r, "total_vs_json_ci95_high");
/** ≈ before a ratio whose 95% interval holds 1: the run cannot tell it from JSON's. */
const approx = (r: Row) => (low(r) <= 1 && high(r) >= 1 ? "≈" : "");

/** A committed run's rows of one mode, by payload and codec. */
function run(name: string, mode: string) {
  const file = csvSample(name);
  const at = (payload: string, codec: string) => file.row({ mode, payload, codec });
  const payloads = [...new Set(file.where({ mode }).map((r) => r("payload")))];
  /** The codecs of a payload that are codecs: not raw (no codec) nor a calibration codec. */
  const codecs = (payload: string) =>
    file
      .where({ mode, payload })
      .map((r) => r("codec"))
      .filter((c) => c !== "raw" && !c.startsWith("cal-"));
  return { at, payloads, codecs, rows: file.where({ mode }) };
}

describe("docs/custom-binary-performance.md", () => {
  it("custom-binary against JSON in the three default runs is what their files say", () => {
    const runs = [1, 2, 3].map((n) => run(`epyc-default-${n}.csv`, "codec"));
    const across = (payload: string) =>
      range(
        runs.map((r) => vsJson(r.at(payload, "custom-binary"))),
        two,
      );
    const days = new Set(runs.map((r) => r.rows[0]!("timestamp").slice(0, 10)));
    expect([...days], "the days of the three default runs").toHaveLength(1);
    expect(text).toContain(
      `(${across("small")} / ${across("medium")} / ${across("large")} in the three back-to-back default runs of ${[...days][0]},`,
    );
  });

  it("custom-binary against JSON, against json-bytes and in the plain loop is the default run's and the cross-check's", () => {
    const first = codecRows("epyc-default-1.csv");
    const three = (f: (payload: string) => number) => ["small", "medium", "large"].map((p) => two(f(p))).join(" / ");
    const over = (p: string, codec: string) =>
      num(first(p, "custom-binary"), "total_ns") / num(first(p, codec), "total_ns");
    const plain = crosscheckRows().filter((r) => r.codec === "custom-binary");
    expect(text).toContain(
      `custom-binary's total per message against JSON's is ${three((p) => num(first(p, "custom-binary"), "total_vs_json"))} (small / medium / large), against \`json-bytes\`'s ${three((p) => over(p, "json-bytes"))}`,
    );
    expect(text).toContain(`gives ${three((p) => plain.find((r) => r.payload === p)!.plain)}.`);
  });

  it("custom-binary's decode against JSON's, and against json-bytes', is the default run's", () => {
    const bun = run("epyc-default-1.csv", "codec");
    const decode = (payload: string, codec: string) => num(bun.at(payload, codec), "deserialize_ns");
    const of = (codec: string, base: string) => (p: string) => decode(p, codec) / decode(p, base);
    const cbOverJson = of("custom-binary", "json");
    expect(text).toContain(
      `custom-binary's decode is ${two(cbOverJson("medium"))}x and ${two(cbOverJson("large"))}x of the \`json\` codec's on the medium and large messages`,
    );
    const bytesOverJson = of("json-bytes", "json");
    expect(one(bytesOverJson("medium")), "json-bytes over json's decode, medium against large").toBe(
      one(bytesOverJson("large")),
    );
    const cbOverBytes = of("custom-binary", "json-bytes");
    expect(text).toContain(
      `JSON's decode costs ${one(bytesOverJson("medium"))}x what the \`json\` codec's does on the medium and large messages, and custom-binary's is ${two(cbOverBytes("medium"))}x (medium) and ${two(cbOverBytes("large"))}x (large) of it`,
    );
  });

  describe("both browsers, codec mode (the engines runs)", () => {
    const chromium = run("engines-chromium.csv", "codec");
    const firefox = run("engines-firefox.csv", "codec");
    const cb = (browser: typeof chromium, payload: string) => browser.at(payload, "custom-binary");

    it("the runs are the browsers and the day the text names", () => {
      const first = (b: typeof chromium) => b.rows[0]!;
      const days = new Set([chromium, firefox].map((b) => first(b)("timestamp").slice(0, 10)));
      expect([...days], "the days of the two runs").toHaveLength(1);
      expect(text).toContain(`(the committed runs on ${[...days][0]},`);
      /** The browser's major version, from a runtime_version such as "Chrome 156.0.7600.0". */
      const major = (b: typeof chromium, browser: string) => {
        const version = first(b)("runtime_version");
        const pattern = new RegExp(`^${browser} (\\d+)\\.`);
        expect(version, `${browser}'s runtime_version`).toMatch(pattern);
        return pattern.exec(version)?.[1];
      };
      expect(text).toContain(
        `headless Chromium ${major(chromium, "Chrome")} (V8) and Firefox ESR ${major(firefox, "Firefox")} (SpiderMonkey)`,
      );
      const tick = (b: typeof chromium) => Math.round(num(first(b), "timer_resolution_ns") / 1000);
      for (const [name, b] of [
        ["Chromium", chromium],
        ["Firefox", firefox],
      ] as const)
        expect(first(b)("cross_origin_isolated"), `${name} cross_origin_isolated`).toBe("true");
      expect(text).toContain(`(their clocks tick every ${tick(chromium)} and ${tick(firefox)} µs;`);
    });

    it("the table of custom-binary against JSON and each half is the two runs', row by row", () => {
      /** Half the width of a ratio's interval, as the table writes it: ±1.7%, ±44%. */
      const pm = (r: Row) => plusMinus(halfWidth({ ratio: vsJson(r), low: low(r), high: high(r) }));
      /** ≈ where the interval holds 1; bold where the ratio misses the 0.8 target. */
      const ratio = (r: Row) => {
        const shown = `${approx(r)}${two(vsJson(r))}`;
        return `${vsJson(r) > 0.8 ? `**${shown}**` : shown} ${pm(r)}`;
      };
      const halves = (b: typeof chromium, p: string) => {
        const h = (r: Row) => `${ns3(num(r, "serialize_ns"))} / ${ns3(num(r, "deserialize_ns"))}`;
        return `${h(cb(b, p))} vs ${h(b.at(p, "json"))}`;
      };
      expect(chromium.payloads).toEqual(["small", "medium", "large", "chat", "game-tick", "market"]);
      for (const p of chromium.payloads)
        expect(page).toContain(
          `| ${p} | ${ratio(cb(chromium, p))} | ${halves(chromium, p)} | ${ratio(cb(firefox, p))} | ${halves(firefox, p)} |`,
        );
    });

    it("where the 0.8 target holds and where it is missed is what the intervals say", () => {
      const browsers = [
        ["Chromium", chromium],
        ["Firefox", firefox],
      ] as const;
      // Met where the whole interval lies below 0.8, missed where it lies above; between, the run shows neither.
      const met = (b: typeof chromium) => b.payloads.filter((p) => high(cb(b, p)) < 0.8);
      const missed = (b: typeof chromium) => b.payloads.filter((p) => low(cb(b, p)) > 0.8);
      /** The payloads of a verdict in both browsers, and those of each browser alone, as ", and on small in Chromium". */
      const split = (of: (b: typeof chromium) => string[]) => {
        const both = of(chromium).filter((p) => of(firefox).includes(p));
        const alone = browsers
          .map(([name, b]) => [name, of(b).filter((p) => !both.includes(p))] as const)
          .filter(([, ps]) => ps.length > 0)
          .map(([name, ps]) => `, and on ${list(ps)} in ${name}`)
          .join("");
        return { both, alone };
      };
      const holds = split(met);
      expect(text).toContain(`The target holds on ${list(holds.both)} in both browsers${holds.alone}.`);
      const misses = split(missed);
      expect(
        misses.both.filter((p) => !TEXT_HEAVY.includes(p)),
        "payloads missed in both that are not text-heavy",
      ).toEqual([]);
      expect(text).toContain(
        `It is missed on the ${word(misses.both.length)} text-heavy payloads, ${list(misses.both)}, in both${misses.alone} (every interval there lies above 0.8).`,
      );
      // Where a browser's run neither meets nor misses the target, the page says so of each; where none is, it says it of none.
      const unsettled = browsers.flatMap(([name, b]) =>
        b.payloads.filter((q) => !met(b).includes(q) && !missed(b).includes(q)).map((p) => ({ name, p, r: cb(b, p) })),
      );
      for (const { name, p, r } of unsettled)
        expect(text).toContain(
          `On ${p} in ${name} the ratio is ${two(vsJson(r))} but its interval runs from ${two(low(r))} to ${two(high(r))}, so this run does not show the target met there.`,
        );
      expect(text.split("so this run does not show the target met there").length - 1).toBe(unsettled.length);
      const committed = [cb(chromium, "medium"), cb(chromium, "chat"), cb(firefox, "chat")].map(vsJson);
      const ffMedium = cb(firefox, "medium");
      expect(text).toContain(
        `and at ${range(committed, two)} in the committed runs (medium and chat in Chromium, chat in Firefox; Firefox's ${approx(ffMedium)}${two(vsJson(ffMedium))} on medium`,
      );
    });

    it("Firefox's decoder against JSON.parse, median and fastest rounds, is the Firefox run's", () => {
      const d = (p: string, codec: string, col = "deserialize_ns") => num(firefox.at(p, codec), col);
      const best = (p: string, codec: string) => d(p, codec, "deserialize_round_min_ns");
      expect(text).toContain(
        `SpiderMonkey's \`JSON.parse\` reads medium in ${ns3(d("medium", "json"))} ns and custom-binary's decoder took ${ns3(d("medium", "custom-binary"))} at the median of the rounds (large: ${ns3(d("large", "json"))} against ${ns3(d("large", "custom-binary"))}). Its fastest rounds took ${ns3(best("medium", "custom-binary"))} and ${ns3(best("large", "custom-binary"))} ns`,
      );
      // Even at its best, custom-binary's decoder is slower than JSON.parse's median.
      for (const p of ["medium", "large"])
        expect(
          best(p, "custom-binary"),
          `${p}: custom-binary's fastest round against JSON.parse's median`,
        ).toBeGreaterThan(d(p, "json"));
      // "within N%": the farther of the two medians from JSON.parse's fastest round, rounded up to a whole percent.
      const parseOver = Math.max(...["medium", "large"].map((p) => d(p, "json") / best(p, "json")));
      expect(text).toContain(
        `\`JSON.parse\`'s medians on these two sit within ${Math.ceil((parseOver - 1) * 100)}% of its fastest rounds`,
      );
      const times = (p: string) => one(d(p, "custom-binary") / best(p, "custom-binary"));
      expect(text).toContain(
        `on large the median round ran custom-binary's decoder at ${times("large")} times its best (on medium ${times("medium")} times)`,
      );
    });

    it("Firefox's JSON.stringify is slower than V8's on every payload, and custom-binary's encoder beats it", () => {
      const encode = (b: typeof chromium, p: string, codec: string) => num(b.at(p, codec), "serialize_ns");
      for (const p of firefox.payloads) {
        expect(encode(firefox, p, "json"), p).toBeGreaterThan(encode(chromium, p, "json"));
        expect(encode(firefox, p, "custom-binary"), p).toBeLessThan(encode(firefox, p, "json"));
      }
      expect(text).toContain(
        "Firefox's `JSON.stringify` is slower than V8's, and custom-binary's encoder beats it on every payload.",
      );
    });

    it("JSON charged for its UTF-8 (json-bytes), and custom-binary against that, are the two runs'", () => {
      const bytes = (b: typeof chromium) => TEXT_HEAVY.map((p) => vsJson(b.at(p, "json-bytes")));
      const cbOverBytes = (b: typeof chromium, p: string) => vsJson(cb(b, p)) / vsJson(b.at(p, "json-bytes"));
      expect(text).toContain(
        `JSON costs ${range(bytes(chromium), one)}x (Chromium) and ${range(bytes(firefox), one)}x (Firefox) of its codec-mode time on these three payloads, and custom-binary is well under 0.8x of that in Chromium (${range(
          TEXT_HEAVY.map((p) => cbOverBytes(chromium, p)),
          two,
        )}x) and on medium and chat in Firefox (${two(cbOverBytes(firefox, "medium"))}x, ${two(cbOverBytes(firefox, "chat"))}x); on large in Firefox, with the slow decoder above, it is ${two(cbOverBytes(firefox, "large"))}x`,
      );
      expect(
        Math.max(...TEXT_HEAVY.map((p) => cbOverBytes(chromium, p))),
        "custom-binary over json-bytes in Chromium, the most of the three",
      ).toBeLessThan(0.8);
    });
  });

  describe("against every other codec", () => {
    const bun = run("epyc-every-codec.csv", "codec");
    const field = run("epyc-every-codec-field.csv", "stream");
    const chromium = run("chromium-every-codec.csv", "codec");
    /** The codecs of a payload fastest first, by their ratio to JSON (a figure `ratio` picks). */
    const order = (r: typeof bun, p: string, ratio = vsJson) =>
      [...r.codecs(p)].sort((a, b) => ratio(r.at(p, a)) - ratio(r.at(p, b)));
    const fieldVs = (r: Row) => num(r, "field_vs_json");
    const overlap = (a: Row, b: Row, lo: string, hi: string) => num(a, lo) <= num(b, hi) && num(b, lo) <= num(a, hi);
    /** Inside the server, custom-binary and Avro are level on a payload where their field intervals overlap. */
    const fieldLevel = (p: string) =>
      overlap(field.at(p, "custom-binary"), field.at(p, "avro"), "field_vs_json_ci95_low", "field_vs_json_ci95_high");
    /** A count of payloads as the page writes it: "all six" where it is every one of them, else "five". */
    const of = (n: number, all: number) => (n === all ? `all ${word(n)}` : word(n));

    it("in Bun custom-binary is first on every payload but one, where Avro is ahead with the two intervals apart", () => {
      const firstOn = bun.payloads.filter((p) => order(bun, p)[0] === "custom-binary");
      const others = bun.payloads.filter((p) => !firstOn.includes(p));
      // Where another codec is first: which, both ratios, and "apart" where the two intervals do not overlap, "overlapping" where they do.
      const ahead = (p: string) => {
        const c = order(bun, p)[0]!;
        const [rival, cb] = [bun.at(p, c), bun.at(p, "custom-binary")];
        const apart = !overlap(rival, cb, "total_vs_json_ci95_low", "total_vs_json_ci95_high");
        return `${named(c)} is ahead, at ${two(vsJson(rival))} of JSON's time against custom-binary's ${two(vsJson(cb))} (the two intervals ${apart ? "apart" : "overlapping"})`;
      };
      const rest =
        others.length === 1
          ? `; on the ${ordinal(bun.payloads.length)}, ${others[0]}, ${ahead(others[0]!)}`
          : others.map((p) => `; on ${p}, ${ahead(p)}`).join("");
      expect(text).toContain(`puts it first on ${of(firstOn.length, bun.payloads.length)} payloads in Bun${rest}`);
      // The fastest other schema codec, the same on every payload, and the closest but where JSON alone is closer.
      const behind = (q: string) => order(bun, q).filter((c) => c !== "custom-binary");
      const schemaFirst = (q: string) => behind(q).find((c) => BUILT_IN.get(c)?.family === "schema") ?? "none";
      const rival = schemaFirst(bun.payloads[0]!);
      for (const q of bun.payloads)
        expect(schemaFirst(q), `${q}: the fastest schema codec after custom-binary`).toBe(rival);
      const notClosest = bun.payloads.filter((q) => behind(q)[0] !== rival);
      expect(
        notClosest.map((q) => `${q}: ${behind(q).slice(0, 2).join(", ")}`),
        `where ${rival} is not the closest, the two closest`,
      ).toEqual(notClosest.map((q) => `${q}: json, ${rival}`));
      expect(text).toContain(
        `${named(rival)} (${library(rival)}) is the fastest other schema codec on every payload, and the closest ${notClosest.length > 0 ? `on all but ${list(notClosest)}, where only JSON is closer:` : "on every one"}`,
      );
    });

    it("inside the server custom-binary is first on all six, and its cost against Avro's is the field run's", () => {
      const firstIn = field.payloads.filter((p) => order(field, p, fieldVs)[0] === "custom-binary");
      expect(text).toContain(
        `Inside the server custom-binary is first on ${of(firstIn.length, field.payloads.length)}:`,
      );
      const level = field.payloads.filter(fieldLevel);
      const apart = field.payloads.filter((p) => !fieldLevel(p));
      const vsAvro = apart.map((p) => fieldVs(field.at(p, "custom-binary")) / fieldVs(field.at(p, "avro")));
      const levelOn = level.map(
        (p) =>
          `${p} (${two(fieldVs(field.at(p, "custom-binary")))} of JSON's cost against ${two(fieldVs(field.at(p, "avro")))}, the intervals overlapping)`,
      );
      expect(text).toContain(
        `puts it at ${range(vsAvro, two)}x Avro's cost on ${word(apart.length)} payloads${level.length > 0 ? `, and level with Avro on ${list(levelOn)}` : ""}`,
      );
      const us = (r: Row, col: string) => two(num(r, col) / 1000);
      // On a level payload: which half of the server's work is custom-binary's slower one, and which its faster.
      expect(text.split("half there too").length - 1, "a sentence of halves for each level payload").toBe(level.length);
      for (const p of level) {
        const [cb, avro] = [field.at(p, "custom-binary"), field.at(p, "avro")];
        const half = (col: string) => (num(cb, col) > num(avro, col) ? "slower" : "faster");
        const [enc, dec] = ["server_serialize_mean_ns", "server_deserialize_mean_ns"];
        expect(text).toContain(
          `on ${p} custom-binary's encode is the ${half(enc)} half there too (${us(cb, enc)} against ${us(avro, enc)} µs, the server's means), and its decode the ${half(dec)} (${us(cb, dec)} against ${us(avro, dec)} µs)`,
        );
      }
    });

    it("the table of custom-binary and Avro in codec mode is the every-codec run's, row by row", () => {
      const halves = (r: Row) => `${whole(num(r, "serialize_ns"))} / ${whole(num(r, "deserialize_ns"))}`;
      for (const p of bun.payloads) {
        const [cb, avro] = [bun.at(p, "custom-binary"), bun.at(p, "avro")];
        expect(page).toContain(`| ${p} | ${halves(cb)} | ${halves(avro)} | ${two(vsJson(cb) / vsJson(avro))} |`);
      }
    });

    it("what it says of each half against Avro is the every-codec run's", () => {
      const at = (p: string, codec: string, col: string) => num(bun.at(p, codec), col);
      const avsc = library("avro");
      /** How much slower custom-binary's decode is than Avro's, in percent (below 0: faster). */
      const decodeBehind = (p: string) =>
        (at(p, "custom-binary", "deserialize_ns") / at(p, "avro", "deserialize_ns") - 1) * 100;
      const textual = ["medium", "large"];
      // The decodes are "level" while within 5% of each other; the gap on each is printed, to a tenth under 1%.
      const pct = (x: number) => (Math.abs(x) < 1 ? one(Math.abs(x)) : String(Math.round(Math.abs(x))));
      const leader = (p: string) => (decodeBehind(p) > 0 ? avsc : "custom-binary");
      const gaps = textual
        .map((p, i) =>
          i > 0 && leader(p) === leader(textual[i - 1]!)
            ? `${pct(decodeBehind(p))}% on ${p}`
            : `${leader(p)} ${pct(decodeBehind(p))}% ahead on ${p}`,
        )
        .join(", ");
      const level = textual.every((p) => Math.abs(decodeBehind(p)) < 5);
      expect(text).toContain(`the two are ${level ? "level" : "apart"} on ${list(textual)} (${gaps})`);
      // The encode ratios between whole numbers: the least rounded down, the most rounded up ("2-3x" for 2.1 and 2.7).
      const faster = textual.map((p) => at(p, "avro", "serialize_ns") / at(p, "custom-binary", "serialize_ns"));
      const [lo, hi] = [Math.floor(Math.min(...faster)), Math.ceil(Math.max(...faster))];
      expect(text).toContain(`custom-binary is ${lo}-${hi}x faster on ${list(textual)}`);
      // Each payload whose total goes to Avro has its bullet, and no other.
      const toAvro = bun.payloads.filter((p) => vsJson(bun.at(p, "custom-binary")) > vsJson(bun.at(p, "avro")));
      const bullets = [...text.matchAll(/\*\*(\S+) goes to Avro by/g)].map((m) => m[1]);
      expect(bullets, "the payloads the page says go to Avro").toEqual(toAvro);
      const us = (r: Row, col: string) => two(num(r, col) / 1000);
      for (const p of toAvro) {
        const [cb, avro] = [bun.at(p, "custom-binary"), bun.at(p, "avro")];
        const behind = vsJson(cb) / vsJson(avro);
        const by = Math.round((behind - 1) * 100);
        // "as fast" where the two read the same to 10 ns, "a little faster" within 10% of Avro's decode.
        const de = num(cb, "deserialize_ns") / num(avro, "deserialize_ns");
        const same = us(cb, "deserialize_ns") === us(avro, "deserialize_ns");
        const decodes = same ? "as fast" : de < 0.9 ? "faster" : de < 1 ? "a little faster" : "slower";
        const encodes = num(cb, "serialize_ns") < num(avro, "serialize_ns") ? "faster" : "slower";
        expect(text).toContain(
          `**${p} goes to Avro by ${by}%** (${two(behind)}): custom-binary decodes ${decodes} (${us(cb, "deserialize_ns")} against ${us(avro, "deserialize_ns")} µs) and encodes ${encodes} (${us(cb, "serialize_ns")} against ${us(avro, "serialize_ns")} µs)`,
        );
        const smaller = 1 - num(cb, "bytes") / num(avro, "bytes");
        expect(text).toContain(
          `its frames ${Math.round(Math.abs(smaller) * 100)}% ${smaller >= 0 ? "smaller" : "larger"} than Avro's (${whole(num(cb, "bytes"))} against ${whole(num(avro, "bytes"))} bytes)`,
        );
        const extra = num(cb, "serialize_ns") - num(avro, "serialize_ns");
        expect(text).toContain(
          `so the ${by}% stays: the size is worth more on a socket than about ${Math.round(extra / 10) * 10} ns of encode per message (see the stream and fanout figures), and inside the server, where the decode weighs as much, the two are ${fieldLevel(p) ? "level" : "apart"}.`,
        );
      }
      const m = (codec: string, col: string) => at("market", codec, col);
      const encodes = m("avro", "serialize_ns") < m("custom-binary", "serialize_ns") ? "faster" : "slower";
      // "twice as fast" while Avro's decode over custom-binary's is 2 to one decimal; any other ratio as itself.
      const decodeTimes = m("avro", "deserialize_ns") / m("custom-binary", "deserialize_ns");
      const asFast = short(decodeTimes) === "2" ? "twice" : `${short(decodeTimes)}x`;
      expect(text).toContain(
        `${avsc} encodes ${encodes} (${whole(m("avro", "serialize_ns"))} against ${whole(m("custom-binary", "serialize_ns"))} ns: market has one string and six numbers, and ${avsc}'s generated writer is a straight line), custom-binary decodes ${asFast} as fast (${whole(m("custom-binary", "deserialize_ns"))} against ${whole(m("avro", "deserialize_ns"))} ns), and the total is ${two(vsJson(bun.at("market", "custom-binary")) / vsJson(bun.at("market", "avro")))}.`,
      );
    });

    it("in Chromium custom-binary's standing, and Avro's cost, are the Chromium every-codec run's", () => {
      const n = chromium.payloads.length;
      const firstOn = chromium.payloads.filter((p) => order(chromium, p)[0] === "custom-binary");
      const notFirst = chromium.payloads.filter((p) => !firstOn.includes(p));
      // Where another codec is first: "level with" it while custom-binary's interval holds 1 (JSON's ratio), "behind" it otherwise.
      const standing = (p: string) => {
        const r = chromium.at(p, "custom-binary");
        return ` and ${approx(r) ? "level with" : "behind"} ${named(order(chromium, p)[0]!)} on ${p} (${approx(r)}${two(vsJson(r))}, its interval ${two(low(r))}-${two(high(r))})`;
      };
      const aheadOf = chromium.payloads.filter(
        (p) => order(chromium, p).filter((c) => c !== "json")[0] === "custom-binary",
      );
      const vsRival = chromium.payloads.map((p) => {
        const rival =
          order(chromium, p).find((c) => c !== "custom-binary" && BUILT_IN.get(c)?.family === "schema") ?? "none";
        return vsJson(chromium.at(p, "custom-binary")) / vsJson(chromium.at(p, rival));
      });
      expect(text).toContain(
        `custom-binary is first on ${of(firstOn.length, n)} payloads${notFirst.map(standing).join("")}, ahead of every other codec on ${of(aheadOf.length, n)}, at ${range(vsRival, two)}x the fastest other schema codec's time`,
      );
      // The range is of the payloads where avsc costs at least twice JSON's time; a cheaper one is named on its own.
      const avroX = (p: string) => vsJson(chromium.at(p, "avro"));
      const dear = chromium.payloads.filter((p) => avroX(p) >= 2);
      const cheap = chromium.payloads.filter((p) => avroX(p) < 2);
      expect(text).toContain(
        `${range(dear.map(avroX), one)}x JSON's time in this run${cheap.map((p) => `, ${one(avroX(p))}x on ${p}`).join("")})`,
      );
    });

    it("the table of serialize / deserialize in Chromium is the run's, row by row", () => {
      const halves = (p: string, codec: string) =>
        `${whole(num(chromium.at(p, codec), "serialize_ns"))} / ${whole(num(chromium.at(p, codec), "deserialize_ns"))}`;
      for (const p of chromium.payloads)
        expect(page).toContain(
          `| ${p} | ${["custom-binary", "bebop", "pbf", "protobuf", "json"].map((c) => halves(p, c)).join(" | ")} |`,
        );
    });

    it("where custom-binary's lead in Chromium comes from is what the run says", () => {
      const ser = (p: string, c: string) => num(chromium.at(p, c), "serialize_ns");
      const de = (p: string, c: string) => num(chromium.at(p, c), "deserialize_ns");
      const others = (p: string) => chromium.codecs(p).filter((c) => c !== "custom-binary" && c !== "json");
      for (const p of TEXT_HEAVY)
        for (const c of others(p)) {
          expect(ser(p, "custom-binary"), `${p} ${c} encode`).toBeLessThan(ser(p, c));
          expect(de(p, "custom-binary"), `${p} ${c} decode`).toBeLessThan(de(p, c));
        }
      const encoder = TEXT_HEAVY.flatMap((p) => ["bebop", "pbf"].map((c) => ser(p, c) / ser(p, "custom-binary")));
      const decoder = TEXT_HEAVY.map((p) => de(p, "bebop") / de(p, "custom-binary"));
      expect(text).toContain(
        `The encoder is ${range(encoder, short)}x faster than Bebop's and pbf's (one pass per string, as in Bun), and the decoder ${range(decoder, short)}x faster than Bebop's. \`JSON.parse\` still decodes large faster (${whole(de("large", "json"))} against ${whole(de("large", "custom-binary"))} ns)`,
      );
      // small: the best other codec on each half, and first on the sum.
      const best = (f: (p: string, c: string) => number) =>
        chromium
          .codecs("small")
          .filter((c) => c !== "custom-binary")
          .sort((a, b) => f("small", a) - f("small", b))[0]!;
      const [encodes, decodes] = [best(ser), best(de)];
      expect(order(chromium, "small")[0], "small: the first on the sum").toBe("custom-binary");
      expect(text).toContain(
        `(${library(encodes)} encodes in ${whole(ser("small", encodes))} ns against its ${whole(ser("small", "custom-binary"))}, ${library(decodes)} decodes in ${whole(de("small", decodes))} against its ${whole(de("small", "custom-binary"))}), ahead on the sum`,
      );
      // game-tick: the encoder carries it; market: the decoder does.
      for (const c of others("game-tick"))
        expect(ser("game-tick", "custom-binary"), c).toBeLessThan(ser("game-tick", c));
      expect(text).toContain(
        `the encoder carries it; Bebop decodes ${one(de("game-tick", "custom-binary") / de("game-tick", "bebop"))}x faster`,
      );
      for (const c of others("market")) expect(de("market", "custom-binary"), c).toBeLessThan(de("market", c));
      for (const c of ["bebop", "pbf"]) {
        const half = ser("market", c) / ser("market", "custom-binary");
        expect(
          Math.abs(half - 0.5),
          `market: ${c}'s encode over custom-binary's, ${two(half)}, about half`,
        ).toBeLessThan(0.1);
      }
      // "over N": the faster of Bebop's and pbf's decodes, rounded down to a hundred.
      const over = Math.floor(Math.min(de("market", "bebop"), de("market", "pbf")) / 100) * 100;
      expect(text).toContain(
        `the decoder carries it (${whole(de("market", "custom-binary"))} ns, against ${whole(de("market", "protobuf"))} for protobufjs and over ${over} for Bebop and pbf`,
      );
    });
  });
});
