/** Every document with generated spans, and the module whose figures fill them. */

import type { PageFigures } from "./figure-spec.ts";
import { CLUSTERS } from "./clusters-figures.ts";
import { README } from "./readme-figures.ts";
import { RESULTS } from "./results-figures.ts";

export const PAGES: readonly PageFigures[] = [README, RESULTS, CLUSTERS];
