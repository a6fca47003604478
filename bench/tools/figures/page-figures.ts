/**
 * docs/page.md's figures: the three default runs (how two compare, how the CI gate judges the three),
 * the engines runs side by side, and the browser (chromium-codec-stream) against Bun (bun-default-1).
 */

import type { CaseResult } from "../../../client/harness/results.ts";
import { ARTICLE_PAYLOADS } from "../../../protocols/messages.ts";
import { caseChanges, slowerCases } from "../../report/changes.ts";
import { ratioFigure, ratioText } from "../../report/format.ts";
import { claim, type PageFigures } from "./figure-spec.ts";
import { fixed, hi, list, lo, mdTable, range, thousands, whole } from "./prose.ts";
import { casesIn, clientEnvironment, estimateIn, machineOf, sampleResults } from "./sample-files.ts";

const DEFAULTS = ["bun-default-1.json.gz", "bun-default-2.json.gz", "bun-default-3.json.gz"];
const ENGINE_NAMES = ["Bun", "Chromium", "Firefox"] as const;
type Engine = (typeof ENGINE_NAMES)[number];
const engine = (e: Engine): string => `engines-${e.toLowerCase()}.json.gz`;
/** Node runs only the client (roundtrip mode): no codec-mode figures. */
const NODE = "engines-node.json.gz";
/** The browser's run, and Bun's it is set against. */
const PAGE_RUN = "chromium-codec-stream.json.gz";
const BUN_RUN = "bun-default-1.json.gz";

const one = fixed(1);
const x = (r: number): string => `${ratioFigure(r)}x`;
/** A range of ratios in one format: xRange(fixed(2))([0.61, 0.68]) is "0.61-0.68x". */
const xRange = (f: (v: number) => string) => (values: number[]) => `${range(values, f)}x`;
/** A file's one case of a mode, payload and codec; undefined where it has none. */
const at = (file: string, mode: string, payload: string, codec: string): CaseResult | undefined =>
  casesIn(file, { mode: mode as CaseResult["mode"], payload, codec })[0];
const vsJson = (file: string, payload: string, codec = "custom-binary"): number =>
  estimateIn(file, { mode: "codec", payload, codec }).value;
const env = clientEnvironment;
const payloads = (): string[] => [...new Set(casesIn(engine("Bun"), { mode: "codec" }).map((c) => c.payload))];
const chromeMajor = (file: string) => () =>
  /^Chrome (\d+)\./.exec(env(file).runtimeVersion)?.[1] ?? claim(false, "", `results/sample/${file} made in Chrome`);
const us = (ns: number): string => (ns >= 1000 ? `${(ns / 1000).toFixed(2)} µs` : `${Math.round(ns)} ns`);

/** Two default runs compared as `bun run report A B` compares them. */
const changes = (a: number, b: number) =>
  caseChanges(sampleResults(DEFAULTS[a]!).cases, sampleResults(DEFAULTS[b]!).cases);
const FIGURES = { vsJson: "ratio to JSON", fieldVsJson: "field" } as const;
type Fig = keyof typeof FIGURES;
/** The first two runs' figures of a kind both hold (json aside), and those whose 95% intervals are apart. */
const held = (n: Fig) => changes(0, 1).filter((c) => c.codec !== "json" && c.a.ratios?.[n] && c.b.ratios?.[n]);
const ratioOf = (n: Fig) => (c: CaseResult) => ratioText(c.ratios![n]);
const apart = (n: Fig) =>
  held(n).filter(({ a, b }) => b.ratios![n]!.high < a.ratios![n]!.low || b.ratios![n]!.low > a.ratios![n]!.high);
/** The CI gate over the three default runs: each order as [BASE, NEW], and the least gate it passes. */
const ORDERS = [0, 1, 2].flatMap((a) => [0, 1, 2].filter((b) => b !== a).map((b) => [a, b] as const));
const gate = (a: number, b: number, pct: number): string[] => slowerCases(changes(a, b), pct);
const passesAt = (a: number, b: number) => [...Array(50).keys()].map((i) => i + 1).find((p) => !gate(a, b, p).length);

/** A codec's in-process time in the page over its time in Bun. */
const pageOverBun = (p: string, codec: string): number =>
  at(PAGE_RUN, "codec", p, codec)!.total.median / at(BUN_RUN, "codec", p, codec)!.total.median;
const stringifyIn = (e: Engine, p: string) => at(engine(e), "codec", p, "json")!.serialize.median;
const stringifyOver = (p: string): number => stringifyIn("Firefox", p) / stringifyIn("Chromium", p);
const rate = (c: CaseResult): number => c.msgsPerS!;
const clientVsJson = (c: CaseResult): number => c.ratios!.clientVsJson!.value;
const cbBun = (p: string): number => vsJson(engine("Bun"), p);
const stream = (file: string, p: string, codec: string): number => rate(at(file, "stream", p, codec)!);
const tick = (file: string) => `${Math.round(env(file).timerResolutionNs / 1000)} µs`;
/** The codec whose messages of a payload are the smallest in a run's codec mode. */
const smallest = (file: string, p: string): string =>
  casesIn(file, { mode: "codec", payload: p }).reduce((a, b) => (b.bytes < a.bytes ? b : a)).codec;
