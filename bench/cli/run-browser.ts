/**
 * `--client browser`: every selected mode runs inside the page in headless
 * Chromium (codec mode too, in the page's JavaScript engine); the rows join
 * the same files as every other client's.
 */

import { flagLossy } from "../harness/exclusions.ts";
import { kneeField } from "../harness/knee.ts";
import { withRatios } from "../harness/ratios.ts";
import type { Plan } from "../harness/plan.ts";
import type { BenchResults } from "../harness/results.ts";
import { SettingError } from "../harness/harness-errors.ts";
import type { BenchOptions } from "./options.ts";
import { findChromium, NO_CHROMIUM_MESSAGE, runBrowserClient } from "./processes/browser.ts";
import { estimateFor } from "./eta.ts";
import { createProgressPrinter } from "./progress.ts";
import { EXIT_INTERRUPTED, measureEnvironment, report, type RunControl, type Streams } from "./run-support.ts";
import { useServer } from "./servers.ts";

/** The page carries the plan out itself (client/plan-run.ts, the same orchestrator); the bench serves it, drives Chromium and writes the files. */
export async function runBrowserBench(plan: Plan, options: BenchOptions, streams: Streams, control: RunControl): Promise<number> {
  const chromiumPath = findChromium();
  if (!chromiumPath) throw new SettingError(NO_CHROMIUM_MESSAGE);
  const estimate = estimateFor(plan, options.out, 1);
  const progress = createProgressPrinter(streams.stderr, estimate);
  const { environment } = measureEnvironment();
  const started = performance.now();
  let failures = 0;
  let browser: BenchResults | undefined;
  let serverLabel: string | undefined;
  try {
    await useServer(options, async (server) => {
      serverLabel = server.label;
      browser = await runBrowserClient(chromiumPath, { settings: plan.settings, server: server.url }, (p) => progress.update(p), () => control.stopRequested);
    });
  } catch (e) {
    progress.finish();
    streams.stderr.write(`bench: the browser run failed: ${(e as Error).message}\n`);
    failures++;
  }
  progress.finish();
  const cases = browser?.cases ?? [];
  flagLossy(cases, plan.fidelity);
  const results: BenchResults = {
    timestamp: browser?.timestamp ?? new Date().toISOString(),
    settings: { ...(browser?.settings ?? { ...plan.settings, minBatchNs: NaN }), client: "browser", server: serverLabel },
    environment,
    environments: browser ? { browser: browser.environment } : {},
    order: browser?.order ?? {},
    // The cases with their ratios, as every run assembles them (client/plan-run.ts).
    ...withRatios(cases),
    elapsedMs: performance.now() - started,
    timings: estimate.timings(),
    ...kneeField(cases),
    ...(plan.fidelity.length > 0 ? { fidelity: [...plan.fidelity] } : {}),
  };
  const code = report(results, options, streams, failures);
  return control.stopRequested ? EXIT_INTERRUPTED : code;
}
