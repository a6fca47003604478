/**
 * Cold mode in a browser (`--client chromium|firefox --modes cold`, docs/cold-start.md): each
 * process of cold mode (client/harness/cold-mode.ts) is a fresh load of a page
 * (bench/page/cold-page.ts) in a browser context of its own, which shares no cache, storage or
 * renderer process with the pages before it. The bench serves the pages itself, on a port of its
 * own (they need no WebSocket), with the headers that make them cross-origin isolated (a finer
 * clock) and with `Cache-Control: no-store`, so nothing one page loads is kept for the next.
 *
 * Each page finds, under its run's id, its job (the messages as a module of JavaScript literals:
 * a page that parsed JSON before its timed messages would find json's code warm) and its codec's
 * bundle: the codec's module with its library, bundled for the browser and minified, as a page
 * would ship it. The page times that bundle's import from a blob URL: parse, compile and
 * evaluation, without the network.
 */

import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { ColdJob, ColdMeasurement } from "../../../client/harness/cold-start.ts";
import type { MeasureCold } from "../../../client/harness/cold-mode.ts";
import { CODEC_MODULES, codecModuleUrl } from "../../../client/harness/codec-loaders.ts";
import type { Environment } from "../../../client/harness/results.ts";
import type { BrowserName } from "../../../client/harness/settings.ts";
import { browserVersion } from "../../../client/harness/browser-version.ts";
import {
  COLD_HARNESS_PATH,
  COLD_PAGE_PATH,
  COLD_REPORT_PREFIX,
  coldCodecPath,
  coldJobPath,
  type ColdPageOutcome,
} from "../../page/cold-page-contract.ts";
import type { TimeLedger } from "../../../client/harness/time-account.ts";
import { browserBundle } from "../bundle-bytes.ts";
import { ROOT } from "../paths.ts";
import { launchIsolating, type IsolatingBrowser } from "./browser-driver.ts";

const HARNESS_ENTRY = path.join(ROOT, "bench/page/cold-page.ts");

/** A value as JavaScript source: what a message holds (JSON's values, and the numbers JSON cannot write). */
export function jsLiteral(value: unknown): string {
  if (value === null) return "null";
  if (value === undefined) return "undefined";
  switch (typeof value) {
    case "boolean":
      return String(value);
    case "number":
      return Object.is(value, -0) ? "-0" : Number.isNaN(value) ? "NaN" : String(value).replace("Infinity", "(1/0)");
    case "bigint":
      return `${value}n`;
    case "string":
      // JSON's string syntax is JavaScript's (U+2028 and U+2029 are allowed in string literals since ES2019).
      return JSON.stringify(value);
    case "object":
      if (Array.isArray(value)) return `[${value.map(jsLiteral).join(",")}]`;
      if (Object.getPrototypeOf(value) === Object.prototype || Object.getPrototypeOf(value) === null)
        return `{${Object.entries(value)
          .map(([k, v]) => `${JSON.stringify(k)}:${jsLiteral(v)}`)
          .join(",")}}`;
  }
  throw new Error(`cold mode in a browser cannot hand a page a ${Object.prototype.toString.call(value)}`);
}

/** The headers of every response: cross-origin isolated (a 5-20 µs clock, not 100 µs-1 ms), and never cached. */
const HEADERS = {
  "Cross-Origin-Opener-Policy": "same-origin",
  "Cross-Origin-Embedder-Policy": "require-corp",
  "Cache-Control": "no-store",
};

/** What a browser's cold pages measured of the browser itself (for the results' environment). */
export interface ColdPagesBrowser {
  userAgent: string;
  crossOriginIsolated?: boolean;
  clockResolutionNs?: number;
}

/** The browser's environment in the results, for a run whose only pages were cold mode's: the bench's machine, the browser's engine and clock. */
export function coldPagesEnvironment(machine: Environment, seen: ColdPagesBrowser): Environment {
  return {
    ...machine,
    runtime: "browser",
    runtimeVersion: browserVersion(seen.userAgent),
    clock: "performance.now",
    timerResolutionNs: seen.clockResolutionNs ?? NaN,
    timerOverheadNs: NaN,
    gcBetweenCases: false,
    msgpackrNative: false,
    evalAllowed: true,
    ...(seen.crossOriginIsolated !== undefined ? { crossOriginIsolated: seen.crossOriginIsolated } : {}),
    userAgent: seen.userAgent,
  };
}

export interface ColdStartPages {
  measure: MeasureCold;
  /** The browser, as its pages saw it. */
  browser: ColdPagesBrowser;
  close(): Promise<void>;
}

/** How long one page may take to report before it counts as failed. */
const PAGE_DEADLINE_MS = 5 * 60_000;

/**
 * Launches the browser and the pages' server. Each call of `measure` loads one page in a fresh
 * context and waits for its report; a stop (`shouldStop`) closes the page in flight at once.
 */
