/**
 * docs/methodology.md's figures: how far the ratios of the three committed default runs moved
 * between them, in codec mode and in the field (the README quotes the same from here).
 */

import type { CaseRatios, CaseResult } from "../../../client/harness/results.ts";
import type { PageFigures } from "./figure-spec.ts";
import { ratioFigure } from "../../report/format.ts";
import { range } from "./prose.ts";
import { caseIn, casesIn, estimateIn, sampleText } from "./sample-files.ts";
import { capture, type ModeCapture, type RunFigure } from "../capture.ts";

/** The three back-to-back default runs. */
export const DEFAULT_RUNS = ["bun-default-1.json.gz", "bun-default-2.json.gz", "bun-default-3.json.gz"];

/** Codec mode's four ratios to JSON as the page names them, and the time each is taken from. */
const LAB = [
  { what: "in process", ratio: "vsJson", time: "total" },
  { what: "echo", ratio: "echoVsJson", time: "echo" },
  { what: "read-one", ratio: "readOneVsJson", time: "readOne" },
  { what: "validated", ratio: "validatedVsJson", time: "validated" },
] as const;

/** Each codec's (not json's or raw's) ratio of a mode in the three runs, and how far apart they were (largest over smallest). */
export const across = (mode: CaseResult["mode"], ratio: keyof CaseRatios) =>
  casesIn(DEFAULT_RUNS[0]!, { mode })
    .filter((c) => c.codec !== "json" && c.codec !== "raw")
    .map(({ payload, codec }) => {
      const ratios = DEFAULT_RUNS.map((f) => estimateIn(f, { mode, payload, codec }, ratio).value);
      return { payload, codec, ratios, spread: Math.max(...ratios) / Math.min(...ratios) };
    });
/** Codec mode's four ratios, each with the kind it is. */
export const lab = () => LAB.flatMap((kind) => across("codec", kind.ratio).map((r) => ({ ...r, kind })));
export const widest = <T extends { spread: number }>(all: T[]): T =>
  all.reduce((a, b) => (b.spread > a.spread ? b : a));
const within = (x: number): string => String(lab().filter((r) => r.spread <= x).length);

/** The capture sample: five back-to-back default codec-mode runs (results/sample/capture-codec.json). */
const captureSample = (): { runs: { figures: RunFigure[] }[]; modes: ModeCapture[] } =>
  JSON.parse(sampleText("capture-codec.json"));
const pct = (x: number, digits = 0): string => `${(100 * x).toFixed(digits)}%`;
/** Codec mode's ratios as the page names them, by their name in the results. */
const KINDS: Record<string, string> = {
  vsJson: "in process",
  echoVsJson: "echo",
  readOneVsJson: "read-one",
  validatedVsJson: "validated",
};
/** "protobuf's read-one on the medium message" from a capture key ("inprocess medium protobuf readOneVsJson"). */
const keyText = (key: string): string => {
  const [, payload, codec, kind] = key.split(" ");
  return `${codec}'s ${KINDS[kind!] ?? kind} on the ${payload} message`;
};

export const METHODOLOGY: PageFigures = {
  page: "docs/methodology.md",
  figures: {
    "lab-105": () => within(1.05),
    "lab-count": () => String(lab().length),
    "lab-each": () => String(across("codec", "vsJson").length),
    "lab-110": () => within(1.1),
    "lab-widest": () => {
      const { spread, codec, kind, payload, ratios } = widest(lab());
      const own = DEFAULT_RUNS.map((f) => caseIn(f, { mode: "codec", payload, codec })[kind.time]!.median);
      return `${spread.toFixed(2)}x (${codec}'s ${kind.what} on the ${payload} message, ${ratioFigure(Math.min(...ratios))} to ${ratioFigure(Math.max(...ratios))} of JSON's: its own ${range(own, (ns) => String(Math.round(ns)))} ns)`;
    },
    capture: () => {
      const { runs, modes } = captureSample();
      const c = modes.find((m) => m.mode === "codec")!;
      const each = Object.entries(KINDS).map(([name, what]) => {
        const [one] = capture(
          runs.map((r) => r.figures.filter((f) => f.mode === "codec" && f.key.endsWith(` ${name}`))),
        );
        return `${what} ${pct(one!.inside / one!.pairs)}`;
      });
      return `${c.inside.toLocaleString("en-US")} of ${c.pairs.toLocaleString("en-US")} times (${pct(c.inside / c.pairs)}; ${each.join(", ")}), over ${c.ratios} ratios; the median interval was ±${pct(c.medianHalfWidth, 1)}, the widest ±${pct(c.widestHalfWidth, 1)}, and the worst spread ${c.worstSpread.toFixed(2)}x (${keyText(c.worstKey)})`;
    },
    "field-stream": () => `${widest(across("stream", "fieldVsJson")).spread.toFixed(2)}x`,
    "field-roundtrip": () => {
      const idle = across("roundtrip", "fieldVsJson");
      const most = widest(idle);
      return `${idle.filter((r) => r.spread <= 1.1).length} of ${idle.length} stay within 1.10x, the widest ${most.spread.toFixed(2)}x (${most.codec} on the ${most.payload} message)`;
    },
  },
};
