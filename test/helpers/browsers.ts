/**
 * Shared by the browser tests: the system's Chromium and Firefox, or a
 * visible reason to skip (never under CI=true, where a missing browser is a
 * failure), and the few things the page tests read from a page.
 */
import type { BrowserContext } from "playwright-core";
import {
  browserLabel,
  CHROMIUM_ARGS,
  findBrowser,
  launchBrowser,
  noBrowserMessage,
  type DrivenBrowser,
  type DrivenPage,
} from "../../bench/cli/processes/browser-driver.ts";
import type { BrowserName } from "../../client/harness/settings.ts";

export type { DrivenPage };

/** Both engines the page runs in. */
export const BROWSERS: readonly BrowserName[] = ["chromium", "firefox"];

const inCI = process.env.CI === "true";

/** True when `file`'s tests in `name` must be skipped; says so on stderr. */
export function skipBrowserTests(file: string, name: BrowserName = "chromium"): boolean {
  if (findBrowser(name)) return false;
  if (inCI) return false; // the tests run and fail: CI must have both browsers
  process.stderr.write(`\n[${file}] SKIPPED in ${browserLabel(name)}: ${noBrowserMessage(name)}\n\n`);
  return true;
}

/** The browser, headless, at a size where the whole page lays out. */
export async function launch(name: BrowserName): Promise<DrivenBrowser> {
  const binary = findBrowser(name);
  if (!binary) throw new Error(noBrowserMessage(name));
  return launchBrowser(name, binary, { viewport: { width: 1280, height: 1600 } });
}

/**
 * Chromium through playwright itself, for the tests that need more than a page does (the report's
 * offline test intercepts every request).
 */
export async function launchChromiumContext(): Promise<{ context: BrowserContext; close(): Promise<void> }> {
  const binary = findBrowser("chromium");
  if (!binary) throw new Error(noBrowserMessage("chromium"));
  const { chromium } = await import("playwright-core");
  const browser = await chromium.launch({ executablePath: binary, headless: true, args: CHROMIUM_ARGS });
  const context = await browser.newContext();
  return { context, close: () => browser.close() };
}

/** An element's text ("" when it has none), as a user reads it. */
export function textOf(page: DrivenPage, selector: string): Promise<string> {
  return page.evaluate((s) => document.querySelector(s)?.textContent ?? "", selector);
}

/** How many elements match. */
export function countOf(page: DrivenPage, selector: string): Promise<number> {
  return page.evaluate((s) => document.querySelectorAll(s).length, selector);
}

export function attributeOf(page: DrivenPage, selector: string, name: string): Promise<string | null> {
  return page.evaluate(([s, n]) => document.querySelector(s)?.getAttribute(n) ?? null, [selector, name] as const);
}

/** Shown: laid out with a size and not hidden by style. */
export function isVisible(page: DrivenPage, selector: string): Promise<boolean> {
  return page.evaluate((s) => {
    const el = document.querySelector(s);
    if (!el) return false;
    const box = el.getBoundingClientRect();
    return box.width > 0 && box.height > 0 && getComputedStyle(el).visibility !== "hidden";
  }, selector);
}

export function valueOf(page: DrivenPage, selector: string): Promise<string> {
  return page.evaluate((s) => document.querySelector<HTMLInputElement>(s)!.value, selector);
}

export function isChecked(page: DrivenPage, selector: string): Promise<boolean> {
  return page.evaluate((s) => document.querySelector<HTMLInputElement>(s)!.checked, selector);
}

/** Types `value` into a field as a user does: the field's input and change events fire. */
export async function fill(page: DrivenPage, selector: string, value: string): Promise<void> {
  await page.evaluate(
    ([s, v]) => {
      const input = document.querySelector<HTMLInputElement>(s)!;
      input.focus();
      input.value = v;
      input.dispatchEvent(new Event("input", { bubbles: true }));
      input.dispatchEvent(new Event("change", { bubbles: true }));
    },
    [selector, value] as const,
  );
}

/** Clicks a checkbox when it is not already as wanted. */
export async function setChecked(page: DrivenPage, selector: string, checked: boolean): Promise<void> {
  if ((await isChecked(page, selector)) !== checked) await page.click(selector);
}

/** Polls until `read` gives a value `done` accepts; the last value, or a timeout naming it. */
export async function waitForText(
  page: DrivenPage,
  selector: string,
  done: (text: string) => boolean,
  timeoutMs = 240_000,
): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const text = await textOf(page, selector);
    if (done(text)) return text;
    if (Date.now() > deadline)
      throw new Error(`${selector} still reads '${text.slice(0, 200)}' after ${timeoutMs / 1000} s`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
