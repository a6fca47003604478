/**
 * The benchmark page: pick codecs, payloads, modes and sizes, press Run,
 * watch progress, read the charts and the table, download the CSV (the CLI's
 * contract, client = browser, for a spreadsheet) or the JSON (the record to
 * load back), or load a results JSON from the CLI to see Bun's numbers beside
 * the browser's.
 *
 * `?autorun=1` (with the same names as the CLI flags: codecs, payloads,
 * modes, iterations, runs, warmup, seed, fixed, window, forks; iterations-MODE and
 * warmup-MODE for one mode) runs at once and
 * leaves the results in `window.__bench`; `bun run bench --client chromium`
 * drives the page that way.
 */

import { provenanceLine } from "../report/provenance-line.ts";
import type { Codec } from "../../protocols/codec.ts";
import { Chart, type ChartConfiguration } from "chart.js/auto";
import { CAN_COMPILE } from "../../client/harness/loops.ts";
import { calibrateClock, performanceClock } from "../../client/harness/clock.ts";
import type { Progress } from "../../client/harness/progress.ts";
import type { BenchResults } from "../../client/harness/results.ts";
import {
  defaultSettings,
  MODE_NAMES,
  parseInteger,
  parseRates,
  type Mode,
  type Settings,
} from "../../client/harness/settings.ts";
import { caseTablesHtml } from "../report/table-html.ts";
import { chartSpecs, errorBarsPlugin } from "../report/charts.ts";
import { withPercentileTicks } from "../report/latency-charts.ts";
import { toCsv } from "../report/csv.ts";
import { toJson } from "../report/results-json.ts";
import { formatNs, markNotes } from "../report/format.ts";
import { resultsFromFile } from "../report/results-file.ts";
import { sourceOf, sourcedCases, type SourcedCase } from "../report/sources.ts";
import { benchmarkSummary, summaryLines } from "../report/summary.ts";
import { isBuiltIn, PAYLOAD_NAMES, type PayloadName } from "../../protocols/messages.ts";
import { defaultCodecNames, RAW_CODEC_NAME, socketCodecNames } from "../../protocols/contract.ts";
import { BUILT_IN, type CodecCatalog } from "../../protocols/registry.ts";
import { stringifyLine } from "../../client/child-protocol.ts";
import { forksFromQuery, PAGE_MODES, ratesText, settingsFromQuery } from "../../client/page/query.ts";
import { fetchInfo, runSuite, type SuiteOutcome } from "../../client/page/suite.ts";
import { CAN_USE_WORKERS } from "../../client/page/codec-workers.ts";
import { importCodecModules } from "../../client/harness/codec-modules.ts";
import { catalogFor, makePlan } from "../../client/harness/plan.ts";
import { ClientError } from "../../client/client-errors.ts";

const MODE_LABELS: Record<string, string> = {
  codec: "codec: serialize/deserialize in this page",
  roundtrip: "roundtrip: one message in flight (round-trip time)",
  stream: "stream: a window in flight (throughput)",
  latency: "latency: an open loop at a rate",
  route: "route: the server routes each message to its room",
  evolve: "evolve: what a reader of one version of the messages reads from a writer of another",
};

/** What automation reads: `bun run bench --client chromium` polls it. */
interface AutomationState {
  done: boolean;
  results?: string;
  /** One line for each step that failed; its finished cases are in the results. */
  failures?: string[];
  error?: string;
}
declare global {
  interface Window {
    __bench?: AutomationState;
  }
}

const $ = <T extends HTMLElement>(id: string): T => document.getElementById(id) as T;

Chart.register(errorBarsPlugin);

let lastResults: BenchResults | undefined;
let loadedRows: SourcedCase[] = [];
/** The verdict of a loaded results JSON, shown while the page has no run of its own. */
let loadedVerdict: readonly string[] = [];
let charts: Chart[] = [];
let stopRequested = false;

function checkboxes(
  containerId: string,
  names: readonly string[],
  checked: readonly string[],
  label: (n: string) => string = (n) => n,
): void {
  const container = $(containerId);
  container.replaceChildren(
    ...names.map((name) => {
      const l = document.createElement("label");
      const input = document.createElement("input");
      input.type = "checkbox";
      input.value = name;
      input.checked = checked.includes(name);
      l.append(input, ` ${label(name)}`);
      return l;
    }),
  );
}

function checkedIn(containerId: string): string[] {
  return [...$(containerId).querySelectorAll<HTMLInputElement>("input:checked")].map((i) => i.value);
}

