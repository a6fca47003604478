/**
 * Keeps docs/custom-binary-performance.md true to the committed runs it
 * quotes: custom-binary against JSON in the three default runs, its decode
 * against JSON's, the two browsers' codec-mode runs, and every codec in Bun,
 * inside the server and in Chromium.
 */
import { describe, expect, it } from "vitest";
import { BUILT_IN } from "../../protocols/registry.ts";
import { csvSample, doc, flat, num, type Row } from "../helpers/samples.ts";

const page = doc("custom-binary-performance.md");
const text = flat(page);
const two = (x: number) => x.toFixed(2);
const one = (x: number) => x.toFixed(1);
/** Nanoseconds as the page's tables write them: 987, 1,080, 16,600 (three significant digits from 1,000). */
const ns3 = (x: number) => (x < 1000 ? String(Math.round(x)) : Number(x.toPrecision(3)).toLocaleString("en-US"));
/** Nanoseconds (or bytes) as whole numbers: 1,002. */
const whole = (x: number) => Math.round(x).toLocaleString("en-US");
/** A ratio without a trailing zero: 1.8, 3. */
const short = (x: number) => String(Number(x.toFixed(1)));
/** The lowest and highest of some values, each as `f` writes it. */
const range = (values: number[], f: (x: number) => string) => `${f(Math.min(...values))}-${f(Math.max(...values))}`;
const WORDS = ["none", "one", "two", "three", "four", "five", "six"];
const vsJson = (r: Row) => num(r, "total_vs_json");
const low = (r: Row) => num(r, "total_vs_json_ci95_low");
const high = (r: Row) => num(r, "total_vs_json_ci95_high");

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
    const across = (payload: string) => {
      const [lo, hi] = ["min", "max"].map((f) =>
        two(Math[f as "min" | "max"](...runs.map((r) => vsJson(r.at(payload, "custom-binary"))))),
      );
      return lo === hi ? lo! : `${lo}-${hi}`;
    };
    const days = new Set(runs.map((r) => r.rows[0]!("timestamp").slice(0, 10)));
    expect(days.size).toBe(1);
    expect(text).toContain(
      `(${across("small")} / ${across("medium")} / ${across("large")} in the three back-to-back default runs of ${[...days][0]},`,
    );
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
    expect(one(bytesOverJson("medium"))).toBe(one(bytesOverJson("large")));
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
      expect(days.size).toBe(1);
      expect(text).toContain(`(the committed runs on ${[...days][0]},`);
      const chrome = /^Chrome (\d+)\./.exec(first(chromium)("runtime_version"))![1];
      const esr = /^Firefox (\d+)\./.exec(first(firefox)("runtime_version"))![1];
      expect(text).toContain(`headless Chromium ${chrome} (V8) and Firefox ESR ${esr} (SpiderMonkey)`);
      const tick = (b: typeof chromium) => Math.round(num(first(b), "timer_resolution_ns") / 1000);
      expect([chromium, firefox].every((b) => first(b)("cross_origin_isolated") === "true")).toBe(true);
      expect(text).toContain(`(their clocks tick every ${tick(chromium)} and ${tick(firefox)} µs;`);
    });

    it("the table of custom-binary against JSON and each half is the two runs', row by row", () => {
      /** Half the width of a ratio's interval, as the table writes it: ±1.7%, ±44%. */
      const pm = (r: Row) => {
        const x = Math.max(high(r) / vsJson(r) - 1, 1 - low(r) / vsJson(r));
        return x >= 0.1 ? `±${Math.round(x * 100)}%` : `±${(x * 100).toFixed(1)}%`;
      };
      /** ≈ where the interval holds 1; bold where the ratio misses the 0.8 target. */
      const ratio = (r: Row) => {
        const shown = `${low(r) <= 1 && high(r) >= 1 ? "≈" : ""}${two(vsJson(r))}`;
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
      const met = (b: typeof chromium) => b.payloads.filter((p) => high(cb(b, p)) < 0.8);
      const missed = (b: typeof chromium) => b.payloads.filter((p) => low(cb(b, p)) > 0.8);
      expect(met(firefox)).toEqual(["game-tick", "market"]);
      expect(met(chromium)).toEqual(["small", "game-tick", "market"]);
      expect(text).toContain("The target holds on game-tick and market in both browsers, and on small in Chromium.");
      for (const b of [chromium, firefox]) expect(missed(b)).toEqual(["medium", "large", "chat"]);
      expect(text).toContain(
        "It is missed on the three text-heavy payloads, medium, large and chat, in both (every interval there lies above 0.8).",
      );
      const small = cb(firefox, "small");
      expect(low(small)).toBeLessThan(0.8);
      expect(high(small)).toBeGreaterThan(0.8);
      expect(text).toContain(
        `On small in Firefox the ratio is ${two(vsJson(small))} but its interval runs from ${two(low(small))} to ${two(high(small))}`,
      );
      const committed = [cb(chromium, "medium"), cb(chromium, "chat"), cb(firefox, "chat")].map(vsJson);
      expect(text).toContain(
        `and at ${range(committed, two)} in the committed runs (medium and chat in Chromium, chat in Firefox; Firefox's ≈${two(vsJson(cb(firefox, "medium")))} on medium`,
      );
    });

    it("Firefox's decoder against JSON.parse, median and fastest rounds, is the Firefox run's", () => {
      const d = (p: string, codec: string, col = "deserialize_ns") => num(firefox.at(p, codec), col);
      const best = (p: string, codec: string) => d(p, codec, "deserialize_round_min_ns");
      expect(text).toContain(
        `SpiderMonkey's \`JSON.parse\` reads medium in ${ns3(d("medium", "json"))} ns and custom-binary's decoder took ${ns3(d("medium", "custom-binary"))} at the median of the rounds (large: ${ns3(d("large", "json"))} against ${ns3(d("large", "custom-binary"))}). Its fastest rounds took ${ns3(best("medium", "custom-binary"))} and ${ns3(best("large", "custom-binary"))} ns`,
      );
      for (const p of ["medium", "large"]) {
        expect(d(p, "json") / best(p, "json"), `${p} JSON.parse`).toBeLessThanOrEqual(1.12);
        // Even at its best, custom-binary's decoder is slower than JSON.parse's median.
        expect(best(p, "custom-binary"), p).toBeGreaterThan(d(p, "json"));
      }
      expect(text).toContain("`JSON.parse`'s medians on these two sit within 12% of its fastest rounds");
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
      const text3 = ["medium", "large", "chat"];
      const bytes = (b: typeof chromium) => text3.map((p) => vsJson(b.at(p, "json-bytes")));
      const cbOverBytes = (b: typeof chromium, p: string) => vsJson(cb(b, p)) / vsJson(b.at(p, "json-bytes"));
      expect(text).toContain(
        `JSON costs ${range(bytes(chromium), one)}x (Chromium) and ${range(bytes(firefox), one)}x (Firefox) of its codec-mode time on these three payloads, and custom-binary is well under 0.8x of that in Chromium (${range(
          text3.map((p) => cbOverBytes(chromium, p)),
          two,
        )}x) and on medium and chat in Firefox (${two(cbOverBytes(firefox, "medium"))}x, ${two(cbOverBytes(firefox, "chat"))}x); on large in Firefox, with the slow decoder above, it is ${two(cbOverBytes(firefox, "large"))}x`,
      );
      expect(Math.max(...text3.map((p) => cbOverBytes(chromium, p)))).toBeLessThan(0.8);
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

    it("in Bun custom-binary is first on every payload but one, where Avro is ahead with the two intervals apart", () => {
      const firstOn = bun.payloads.filter((p) => order(bun, p)[0] === "custom-binary");
      const others = bun.payloads.filter((p) => !firstOn.includes(p));
      expect(others).toHaveLength(1);
      const [p] = others as [string];
      expect(order(bun, p)[0]).toBe("avro");
      const [avro, cb] = [bun.at(p, "avro"), bun.at(p, "custom-binary")];
      expect(overlap(avro, cb, "total_vs_json_ci95_low", "total_vs_json_ci95_high")).toBe(false);
      expect(text).toContain(
        `puts it first on ${WORDS[firstOn.length]} payloads in Bun; on the sixth, ${p}, Avro is ahead, at ${two(vsJson(avro))} of JSON's time against custom-binary's ${two(vsJson(cb))} (the two intervals apart)`,
      );
      // Avro is the fastest other schema codec on every payload, and the closest but where JSON alone is closer.
      const rest = (q: string) => order(bun, q).filter((c) => c !== "custom-binary");
      for (const q of bun.payloads)
        expect(rest(q).filter((c) => BUILT_IN.get(c)?.family === "schema")[0], q).toBe("avro");
      const notClosest = bun.payloads.filter((q) => rest(q)[0] !== "avro");
      expect(notClosest.map((q) => rest(q).slice(0, 2))).toEqual(notClosest.map(() => ["json", "avro"]));
      expect(text).toContain(
        `Avro (avsc) is the fastest other schema codec on every payload, and the closest on all but ${notClosest.join(" and ")}, where only JSON is closer:`,
      );
    });

    it("inside the server custom-binary is first on all six, and its cost against Avro's is the field run's", () => {
      for (const p of field.payloads) expect(order(field, p, fieldVs)[0], p).toBe("custom-binary");
      const level = field.payloads.filter((p) =>
        overlap(field.at(p, "custom-binary"), field.at(p, "avro"), "field_vs_json_ci95_low", "field_vs_json_ci95_high"),
      );
      expect(level).toEqual(["game-tick"]);
      const vsAvro = field.payloads
        .filter((p) => p !== "game-tick")
        .map((p) => fieldVs(field.at(p, "custom-binary")) / fieldVs(field.at(p, "avro")));
      const [cb, avro] = [field.at("game-tick", "custom-binary"), field.at("game-tick", "avro")];
      expect(text).toContain(
        `puts it at ${range(vsAvro, two)}x Avro's cost on five payloads, and level with Avro on game-tick (${two(fieldVs(cb))} of JSON's cost against ${two(fieldVs(avro))}, the intervals overlapping)`,
      );
      const us = (r: Row, col: string) => two(num(r, col) / 1000);
      expect(num(cb, "server_serialize_mean_ns")).toBeGreaterThan(num(avro, "server_serialize_mean_ns"));
      expect(num(cb, "server_deserialize_mean_ns")).toBeLessThan(num(avro, "server_deserialize_mean_ns"));
      expect(text).toContain(
        `on game-tick custom-binary's encode is the slower half there too (${us(cb, "server_serialize_mean_ns")} against ${us(avro, "server_serialize_mean_ns")} µs, the server's means), and its decode the faster (${us(cb, "server_deserialize_mean_ns")} against ${us(avro, "server_deserialize_mean_ns")} µs)`,
      );
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
      const decodeBehind = (p: string) =>
        (at(p, "custom-binary", "deserialize_ns") / at(p, "avro", "deserialize_ns") - 1) * 100;
      expect(Math.round(decodeBehind("medium"))).toBe(0);
      expect(text).toContain(
        `the two are level on medium and large (avsc ${Math.round(decodeBehind("large"))}% ahead on large)`,
      );
      for (const p of ["medium", "large"]) {
        const faster = at(p, "avro", "serialize_ns") / at(p, "custom-binary", "serialize_ns");
        expect(faster, p).toBeGreaterThanOrEqual(2);
        expect(faster, p).toBeLessThanOrEqual(3);
      }
      expect(text).toContain("custom-binary is 2-3x faster on medium and large");
      const [cb, avro] = [bun.at("game-tick", "custom-binary"), bun.at("game-tick", "avro")];
      const behind = vsJson(cb) / vsJson(avro);
      const us = (r: Row, col: string) => two(num(r, col) / 1000);
      expect(text).toContain(
        `**game-tick goes to Avro by ${Math.round((behind - 1) * 100)}%** (${two(behind)}): custom-binary decodes a little faster (${us(cb, "deserialize_ns")} against ${us(avro, "deserialize_ns")} µs) and encodes slower (${us(cb, "serialize_ns")} against ${us(avro, "serialize_ns")} µs)`,
      );
      expect(text).toContain(
        `its frames ${Math.round((1 - num(cb, "bytes") / num(avro, "bytes")) * 100)}% smaller than Avro's (${whole(num(cb, "bytes"))} against ${whole(num(avro, "bytes"))} bytes)`,
      );
      const extra = num(cb, "serialize_ns") - num(avro, "serialize_ns");
      expect(text).toContain(`about ${Math.round(extra / 10) * 10} ns of encode per message`);
      const m = (codec: string, col: string) => at("market", codec, col);
      expect(m("avro", "serialize_ns")).toBeLessThan(m("custom-binary", "serialize_ns"));
      expect(Math.round(m("avro", "deserialize_ns") / m("custom-binary", "deserialize_ns"))).toBe(2);
      expect(text).toContain(
        `avsc encodes faster (${whole(m("avro", "serialize_ns"))} against ${whole(m("custom-binary", "serialize_ns"))} ns: market has one string and six numbers, and avsc's generated writer is a straight line), custom-binary decodes twice as fast (${whole(m("custom-binary", "deserialize_ns"))} against ${whole(m("avro", "deserialize_ns"))} ns), and the total is ${two(vsJson(bun.at("market", "custom-binary")) / vsJson(bun.at("market", "avro")))}.`,
      );
    });

    it("in Chromium custom-binary's standing, and Avro's cost, are the Chromium every-codec run's", () => {
      const firstOn = chromium.payloads.filter((p) => order(chromium, p)[0] === "custom-binary");
      const notFirst = chromium.payloads.filter((p) => !firstOn.includes(p));
      expect(notFirst).toEqual(["large"]);
      const large = chromium.at("large", "custom-binary");
      expect(low(large)).toBeLessThanOrEqual(1);
      expect(high(large)).toBeGreaterThanOrEqual(1);
      for (const p of chromium.payloads)
        expect(order(chromium, p).filter((c) => c !== "json")[0], p).toBe("custom-binary");
      const vsRival = chromium.payloads.map((p) => {
        const rival = order(chromium, p).find((c) => c !== "custom-binary" && BUILT_IN.get(c)?.family === "schema")!;
        return vsJson(chromium.at(p, "custom-binary")) / vsJson(chromium.at(p, rival));
      });
      expect(text).toContain(
        `custom-binary is first on ${WORDS[firstOn.length]} payloads and level with JSON on large (≈${two(vsJson(large))}, its interval ${two(low(large))}-${two(high(large))}), ahead of every other codec on all six, at ${range(vsRival, two)}x the fastest other schema codec's time`,
      );
      const avro = chromium.payloads.filter((p) => p !== "game-tick").map((p) => vsJson(chromium.at(p, "avro")));
      expect(text).toContain(
        `${range(avro, one)}x JSON's time in this run, ${one(vsJson(chromium.at("game-tick", "avro")))}x on game-tick)`,
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
      const textual = ["medium", "large", "chat"];
      for (const p of textual)
        for (const c of others(p)) {
          expect(ser(p, "custom-binary"), `${p} ${c} encode`).toBeLessThan(ser(p, c));
          expect(de(p, "custom-binary"), `${p} ${c} decode`).toBeLessThan(de(p, c));
        }
      const encoder = textual.flatMap((p) => ["bebop", "pbf"].map((c) => ser(p, c) / ser(p, "custom-binary")));
      const decoder = textual.map((p) => de(p, "bebop") / de(p, "custom-binary"));
      expect(text).toContain(
        `The encoder is ${range(encoder, short)}x faster than Bebop's and pbf's (one pass per string, as in Bun), and the decoder ${range(decoder, short)}x faster than Bebop's. \`JSON.parse\` still decodes large faster (${whole(de("large", "json"))} against ${whole(de("large", "custom-binary"))} ns)`,
      );
      // small: the best other codec on each half, and first on the sum.
      const best = (f: (p: string, c: string) => number) =>
        chromium
          .codecs("small")
          .filter((c) => c !== "custom-binary")
          .sort((a, b) => f("small", a) - f("small", b))[0]!;
      expect([best(ser), best(de)]).toEqual(["pbf", "protobuf"]);
      expect(order(chromium, "small")[0]).toBe("custom-binary");
      expect(text).toContain(
        `(pbf encodes in ${whole(ser("small", "pbf"))} ns against its ${whole(ser("small", "custom-binary"))}, protobufjs decodes in ${whole(de("small", "protobuf"))} against its ${whole(de("small", "custom-binary"))}), ahead on the sum`,
      );
      // game-tick: the encoder carries it; market: the decoder does.
      for (const c of others("game-tick"))
        expect(ser("game-tick", "custom-binary"), c).toBeLessThan(ser("game-tick", c));
      expect(text).toContain(
        `the encoder carries it; Bebop decodes ${one(de("game-tick", "custom-binary") / de("game-tick", "bebop"))}x faster`,
      );
      for (const c of others("market")) expect(de("market", "custom-binary"), c).toBeLessThan(de("market", c));
      expect(Math.min(de("market", "bebop"), de("market", "pbf"))).toBeGreaterThan(800);
      for (const c of ["bebop", "pbf"])
        expect(Math.abs(ser("market", c) / ser("market", "custom-binary") - 0.5), c).toBeLessThan(0.1);
      expect(text).toContain(
        `the decoder carries it (${whole(de("market", "custom-binary"))} ns, against ${whole(de("market", "protobuf"))} for protobufjs and over 800 for Bebop and pbf`,
      );
    });
  });
});
