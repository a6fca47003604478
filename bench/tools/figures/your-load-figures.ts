/**
 * docs/your-load.md's figures: the whiteboard's run at its traffic (bun-load-whiteboard), its load
 * section and verdict line as the terminal prints them, and how far the measured cores came from
 * the predicted.
 */

import type { LoadCodecFigures, LoadResult } from "../../../client/harness/results.ts";
import { loadSection, loadVerdictLines } from "../../report/load-table.ts";
import { SAMPLES } from "../sample-list.ts";
import type { PageFigures } from "./figure-spec.ts";
import { hi, lo } from "./prose.ts";
import { machineOf, sampleResults } from "./sample-files.ts";

const FILE = "bun-load-whiteboard.json.gz";
const load = (): LoadResult => {
  const l = sampleResults(FILE).load;
  if (!l) throw new Error(`${FILE} holds no load`);
  return l;
};
const of = (codec: string): LoadCodecFigures => {
  const f = load().codecs.find((c) => c.codec === codec);
  if (!f) throw new Error(`${FILE}'s load has no ${codec}`);
  return f;
};
/** Each codec's distance from its prediction, in whole percent. */
const apart = (): number[] =>
  load()
    .codecs.filter((f) => f.agreement !== undefined)
    .map((f) => Math.round(Math.abs(f.agreement!) * 100));
const block = (lines: readonly string[]): string =>
  ["```", ...lines.filter((l) => l !== "").map((l) => l.trimEnd()), "```"].join("\n");

export const YOUR_LOAD: PageFigures = {
  page: "docs/your-load.md",
  figures: {
    command: () => `\`${SAMPLES.find((s) => s.name === "bun-load-whiteboard")!.command}\``,
    machine: () => {
      const m = machineOf([FILE]);
      return `${m.cpu}, ${m.cores} cores`;
    },
    section: () => block(loadSection(load())),
    verdict: () => block(loadVerdictLines(load()).map((l) => l.trim())),
    apart: () => `${lo(apart())}-${hi(apart())}%`,
    above: () => {
      const priced = load().codecs.filter((f) => f.agreement !== undefined);
      return `${priced.filter((f) => f.agreement! > 0).length} of ${priced.length}`;
    },
    farthest: () => {
      const priced = load().codecs.filter((f) => f.agreement !== undefined);
      const far = priced.sort((a, b) => Math.abs(b.agreement!) - Math.abs(a.agreement!))[0]!;
      return `${far.codec}, ${far.agreement! >= 0 ? "+" : ""}${Math.round(far.agreement! * 100)}%`;
    },
    "transport-share": () => {
      const raw = of("raw").measuredCores!.value;
      const json = of("json").predictedCores!.value;
      return `${Math.round((raw / json) * 100)}%`;
    },
  },
};
