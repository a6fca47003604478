/**
 * Keeps docs/page.md true to the committed runs it quotes: how two default
 * runs compare and how the CI gate judges the three, the three engines side
 * by side, and the browser against Bun on the same machine.
 */
import { describe, expect, it } from "vitest";
import { compareRuns, slowerCases } from "../../bench/report/compare.ts";
import { casesOf, codecRows, csvSample, doc, flat, num, type Row } from "../helpers/samples.ts";
import { fixed, list, ordinal, range, whole, word } from "../helpers/prose.ts";

const page = doc("page.md");
const text = flat(page);
const two = fixed(2);
const one = fixed(1);
const bun = codecRows("engines-bun.csv");
const chromium = codecRows("engines-chromium.csv");
const firefox = codecRows("engines-firefox.csv");
/** The payloads of the engines runs, in the file's order. */
const PAYLOADS = [
  ...new Set(
    csvSample("engines-bun.csv")
      .where({ mode: "codec" })
      .map((r) => r("payload")),
  ),
];
const vsJson = (r: Row) => num(r, "total_vs_json");

describe("docs/page.md", () => {
  it("the chart example of figures more than 10x apart is custom-binary's small message in stream mode, Chromium against Bun", () => {
    const stream = (name: string) =>
      num(csvSample(name).row({ mode: "stream", payload: "small", codec: "custom-binary" }), "msgs_per_s");
    const [page, cli] = [stream("chromium-codec-stream.csv"), stream("epyc-default-1.csv")];
    expect(cli / page).toBeGreaterThan(10);
    expect(text).toContain(
      `Chromium's ~${whole(Math.round(page / 1000) * 1000)} messages/s against Bun's ~${whole(Math.round(cli / 10_000) * 10_000)}`,
    );
  });

  it("the ratios to JSON that moved beyond both intervals between two default runs are the runs'", () => {
    const all = compareRuns(casesOf("epyc-default-1.csv"), casesOf("epyc-default-2.csv"));
    const withRatio = all.filter((c) => c.codec !== "json" && c.a.ratios?.vsJson !== undefined);
    const moved = withRatio.filter((c) => c.vsJsonMoved === "faster" || c.vsJsonMoved === "slower");
    const pair = (c: (typeof all)[number]) => [c.a.ratios!.vsJson!.ratio, c.b.ratios!.vsJson!.ratio] as const;
    const said = (c: (typeof all)[number]) => `${c.payload} ${c.codec} ${two(pair(c)[0])} to ${two(pair(c)[1])}`;
    const by = moved.map((c) => Math.abs(pair(c)[1] / pair(c)[0] - 1) * 100);
    const inCodec = moved.filter((c) => c.mode === "codec");
    const inStream = moved.filter((c) => c.mode === "stream");
    expect(inCodec.length + inStream.length).toBe(moved.length);
    expect(text).toContain(
      `of the ${withRatio.length} ratios to JSON ${moved.length} moved beyond both intervals, by ${range(by, (x) => Math.round(x).toString())}%: ${word(inCodec.length)} in codec mode${inCodec.length > 0 ? ` (${inCodec.map(said).join(", ")})` : ""} and ${word(inStream.length)} in stream mode${inStream.length > 0 ? ` (${inStream.map(said).join(", ")})` : ""}`,
    );
    // The field figures (the codec's cost inside the server, relative to JSON's): apart when the intervals do not overlap.
    const field = all.filter((c) => c.codec !== "json" && c.a.ratios?.fieldVsJson && c.b.ratios?.fieldVsJson);
    const apart = field.filter((c) => {
      const [a, b] = [c.a.ratios!.fieldVsJson!, c.b.ratios!.fieldVsJson!];
      return b.high < a.low || b.low > a.high;
    });
    const fig = (f: (typeof field)[number]) =>
      `${f.payload} ${f.codec} in ${f.mode} mode, ${two(f.a.ratios!.fieldVsJson!.ratio)} to ${two(f.b.ratios!.fieldVsJson!.ratio)}`;
    expect(text).toContain(
      `of the ${field.length} field figures ${word(apart.length)} did${apart.length > 0 ? ` (${apart.map(fig).join("; ")})` : ""}`,
    );
  });

  it("the least whole percent at which the CI gate passes the three default runs in every order, and what fails at 5%, are the runs'", () => {
    const runs = [1, 2, 3].map((n) => casesOf(`epyc-default-${n}.csv`));
    const orders = [0, 1, 2].flatMap((a) => [0, 1, 2].filter((b) => b !== a).map((b) => [a, b] as const));
    const gate = (a: number, b: number, pct: number) => slowerCases(compareRuns(runs[a]!, runs[b]!), pct);
    const passAt = Array.from({ length: 50 }, (_, i) => i + 1).find((pct) =>
      orders.every(([a, b]) => gate(a, b, pct).length === 0),
    );
    expect(passAt, "a gate of 50% or less passes every order").toBeDefined();
    expect(text).toContain(`The three committed back-to-back runs pass each other at ${passAt}% in every order`);
    const failing = orders.filter(([a, b]) => gate(a, b, 5).length > 0);
    if (failing.length === 0) {
      expect(text).toContain(`at ${passAt}% in every order; at 5% too`);
      return;
    }
    const failed = failing.flatMap(([a, b]) =>
      compareRuns(runs[a]!, runs[b]!).filter((c) =>
        gate(a, b, 5).some((line) => line.startsWith(`${c.mode} ${c.payload} ${c.codec}:`)),
      ),
    );
    // Said as the page says it: each run that fails as NEW, with the runs it fails against as BASE;
    // "each passes against an earlier one" while no run fails as NEW against an earlier BASE.
    const news = [...new Set(failing.map(([, b]) => b))];
    const who = news
      .map(
        (b) =>
          `the ${ordinal(b + 1)}, put as NEW against the ${failing
            .filter(([, n]) => n === b)
            .map(([a]) => ordinal(a + 1))
            .join(" or the ")},`,
      )
      .join(" and ");
    const lead = failing.every(([a, b]) => a > b) ? "each passes against an earlier one, but " : "";
    const modes = [...new Set(failed.map((c) => c.mode))];
    const codecs = [...new Set(failed.map((c) => c.codec))].sort().reverse();
    const up = failed.map((c) => (c.b.ratios!.vsJson!.ratio / c.a.ratios!.vsJson!.ratio - 1) * 100);
    expect(text).toContain(
      `at 5% ${lead}${who} ${news.length === 1 ? "fails" : "fail"} on ${list(modes)} ${modes.length === 1 ? "mode's" : "modes'"} ${list(codecs)} rows (+${range(up, one)}%)`,
    );
  });

  it("the browsers' versions and clocks are the engines runs'", () => {
    const version = (name: string) => csvSample(name).rows[0]!("runtime_version");
    const chromeVersion = version("engines-chromium.csv");
    expect(chromeVersion, "engines-chromium.csv's runtime_version").toMatch(/^Chrome \d+\.0/);
    const chrome = /^Chrome (\d+)\.0/.exec(chromeVersion)?.[1];
    expect(text).toContain(`\`runtime_version\`: \`Chrome ${chrome}.0...\`, \`${version("engines-firefox.csv")}\``);
    expect(version("chromium-codec-stream.csv")).toMatch(new RegExp(`^Chrome ${chrome}\\.`));
    expect(text).toContain(`(Chromium ${chrome} headless, \`bun run bench --client chromium --modes codec,stream\``);
    const tick = (name: string) => Math.round(num(csvSample(name).rows[0]!, "timer_resolution_ns") / 1000);
    expect(text).toContain(
      `per call on a ${tick("engines-chromium.csv")} µs (Chromium) or ${tick("engines-firefox.csv")} µs (Firefox) clock`,
    );
  });

  it("custom-binary against JSON in codec mode in each engine is the engines runs'", () => {
    const three = (row: typeof bun) =>
      ["small", "medium", "large"].map((p) => two(vsJson(row(p, "custom-binary")))).join(" / ");
    const [low, high] = [
      (p: string) => num(firefox(p, "custom-binary"), "total_vs_json_ci95_low"),
      (p: string) => num(firefox(p, "custom-binary"), "total_vs_json_ci95_high"),
    ];
    // The payloads whose interval in Firefox holds 1 (the run cannot tell them from JSON), each with its interval.
    const holding = ["small", "medium", "large"].filter((p) => low(p) <= 1 && high(p) >= 1);
    const hold = ["", "holds", "both hold"][holding.length] ?? "all hold";
    const holdClause =
      holding.length === 0
        ? ""
        : ` (${list(holding.map((p) => `${p}'s`))} interval${holding.length > 1 ? "s" : ""} there, ${list(holding.map((p) => `${two(low(p))}-${two(high(p))}`))}, ${hold} 1)`;
    expect(text).toContain(
      `custom-binary** against JSON in codec mode: ${three(bun)} (small / medium / large) in Bun, ${three(chromium)} in Chromium, ${three(firefox)} in Firefox${holdClause}. Its lead shrinks`,
    );
    const gameTick = [bun, chromium, firefox].map((row) => vsJson(row("game-tick", "custom-binary")));
    expect(text).toContain(`On game-tick (numbers) it is ${range(gameTick, two)}x everywhere.`);
  });

  it("Firefox's custom-binary decoder's median round against its fastest is the Firefox run's", () => {
    const decode = (p: string) => firefox(p, "custom-binary");
    const n3 = (x: number) => Number(x.toPrecision(3)).toLocaleString("en-US");
    const [large, medium] = [decode("large"), decode("medium")];
    expect(text).toContain(
      `its decoder's median round took ${one(num(large, "deserialize_ns") / num(large, "deserialize_round_min_ns"))} times its fastest on large (${n3(num(large, "deserialize_ns"))} ns against ${n3(num(large, "deserialize_round_min_ns"))}; medium: ${n3(num(medium, "deserialize_ns"))} against ${n3(num(medium, "deserialize_round_min_ns"))};`,
    );
  });

  it("what JSON.stringify costs in Firefox against V8 (Chromium) is the engines runs'", () => {
    const over = PAYLOADS.map((p) => ({
      p,
      x: num(firefox(p, "json"), "serialize_ns") / num(chromium(p, "json"), "serialize_ns"),
    }));
    const least = over.reduce((a, b) => (b.x < a.x ? b : a));
    const most = over.reduce((a, b) => (b.x > a.x ? b : a));
    const us = (row: typeof bun) => one(num(row("game-tick", "json"), "serialize_ns") / 1000);
    expect(text).toContain(
      `Firefox's \`JSON.stringify\` takes ${range(
        over.map((o) => o.x),
        one,
      )}x V8's time on these messages (least on ${least.p}, most on ${most.p}; game-tick ${us(firefox)} against ${us(chromium)} µs)`,
    );
    expect(text).toContain(
      `(msgpackr ${two(vsJson(firefox("game-tick", "msgpackr")))}x on game-tick in Firefox, ${two(vsJson(chromium("game-tick", "msgpackr")))}x in Chromium)`,
    );
  });

  it("what text through TextEncoder/TextDecoder (json-bytes) costs in each engine is the engines runs'", () => {
    const text_ = (row: typeof bun) =>
      PAYLOADS.filter((p) => p !== "game-tick").map((p) => vsJson(row(p, "json-bytes")));
    const numbers = (row: typeof bun) => one(vsJson(row("game-tick", "json-bytes")));
    const all = PAYLOADS.map((p) => vsJson(bun(p, "json-bytes")));
    expect(text).toContain(
      `(\`json-bytes\`) costs ${range(text_(chromium), one)}x JSON's time in Chromium (${numbers(chromium)}x on game-tick, mostly numbers), ${range(text_(firefox), one)}x in Firefox (${numbers(firefox)}x on game-tick) and ${range(all, one)}x in Bun.`,
    );
  });

  it("Node's client's own encode + decode of custom-binary against JSON's is the Node run's", () => {
    const rows = csvSample("engines-node.csv").where({ mode: "roundtrip", codec: "custom-binary" });
    expect(rows.length).toBe(PAYLOADS.length);
    expect(text).toContain(
      `Node's V8 client puts custom-binary at ${range(
        rows.map((r) => num(r, "client_codec_vs_json")),
        two,
      )}x JSON's.`,
    );
  });

  describe("the browser against Bun on the same machine", () => {
    const page = csvSample("chromium-codec-stream.csv");
    const cli = csvSample("epyc-default-1.csv");
    const payloads = ["small", "medium", "large"];
    /** A codec's in-process time in the page over its time in Bun. */
    const pageOverBun = (payload: string, codec: string) =>
      num(page.row({ mode: "codec", payload, codec }), "total_ns") /
      num(cli.row({ mode: "codec", payload, codec }), "total_ns");

    it("JSON costs less in the page than in Bun, and the cases that gain as much are the runs'", () => {
      const json = payloads.map((p) => pageOverBun(p, "json"));
      const [lo, hi] = [two(Math.min(...json)), two(Math.max(...json))];
      expect(text).toContain(`In the page JSON costs ${lo}-${hi}x what it costs in Bun`);
      /** As the page writes a ratio: to two decimals. */
      const shown = (x: number) => Number(two(x));
      const codecs = [...new Set(page.where({ mode: "codec" }).map((r) => r("codec")))].filter((c) => c !== "json");
      const asMuch = payloads.flatMap((p) =>
        codecs
          .filter((c) => shown(pageOverBun(p, c)) >= Number(lo) && shown(pageOverBun(p, c)) <= Number(hi))
          .map((c) => `${c} on the ${p}`),
      );
      const soDo =
        asMuch.length > 0
          ? ` (so ${asMuch.length === 1 ? "does" : "do"} ${list(asMuch.map((x, i) => `${x} ${i === 0 ? "message" : "one"}`))})`
          : "";
      expect(text).toContain(`In the page JSON costs ${lo}-${hi}x what it costs in Bun${soDo}, while`);
    });

    it("custom-binary costs about the same in the page as in Bun on the small message and more on the medium and large ones", () => {
      // "about the same" within 10% of Bun's cost, "more" or "less" beyond; payloads of one word together, in order.
      const cost = (p: string) => {
        const x = pageOverBun(p, "custom-binary");
        return Math.abs(x - 1) < 0.1 ? "about the same" : x > 1 ? "more" : "less";
      };
      const words = [...new Set(payloads.map(cost))];
      const said = words.map((w, i) => {
        const ps = payloads.filter((p) => cost(p) === w);
        return `${w} on the ${list(ps)} ${i === 0 ? "message" : "one"}${ps.length > 1 ? "s" : ""}`;
      });
      expect(text).toContain(`while custom-binary costs ${list(said)}:`);
    });

    it("custom-binary against JSON in Bun is the default run's, and its messages are the smallest in both runs", () => {
      const inBun = payloads.map(
        (p) => `${two(num(cli.row({ mode: "codec", payload: p, codec: "custom-binary" }), "total_vs_json"))}x`,
      );
      expect(text).toContain(`(in Bun ${inBun[0]}, ${inBun[1]} and ${inBun[2]}). It stays the smallest everywhere.`);
      for (const run of [page, cli])
        for (const p of payloads) {
          const rows = run.where({ mode: "codec", payload: p });
          const cb = num(run.row({ mode: "codec", payload: p, codec: "custom-binary" }), "bytes");
          for (const r of rows.filter((x) => x("codec") !== "custom-binary"))
            expect(cb, `${p} ${r("codec")}`).toBeLessThan(num(r, "bytes"));
        }
    });

    it("raw's rate in Chromium, how many times fewer than Bun's client it moves, and Chromium's round trips are the runs'", () => {
      const raw = (run: typeof page, payload: string) =>
        num(run.row({ mode: "stream", payload, codec: "raw" }), "msgs_per_s");
      const fewer = payloads.map((p) => raw(cli, p) / raw(page, p));
      expect(text).toContain(
        `(\`raw\`, no codec at all, ${range(
          payloads.map((p) => raw(page, p)),
          whole,
        )} a second: ${range(fewer, (x) => Math.round(x).toString())}x fewer than Bun's client on the same message)`,
      );
      const rtt = csvSample("engines-chromium.csv")
        .where({ mode: "roundtrip" })
        .map((r) => num(r, "rtt_p50_ns") / 1000);
      // To the nearest 10 µs: a browser's clock ticks every 5 µs.
      expect(text).toContain(
        `Round trips take ${range(rtt, (x) => String(Math.round(x / 10) * 10))} µs at p50 (the engines run,`,
      );
    });

    it("the page's clock and what one read costs, against Bun's, are the two runs'", () => {
      const clock = (run: typeof page) => run.rows[0]!;
      const [p, b] = [clock(page), clock(cli)];
      expect(p("cross_origin_isolated")).toBe("true");
      expect(text).toContain(
        `The page's clock is ${Math.round(num(p, "timer_resolution_ns") / 1000)} µs (isolated) against ${one(num(b, "timer_resolution_ns") / 1000)} µs in Bun, and one read costs ${Math.round(num(p, "timer_overhead_ns"))} ns against ${Math.round(num(b, "timer_overhead_ns"))} ns (\`timer_resolution_ns\`, \`timer_overhead_ns\` of these two runs)`,
      );
    });
  });

  it("the page's comparison of two sample runs is what bun run report A B finds in them", () => {
    const all = compareRuns(casesOf("epyc-default-1.csv"), casesOf("epyc-default-2.csv"));
    const small = all.filter((c) => c.mode === "codec" && c.payload === "small");
    const pcts = small.map((c) => Math.round((c.total.ratio - 1) * 100));
    const signed = (p: number) => `${p > 0 ? "+" : ""}${p}%`;
    const count = (verdict: string) => small.filter((c) => c.total.verdict === verdict).length;
    expect(text).toContain(
      `put the small message's codec-mode times ${signed(Math.min(...pcts))} to ${signed(Math.max(...pcts))} apart (${count("slower")} of ${small.length} "slower", ${count("faster")} "faster")`,
    );
    const withRatio = all.filter((c) => c.codec !== "json" && c.a.ratios?.vsJson !== undefined);
    const moved = withRatio.filter((c) => c.vsJsonMoved === "faster" || c.vsJsonMoved === "slower");
    expect(text).toContain(`of the ${withRatio.length} ratios to JSON ${moved.length} moved beyond both intervals`);
  });

  it("the page's browser-against-Bun table and figures are the committed runs'", () => {
    const bun = casesOf("epyc-default-1.csv");
    const chromium = casesOf("chromium-codec-stream.csv");
    const find = (cases: typeof bun, payload: string, codec: string, mode: string) =>
      cases.find((c) => c.payload === payload && c.codec === codec && c.mode === mode);
    const ns = (c: (typeof bun)[number] | undefined) =>
      c === undefined
        ? "-"
        : c.total.median >= 1000
          ? `${(c.total.median / 1000).toFixed(2)} µs`
          : `${Math.round(c.total.median)} ns`;
    const rate = (c: (typeof bun)[number] | undefined) => (c === undefined ? "-" : `${whole(c.msgsPerS!)}/s`);
    const start = page.indexOf("**Browser against Bun on the same machine**");
    const section = page.slice(start, page.indexOf("- The page's clock is 5 µs", start));
    const lines = section.split("\n").filter((l) => /^\| (small|medium|large) \|/.test(l));
    expect(lines).toHaveLength(24);
    for (const line of lines) {
      const [payload, codec, ...cells] = line
        .split("|")
        .slice(1, 7)
        .map((c) => c.trim());
      expect(cells, line).toEqual([
        ns(find(bun, payload!, codec!, "codec")),
        ns(find(chromium, payload!, codec!, "codec")),
        rate(find(bun, payload!, codec!, "stream")),
        rate(find(chromium, payload!, codec!, "stream")),
      ]);
    }
    const text = flat(section);
    const cb = ["small", "medium", "large"].map((p) =>
      find(chromium, p, "custom-binary", "codec")!.ratios!.vsJson!.ratio.toFixed(2),
    );
    expect(text).toContain(
      `custom-binary is ${cb[0]}x JSON's time on the small message, ${cb[1]}x on the medium one and ${cb[2]}x on the large one`,
    );
    const streams = chromium.filter((c) => c.mode === "stream").map((c) => c.msgsPerS!);
    expect(text).toContain(`moves ${range(streams, whole)} messages per second`);
  });
});
