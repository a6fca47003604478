/**
 * The two browser engines the page runs in, behind one small interface:
 * Chromium (V8) driven by playwright-core over the DevTools protocol, and
 * Firefox (SpiderMonkey) driven by puppeteer-core over WebDriver BiDi, the
 * standard protocol a stock Firefox speaks. Both are the system's own
 * binaries (Debian's `chromium` and `firefox-esr`), never a download; each
 * launch gets a fresh profile, removed again by `close`.
 */

import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { BrowserName } from "../../../client/harness/settings.ts";

interface Engine {
  label: string;
  /** The environment variable naming a binary, which wins over the candidates. */
  env: string;
  candidates: string[];
  /** The Debian package that provides it. */
  apt: string;
}

const ENGINES: Record<BrowserName, Engine> = {
  chromium: {
    label: "Chromium",
    env: "CHROMIUM_PATH",
    candidates: [
      "/usr/bin/chromium",
      "/usr/bin/chromium-browser",
      "/usr/bin/google-chrome",
      "/usr/bin/google-chrome-stable",
    ],
    apt: "chromium",
  },
  firefox: {
    label: "Firefox",
    env: "FIREFOX_PATH",
    candidates: ["/usr/bin/firefox-esr", "/usr/bin/firefox"],
    apt: "firefox-esr",
  },
};

/** "Chromium", "Firefox". */
export function browserLabel(name: BrowserName): string {
  return ENGINES[name].label;
}

/** The binary to drive, or undefined. The engine's variable (CHROMIUM_PATH, FIREFOX_PATH) wins when set. */
export function findBrowser(
  name: BrowserName,
  env: Record<string, string | undefined> = process.env,
): string | undefined {
  const engine = ENGINES[name];
  const fromEnv = env[engine.env];
  if (fromEnv) return existsSync(fromEnv) ? fromEnv : undefined;
  return engine.candidates.find((p) => existsSync(p));
}

/** One line saying how to get the browser. */
export function noBrowserMessage(name: BrowserName): string {
  const engine = ENGINES[name];
  return `no ${engine.label} found: install Debian's package (apt-get install -y ${engine.apt}) or set ${engine.env} to a ${engine.label} binary`;
}

/** A file to put in an `<input type=file>`: a path, or a name and its contents. */
type InputFile = string | { name: string; mimeType: string; buffer: Buffer };

/** A tab, with what the bench, the screenshot tool and the page tests do in it. */
export interface DrivenPage {
  goto(url: string): Promise<void>;
  /** Runs `fn` in the page (it is sent as source: it sees only its argument). */
  evaluate<R, A = undefined>(fn: (arg: A) => R | Promise<R>, arg?: A): Promise<R>;
  /** A real click, at the element's place on the page. */
  click(selector: string): Promise<void>;
  waitForFunction(fn: () => unknown, timeoutMs?: number): Promise<void>;
  onConsole(listener: (text: string) => void): void;
  onPageError(listener: (message: string) => void): void;
  setViewport(width: number, height: number): Promise<void>;
  screenshot(file: string): Promise<void>;
  setInputFiles(selector: string, file: InputFile): Promise<void>;
  /** Clicks `selector` and waits for the download it starts: the file's name and text. */
  download(selector: string, timeoutMs?: number): Promise<{ name: string; text: string }>;
  close(): Promise<void>;
}

export interface DrivenBrowser {
  name: BrowserName;
  /** The tab the browser opened with (a fresh one when it opened none). */
  firstPage(): Promise<DrivenPage>;
  newPage(): Promise<DrivenPage>;
  close(): Promise<void>;
}

export interface LaunchOptions {
  viewport?: { width: number; height: number };
}

/** Headless, with a fresh profile; Ctrl-C is left to the caller (the bench clicks the page's Stop and collects what finished). */
export function launchBrowser(name: BrowserName, binary: string, options: LaunchOptions = {}): Promise<DrivenBrowser> {
  return name === "chromium" ? launchChromium(binary, options) : launchFirefox(binary, options);
}

export const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--no-first-run",
];