function showSettings(s: Settings, catalog: CodecCatalog): void {
  checkboxes("codecs", socketCodecNames(catalog), s.codecs, (n) =>
    n === RAW_CODEC_NAME ? "raw (transport baseline, socket modes)" : n,
  );
  checkboxes("payloads", [...PAYLOAD_NAMES, ...s.userMessages.map((f) => f.name)], s.payloads, (p) =>
    isBuiltIn(p) ? p : `${p} (your messages)`,
  );
  checkboxes("modes", PAGE_MODES, s.modes, (m) => MODE_LABELS[m] ?? m);
  $<HTMLInputElement>("iterations-codec").value = String(s.iterations.codec);
  $<HTMLInputElement>("iterations-roundtrip").value = String(s.iterations.roundtrip);
  $<HTMLInputElement>("iterations-stream").value = String(s.iterations.stream);
  $<HTMLInputElement>("iterations-latency").value = String(s.iterations.latency);
  $<HTMLInputElement>("iterations-route").value = String(s.iterations.route);
  $<HTMLInputElement>("members").value = String(s.members);
  $<HTMLInputElement>("validate").checked = s.validate;
  $<HTMLInputElement>("rate").value = ratesText(s);
  // One field for every mode (the page's profile runs each mode the same number of times).
  $<HTMLInputElement>("runs").value = String(Math.max(...PAGE_MODES.map((m) => s.runs[m])));
  $<HTMLInputElement>("seed").value = String(s.seed);
  $<HTMLInputElement>("fixed").checked = s.fixed;
}

function readSettings(base: Settings): Settings {
  const int = (id: string, min: number, max: number): number => {
    const input = $<HTMLInputElement>(id);
    return parseInteger(input.parentElement?.textContent?.trim() ?? id, input.value, min, max);
  };
  const s: Settings = {
    ...base,
    codecs: checkedIn("codecs"),
    payloads: checkedIn("payloads") as PayloadName[],
    modes: checkedIn("modes") as Mode[],
    iterations: {
      codec: int("iterations-codec", 1, 10_000_000),
      roundtrip: int("iterations-roundtrip", 1, 10_000_000),
      stream: int("iterations-stream", 1, 10_000_000),
      fanout: base.iterations.fanout,
      latency: int("iterations-latency", 1, 10_000_000),
      route: int("iterations-route", 1, 10_000_000),
      cold: base.iterations.cold,
      evolve: base.iterations.evolve,
    },
    members: int("members", 1, 1024),
    validate: $<HTMLInputElement>("validate").checked,
    ...parseRates("latency msgs/s", $<HTMLInputElement>("rate").value),
    runs: Object.fromEntries(MODE_NAMES.map((m) => [m, int("runs", 1, 1000)])) as Record<Mode, number>,
    seed: int("seed", 0, 0xffffffff),
    fixed: $<HTMLInputElement>("fixed").checked,
  };
  if (s.codecs.length === 0 || s.payloads.length === 0 || s.modes.length === 0)
    throw new ClientError("FORM", "pick at least one codec, one payload and one mode");
  return s;
}

function progressText(p: Progress): string {
  return `${p.mode}: ${p.done}/${p.total}, run ${p.run + 1}/${p.runs}, ${p.payload} ${p.codec} (${p.stage}), ${(p.elapsedMs / 1000).toFixed(1)} s`;
}

function drawCharts(): void {
  for (const c of charts) c.destroy();
  charts = [];
  const rows = [...(lastResults ? sourcedCases(lastResults) : []), ...loadedRows];
  const container = $("charts");
  container.replaceChildren();
  for (const spec of chartSpecs(rows)) {
    const figure = document.createElement("figure");
    const canvas = document.createElement("canvas");
    canvas.id = `chart-${spec.id}`;
    canvas.dataset.payload = spec.payload;
    canvas.dataset.series = spec.config.data.datasets.map((d) => d.label).join("|");
    canvas.dataset.scale = (spec.config.options.scales as { y?: { type?: string } } | undefined)?.y?.type ?? "linear";
    // Its largest figure over its smallest, what chose the scale: a reader (and a test) can see why.
    const figures = spec.config.data.datasets
      .flatMap((d) => d.data)
      .filter((v): v is number => typeof v === "number" && v > 0);
    if (figures.length > 0) canvas.dataset.spread = (Math.max(...figures) / Math.min(...figures)).toFixed(2);
    figure.append(canvas);
    container.append(figure);
    charts.push(new Chart(canvas, withPercentileTicks(spec.config) as unknown as ChartConfiguration));
  }
}

