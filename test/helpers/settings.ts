/** Run settings for tests: the quick profile with every codec, then the test's own changes. */

import { BUILT_IN } from "../../protocols/registry.ts";
import { defaultSettings, type Mode, type Settings } from "../../bench/harness/settings.ts";
import { defaultCodecNames } from "../../protocols/socket/contract.ts";

type Overrides = Partial<Omit<Settings, "iterations" | "warmup">> & { iterations?: Partial<Record<Mode, number>>; warmup?: Partial<Record<Mode, number>> };

export function testSettings(overrides: Overrides = {}): Settings {
  const base = defaultSettings("quick", defaultCodecNames(BUILT_IN));
  return {
    ...base,
    ...overrides,
    iterations: { ...base.iterations, ...overrides.iterations },
    warmup: { ...base.warmup, ...overrides.warmup },
  };
}
