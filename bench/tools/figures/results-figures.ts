/** docs/results.md's figures: the line saying what made the samples, and the block of every committed run's figures. */

import type { PageFigures } from "./figure-spec.ts";
import { type SampleSet, sampleFigures } from "./results-block.ts";
import type { Sample } from "./sample-cells.ts";
import { sampleResults } from "./sample-files.ts";
import { madeLine, sampleStates } from "./sample-staleness.ts";

const sample = (file: string): Sample => ({ name: `results/sample/${file}`, results: sampleResults(file) });

/** The runs the block sets side by side. */
function sampleSet(): SampleSet {
  return {
    runs: ["epyc-default-1.csv", "epyc-default-2.csv", "epyc-default-3.csv"].map(sample),
    calibrated: sample("epyc-calibrate.csv"),
    sweeps: ["epyc-sweep-1.csv", "epyc-sweep-2.csv", "epyc-sweep-3.csv"].map(sample),
    everyCodec: ["epyc-every-codec.csv", "chromium-every-codec.csv", "epyc-every-codec-field.csv"].map(sample),
    patterns: sample("epyc-every-codec.csv"),
    route: sample("epyc-route.csv"),
    engines: {
      bun: sample("engines-bun.csv"),
      node: sample("engines-node.csv"),
      chromium: sample("engines-chromium.csv"),
      firefox: sample("engines-firefox.csv"),
    },
    cluster: {
      alone: sample("fanout-1-process.csv"),
      redis: sample("fanout-1-process-redis.csv"),
      cluster: sample("fanout-2-processes-redis.csv"),
    },
  };
}

export const RESULTS: PageFigures = {
  page: "docs/results.md",
  figures: {
    made: () => madeLine(sampleStates()),
    figures: () => sampleFigures(sampleSet()),
  },
};