/** The verdict of this page's run, else of a loaded JSON file. */
function drawVerdict(): void {
  // What each codec did to the user's own messages comes first: it says which codecs were timed.
  const lines = lastResults ? summaryLines(benchmarkSummary(lastResults)) : loadedVerdict;
  $("verdict").textContent = lines.join("\n");
  $("verdict").hidden = lines.length === 0;
}

/** Every row on the charts, this run's and a loaded file's alike, with its ratio, interval and flags. */
function drawTable(): void {
  // A failed case is a row too, so a failure is never only a gap in a chart.
  const run = lastResults;
  const own = run ? run.cases.map((c) => ({ source: sourceOf(run, c), run, case: c })) : [];
  // The terminal's columns, every one (table-html.ts escapes every cell).
  $("table").innerHTML = caseTablesHtml([...own, ...loadedRows]);
  if (!lastResults) return;
  const env = lastResults.environment;
  const notes = markNotes(lastResults.cases);
  $("timing-note").textContent =
    `${env.runtimeVersion}, clock resolution ${formatNs(env.timerResolutionNs)}${env.crossOriginIsolated ? " (cross-origin isolated)" : " (NOT cross-origin isolated)"}. ` +
    `In-page times come from batches of at least ${formatNs(lastResults.settings.minBatchNs)} (100x the clock's resolution) divided by their messages; ` +
    `socket-mode client times are per call, quantized to the clock. Times: means with their 95% interval. ` +
    [notes.nonStandard, notes.lossy].filter((n) => n !== undefined).join(" ") +
    " " +
    `flags: coarse-clock (the clock's tick is a large share of a batch), near-empty-loop (within 2x of an empty loop), partial (stopped early).`;
}

function setRunning(running: boolean): void {
  $<HTMLButtonElement>("run").disabled = running;
  $<HTMLButtonElement>("stop").disabled = !running;
  for (const input of $("settings").querySelectorAll<HTMLInputElement>("fieldset input")) input.disabled = running;
}

/** Codec mode's workers the form asks for (in-page processes). */
function readForks(): number {
  const input = $<HTMLInputElement>("forks");
  return parseInteger(input.parentElement?.textContent?.trim() ?? "forks", input.value, 1, 64);
}

async function run(settings: Settings, moduleCodecs: readonly Codec[], forks: number): Promise<SuiteOutcome> {
  stopRequested = false;
  setRunning(true);
  $("error").hidden = true;
  try {
    const outcome = await runSuite(
      // Without workers, codec mode runs in the page, one engine: one process.
      makePlan(settings, moduleCodecs, CAN_USE_WORKERS ? forks : 1),
      (p) => {
        $("progress").textContent = progressText(p);
        console.log(`bench-progress ${JSON.stringify(p)}`);
      },
      () => stopRequested,
      // Each finished case as it comes, for a driver (bun run bench --client chromium) that must stop early.
      (c) => console.log(`bench-case ${stringifyLine(c)}`),
      // bun run bench --link: the WebSockets open on the link in front of this server.
      new URLSearchParams(location.search).get("link-via") ?? undefined,
    );
    const { results } = outcome;
    lastResults = results;
    if (outcome.failures.length > 0) showError(new ClientError("FAILED", outcome.failures.join("; ")));
    const failed = results.cases.filter((c) => !c.verified).length;
    $("progress").textContent =
      `Done in ${(results.elapsedMs / 1000).toFixed(1)} s: ${results.cases.length} cases${failed ? `, ${failed} FAILED` : ""}.`;
    drawTable();
    drawCharts();
    drawVerdict();
    $<HTMLButtonElement>("download").disabled = false;
    $<HTMLButtonElement>("download-json").disabled = false;
    return outcome;
  } finally {
    setRunning(false);
  }
}

function showError(e: unknown): void {
  $("error").textContent = e instanceof Error ? e.message : String(e);
  $("error").hidden = false;
}

/** The last run's results as a file to save: its CSV for a spreadsheet, or its JSON, the record Load reads back. */
function download(as: "csv" | "json"): void {
  if (!lastResults) return;
  const blob =
    as === "csv"
      ? new Blob([toCsv(lastResults)], { type: "text/csv;charset=utf-8" })
      : new Blob([toJson(lastResults)], { type: "application/json" });
  const a = document.createElement("a");
  a.href = URL.createObjectURL(blob);
  a.download = `browser-${lastResults.timestamp.replace(/\.\d+Z$/, "Z").replaceAll(":", "-")}.${as}`;
  a.click();
  setTimeout(() => URL.revokeObjectURL(a.href), 10_000);
}

