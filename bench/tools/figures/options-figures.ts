/**
 * docs/options.md's figures: the table of every option and the table of defaults per mode, written
 * from the options' one description (bench/cli/option-specs.ts, which --help is written from too);
 * and, in its account of what plain `bun run bench` runs, the settings, slices and round trips of
 * the committed default run (bun-default-1.json.gz), how long the three default runs took
 * (bun-default-{1,2,3}.json.gz), and codec mode on every codec and payload (bun-every-codec.json.gz).
 */

import type { CaseResult } from "../../../client/harness/results.ts";
import { MODE_NAMES } from "../../../client/harness/settings.ts";
import { BUILT_IN } from "../../../protocols/registry.ts";
import { optionName, optionsTable } from "../../cli/flags.ts";
import { BENCH_OPTIONS, benchFlag, PER_MODE_DEFAULTS } from "../../cli/option-specs.ts";
import { claim, type PageFigures } from "./figure-spec.ts";
import { range, seconds, whole, word } from "./prose.ts";
import { casesIn, codecModeMs, sampleResults } from "./sample-files.ts";

const FIRST = "bun-default-1.json.gz";
const DEFAULT_RUNS = ["bun-default-1.json.gz", "bun-default-2.json.gz", "bun-default-3.json.gz"];
const EVERY_CODEC = "bun-every-codec.json.gz";

const settings = () => sampleResults(FIRST).settings;
/** The one value a figure of the first default run's cases of a mode takes; throws when they differ. */
const onlyOne = (mode: CaseResult["mode"], what: string, of: (c: CaseResult) => number): number => {
  const values = new Set(casesIn(DEFAULT_RUNS[0]!, { mode }).map(of));
  if (values.size !== 1) throw new Error(`results/sample/${DEFAULT_RUNS[0]}: ${values.size} values of ${mode} ${what}`);
  return [...values][0]!;
};
const slices = (mode: CaseResult["mode"]): number => onlyOne(mode, "slices", (c) => c.rounds);
const sliceMessages = (mode: CaseResult["mode"]): number => onlyOne(mode, "messages per slice", (c) => c.socket!.slice);
const runs = (n: number): string => `${word(n)} run${n === 1 ? "" : "s"}`;
const elapsed = (): number[] => DEFAULT_RUNS.map((f) => sampleResults(f).elapsedMs);

/** The defaults per mode as a Markdown table: a row per option and profile, a column per mode. */
const perModeTable = (): string =>
  [
    `| | ${MODE_NAMES.join(" | ")} |`,
    `| --- |${" ---: |".repeat(MODE_NAMES.length)}`,
    ...PER_MODE_DEFAULTS.map(([label, row]) => {
      const name = label.trim();
      const shown = name === label ? `\`${name}\`` : name.startsWith("--") ? `with \`${name}\`` : name;
      return `| ${shown} | ${MODE_NAMES.map((m) => whole(row[m])).join(" | ")} |`;
    }),
  ].join("\n");

export const OPTIONS: PageFigures = {
  page: "docs/options.md",
  figures: {
    options: () =>
      optionsTable(
        BENCH_OPTIONS,
        BUILT_IN,
        (s) =>
          optionName(s)
            .split(", ")
            .map((name) => `\`${name}\``)
            .join(", "),
        benchFlag,
      ),
    "per-mode": perModeTable,
    "every-codec-took": () => seconds(sampleResults(EVERY_CODEC).elapsedMs),
    "codec-mode": () => seconds(codecModeMs(FIRST)),
    "codec-iterations": () => whole(settings().iterations.codec),
    forks: () => String(settings().forks ?? 1),
    precision: () => `±${settings().precision}%`,
    "max-time": () => seconds(settings().maxTimeMs ?? Number.NaN),
    "stream-runs": () => runs(settings().runs.stream),
    "stream-iterations": () => whole(settings().iterations.stream),
    window: () => String(settings().window),
    "roundtrip-runs": () => runs(settings().runs.roundtrip),
    "roundtrip-iterations": () => whole(settings().iterations.roundtrip),
    "rtt-p50": () =>
      range(
        DEFAULT_RUNS.flatMap((f) => casesIn(f, { mode: "roundtrip" }).map((c) => c.socket!.rtt!.p50)),
        (ns) => String(Math.round(ns / 1000)),
      ),
    slices: () =>
      claim(
        slices("stream") === slices("roundtrip"),
        String(slices("stream")),
        "as many slices per codec in stream mode as in roundtrip mode",
      ),
    "stream-slice": () => String(sliceMessages("stream")),
    "roundtrip-slice": () => String(sliceMessages("roundtrip")),
    warmup: () => {
      const w = settings().warmup;
      return claim(
        w.stream === w.roundtrip,
        whole(w.roundtrip),
        "the same warm-up for each codec in stream and roundtrip mode",
      );
    },
    minutes: () => {
      const n = Math.round(elapsed().reduce((a, b) => a + b, 0) / elapsed().length / 60_000);
      return `${n} minute${n === 1 ? "" : "s"}`;
    },
    "default-took": () => range(elapsed(), seconds),
    "codec-mode-of-it": () => seconds(codecModeMs(FIRST)),
  },
};
