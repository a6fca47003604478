/** The README's figures: the first look, from the committed `--quick` run. */

import type { PageFigures } from "./figure-spec.ts";
import { quickFigures } from "./first-look.ts";
import { sampleResults } from "./sample-files.ts";

export const README: PageFigures = {
  page: "README.md",
  figures: {
    "first-look": () =>
      quickFigures({ name: "results/sample/epyc-quick.csv", results: sampleResults("epyc-quick.csv") }),
  },
};
