/**
 * Shared by the browser tests: the system Chromium, or a visible reason to
 * skip (never under CI=true, where a missing browser is a failure).
 */
import type { BrowserContext } from "playwright-core";
import { findChromium, launchChromium } from "../../bench/cli/processes/browser.ts";

const chromiumPath = findChromium();
const inCI = process.env.CI === "true";

/** True when the browser tests must be skipped; says so on stderr. */
export function skipBrowserTests(file: string): boolean {
  if (chromiumPath) return false;
  if (inCI) return false; // the tests run and fail: CI must have Chromium
  process.stderr.write(`\n[${file}] SKIPPED: no Chromium found (apt-get install -y chromium, or set CHROMIUM_PATH)\n\n`);
  return true;
}

export async function launch(): Promise<{ context: BrowserContext; close(): Promise<void> }> {
  if (!chromiumPath) throw new Error("no Chromium found: install Debian's chromium package (apt-get install -y chromium) or set CHROMIUM_PATH");
  return launchChromium(chromiumPath, { acceptDownloads: true, viewport: { width: 1280, height: 1600 } });
}
