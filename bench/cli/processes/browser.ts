/**
 * `--client browser`: the page, in a headless Chromium driven by
 * playwright-core. The system's Chromium is used (never a browser download):
 * CHROMIUM_PATH, else Debian's /usr/bin/chromium. The page runs the suite
 * itself (`?autorun=1`) and leaves its results in `window.__bench`.
 */

import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseLine } from "../../../client/child-protocol.ts";
import { settingsToQuery } from "../../../client/page/query.ts";
import type { Progress } from "../../harness/progress.ts";
import type { Settings } from "../../harness/settings.ts";
import type { BenchResults, CaseResult } from "../../harness/results.ts";
import type { BrowserContext } from "playwright-core";
import { CliError } from "../cli-errors.ts";

const CANDIDATES = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome", "/usr/bin/google-chrome-stable"];

const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--no-first-run",
];

/** The Chromium to drive, or undefined. CHROMIUM_PATH wins when it names a file. */
export function findChromium(env: Record<string, string | undefined> = process.env): string | undefined {
  const fromEnv = env.CHROMIUM_PATH;
  if (fromEnv) return existsSync(fromEnv) ? fromEnv : undefined;
  return CANDIDATES.find((p) => existsSync(p));
}

export const NO_CHROMIUM_MESSAGE =
  "no Chromium found: install Debian's package (apt-get install -y chromium) or set CHROMIUM_PATH to a Chromium binary";

/** A page run, and the server whose page runs it. */
export interface BrowserJob {
  settings: Settings;
  server: string;
}

/** The page URL that runs `job` as soon as it loads. */
function autorunUrl(job: BrowserJob): string {
  const url = new URL("/", job.server);
  url.searchParams.set("autorun", "1");
  settingsToQuery(job.settings, url.searchParams);
  return url.toString();
}

/**
 * Headless Chromium with the flags a shared machine wants and a fresh
 * profile of its own, removed again by `close`.
 */
export async function launchChromium(
  chromiumPath: string,
  options: { viewport?: { width: number; height: number }; acceptDownloads?: boolean } = {},
): Promise<{ context: BrowserContext; close(): Promise<void> }> {
  const { chromium } = await import("playwright-core");
  const userDataDir = mkdtempSync(path.join(tmpdir(), "wsbench-chromium-"));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: chromiumPath,
    headless: true,
    args: CHROMIUM_ARGS,
    // Ctrl-C is the bench's to handle: it clicks the page's Stop and collects what finished.
    handleSIGINT: false,
    ...options,
  });
  return {
    context,
    async close() {
      await context.close();
      rmSync(userDataDir, { recursive: true, force: true });
    },
  };
}

/** What the page gave: its results, and a line for each step that failed in it (its finished cases are in the results). */
export interface BrowserOutcome {
  results: BenchResults;
  failures: string[];
}

/** How long a page error may stand with no run begun before the page counts as failed to start. */
const START_GRACE_MS = 10_000;

export async function runBrowserClient(
  chromiumPath: string,
  job: BrowserJob,
  onProgress: (p: Progress) => void,
  shouldStop: () => boolean = () => false,
  onCase: (c: CaseResult) => void = () => {},
  silentMs = 10 * 60_000,
): Promise<BrowserOutcome> {
  const browser = await launchChromium(chromiumPath);
  const context = browser.context;
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    const pageErrors: string[] = [];
    page.on("pageerror", (e) => pageErrors.push(e.message));
    // A run of every codec on every payload takes longer than any fixed deadline; a page that says nothing for `silentMs` has stalled.
    let heardAt = Date.now();
    page.on("console", (msg) => {
      const text = msg.text();
      heardAt = Date.now();
      if (text.startsWith("bench-progress ")) onProgress(JSON.parse(text.slice("bench-progress ".length)) as Progress);
      else if (text.startsWith("bench-case ")) onCase(parseLine(text.slice("bench-case ".length)) as CaseResult);
    });
    await page.goto(autorunUrl(job));
    let firstErrorAt: number | undefined;
    let stopClicked = false;
    while (!(await page.evaluate(() => window.__bench?.done === true))) {
      if (Date.now() - heardAt > silentMs) throw new CliError("PAGE", `the page reported no progress for ${silentMs / 60_000} minutes`);
      // A page whose script failed before its run began never will: once its error has stood for a while with no
      // run under way, say why rather than wait out the deadline.
      if (pageErrors.length > 0 && (await page.evaluate(() => window.__bench === undefined))) {
        firstErrorAt ??= Date.now();
        if (Date.now() - firstErrorAt > START_GRACE_MS) throw new CliError("PAGE", `the page failed to start: ${pageErrors[0]}`);
      }
      if (!stopClicked && shouldStop()) {
        // The page's own "Stop after this case" button.
        await page.click("#stop");
        stopClicked = true;
      }
      await page.waitForTimeout(250);
    }
    const state = await page.evaluate(() => window.__bench!);
    if (state.error || !state.results) throw new CliError("PAGE", `the page failed: ${state.error ?? pageErrors.join("; ") ?? "no results"}`);
    return { results: parseLine(state.results) as BenchResults, failures: state.failures ?? [] };
  } finally {
    await browser.close();
  }
}
