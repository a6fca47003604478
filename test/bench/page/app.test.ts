/**
 * The page end to end, as a user works it, in both engines it runs in
 * (headless Chromium and Firefox): open it, press Run, wait for the charts,
 * download the CSV. Each browser is launched once for the file; each block
 * has a server of its own.
 */
import { BUILT_IN } from "../../../protocols/registry.ts";
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CSV_COLUMNS } from "../../../bench/report/csv-columns.ts";
import { parseCsv } from "../../helpers/csv.ts";
import { resultsFromFile } from "../../../bench/report/results-file.ts";
import type { BrowserName } from "../../../client/harness/settings.ts";
import { defaultCodecNames } from "../../../protocols/contract.ts";
import type { DrivenBrowser } from "../../../bench/cli/processes/browser-driver.ts";
import {
  attributeOf,
  BROWSERS,
  countOf,
  fill,
  isChecked,
  isVisible,
  launch,
  setChecked,
  skipBrowserTests,
  textOf,
  valueOf,
  waitForText,
  type DrivenPage,
} from "../../helpers/browsers.ts";
import { serverForFile } from "../../helpers/server.ts";
import { PAGE_FORKS } from "../../../client/page/query.ts";

/** What each engine's user agent and version labels look like. */
const ENGINE: Record<BrowserName, { userAgent: RegExp; version: string }> = {
  chromium: { userAgent: /^Mozilla\/5\.0 .*Chrome\/\d+/, version: "Chrome" },
  firefox: { userAgent: /^Mozilla\/5\.0 .*Firefox\/\d+/, version: "Firefox" },
};

/** A new tab that records the page's errors. */
async function openPage(browser: DrivenBrowser, url: string): Promise<{ page: DrivenPage; errors: string[] }> {
  const page = await browser.newPage();
  const errors: string[] = [];
  page.onPageError((message) => errors.push(message));
  await page.goto(url);
  return { page, errors };
}

/** Waits for the run the Run button started to end ("Done ..."); the progress line. */
function runDone(page: DrivenPage): Promise<string> {
  return waitForText(page, "#progress", (t) => t.startsWith("Done"));
}

