/**
 * docs/page.md's figures: the three default runs (epyc-default-1/2/3.json.gz: how two of them compare,
 * how the CI gate judges the three), the engines runs (engines-bun/node/chromium/firefox.json.gz) side
 * by side, and the browser against Bun on one machine (chromium-codec-stream.json.gz against
 * epyc-default-1.json.gz).
 */

import type { CaseResult } from "../../../client/harness/results.ts";
import { ARTICLE_PAYLOADS } from "../../../protocols/messages.ts";
import { type CaseChange, caseChanges, slowerCases } from "../../report/changes.ts";
import { claim, type PageFigures } from "./figure-spec.ts";
import { fig, fixed, hi, list, lo, ordinal, range, whole, word } from "./prose.ts";
import { caseIn, casesIn, machineOf, sampleResults } from "./sample-files.ts";

const DEFAULTS = ["epyc-default-1.json.gz", "epyc-default-2.json.gz", "epyc-default-3.json.gz"];
const ENGINES = {
  bun: "engines-bun.json.gz",
  node: "engines-node.json.gz",
  chromium: "engines-chromium.json.gz",
  firefox: "engines-firefox.json.gz",
} as const;
type Engine = keyof typeof ENGINES;
/** The browser's run, and Bun's it is set against. */
const PAGE_RUN = "chromium-codec-stream.json.gz";
const BUN_RUN = "epyc-default-1.json.gz";

const one = fixed(1);
const x = (r: number): string => `${fig(r)}x`;
const vsJson = (c: CaseResult): number => c.ratios!.vsJson!.value;
const codecCase = (file: string, payload: string, codec: string): CaseResult =>
  caseIn(file, { mode: "codec", payload, codec });
const engine = (e: Engine, payload: string, codec: string): CaseResult => codecCase(ENGINES[e], payload, codec);
/** The engines runs' payloads, in the files' order. */
const payloads = (): string[] => [...new Set(casesIn(ENGINES.bun, { mode: "codec" }).map((c) => c.payload))];
const stream = (file: string, payload: string, codec: string): number =>
  caseIn(file, { mode: "stream", payload, codec }).msgsPerS!;
const env = (file: string) => sampleResults(file).environment;
/** A browser's major version from a run's runtime version ("Chrome 156.0.0.0"). */
const chromeMajor = (file: string): string => {
  const m = /^Chrome (\d+)\.0/.exec(env(file).runtimeVersion);
  if (!m) throw new Error(`results/sample/${file}: runtime version "${env(file).runtimeVersion}" is not Chrome's`);
  return m[1]!;
};

/** Two default runs compared as `bun run report A B` compares them. */
const twoRuns = (): CaseChange[] => caseChanges(sampleResults(DEFAULTS[0]!).cases, sampleResults(DEFAULTS[1]!).cases);
const smallCodec = () => twoRuns().filter((c) => c.mode === "codec" && c.payload === "small");
const withRatio = () => twoRuns().filter((c) => c.codec !== "json" && c.a.ratios?.vsJson !== undefined);
/** The ratios to JSON that moved beyond both intervals. */
const moved = () => withRatio().filter((c) => c.vsJsonMoved === "faster" || c.vsJsonMoved === "slower");
const pair = (c: CaseChange) => [vsJson(c.a), vsJson(c.b)] as const;
const movedIn = (mode: string): string => {
  const these = moved().filter((c) => c.mode === mode);
  const said = these.map((c) => `${c.payload} ${c.codec} ${fig(pair(c)[0])} to ${fig(pair(c)[1])}`);
  return `${word(these.length)} in ${mode} mode${these.length > 0 ? ` (${said.join(", ")})` : ""}`;
};
/** The field figures (the codec's cost inside the server against JSON's) both runs hold. */
const fieldFigures = () =>
  twoRuns().filter((c) => c.codec !== "json" && c.a.ratios?.fieldVsJson && c.b.ratios?.fieldVsJson);

