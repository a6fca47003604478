/**
 * One process of cold mode in a browser (`--client chromium|firefox --modes cold`,
 * docs/cold-start.md): a fresh load of a page, in a browser context of its own,
 * whose only script is this one. It does what a fresh Bun process does
 * (bench/cli/processes/cold-start-child.ts): it times the codec's load, its
 * set-up and its first messages (client/harness/cold-start.ts), then writes
 * its outcome to the console, where the bench reads it.
 *
 * Before the clock starts, untimed: the job (a module of JavaScript literals,
 * so no JSON runs before json's messages are timed) and the codec's bundle,
 * fetched as text. The timed load is the import of that text from a blob URL
 * of its own: parse, compile and evaluation of the codec and its library,
 * with no network and nothing cached (every response is no-store, every
 * context fresh).
 */

import { performanceClock } from "../../client/harness/clock.ts";
import { codecLoader } from "../../client/harness/codec-loaders.ts";
import { measureColdStart, type ColdJob } from "../../client/harness/cold-start.ts";
import { COLD_REPORT_PREFIX, coldCodecPath, coldJobPath, type ColdPageOutcome } from "./cold-page-contract.ts";

async function measure(run: string): Promise<ColdPageOutcome> {
  const job = ((await import(coldJobPath(run))) as { default: ColdJob }).default;
  const source = await (await fetch(coldCodecPath(run))).text();
  const url = URL.createObjectURL(new Blob([source], { type: "text/javascript" }));
  const loader = codecLoader(job.codec, job.moduleFile, () => import(url) as Promise<Record<string, unknown>>);
  if (!loader) throw new Error(`cold mode cannot load codec '${job.codec}' on its own`);
  const measured = await measureColdStart(job, performanceClock, loader);
  return {
    measured,
    page: { userAgent: navigator.userAgent, crossOriginIsolated: globalThis.crossOriginIsolated === true },
  };
}

const report = (outcome: ColdPageOutcome): void => console.log(COLD_REPORT_PREFIX + JSON.stringify(outcome));

measure(new URLSearchParams(location.search).get("run") ?? "").then(report, (e: unknown) =>
  report({ error: e instanceof Error ? e.message : String(e) }),
);