describe.each(BROWSERS.filter((name) => !skipBrowserTests("test/bench/page/app.test.ts", name)))(
  "the page in headless %s",
  (browserName) => {
    const engine = ENGINE[browserName];
    const held = {} as { browser: DrivenBrowser };
    beforeAll(async () => {
      held.browser = await launch(browserName);
    });
    afterAll(async () => {
      await held.browser?.close();
    });

    describe("the built-in messages", () => {
      const server = serverForFile();

      it("is cross-origin isolated, runs every codec x payload x mode from the Run button, charts them and downloads the CLI's CSV", async () => {
        // Small sizes in the URL (the page reads the CLI's flag names), then a real click.
        const { page, errors } = await openPage(
          held.browser,
          `${server.url}/?iterations-codec=300&iterations-roundtrip=30&iterations-stream=200&warmup=20&runs=1`,
        );
        expect(await page.evaluate(() => crossOriginIsolated)).toBe(true);
        await expect
          .poll(() => textOf(page, "#clock"))
          .toMatch(/crossOriginIsolated: true; eval allowed: true; clock resolution [\d.]+ (µs|ns)/);
        expect(await isVisible(page, "#isolation-warning")).toBe(false);

        await page.click("#run");
        expect(await runDone(page)).not.toContain("FAILED");
        expect(errors).toEqual([]);

        // A chart of each kind for each payload.
        for (const payload of ["small", "medium", "large"]) {
          for (const kind of ["codec", "bytes", "roundtrip", "stream"]) {
            expect(await countOf(page, `canvas#chart-${kind}-${payload}`), `${kind} ${payload}`).toBe(1);
          }
        }

        const download = await page.download("#download");
        expect(download.name).toMatch(/^browser-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\dZ\.csv$/);
        const rows = parseCsv(download.text);
        expect(rows[0]).toEqual([...CSV_COLUMNS]);
        const at = (row: string[], col: string): string => row[CSV_COLUMNS.indexOf(col)]!;
        const body = rows.slice(1);
        // The default codecs (the catalog's defaults and raw).
        expect(body).toHaveLength(
          (defaultCodecNames(BUILT_IN).length - 1) * 3 + defaultCodecNames(BUILT_IN).length * 3 * 2,
        );
        for (const row of body) {
          expect(at(row, "client")).toBe("browser");
          expect(
            at(row, "verified"),
            `${at(row, "mode")} ${at(row, "codec")} ${at(row, "payload")}: ${at(row, "error")}`,
          ).toBe("true");
          expect(at(row, "runtime")).toBe("browser");
          expect(at(row, "runtime_version")).toMatch(new RegExp(`^${engine.version} \\d+`));
          expect(at(row, "cross_origin_isolated")).toBe("true");
          expect(at(row, "client_library")).toMatch(engine.userAgent);
          if (at(row, "mode") !== "codec") expect(at(row, "lost")).toBe("0");
        }
        const modes = new Set(body.map((r) => at(r, "mode")));
        expect([...modes].sort()).toEqual(["codec", "roundtrip", "stream"]);

        // The run's JSON, the record the page and bun run report read back.
        const json = await page.download("#download-json");
        expect(json.name).toMatch(/^browser-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\dZ\.json$/);
        const record = resultsFromFile(json.text);
        expect(record.cases).toHaveLength(body.length);
        // Codec mode ran in six fresh workers, one after the other: each round says which, the unit of every interval.
        expect(await valueOf(page, "#forks")).toBe(String(PAGE_FORKS));
        expect(record.settings.forks).toBe(PAGE_FORKS);
        for (const c of record.cases.filter((k) => k.mode === "codec"))
          expect([...new Set(c.raw.map((x) => x.process))].sort(), `${c.codec} ${c.payload}`).toEqual([
            ...Array(PAGE_FORKS).keys(),
          ]);
        // The workers are cross-origin isolated as the page is: their batches are sized from a clock as fine as its.
        const env = record.environment;
        expect(record.settings.minBatchNs).toBeLessThan(3 * 100 * Math.max(env.timerResolutionNs, env.timerOverheadNs));

        // A CLI run loaded beside the browser's numbers, in the same tab, gzip-compressed as results/sample/ keeps it.
        const gz = readFileSync(new URL("../../../results/sample/bun-default-1.json.gz", import.meta.url));
        await page.setInputFiles("#load", { name: "cli.json.gz", mimeType: "application/gzip", buffer: gz });
        await expect
          .poll(() => textOf(page, "#progress"))
          .toMatch(
            // What code made them, with the rows.
            /^Loaded \d+ rows from cli\.json\.gz, made by commit [0-9a-f]{10}, bench [\d.]+, json \d+\.$/,
          );
        const series = await attributeOf(page, "canvas#chart-codec-small", "data-series");
        // One name per source in every legend: the browser, and Bun from the loaded file.
        expect(series).toMatch(
          new RegExp(`^serialize, ${engine.version} \\d+\\|serialize, bun 1\\.\\d+\\.\\d+, cli\\.json\\.gz\\|`),
        );
        // Per payload: codec, bytes, roundtrip, stream, and the server's figure beside the lab's.
        expect(await countOf(page, "canvas")).toBe(15);
        for (const payload of ["small", "medium", "large"])
          expect(await countOf(page, `canvas#chart-field-${payload}`), `field ${payload}`).toBe(1);
        // Sources more than 10x apart share a logarithmic axis. Chromium's socket streams ~7,000 messages/s, Bun's client
        // ~150,000; Firefox's page streams faster and from run to run lands either side of 10x.
        const spread = Number(await attributeOf(page, "canvas#chart-stream-small", "data-spread"));
        expect(spread).toBeGreaterThan(1);
        expect(await attributeOf(page, "canvas#chart-stream-small", "data-scale")).toBe(
          spread > 10 ? "logarithmic" : "linear",
        );
        if (browserName === "chromium")
          expect(await attributeOf(page, "canvas#chart-stream-small", "data-scale")).toBe("logarithmic");
        // The loaded rows join the table, with their flags and ratios; the run's verdict stays.
        const loadedRows = await page.evaluate(
          () =>
            [...document.querySelectorAll("#table td")].filter((td) =>
              td.textContent?.includes("bun 1.4.4, cli.json.gz"),
            ).length,
        );
        expect(loadedRows).toBeGreaterThan(20);
        expect(await textOf(page, "#verdict")).toMatch(/^Verdict from this run/);
        // The settings lay out without wrapping a label or one box over another, at a laptop's width too.
        for (const width of [1280, 1000]) {
          await page.setViewport(width, 900);
          const layout = await page.evaluate(() => {
            const boxes = [...document.querySelectorAll("#settings fieldset")].map((f) => f.getBoundingClientRect());
            const overlaps = boxes.some((a, i) =>
              boxes.some(
                (b, j) => j > i && a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom,
              ),
            );
            const wrapped = [...document.querySelectorAll("#settings label")]
              .filter(
                (l) =>
                  l.getClientRects().length > 1 ||
                  l.getBoundingClientRect().height > 2 * parseFloat(getComputedStyle(l).fontSize) + 8,
              )
              .map((l) => l.textContent);
            return { overlaps, wrapped, wider: document.documentElement.scrollWidth > window.innerWidth };
          });
          expect(layout, `at ${width} px`).toEqual({ overlaps: false, wrapped: [], wider: false });
        }
        await page.close();
      });

      it("runs latency mode at the rates in its form: every row verified, nothing lost, the latency charts and the knee", async () => {
        const { page, errors } = await openPage(
          held.browser,
          `${server.url}/?modes=latency&codecs=json,custom-binary,raw&payloads=small&iterations-latency=200&warmup=20&runs=1&rate=1000`,
        );
        // The form takes its values from the URL once the page has its catalog from the server.
        await expect.poll(() => valueOf(page, "#rate")).toBe("1000");
        // The user changes the rates in the form.
        await fill(page, "#rate", "500,1000");
        await page.click("#run");
        await runDone(page);
        expect(errors).toEqual([]);
        expect(await countOf(page, "canvas#chart-latency-rate-small")).toBe(1);
        expect(await countOf(page, "canvas#chart-latency-spectrum-small")).toBe(1);
        expect(await textOf(page, "#verdict")).toContain("Knee (latency, browser client)");
        const rows = parseCsv((await page.download("#download")).text);
        const at = (row: string[], col: string): string => row[CSV_COLUMNS.indexOf(col)]!;
        const body = rows.slice(1);
        expect(body.map((r) => `${at(r, "codec")}@${at(r, "target_rate")}`).sort()).toEqual([
          "custom-binary@1000",
          "custom-binary@500",
          "json@1000",
          "json@500",
          "raw@1000",
          "raw@500",
        ]);
        for (const row of body) {
          expect(at(row, "verified"), at(row, "error")).toBe("true");
          expect(at(row, "lost")).toBe("0");
          expect(Number(at(row, "latency_p50_ns"))).toBeGreaterThan(0);
          expect(at(row, "rtt_p50_ns")).toBe("");
        }
        await page.close();
      });

      it("works, with a visible warning, when not cross-origin isolated; a page on another origin cannot open a socket", async () => {
        // Same page, served without the isolation headers.
        const plain = Bun.serve({
          port: 0,
          hostname: "127.0.0.1",
          async fetch(req) {
            const url = new URL(req.url);
            const res = await fetch(`${server.url}${url.pathname}${url.search}`);
            return new Response(await res.arrayBuffer(), {
              status: res.status,
              headers: { "content-type": res.headers.get("content-type") ?? "text/plain" },
            });
          },
        });
        try {
          const { page } = await openPage(held.browser, `http://127.0.0.1:${plain.port}/`);
          expect(await page.evaluate(() => crossOriginIsolated)).toBe(false);
          await expect.poll(() => isVisible(page, "#isolation-warning")).toBe(true);
          // Without isolation the clock is coarse; the page says how coarse, and batches above it.
          await expect
            .poll(() => textOf(page, "#clock"))
            .toMatch(/crossOriginIsolated: false; .*clock resolution [\d.]+ (µs|ms|ns)/);

          // That page is another origin: the benchmark server refuses its sockets.
          const outcome = await page.evaluate(
            (url) =>
              new Promise<string>((resolve) => {
                const ws = new WebSocket(url);
                ws.onopen = () => resolve("open");
                ws.onclose = (ev) => resolve(`closed ${ev.code}`);
              }),
            `${server.url.replace("http", "ws")}/ws?codec=json&payload=small`,
          );
          expect(outcome).toBe("closed 1006");
          await page.close();
        } finally {
          await plain.stop(true);
        }
      });
    });

    describe("your own messages and the message sets", () => {
      const text =
        '[{"id": 1, "who": {"name": "Zoë"}, "tags": ["a", "日本"]}, {"id": 2, "who": {"name": "Li"}, "tags": [], "extra": null}]\n';
      const server = serverForFile({ userMessages: [{ name: "orders", file: "orders.json", text }] });

      it("offers the server's --messages file, checked, beside the six built-in payloads; runs it and the sets from the Run button", async () => {
        const { page, errors } = await openPage(
          held.browser,
          `${server.url}/?codecs=json,msgpack,custom-binary,raw&modes=codec,stream&iterations-codec=200&iterations-stream=200&warmup=10&runs=1`,
        );
        await expect.poll(() => countOf(page, "#payloads input")).toBe(7);
        const checked = await page.evaluate(() =>
          [...document.querySelectorAll<HTMLInputElement>("#payloads input:checked")].map((i) => i.value),
        );
        expect(checked).toEqual(["orders"]);
        expect(await textOf(page, "#payloads")).toContain("orders (your messages)");
        for (const set of ["chat", "game-tick"]) await setChecked(page, `#payloads input[value="${set}"]`, true);
        await page.click("#run");
        expect(await runDone(page)).not.toContain("FAILED");
        expect(errors).toEqual([]);
        const rows = parseCsv((await page.download("#download")).text);
        const at = (row: string[], col: string): string => row[CSV_COLUMNS.indexOf(col)]!;
        const ran = rows
          .slice(1)
          .map((r) => `${at(r, "mode")} ${at(r, "payload")} ${at(r, "codec")} ${at(r, "verified")}`);
        // custom-binary runs on the user's messages too, with the layout inferred from them.
        expect(ran.filter((r) => r.includes(" orders "))).toEqual(
          expect.arrayContaining([
            "codec orders json true",
            "codec orders msgpack true",
            "codec orders custom-binary true",
            "stream orders json true",
            "stream orders msgpack true",
            "stream orders custom-binary true",
            "stream orders raw true",
          ]),
        );
        for (const set of ["chat", "game-tick"])
          expect(ran).toEqual(
            expect.arrayContaining([`codec ${set} custom-binary true`, `stream ${set} custom-binary true`]),
          );
        expect(ran.every((r) => r.endsWith(" true"))).toBe(true);
        // What each codec did to the file's messages, above the verdict.
        const verdict = await textOf(page, "#verdict");
        expect(verdict).toContain("== your messages: orders, what each codec gives back");
        expect(verdict).toMatch(/^json +0 of 2 +nothing: every value, key and key order kept$/m);
        expect(verdict).toMatch(/^custom-binary +0 of 2 +nothing: every value, key and key order kept$/m);
        await page.close();
      });
    });

    describe("a codec module", () => {
      const server = serverForFile({
        codecModules: [new URL("../../../docs/codecs/cbor-x.ts", import.meta.url).pathname],
      });

      it("imports the server's bundled cbor-x module, lists its codec and runs it in codec, roundtrip and stream mode", async () => {
        const { page, errors } = await openPage(
          held.browser,
          `${server.url}/?payloads=small,chat&iterations-codec=200&iterations-roundtrip=30&iterations-stream=200&warmup=10&runs=1`,
        );
        await expect.poll(() => countOf(page, '#codecs input[value="cbor-x"]')).toBe(1);
        expect(await isChecked(page, '#codecs input[value="cbor-x"]')).toBe(true);
        for (const other of ["json-bytes", "protobuf", "msgpack", "msgpackr", "msgpackr-records", "custom-binary"])
          await setChecked(page, `#codecs input[value="${other}"]`, false);
        await page.click("#run");
        await runDone(page);
        expect(errors).toEqual([]);
        const rows = parseCsv((await page.download("#download")).text);
        const at = (row: string[], col: string): string => row[CSV_COLUMNS.indexOf(col)]!;
        const cbor = rows.slice(1).filter((r) => at(r, "codec") === "cbor-x");
        // The workers that ran codec mode imported the module from the server too.
        const record = resultsFromFile((await page.download("#download-json")).text);
        const inWorkers = record.cases.find((c) => c.mode === "codec" && c.codec === "cbor-x" && c.payload === "small");
        expect(new Set(inWorkers?.raw.map((x) => x.process))).toEqual(new Set(Array(PAGE_FORKS).keys()));
        expect(cbor.map((r) => `${at(r, "mode")} ${at(r, "payload")} ${at(r, "verified")}`).sort()).toEqual([
          "codec chat true",
          "codec small true",
          "roundtrip chat true",
          "roundtrip small true",
          "stream chat true",
          "stream small true",
        ]);
        await page.close();
      });
    });
  },
);