/** The CI gate over the three default runs: each order as [BASE, NEW], and what fails at `pct`. */
const ORDERS = [0, 1, 2].flatMap((a) => [0, 1, 2].filter((b) => b !== a).map((b) => [a, b] as const));
const compared = new Map<string, CaseChange[]>();
const comparison = (a: number, b: number): CaseChange[] => {
  const key = `${a}-${b}`;
  let c = compared.get(key);
  if (c === undefined) {
    c = caseChanges(sampleResults(DEFAULTS[a]!).cases, sampleResults(DEFAULTS[b]!).cases);
    compared.set(key, c);
  }
  return c;
};
const gate = (a: number, b: number, pct: number): string[] => slowerCases(comparison(a, b), pct);

/** A codec's in-process time in the page over its time in Bun. */
const pageOverBun = (payload: string, codec: string): number =>
  codecCase(PAGE_RUN, payload, codec).total.median / codecCase(BUN_RUN, payload, codec).total.median;
/** How custom-binary's cost in the page compares with Bun's: within 10% "about the same". */
const cbCost = (payload: string): string => {
  const r = pageOverBun(payload, "custom-binary");
  return Math.abs(r - 1) < 0.1 ? "about the same" : r > 1 ? "more" : "less";
};
const jsonPageOverBun = () => ARTICLE_PAYLOADS.map((p) => pageOverBun(p, "json"));

/** A cell of the browser-against-Bun table: a time per message, or a rate; "-" where the run has no such case. */
const nsCell = (c: CaseResult | undefined): string =>
  c === undefined
    ? "-"
    : c.total.median >= 1000
      ? `${(c.total.median / 1000).toFixed(2)} µs`
      : `${Math.round(c.total.median)} ns`;
const rateCell = (c: CaseResult | undefined): string => (c === undefined ? "-" : `${whole(c.msgsPerS!)}/s`);
const find = (file: string, mode: string, payload: string, codec: string): CaseResult | undefined =>
  casesIn(file, { mode: mode as CaseResult["mode"], payload, codec })[0];

/** Three significant digits, with thousands separators: "3,660". */
const n3 = (v: number): string => Number(v.toPrecision(3)).toLocaleString("en-US");
const signed = (p: number): string => `${p > 0 ? "+" : ""}${p}%`;
/** json-bytes against JSON in an engine, on the text payloads (all but game-tick) or on all. */
const jsonBytes = (e: Engine, text: boolean): number[] =>
  payloads()
    .filter((p) => !text || p !== "game-tick")
    .map((p) => vsJson(engine(e, p, "json-bytes")));
const stringifyOver = () =>
  payloads().map((p) => ({
    p,
    r: engine("firefox", p, "json").serialize.median / engine("chromium", p, "json").serialize.median,
  }));

