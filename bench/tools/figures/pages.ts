/** Every document with generated spans, and the module whose figures fill them. */

import type { PageFigures } from "./figure-spec.ts";
import { ACCESS_PATTERNS } from "./access-patterns-figures.ts";
import { CLUSTERS } from "./clusters-figures.ts";
import { CUSTOM_BINARY_PERFORMANCE } from "./custom-binary-performance-figures.ts";
import { HAND_WRITTEN_PROTOCOL } from "./hand-written-protocol-figures.ts";
import { LAB_AND_FIELD } from "./lab-and-field-figures.ts";
import { LATENCY } from "./latency-figures.ts";
import { LINKS } from "./links-figures.ts";
import { METHODOLOGY } from "./methodology-figures.ts";
import { OPTIONS } from "./options-figures.ts";
import { PERFORMANCE_NOTES } from "./performance-notes-figures.ts";
import { PAGE } from "./page-figures.ts";
import { README } from "./readme-figures.ts";
import { RESULTS } from "./results-figures.ts";
import { YOUR_MESSAGES_AND_CODECS } from "./your-messages-and-codecs-figures.ts";
import { YOUR_PROJECT } from "./your-project-figures.ts";
import { YOUR_LOAD } from "./your-load-figures.ts";
import { COLD_START } from "./cold-start-figures.ts";
import { SCHEMA_EVOLUTION } from "./schema-evolution-figures.ts";

export const PAGES: readonly PageFigures[] = [
  README,
  RESULTS,
  CLUSTERS,
  METHODOLOGY,
  ACCESS_PATTERNS,
  LATENCY,
  PAGE,
  PERFORMANCE_NOTES,
  YOUR_MESSAGES_AND_CODECS,
  OPTIONS,
  LAB_AND_FIELD,
  CUSTOM_BINARY_PERFORMANCE,
  HAND_WRITTEN_PROTOCOL,
  LINKS,
  YOUR_PROJECT,
  YOUR_LOAD,
  COLD_START,
  SCHEMA_EVOLUTION,
];