export async function coldStartPages(
  browserName: BrowserName,
  binary: string,
  codecModules: readonly { name: string; file: string }[] = [],
  shouldStop: () => boolean = () => false,
  ledger?: TimeLedger,
): Promise<ColdStartPages> {
  const dir = mkdtempSync(path.join(tmpdir(), "cold-pages-"));
  const bundles = new Map<string, Promise<string>>();
  /** A codec's bundle, built once: its module's exports, as codecLoader reads them. */
  const codecBundle = (codec: string): Promise<string> => {
    let b = bundles.get(codec);
    if (!b) {
      const own = codecModules.find((m) => m.name === codec);
      const m = CODEC_MODULES[codec];
      const source = own
        ? `export { default } from ${JSON.stringify(path.resolve(own.file))};\n`
        : m
          ? `export * from ${JSON.stringify(fileURLToPath(codecModuleUrl(m)))};\n`
          : undefined;
      if (source === undefined) b = Promise.reject(new Error(`cold mode cannot load codec '${codec}' on its own`));
      else {
        const entry = path.join(dir, `codec-${bundles.size}.ts`);
        writeFileSync(entry, source);
        b = browserBundle(entry);
      }
      // Its failure is the case's, when a page asks for it.
      b.catch(() => {});
      bundles.set(codec, b);
    }
    return b;
  };
  let harness: string;
  let browser: IsolatingBrowser | undefined;
  let server: ReturnType<typeof Bun.serve> | undefined;
  try {
    harness = await browserBundle(HARNESS_ENTRY);
    const page = `<!doctype html><meta charset="utf-8"><title>cold start</title><script type="module" src="${COLD_HARNESS_PATH}"></script>\n`;
    // Each page's job and codec, by path, while its page runs.
    const files = new Map<string, string>();
    const reply = (body: string, type: string): Response =>
      new Response(body, { headers: { ...HEADERS, "Content-Type": `${type}; charset=utf-8` } });
    server = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      fetch(req) {
        const { pathname } = new URL(req.url);
        if (pathname === COLD_PAGE_PATH) return reply(page, "text/html");
        if (pathname === COLD_HARNESS_PATH) return reply(harness, "text/javascript");
        const file = files.get(pathname);
        if (file === undefined) return new Response("not found", { status: 404, headers: HEADERS });
        return reply(file, "text/javascript");
      },
    });
    browser = await launchIsolating(browserName, binary);
    const userAgent = await browser.userAgent();
    const seen: ColdPagesBrowser = { userAgent };
    const origin = `http://127.0.0.1:${server.port}`;
    let next = 0;
    const b = browser;
    const stopped = (): Error => new Error("stopped");
    const measure: MeasureCold = async (job: ColdJob): Promise<ColdMeasurement> => {
      if (shouldStop()) throw stopped();
      const id = `${next++}`;
      const codec = await codecBundle(job.codec);
      const opened = performance.now();
      const tab = await b.isolatedPage();
      try {
        files.set(coldJobPath(id), `export default ${jsLiteral(job)};\n`);
        files.set(coldCodecPath(id), codec);
        const outcome = await new Promise<ColdPageOutcome>((resolve, reject) => {
          const deadline = Date.now() + PAGE_DEADLINE_MS;
          let watch: ReturnType<typeof setInterval> | undefined;
          /** Ends the wait, once: the first of a report, a failure, a stop or the deadline. */
          const settle = (f: () => void): void => {
            if (watch === undefined) return;
            clearInterval(watch);
            watch = undefined;
            f();
          };
          watch = setInterval(() => {
            if (shouldStop()) settle(() => reject(stopped()));
            else if (Date.now() > deadline)
              settle(() => reject(new Error(`the page reported nothing in ${PAGE_DEADLINE_MS / 60_000} minutes`)));
          }, 100);
          tab.onConsole((text) => {
            if (!text.startsWith(COLD_REPORT_PREFIX)) return;
            settle(() => {
              try {
                resolve(JSON.parse(text.slice(COLD_REPORT_PREFIX.length)) as ColdPageOutcome);
              } catch (e) {
                reject(new Error(`the page's report does not parse: ${(e as Error).message}`));
              }
            });
          });
          tab.onPageError((message) => settle(() => reject(new Error(`the page failed: ${message}`))));
          tab.onCrash(() => settle(() => reject(new Error("the page crashed"))));
          if (shouldStop()) settle(() => reject(stopped()));
          else tab.goto(`${origin}${COLD_PAGE_PATH}?run=${id}`).catch((e: Error) => settle(() => reject(e)));
        });
        if ("error" in outcome) throw new Error(outcome.error);
        // The account: what the page timed, and the rest of its wall time (a context, a page load) as starting up.
        const m = outcome.measured;
        const timedMs = (m.slice.importNs + m.slice.setupNs + m.totalNs * job.messages.length) / 1e6;
        ledger?.add("timed", timedMs);
        ledger?.add("start", Math.max(0, performance.now() - opened - timedMs));
        seen.crossOriginIsolated ??= outcome.page.crossOriginIsolated;
        seen.clockResolutionNs ??= outcome.measured.clockResolutionNs;
        return outcome.measured;
      } finally {
        files.delete(coldJobPath(id));
        files.delete(coldCodecPath(id));
        await tab.close().catch(() => {});
      }
    };
    return {
      measure,
      browser: seen,
      async close() {
        await b.close().catch(() => {});
        server?.stop(true);
        rmSync(dir, { recursive: true, force: true });
      },
    };
  } catch (e) {
    await browser?.close().catch(() => {});
    server?.stop(true);
    rmSync(dir, { recursive: true, force: true });
    throw e;
  }
}