const BROWSER_HEAD =
  "payload|codec|in process, Bun|in the page, Chromium|page / Bun|stream, Bun client|stream, Chromium";

export const PAGE: PageFigures = {
  page: "docs/page.md",
  figures: {
    "log-example": () => {
      const [page, cli] = [PAGE_RUN, BUN_RUN].map((f) => stream(f, "small", "custom-binary"));
      const text = `~${thousands(page!)} messages/s against Bun's ~${whole(Math.round(cli! / 10_000) * 10_000)}`;
      return claim(cli! / page! > 10, text, "Bun's stream rate of custom-binary's small message over 10x Chromium's");
    },
    "engines-chrome": chromeMajor(engine("Chromium")),
    "engines-firefox": () => env(engine("Firefox")).runtimeVersion,
    "small-times": () => {
      const small = changes(0, 1).filter((c) => c.mode === "codec" && c.payload === "small");
      const pcts = small.map((c) => Math.round((c.total.value - 1) * 100));
      const count = (v: string) => small.filter((c) => c.total.verdict === v).length;
      const signed = (p: number) => `${p > 0 ? "+" : ""}${p}%`;
      return `${signed(lo(pcts))} to ${signed(hi(pcts))} apart (${count("slower")} of ${small.length} "slower", ${count("faster")} "faster")`;
    },
    moved: () =>
      `of the ${held("vsJson").length} ratios to JSON ${apart("vsJson").length} moved beyond both intervals, and of the ${held("fieldVsJson").length} field figures ${apart("fieldVsJson").length}`,
    "moved-table": () => {
      const rows = (["vsJson", "fieldVsJson"] as const).flatMap((n) =>
        apart(n).map(({ mode, payload, codec, a, b }) => [FIGURES[n], mode, payload, codec, ...[a, b].map(ratioOf(n))]),
      );
      return mdTable(["figure", "mode", "payload", "codec", "first run", "second run"], rows);
    },
    "gate-pass": () => {
      const least = hi(ORDERS.map(([a, b]) => passesAt(a, b) ?? 100));
      return claim(least > 1 && least <= 50, `${least}%`, "every order passing a gate of 50%, not every gate");
    },
    "gate-table": () => {
      const run = (i: number) => `\`${DEFAULTS[i]!.replace(".json.gz", "")}\``;
      const passes = (a: number, b: number) => (passesAt(a, b) === 1 ? "any" : `${passesAt(a, b)}%`);
      // "codec small msgpackr: ratio to json 1.00 [..] -> 1.16 [..], +16.1% [+5.1, +28.3]": the case and its rise.
      const fails = (lines: string[]) =>
        lines.map((l) => l.replace(/: ratio to json .*? -> [\d.]+ \[[^\]]*\], /, " ")).join("; ") || "nothing";
      const rows = ORDERS.map(([a, b]) => [run(a), run(b), passes(a, b), fails(gate(a, b, 5))]);
      return mdTable(["BASE", "NEW", "passes a gate of", "a 5% gate fails on"], rows);
    },
    "engines-machine": () => machineOf([engine("Bun"), NODE]).cpu,
    "engines-table": () => {
      const cell = (e: Engine, codec: string, payload: string) =>
        ratioText(estimateIn(engine(e), { mode: "codec", payload, codec }));
      const row = (c: string) => (e: Engine) => [c, e, ...payloads().map((p) => cell(e, c, p))];
      const rows = ["custom-binary", "json-bytes", "msgpackr"].flatMap((c) => ENGINE_NAMES.map(row(c)));
      const stringify = payloads().map((p) => `${one(stringifyOver(p))}x`);
      return mdTable(["codec", "engine", ...payloads()], [...rows, ["`JSON.stringify`", "Firefox / V8", ...stringify]]);
    },
    "cb-text": () => {
      const shrinks = (p: string) => lo([engine("Chromium"), engine("Firefox")].map((f) => vsJson(f, p))) > cbBun(p);
      const text = "Its lead shrinks in a browser on text-heavy messages (medium, large, chat)";
      return claim(["medium", "large", "chat"].every(shrinks), text, "custom-binary's lead shrinking in both browsers");
    },
    "ff-decode": () => {
      const [l, m] = ["large", "medium"].map((p) => at(engine("Firefox"), "codec", p, "custom-binary")!.deserialize);
      return `${one(l!.median / l!.min)} times its fastest on large (${whole(l!.median)} ns against ${whole(l!.min)}; medium: ${whole(m!.median)} against ${whole(m!.min)}`;
    },
    "cb-game-tick": () => xRange(ratioFigure)(ENGINE_NAMES.map((e) => vsJson(engine(e), "game-tick"))),
    "stringify-ratio": () => xRange(one)(payloads().map(stringifyOver)),
    msgpackr: () => {
      const [ff, ch] = [engine("Firefox"), engine("Chromium")].map((f) => vsJson(f, "game-tick", "msgpackr"));
      const text = `msgpackr on game-tick: ${x(ff!)} in Firefox, ${x(ch!)} in Chromium`;
      return claim(ff! < ch!, text, "msgpackr better against JSON on game-tick in Firefox than in Chromium");
    },
    "json-bytes": () => {
      const jb = (e: Engine) => payloads().map((p) => vsJson(engine(e), p, "json-bytes"));
      const text = `${list(ENGINE_NAMES.map((e, i) => `${xRange(one)(jb(e))}${i ? "" : " JSON's time"} in ${e}`))}, the least on game-tick, mostly numbers`;
      const least = (e: Engine) => lo(jb(e)) === jb(e)[payloads().indexOf("game-tick")];
      return claim(ENGINE_NAMES.every(least), text, "json-bytes cheapest against JSON on game-tick in every engine");
    },
    ticks: () => `${tick(engine("Chromium"))} (Chromium) or ${tick(engine("Firefox"))} (Firefox)`,
    "node-cb": () =>
      xRange(ratioFigure)(casesIn(NODE, { mode: "roundtrip", codec: "custom-binary" }).map(clientVsJson)),
    "table-chromium": chromeMajor(PAGE_RUN),
    "browser-table": () => {
      const row = ({ payload: p, codec }: CaseResult) => {
        const [bun, page] = [BUN_RUN, PAGE_RUN].map((f) => at(f, "codec", p, codec)?.total.median);
        const inProcess = bun && page ? [us(bun), us(page), `${fixed(2)(page / bun)}x`] : ["-", "-", "-"];
        return [p, codec, ...inProcess, ...[BUN_RUN, PAGE_RUN].map((f) => `${whole(stream(f, p, codec))}/s`)];
      };
      return mdTable(BROWSER_HEAD.split("|"), casesIn(PAGE_RUN, { mode: "stream" }).map(row));
    },
    "v8-gain": () => {
      const gains = ARTICLE_PAYLOADS.every((p) => pageOverBun(p, "json") < 1 && pageOverBun(p, "custom-binary") > 0.9);
      const worse = ARTICLE_PAYLOADS.every((p) => pageOverBun(p, "custom-binary") > pageOverBun(p, "json"));
      return claim(
        gains || worse,
        gains ? "JSON gains in V8; custom-binary does not." : "custom-binary loses more in the page than JSON.",
        "custom-binary dearer in the page, against Bun, than JSON on every payload",
      );
    },
    "json-page": () => xRange(fixed(2))(ARTICLE_PAYLOADS.map((p) => pageOverBun(p, "json"))),
    "cb-page-bun": () => xRange(fixed(2))(ARTICLE_PAYLOADS.map((p) => pageOverBun(p, "custom-binary"))),
    "cb-page": () => {
      const cb = (file: string) => list(ARTICLE_PAYLOADS.map((p) => x(vsJson(file, p))));
      return `${cb(PAGE_RUN)} JSON's time on the small, medium and large messages (in Bun ${cb(BUN_RUN)})`;
    },
    "cb-smallest": () => {
      const cb = [PAGE_RUN, BUN_RUN].every((f) => ARTICLE_PAYLOADS.every((p) => smallest(f, p) === "custom-binary"));
      return claim(cb, "It stays the smallest everywhere.", "custom-binary's messages the smallest in both runs");
    },
    "chromium-rates": () => range(casesIn(PAGE_RUN, { mode: "stream" }).map(rate), whole),
    "raw-fewer": () =>
      xRange(fixed(0))(ARTICLE_PAYLOADS.map((p) => stream(BUN_RUN, p, "raw") / stream(PAGE_RUN, p, "raw"))),
    // To the nearest 10 µs: a browser's clock ticks every 5 µs.
    "rtt-chromium": () => {
      const p50s = casesIn(engine("Chromium"), { mode: "roundtrip" }).map((c) => c.socket!.rtt!.p50 / 10_000);
      return `${range(p50s, (v) => `${Math.round(v) * 10}`)} µs`;
    },
    clocks: () => {
      const [page, bun] = [env(PAGE_RUN), env(BUN_RUN)];
      const text = `${Math.round(page.timerResolutionNs / 1000)} µs (isolated) against ${one(bun.timerResolutionNs / 1000)} µs in Bun, and one read costs ${Math.round(page.timerOverheadNs)} ns against ${Math.round(bun.timerOverheadNs)} ns`;
      return claim(page.crossOriginIsolated === true, text, "the page's run cross-origin isolated");
    },
  },
};
