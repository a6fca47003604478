/**
 * `--client chromium` and `--client firefox`: the page, in a headless
 * browser (bench/cli/processes/browser-driver.ts). The page runs the suite
 * itself (`?autorun=1`) and leaves its results in `window.__bench`.
 */

import { parseLine } from "../../../client/child-protocol.ts";
import { settingsToQuery } from "../../../client/page/query.ts";
import type { Progress } from "../../../client/harness/progress.ts";
import type { BrowserName, Settings } from "../../../client/harness/settings.ts";
import type { BenchResults, CaseResult } from "../../../client/harness/results.ts";
import { CliError } from "../cli-errors.ts";
import { launchBrowser } from "./browser-driver.ts";

/** A page run, and the server whose page runs it. */
export interface BrowserJob {
  settings: Settings;
  /** Codec mode's processes: the page's fresh workers (client/page/codec-workers.ts); absent: the page's default. */
  forks?: number;
  server: string;
  /** --link: the address of the link in front of `server`, where the page's WebSockets open (the page itself loads straight from the server). */
  linkVia?: string;
}

/** The page URL that runs `job` as soon as it loads. */
function autorunUrl(job: BrowserJob): string {
  const url = new URL("/", job.server);
  url.searchParams.set("autorun", "1");
  settingsToQuery(job.settings, url.searchParams);
  if (job.forks !== undefined) url.searchParams.set("forks", String(job.forks));
  if (job.linkVia) url.searchParams.set("link-via", job.linkVia);
  return url.toString();
}

/** What the page gave: its results, and a line for each step that failed in it (its finished cases are in the results). */
export interface BrowserOutcome {
  results: BenchResults;
  failures: string[];
}

/** How long a page error may stand with no run begun before the page counts as failed to start. */
const START_GRACE_MS = 10_000;

export async function runBrowserClient(
  browserName: BrowserName,
  binary: string,
  job: BrowserJob,
  onProgress: (p: Progress) => void,
  shouldStop: () => boolean = () => false,
  onCase: (c: CaseResult) => void = () => {},
  silentMs = 10 * 60_000,
): Promise<BrowserOutcome> {
  const browser = await launchBrowser(browserName, binary);
  try {
    const page = await browser.firstPage();
    const pageErrors: string[] = [];
    page.onPageError((message) => pageErrors.push(message));
    // A run of every codec on every payload takes longer than any fixed deadline; a page that says nothing for `silentMs` has stalled.
    let heardAt = Date.now();
    page.onConsole((text) => {
      heardAt = Date.now();
      if (text.startsWith("bench-progress ")) onProgress(JSON.parse(text.slice("bench-progress ".length)) as Progress);
      else if (text.startsWith("bench-case ")) onCase(parseLine(text.slice("bench-case ".length)) as CaseResult);
    });
    await page.goto(autorunUrl(job));
    let firstErrorAt: number | undefined;
    let stopClicked = false;
    while (!(await page.evaluate(() => window.__bench?.done === true))) {
      if (Date.now() - heardAt > silentMs)
        throw new CliError("PAGE", `the page reported no progress for ${silentMs / 60_000} minutes`);
      // A page whose script failed before its run began never will: once its error has stood for a while with no
      // run under way, say why rather than wait out the deadline.
      if (pageErrors.length > 0 && (await page.evaluate(() => window.__bench === undefined))) {
        firstErrorAt ??= Date.now();
        if (Date.now() - firstErrorAt > START_GRACE_MS)
          throw new CliError("PAGE", `the page failed to start: ${pageErrors[0]}`);
      }
      if (!stopClicked && shouldStop()) {
        // The page's own "Stop after this case" button.
        await page.click("#stop");
        stopClicked = true;
      }
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    const state = await page.evaluate(() => window.__bench!);
    if (state.error || !state.results)
      throw new CliError("PAGE", `the page failed: ${state.error ?? pageErrors.join("; ") ?? "no results"}`);
    return { results: parseLine(state.results) as BenchResults, failures: state.failures ?? [] };
  } finally {
    await browser.close();
  }
}
