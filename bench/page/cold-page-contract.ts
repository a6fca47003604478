/**
 * Between the bench and the pages of cold mode in a browser: where a page
 * finds its parts, as the bench serves them
 * (bench/cli/processes/cold-start-pages.ts) and the page reads them
 * (cold-page.ts), and what the page reports. Each process of cold mode is one
 * load of the page, `COLD_PAGE_PATH?run=ID`, in a browser context of its own.
 */

import type { ColdMeasurement } from "../../client/harness/cold-start.ts";

/** The page: its script is the harness, and its `run` parameter names the process. */
export const COLD_PAGE_PATH = "/cold/page.html";
/** The harness's bundle (cold-page.ts and what it imports; no codec). */
export const COLD_HARNESS_PATH = "/cold/harness.js";
/** What the page writes to the console once it is done: this, then its outcome as JSON. */
export const COLD_REPORT_PREFIX = "bench-cold ";

/** The process's job: a module whose default export is the job, written as JavaScript literals (not JSON). */
export function coldJobPath(run: string): string {
  return `/cold/${encodeURIComponent(run)}/job.js`;
}

/** The bundle of the process's codec: its module and its library, in one file with no imports. */
export function coldCodecPath(run: string): string {
  return `/cold/${encodeURIComponent(run)}/codec.js`;
}

/** What the page reports: its measurement and what the results say of the browser, or why it failed. */
export type ColdPageOutcome =
  | { measured: ColdMeasurement; page: { userAgent: string; crossOriginIsolated: boolean } }
  | { error: string };
