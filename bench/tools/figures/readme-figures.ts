/**
 * The README's figures: the first look (the committed `--quick` run) and what the three
 * back-to-back default runs say of a run's time and of how far its ratios move between runs.
 */

import type { CaseResult } from "../../../client/harness/results.ts";
import type { PageFigures } from "./figure-spec.ts";
import { quickFigures } from "./first-look.ts";
import { across, DEFAULT_RUNS, lab, widest } from "./methodology-figures.ts";
import { halfWidthText } from "../../report/format.ts";
import { halfWidth, hi, range, seconds } from "./prose.ts";
import { casesIn, codecModeMs, machineOf, sampleResults } from "./sample-files.ts";

const QUICK = "bun-quick.json.gz";
/** The widest interval's half-width among some runs' codec (not json or raw) cases of a mode, of one ratio. */
/** Every codec's half-width of a ratio to JSON in some runs' mode. */
const halves = (files: string[], mode: CaseResult["mode"], ratio: "vsJson" | "fieldVsJson"): number[] =>
  files.flatMap((f) =>
    casesIn(f, { mode })
      .filter((c) => c.codec !== "json" && c.codec !== "raw" && c.ratios?.[ratio])
      .map((c) => halfWidth(c.ratios![ratio]!)),
  );
const widestHalf = (files: string[], mode: CaseResult["mode"], ratio: "vsJson" | "fieldVsJson"): number =>
  hi(halves(files, mode, ratio));
const medianHalf = (files: string[], mode: CaseResult["mode"], ratio: "vsJson" | "fieldVsJson"): number => {
  const v = halves(files, mode, ratio).sort((a, b) => a - b);
  return v.length % 2 ? v[(v.length - 1) / 2]! : (v[v.length / 2 - 1]! + v[v.length / 2]!) / 2;
};
const elapsed = () => DEFAULT_RUNS.map((f) => sampleResults(f).elapsedMs);

export const README: PageFigures = {
  page: "README.md",
  figures: {
    "first-look": () => quickFigures({ name: `results/sample/${QUICK}`, results: sampleResults(QUICK) }),
    "quick-took": () => seconds(sampleResults(QUICK).elapsedMs),
    "quick-machine": () => {
      const m = machineOf([QUICK]);
      return `${m.cores}-core ${m.cpu}`;
    },
    "quick-modes": () => [...new Set(casesIn(QUICK).map((c) => `${c.mode} mode`))].join(" and "),
    "default-minutes": () => String(Math.round(elapsed().reduce((a, b) => a + b, 0) / elapsed().length / 60_000)),
    "default-took": () => range(elapsed(), seconds),
    "default-codec-mode": () => seconds(codecModeMs(DEFAULT_RUNS[0]!)),
    "quick-widest": () =>
      halfWidthText(Math.max(widestHalf([QUICK], "codec", "vsJson"), widestHalf([QUICK], "stream", "fieldVsJson"))),
    "default-widest": () =>
      `median ${halfWidthText(medianHalf(DEFAULT_RUNS, "codec", "vsJson"))} and ${halfWidthText(medianHalf(DEFAULT_RUNS, "stream", "fieldVsJson"))}, the widest ${halfWidthText(widestHalf(DEFAULT_RUNS, "codec", "vsJson"))} and ${halfWidthText(widestHalf(DEFAULT_RUNS, "stream", "fieldVsJson"))}`,
    "lab-agree": () => {
      const all = lab();
      return `${all.filter((r) => r.spread <= 1.05).length} of ${all.length} codec-mode ratios, the widest ${widest(all).spread.toFixed(2)}x`;
    },
    "field-agree": () => {
      const idle = widest(across("roundtrip", "fieldVsJson"));
      return `${widest(across("stream", "fieldVsJson")).spread.toFixed(2)}x in a busy server (stream) but up to ${idle.spread.toFixed(2)}x in an idle one (roundtrip, the ${idle.payload} message)`;
    },
  },
};
