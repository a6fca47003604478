/**
 * The README's figures: the first look (the committed `--quick` run) and what the three
 * back-to-back default runs say of a run's time and of how far its ratios move between runs.
 */

import type { CaseResult, Estimate } from "../../../client/harness/results.ts";
import type { PageFigures } from "./figure-spec.ts";
import { quickFigures } from "./first-look.ts";
import { halfWidth, plusMinus, range, seconds } from "./prose.ts";
import { casesIn, codecModeMs, machineOf, sampleResults } from "./sample-files.ts";

const QUICK = "epyc-quick.json.gz";
const DEFAULT_RUNS = ["epyc-default-1.json.gz", "epyc-default-2.json.gz", "epyc-default-3.json.gz"];
type Pick = (c: CaseResult) => Estimate | undefined;
const VS_JSON: Pick = (c) => c.ratios?.vsJson;
const FIELD: Pick = (c) => c.ratios?.fieldVsJson;

/** Each codec's (not json's or raw's) cases of a mode in a file. */
const codecCases = (file: string, mode: CaseResult["mode"]): CaseResult[] =>
  casesIn(file, { mode }).filter((c) => c.codec !== "json" && c.codec !== "raw");

/** Per payload and codec of a mode, the largest of the three runs' picked ratios over the smallest. */
function spreads(mode: CaseResult["mode"], pick: Pick): { payload: string; spread: number }[] {
  return codecCases(DEFAULT_RUNS[0]!, mode).flatMap((c) => {
    const ratios = DEFAULT_RUNS.map(
      (f) => casesIn(f, { mode, payload: c.payload, codec: c.codec }).map((x) => pick(x)?.value)[0],
    ).filter((r): r is number => r !== undefined && Number.isFinite(r));
    return ratios.length === DEFAULT_RUNS.length
      ? [{ payload: c.payload, spread: Math.max(...ratios) / Math.min(...ratios) }]
      : [];
  });
}
/** Every codec-mode ratio the default runs give (in process, echo, read-one, validated) across the three. */
const labSpreads = (): number[] =>
  (["vsJson", "echoVsJson", "readOneVsJson", "validatedVsJson"] as const).flatMap((k) =>
    spreads("codec", (c) => c.ratios?.[k]).map((s) => s.spread),
  );
const widest = (v: readonly number[]): string => Math.max(...v).toFixed(2);
/** The widest interval's half-width among some cases' picked ratios. */
const widestHalf = (cases: readonly CaseResult[], pick: Pick): number =>
  Math.max(...cases.map((c) => pick(c)).map((r) => (r ? halfWidth(r) : 0)));

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
    "default-minutes": () => {
      const elapsed = DEFAULT_RUNS.map((f) => sampleResults(f).elapsedMs);
      return String(Math.round(elapsed.reduce((a, b) => a + b, 0) / elapsed.length / 60_000));
    },
    "default-took": () =>
      range(
        DEFAULT_RUNS.map((f) => sampleResults(f).elapsedMs),
        seconds,
      ),
    "default-codec-mode": () => seconds(codecModeMs("epyc-default-1.json.gz")),
    "quick-widest": () =>
      plusMinus(
        Math.max(widestHalf(codecCases(QUICK, "codec"), VS_JSON), widestHalf(codecCases(QUICK, "stream"), FIELD)),
      ),
    "default-widest": () => {
      const most = (mode: CaseResult["mode"], pick: Pick) =>
        plusMinus(Math.max(...DEFAULT_RUNS.map((f) => widestHalf(codecCases(f, mode), pick))));
      return `${most("codec", VS_JSON)} and ${most("stream", FIELD)}`;
    },
    "lab-agree": () => {
      const lab = labSpreads();
      return `${lab.filter((s) => s <= 1.05).length} of ${lab.length} codec-mode ratios, the widest ${widest(lab)}x`;
    },
    "field-agree": () => {
      const stream = spreads("stream", FIELD).map((s) => s.spread);
      const idle = spreads("roundtrip", FIELD);
      const most = idle.reduce((a, b) => (b.spread > a.spread ? b : a));
      return `${widest(stream)}x in a busy server (stream) but up to ${most.spread.toFixed(2)}x in an idle one (roundtrip, the ${most.payload} message)`;
    },
  },
};