/** A results file's text, gunzipped when it is gzip (results/sample/ keeps its files so). */
async function fileText(file: File): Promise<string> {
  const head = new Uint8Array(await file.slice(0, 2).arrayBuffer());
  if (head[0] !== 0x1f || head[1] !== 0x8b) return file.text();
  return new Response(file.stream().pipeThrough(new DecompressionStream("gzip"))).text();
}

async function load(file: File): Promise<void> {
  try {
    const loaded = resultsFromFile(await fileText(file));
    loadedRows = sourcedCases(loaded).map((r) => ({ ...r, source: `${r.source}, ${file.name}` }));
    loadedVerdict = summaryLines(benchmarkSummary(loaded));
    drawCharts();
    drawTable();
    drawVerdict();
    // And what code made them: a file from other code than today's reads as such.
    $("progress").textContent =
      `Loaded ${loadedRows.length} rows from ${file.name}, ${provenanceLine(loaded.provenance)}.`;
  } catch (e) {
    showError(new ClientError("FORM", `${file.name}: ${(e as Error).message}`));
  }
}

async function main(): Promise<void> {
  const query = new URLSearchParams(location.search);
  // The server's --messages files join the payloads, and are what the page runs by default.
  const info = await fetchInfo().catch(() => undefined);
  // The server's codec modules, bundled for the page: their codecs join the list before it is shown.
  const modules = info?.codecModules ?? [];
  let moduleError: string | undefined;
  const moduleCodecs = await importCodecModules(
    modules.map((m) => m.file),
    (_, i) => modules[i]!.url,
  ).catch((e: unknown) => {
    showError(e);
    moduleError = e instanceof Error ? e.message : String(e);
    return [];
  });
  const userMessages = info?.userMessages ?? [];
  const userProto = info?.userProto;
  const catalog =
    moduleCodecs.length > 0 || userProto ? catalogFor({ userMessages, userProto }, moduleCodecs) : BUILT_IN;
  const defaults = defaultSettings("browser", defaultCodecNames(catalog));
  const base = {
    ...defaults,
    userMessages,
    payloads: userMessages.length > 0 ? userMessages.map((f) => f.name) : defaults.payloads,
  };
  const initial = settingsFromQuery(query, userProto ? { ...base, userProto } : base, catalog);
  showSettings(initial, catalog);
  $<HTMLInputElement>("forks").value = String(forksFromQuery(query));
  const calibration = calibrateClock(performanceClock);
  $("clock").textContent =
    `crossOriginIsolated: ${globalThis.crossOriginIsolated === true}; eval allowed: ${CAN_COMPILE}; clock resolution ${formatNs(calibration.resolutionNs)}, one read ${formatNs(calibration.overheadNs)}`;
  $("isolation-warning").hidden = globalThis.crossOriginIsolated === true;

  $("settings").addEventListener("submit", (ev) => {
    ev.preventDefault();
    let settings: Settings;
    let forks: number;
    try {
      settings = readSettings(initial);
      forks = readForks();
    } catch (e) {
      showError(e);
      return;
    }
    run(settings, moduleCodecs, forks).catch(showError);
  });
  $("stop").addEventListener("click", () => {
    stopRequested = true;
  });
  $("download").addEventListener("click", () => download("csv"));
  $("download-json").addEventListener("click", () => download("json"));
  $<HTMLInputElement>("load").addEventListener("change", (ev) => {
    const file = (ev.target as HTMLInputElement).files?.[0];
    if (file) void load(file);
  });

  if (query.get("autorun") === "1" && moduleError !== undefined) {
    // A run asked for with a codec the page could not load would quietly leave it out.
    window.__bench = { done: true, error: moduleError };
  } else if (query.get("autorun") === "1") {
    window.__bench = { done: false };
    run(initial, moduleCodecs, forksFromQuery(query)).then(
      ({ results, failures }) => {
        window.__bench = { done: true, results: stringifyLine(results), failures };
      },
      (e: unknown) => {
        showError(e);
        window.__bench = { done: true, error: e instanceof Error ? e.message : String(e) };
      },
    );
  }
}

void main();
