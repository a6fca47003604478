/**
 * docs/your-project.md's figures: the table of the options compare() shares with the command line,
 * written from the options' one description (bench/cli/option-specs.ts), each under its key.
 */

import { BUILT_IN } from "../../../protocols/registry.ts";
import { optionsTable } from "../../cli/flags.ts";
import { BENCH_OPTIONS, benchFlag } from "../../cli/option-specs.ts";
import type { PageFigures } from "./figure-spec.ts";

export const YOUR_PROJECT: PageFigures = {
  page: "docs/your-project.md",
  figures: {
    "api-options": () =>
      optionsTable(
        BENCH_OPTIONS.filter((s) => !("cliOnly" in s)),
        BUILT_IN,
        (s) => `\`${s.key}\` (\`${benchFlag(s.key)}\`)`,
        (key) => key,
      ),
  },
};