export const PAGE: PageFigures = {
  page: "docs/page.md",
  figures: {
    "log-example": () => {
      const [page, cli] = [stream(PAGE_RUN, "small", "custom-binary"), stream(BUN_RUN, "small", "custom-binary")];
      return claim(
        cli / page > 10,
        `~${whole(Math.round(page / 1000) * 1000)} messages/s against Bun's ~${whole(Math.round(cli / 10_000) * 10_000)}`,
        "Bun's stream rate of custom-binary's small message more than 10x Chromium's",
      );
    },
    "engines-chrome": () => chromeMajor(ENGINES.chromium),
    "engines-firefox": () => env(ENGINES.firefox).runtimeVersion,
    "apart-minutes": () => {
      const [a, b] = DEFAULTS.slice(0, 2).map((f) => Date.parse(sampleResults(f).timestamp));
      const n = Math.round((b! - a!) / 60_000);
      return `${word(n)} minute${n === 1 ? "" : "s"}`;
    },
    "small-times": () => {
      const pcts = smallCodec().map((c) => Math.round((c.total.value - 1) * 100));
      return `${signed(lo(pcts))} to ${signed(hi(pcts))}`;
    },
    "small-verdicts": () => {
      const small = smallCodec();
      const count = (verdict: string) => small.filter((c) => c.total.verdict === verdict).length;
      return `${count("slower")} of ${small.length} "slower", ${count("faster")} "faster"`;
    },
    "ratio-count": () => String(withRatio().length),
    "ratios-moved": () => String(moved().length),
    "moved-by": () =>
      `${range(
        moved().map((c) => Math.abs(pair(c)[1] / pair(c)[0] - 1) * 100),
        (v) => String(Math.round(v)),
      )}%`,
    "moved-where": () =>
      claim(
        moved().every((c) => c.mode === "codec" || c.mode === "stream"),
        `${movedIn("codec")} and ${movedIn("stream")}`,
        "every ratio to JSON that moved between the two default runs in codec or stream mode",
      ),
    "field-count": () => String(fieldFigures().length),
    "field-moved": () => {
      const apart = fieldFigures().filter((c) => {
        const [a, b] = [c.a.ratios!.fieldVsJson!, c.b.ratios!.fieldVsJson!];
        return b.high < a.low || b.low > a.high;
      });
      const said = apart.map(
        (c) =>
          `${c.payload} ${c.codec} in ${c.mode} mode, ${fig(c.a.ratios!.fieldVsJson!.value)} to ${fig(c.b.ratios!.fieldVsJson!.value)}`,
      );
      return `${word(apart.length)} did${apart.length > 0 ? ` (${said.join("; ")})` : ""}`;
    },
    "gate-pass": () => {
      const at = Array.from({ length: 50 }, (_, i) => i + 1).find((pct) =>
        ORDERS.every(([a, b]) => gate(a, b, pct).length === 0),
      );
      if (at === undefined)
        return claim(false, "", "a gate of 50% or less passing the three default runs in every order");
      return `${at}%`;
    },
    "gate-five": () => {
      const failing = ORDERS.filter(([a, b]) => gate(a, b, 5).length > 0);
      if (failing.length === 0) return "at 5% too";
      const failed = failing.flatMap(([a, b]) =>
        comparison(a, b).filter((c) => gate(a, b, 5).some((l) => l.startsWith(`${c.mode} ${c.payload} ${c.codec}:`))),
      );
      // Each run that fails as NEW, with the runs it fails against as BASE; "each passes against an
      // earlier one" while no run fails as NEW against an earlier BASE.
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
      const up = failed.map((c) => (vsJson(c.b) / vsJson(c.a) - 1) * 100);
      return `at 5% ${lead}${who} ${news.length === 1 ? "fails" : "fail"} on ${list(modes)} ${modes.length === 1 ? "mode's" : "modes'"} ${list(codecs)} rows (+${range(up, one)}%)`;
    },
    "engines-machine": () => {
      const { cpu } = machineOf([ENGINES.bun, ENGINES.node]);
      return claim(cpu.includes("EPYC"), "EPYC", "the engines runs made on the EPYC");
    },
    "cb-bun": () => ARTICLE_PAYLOADS.map((p) => fig(vsJson(engine("bun", p, "custom-binary")))).join(" / "),
    "cb-chromium": () => ARTICLE_PAYLOADS.map((p) => fig(vsJson(engine("chromium", p, "custom-binary")))).join(" / "),
    "cb-firefox": () => ARTICLE_PAYLOADS.map((p) => fig(vsJson(engine("firefox", p, "custom-binary")))).join(" / "),
    "cb-firefox-holds": () => {
      // The payloads whose interval in Firefox holds 1 (the run cannot tell them from JSON), each with its interval.
      const r = (p: string) => engine("firefox", p, "custom-binary").ratios!.vsJson!;
      const holding = ARTICLE_PAYLOADS.filter((p) => r(p).low <= 1 && r(p).high >= 1);
      if (holding.length === 0) return "";
      const hold = ["", "holds", "both hold"][holding.length] ?? "all hold";
      return ` (${list(holding.map((p) => `${p}'s`))} interval${holding.length > 1 ? "s" : ""} there, ${list(holding.map((p) => `${fig(r(p).low)}-${fig(r(p).high)}`))}, ${hold} 1)`;
    },
    "ff-decode-times": () => {
      const c = engine("firefox", "large", "custom-binary");
      return one(c.deserialize.median / c.deserialize.min);
    },
    "ff-decode-large": () => {
      const c = engine("firefox", "large", "custom-binary");
      return `${n3(c.deserialize.median)} ns against ${n3(c.deserialize.min)}`;
    },
    "ff-decode-medium": () => {
      const c = engine("firefox", "medium", "custom-binary");
      return `${n3(c.deserialize.median)} against ${n3(c.deserialize.min)}`;
    },
    "cb-game-tick": () =>
      `${range(
        (["bun", "chromium", "firefox"] as const).map((e) => vsJson(engine(e, "game-tick", "custom-binary"))),
        fig,
      )}x`,
    "stringify-ratio": () =>
      `${range(
        stringifyOver().map((o) => o.r),
        one,
      )}x`,
    "stringify-ends": () => {
      const over = stringifyOver();
      const least = over.reduce((a, b) => (b.r < a.r ? b : a));
      const most = over.reduce((a, b) => (b.r > a.r ? b : a));
      return `least on ${least.p}, most on ${most.p}`;
    },
    "stringify-game-tick": () => {
      const us = (e: Engine) => one(engine(e, "game-tick", "json").serialize.median / 1000);
      return `${us("firefox")} against ${us("chromium")} µs`;
    },
    "msgpackr-firefox": () => {
      const [ff, ch] = (["firefox", "chromium"] as const).map((e) => vsJson(engine(e, "game-tick", "msgpackr")));
      return claim(ff! < ch!, x(ff!), "msgpackr looking better against JSON on game-tick in Firefox than in Chromium");
    },
    "msgpackr-chromium": () => x(vsJson(engine("chromium", "game-tick", "msgpackr"))),
    "jb-chromium": () => `${range(jsonBytes("chromium", true), one)}x`,
    "jb-chromium-game-tick": () => `${one(vsJson(engine("chromium", "game-tick", "json-bytes")))}x`,
    "jb-firefox": () => `${range(jsonBytes("firefox", true), one)}x`,
    "jb-firefox-game-tick": () => `${one(vsJson(engine("firefox", "game-tick", "json-bytes")))}x`,
    "jb-bun": () => `${range(jsonBytes("bun", false), one)}x`,
    "tick-chromium": () => `${Math.round(env(ENGINES.chromium).timerResolutionNs / 1000)} µs`,
    "tick-firefox": () => `${Math.round(env(ENGINES.firefox).timerResolutionNs / 1000)} µs`,
    "node-cb": () =>
      `${range(
        casesIn(ENGINES.node, { mode: "roundtrip", codec: "custom-binary" }).map((c) => c.ratios!.clientVsJson!.value),
        fig,
      )}x`,
    "table-chromium": () => chromeMajor(PAGE_RUN),
    "browser-table": () => {
      const rows = casesIn(PAGE_RUN, { mode: "stream" }).map(({ payload, codec }) =>
        [
          payload,
          codec,
          nsCell(find(BUN_RUN, "codec", payload, codec)),
          nsCell(find(PAGE_RUN, "codec", payload, codec)),
          rateCell(find(BUN_RUN, "stream", payload, codec)),
          rateCell(find(PAGE_RUN, "stream", payload, codec)),
        ].join(" | "),
      );
      return [
        "| payload | codec | in process, Bun | in the page, Chromium | stream, Bun client | stream, Chromium |",
        "| --- | --- | ---: | ---: | ---: | ---: |",
        ...rows.map((r) => `| ${r} |`),
      ].join("\n");
    },
    "v8-gain": () =>
      claim(
        hi(jsonPageOverBun()) < 1 && ARTICLE_PAYLOADS.every((p) => cbCost(p) !== "less"),
        "JSON gains in V8; custom-binary does not.",
        "JSON costing less in the page than in Bun on every message, and custom-binary not less on any",
      ),
    "json-page": () => `${range(jsonPageOverBun(), fixed(2))}x`,
    "json-as-much": () => {
      // The codecs that gain as much as JSON: their page-over-Bun, as the page writes it, within JSON's range.
      const json = jsonPageOverBun();
      const [low, high] = [Number(fixed(2)(lo(json))), Number(fixed(2)(hi(json)))];
      const shown = (r: number) => Number(fixed(2)(r));
      const codecs = [...new Set(casesIn(PAGE_RUN, { mode: "codec" }).map((c) => c.codec))].filter((c) => c !== "json");
      const asMuch = ARTICLE_PAYLOADS.flatMap((p) =>
        codecs
          .filter((c) => shown(pageOverBun(p, c)) >= low && shown(pageOverBun(p, c)) <= high)
          .map((c) => `${c} on the ${p}`),
      );
      if (asMuch.length === 0) return "";
      return ` (so ${asMuch.length === 1 ? "does" : "do"} ${list(asMuch.map((a, i) => `${a} ${i === 0 ? "message" : "one"}`))})`;
    },
    "cb-page": () => {
      // Payloads of one word together, in order.
      const words = [...new Set(ARTICLE_PAYLOADS.map(cbCost))];
      return list(
        words.map((w, i) => {
          const ps = ARTICLE_PAYLOADS.filter((p) => cbCost(p) === w);
          return `${w} on the ${list(ps)} ${i === 0 ? "message" : "one"}${ps.length > 1 ? "s" : ""}`;
        }),
      );
    },
    "cb-page-small": () => x(vsJson(codecCase(PAGE_RUN, "small", "custom-binary"))),
    "cb-page-medium": () => x(vsJson(codecCase(PAGE_RUN, "medium", "custom-binary"))),
    "cb-page-large": () => x(vsJson(codecCase(PAGE_RUN, "large", "custom-binary"))),
    "cb-in-bun": () => list(ARTICLE_PAYLOADS.map((p) => x(vsJson(codecCase(BUN_RUN, p, "custom-binary"))))),
    "cb-smallest": () =>
      claim(
        [PAGE_RUN, BUN_RUN].every((file) =>
          ARTICLE_PAYLOADS.every((p) => {
            const cb = codecCase(file, p, "custom-binary").bytes;
            return casesIn(file, { mode: "codec", payload: p }).every(
              (c) => c.codec === "custom-binary" || cb < c.bytes,
            );
          }),
        ),
        "It stays the smallest everywhere.",
        "custom-binary's messages the smallest of every payload in both runs",
      ),
    "chromium-rates": () =>
      range(
        casesIn(PAGE_RUN, { mode: "stream" }).map((c) => c.msgsPerS!),
        whole,
      ),
    "raw-chromium": () =>
      range(
        ARTICLE_PAYLOADS.map((p) => stream(PAGE_RUN, p, "raw")),
        whole,
      ),
    "raw-fewer": () =>
      `${range(
        ARTICLE_PAYLOADS.map((p) => stream(BUN_RUN, p, "raw") / stream(PAGE_RUN, p, "raw")),
        (v) => String(Math.round(v)),
      )}x`,
    // To the nearest 10 µs: a browser's clock ticks every 5 µs.
    "rtt-chromium": () =>
      `${range(
        casesIn(ENGINES.chromium, { mode: "roundtrip" }).map((c) => c.socket!.rtt!.p50 / 1000),
        (v) => String(Math.round(v / 10) * 10),
      )} µs`,
    "clock-page": () =>
      claim(
        env(PAGE_RUN).crossOriginIsolated === true,
        `${Math.round(env(PAGE_RUN).timerResolutionNs / 1000)} µs (isolated)`,
        "the page's run cross-origin isolated",
      ),
    "clock-bun": () => `${one(env(BUN_RUN).timerResolutionNs / 1000)} µs`,
    "read-page": () => `${Math.round(env(PAGE_RUN).timerOverheadNs)} ns`,
    "read-bun": () => `${Math.round(env(BUN_RUN).timerOverheadNs)} ns`,
  },
};
