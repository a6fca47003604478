/** Run settings for tests: the quick profile with every codec, then the test's own changes. */

import { BUILT_IN } from "../../protocols/registry.ts";
import { defaultSettings, MODE_NAMES, type Mode, type Settings } from "../../client/harness/settings.ts";
import { defaultCodecNames } from "../../protocols/contract.ts";

type Overrides = Partial<Omit<Settings, "iterations" | "warmup" | "runs">> & {
  iterations?: Partial<Record<Mode, number>>;
  warmup?: Partial<Record<Mode, number>>;
  /** One number: every mode's runs (as --runs sets them). */
  runs?: number | Partial<Record<Mode, number>>;
};

/** Every mode's value `n`. */
export function everyMode(n: number): Record<Mode, number> {
  return Object.fromEntries(MODE_NAMES.map((m) => [m, n])) as Record<Mode, number>;
}

export function testSettings(overrides: Overrides = {}): Settings {
  const base = defaultSettings("quick", defaultCodecNames(BUILT_IN));
  const { runs, ...rest } = overrides;
  return {
    ...base,
    ...rest,
    iterations: { ...base.iterations, ...overrides.iterations },
    warmup: { ...base.warmup, ...overrides.warmup },
    runs: typeof runs === "number" ? everyMode(runs) : { ...base.runs, ...runs },
  };
}