async function launchChromium(binary: string, options: LaunchOptions): Promise<DrivenBrowser> {
  const { chromium } = await import("playwright-core");
  const userDataDir = mkdtempSync(path.join(tmpdir(), "wsbench-chromium-"));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: binary,
    headless: true,
    args: CHROMIUM_ARGS,
    handleSIGINT: false,
    acceptDownloads: true,
    ...(options.viewport ? { viewport: options.viewport } : {}),
  });
  type PwPage = Awaited<ReturnType<typeof context.newPage>>;
  const wrap = (page: PwPage): DrivenPage => ({
    async goto(url) {
      await page.goto(url);
    },
    evaluate: (fn, arg) => page.evaluate(fn as never, arg) as never,
    click: (selector) => page.click(selector),
    async waitForFunction(fn, timeoutMs = 30_000) {
      await page.waitForFunction(fn, undefined, { timeout: timeoutMs });
    },
    onConsole: (listener) => page.on("console", (m) => listener(m.text())),
    onPageError: (listener) => page.on("pageerror", (e) => listener(e.message)),
    setViewport: (width, height) => page.setViewportSize({ width, height }),
    async screenshot(file) {
      await page.screenshot({ path: file });
    },
    setInputFiles: (selector, file) => page.setInputFiles(selector, file),
    async download(selector, timeoutMs = 30_000) {
      const [d] = await Promise.all([page.waitForEvent("download", { timeout: timeoutMs }), page.click(selector)]);
      return { name: d.suggestedFilename(), text: readFileSync((await d.path())!, "utf8") };
    },
    close: () => page.close(),
  });
  return {
    name: "chromium",
    firstPage: async () => wrap(context.pages()[0] ?? (await context.newPage())),
    newPage: async () => wrap(await context.newPage()),
    async close() {
      await context.close();
      rmSync(userDataDir, { recursive: true, force: true });
    },
  };
}

/** The suffix Firefox gives a download still being written. */
const PARTIAL = /\.part$/;

/** Puppeteer's launch of the system's Firefox: headless, signals left to the caller, and `prefs` beside the ones every run needs. */
function firefoxLaunch(binary: string, prefs: Record<string, string | number | boolean> = {}) {
  return {
    browser: "firefox" as const,
    executablePath: binary,
    headless: true,
    handleSIGINT: false,
    handleSIGTERM: false,
    handleSIGHUP: false,
    extraPrefsFirefox: {
      ...prefs,
      // A benchmark run is not a session to restore, report or update.
      "browser.sessionstore.resume_from_crash": false,
      "datareporting.policy.dataSubmissionEnabled": false,
      "app.update.auto": false,
    },
  };
}

async function launchFirefox(binary: string, options: LaunchOptions): Promise<DrivenBrowser> {
  const { default: puppeteer } = await import("puppeteer-core");
  const downloads = mkdtempSync(path.join(tmpdir(), "wsbench-firefox-downloads-"));
  const uploads = mkdtempSync(path.join(tmpdir(), "wsbench-firefox-uploads-"));
  const browser = await puppeteer.launch({
    ...firefoxLaunch(binary, {
      // Downloads land in the launch's own folder, without asking.
      "browser.download.folderList": 2,
      "browser.download.dir": downloads,
      "browser.download.useDownloadDir": true,
      "browser.download.always_ask_before_handling_new_types": false,
    }),
    defaultViewport: options.viewport ?? { width: 1280, height: 720 },
  });
  type PpPage = Awaited<ReturnType<typeof browser.newPage>>;
  const seen = new Set<string>();
  const wrap = (page: PpPage): DrivenPage => ({
    async goto(url) {
      await page.goto(url);
    },
    evaluate: (fn, arg) => page.evaluate(fn as never, arg) as never,
    click: (selector) => page.click(selector),
    async waitForFunction(fn, timeoutMs = 30_000) {
      await page.waitForFunction(fn, { timeout: timeoutMs, polling: 100 });
    },
    onConsole: (listener) => void page.on("console", (m) => listener(m.text())),
    onPageError: (listener) => void page.on("pageerror", (e) => listener(e instanceof Error ? e.message : String(e))),
    setViewport: (width, height) => page.setViewport({ width, height }),
    async screenshot(file) {
      await page.screenshot({ path: file as `${string}.png` });
    },
    async setInputFiles(selector, file) {
      const input = await page.$(selector);
      if (!input) throw new Error(`no element matches ${selector}`);
      // Firefox reads a chosen file when the page does, so a file made here stays until the browser closes.
      let filePath = file as string;
      if (typeof file !== "string") {
        filePath = path.join(mkdtempSync(path.join(uploads, "file-")), file.name);
        writeFileSync(filePath, file.buffer);
      }
      await (input as unknown as { uploadFile(...p: string[]): Promise<void> }).uploadFile(filePath);
    },
    async download(selector, timeoutMs = 30_000) {
      await page.click(selector);
      // The file appears under its own name once written (Firefox writes NAME.part first).
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const files = readdirSync(downloads);
        const done = files.filter(
          (f) => !PARTIAL.test(f) && !seen.has(f) && statSync(path.join(downloads, f)).size > 0,
        );
        if (done.length > 0 && !files.some((f) => PARTIAL.test(f))) {
          const name = done[0]!;
          seen.add(name);
          return { name, text: readFileSync(path.join(downloads, name), "utf8") };
        }
        if (Date.now() > deadline) throw new Error(`no download started by ${selector} within ${timeoutMs / 1000} s`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    close: () => page.close(),
  });
  return {
    name: "firefox",
    async firstPage() {
      const opened = (await browser.pages())[0];
      if (!opened) return wrap(await browser.newPage());
      // The tab Firefox opens with keeps its own size (new tabs take defaultViewport).
      if (options.viewport) await opened.setViewport(options.viewport);
      return wrap(opened);
    },
    newPage: async () => wrap(await browser.newPage()),
    async close() {
      await browser.close();
      for (const dir of [downloads, uploads]) rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * A page in a browser context of its own: no cache, storage or renderer process shared with
 * any page before it. Closing it closes its context.
 */
interface IsolatedPage {
  /** Starts the page's load, and returns once it committed (not waiting for its scripts). */
  goto(url: string): Promise<void>;
  onConsole(listener: (text: string) => void): void;
  onPageError(listener: (message: string) => void): void;
  /** The page's renderer crashed (nothing else will be heard from it). */
  onCrash(listener: () => void): void;
  close(): Promise<void>;
}

/** A new page in a fresh context; where the page cannot be opened, the context is closed again. */
async function pageIn<P>(context: { newPage(): Promise<P>; close(): Promise<unknown> }): Promise<P> {
  try {
    return await context.newPage();
  } catch (e) {
    await context.close().catch(() => {});
    throw e;
  }
}

/** How long a cold page's navigation may take before it counts as failed (a busy machine starts a renderer slowly). */
const NAVIGATION_TIMEOUT_MS = 120_000;

/** A browser that opens each page in a fresh context (cold mode's pages: bench/cli/processes/cold-start-pages.ts). */
export interface IsolatingBrowser {
  name: BrowserName;
  /** The browser's user agent, as a page reads it. */
  userAgent(): Promise<string>;
  isolatedPage(): Promise<IsolatedPage>;
  close(): Promise<void>;
}

/** Headless, with a fresh profile, each page in a context of its own (Chromium: an incognito-like context; Firefox: a user context). */
export async function launchIsolating(name: BrowserName, binary: string): Promise<IsolatingBrowser> {
  if (name === "chromium") {
    const { chromium } = await import("playwright-core");
    const browser = await chromium.launch({
      executablePath: binary,
      headless: true,
      args: CHROMIUM_ARGS,
      handleSIGINT: false,
    });
    const isolatedPage = async (): Promise<IsolatedPage> => {
      const context = await browser.newContext();
      const page = await pageIn(context);
      return {
        async goto(url) {
          await page.goto(url, { waitUntil: "commit", timeout: NAVIGATION_TIMEOUT_MS });
        },
        onConsole: (listener) => page.on("console", (m) => listener(m.text())),
        onPageError: (listener) => page.on("pageerror", (e) => listener(e.message)),
        onCrash: (listener) => page.on("crash", () => listener()),
        close: () => context.close(),
      };
    };
    return {
      name,
      async userAgent() {
        const context = await browser.newContext();
        try {
          return await (await context.newPage()).evaluate(() => navigator.userAgent);
        } finally {
          await context.close();
        }
      },
      isolatedPage,
      close: () => browser.close(),
    };
  }
  const { default: puppeteer } = await import("puppeteer-core");
  const browser = await puppeteer.launch(firefoxLaunch(binary));
  return {
    name,
    userAgent: () => browser.userAgent(),
    async isolatedPage() {
      const context = await browser.createBrowserContext();
      const page = await pageIn(context);
      return {
        async goto(url) {
          await page.goto(url, { waitUntil: "domcontentloaded", timeout: NAVIGATION_TIMEOUT_MS });
        },
        onConsole: (listener) => void page.on("console", (m) => listener(m.text())),
        onPageError: (listener) =>
          void page.on("pageerror", (e) => listener(e instanceof Error ? e.message : String(e))),
        // Puppeteer tells a page's crash as its "error" event.
        onCrash: (listener) => void page.on("error", () => listener()),
        close: () => context.close(),
      };
    },
    close: () => browser.close(),
  };
}
