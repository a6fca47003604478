/**
 * The page end to end, as a user works it: open it in headless Chromium,
 * press Run, wait for the charts, download the CSV.
 */
import { BUILT_IN } from "../../../protocols/registry.ts";
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CSV_COLUMNS } from "../../../bench/report/csv-columns.ts";
import { parseCsv } from "../../../bench/report/csv-read.ts";
import { defaultCodecNames } from "../../../protocols/socket/contract.ts";
import { launch, skipBrowserTests } from "../../helpers/chromium.ts";
import { serverForFile, type TestServer } from "../../helpers/server.ts";

const skip = skipBrowserTests("test/client/page/app.test.ts");

/** A server (started with `options`) and a Chromium for one describe block, stopped after it (the browser first). */
function serverAndBrowser(options: Parameters<typeof serverForFile>[0] = {}): { server: TestServer; browser: Awaited<ReturnType<typeof launch>> } {
  const held = { server: serverForFile(options) } as { server: TestServer; browser: Awaited<ReturnType<typeof launch>> };
  beforeAll(async () => {
    held.browser = await launch();
  });
  afterAll(async () => {
    await held.browser?.close();
  });
  return held;
}

describe.skipIf(skip)("benchmark page in headless Chromium", () => {
  const held = serverAndBrowser();

  it("is cross-origin isolated, runs every codec x payload x mode from the Run button, charts them and downloads the CLI's CSV", async () => {
    const page = held.browser.context.pages()[0] ?? (await held.browser.context.newPage());
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    // Small sizes in the URL (the page reads the CLI's flag names), then a real click.
    await page.goto(`${held.server.url}/?iterations-codec=300&iterations-roundtrip=30&iterations-stream=200&warmup=20&runs=1`);
    expect(await page.evaluate(() => crossOriginIsolated)).toBe(true);
    await expect.poll(() => page.textContent("#clock")).toMatch(/crossOriginIsolated: true; eval allowed: true; clock resolution [\d.]+ (µs|ns)/);
    expect(await page.isHidden("#isolation-warning")).toBe(true);

    await page.click("#run");
    await page.waitForFunction(() => document.querySelector("#progress")?.textContent?.startsWith("Done"), undefined, { timeout: 240_000 });
    expect(errors).toEqual([]);
    expect(await page.textContent("#progress")).not.toContain("FAILED");

    // A chart of each kind for each payload.
    for (const payload of ["small", "medium", "large"]) {
      for (const kind of ["codec", "bytes", "roundtrip", "stream"]) {
        expect(await page.locator(`canvas#chart-${kind}-${payload}`).count(), `${kind} ${payload}`).toBe(1);
      }
    }

    const [download] = await Promise.all([page.waitForEvent("download"), page.click("#download")]);
    const csv = readFileSync((await download.path())!, "utf8");
    const rows = parseCsv(csv);
    expect(rows[0]).toEqual([...CSV_COLUMNS]);
    const at = (row: string[], col: string): string => row[CSV_COLUMNS.indexOf(col)]!;
    const body = rows.slice(1);
    // The default codecs (the catalogue's defaults and raw).
    expect(body).toHaveLength((defaultCodecNames(BUILT_IN).length - 1) * 3 + defaultCodecNames(BUILT_IN).length * 3 * 2);
    for (const row of body) {
      expect(at(row, "client")).toBe("browser");
      expect(at(row, "verified"), `${at(row, "mode")} ${at(row, "codec")} ${at(row, "payload")}: ${at(row, "error")}`).toBe("true");
      expect(at(row, "runtime")).toBe("browser");
      expect(at(row, "cross_origin_isolated")).toBe("true");
      expect(at(row, "client_library")).toMatch(/Mozilla\/5\.0 .*Chrome\//);
      if (at(row, "mode") !== "codec") expect(at(row, "lost")).toBe("0");
    }
    const modes = new Set(body.map((r) => at(r, "mode")));
    expect([...modes].sort()).toEqual(["codec", "roundtrip", "stream"]);
  });

  it("runs latency mode at the rates in its form: every row verified, nothing lost, the latency charts and the knee", async () => {
    const page = await held.browser.context.newPage();
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    await page.goto(`${held.server.url}/?modes=latency&codecs=json,custom-binary,raw&payloads=small&iterations-latency=200&warmup=20&runs=1&rate=1000`);
    expect(await page.inputValue("#rate")).toBe("1000");
    // The user changes the rates in the form.
    await page.fill("#rate", "500,1000");
    await page.click("#run");
    await page.waitForFunction(() => document.querySelector("#progress")?.textContent?.startsWith("Done"), undefined, { timeout: 240_000 });
    expect(errors).toEqual([]);
    expect(await page.locator("canvas#chart-latency-rate-small").count()).toBe(1);
    expect(await page.locator("canvas#chart-latency-spectrum-small").count()).toBe(1);
    expect(await page.textContent("#verdict")).toContain("Knee (latency, browser client)");
    const [download] = await Promise.all([page.waitForEvent("download"), page.click("#download")]);
    const rows = parseCsv(readFileSync((await download.path())!, "utf8"));
    const at = (row: string[], col: string): string => row[CSV_COLUMNS.indexOf(col)]!;
    const body = rows.slice(1);
    expect(body.map((r) => `${at(r, "codec")}@${at(r, "target_rate")}`).sort()).toEqual(["custom-binary@1000", "custom-binary@500", "json@1000", "json@500", "raw@1000", "raw@500"]);
    for (const row of body) {
      expect(at(row, "verified"), at(row, "error")).toBe("true");
      expect(at(row, "lost")).toBe("0");
      expect(Number(at(row, "latency_p50_ns"))).toBeGreaterThan(0);
      expect(at(row, "rtt_p50_ns")).toBe("");
    }
    await page.close();
  });

  it("charts a CSV from the CLI beside the browser's numbers", async () => {
    const page = held.browser.context.pages()[0]!;
    const csv = readFileSync(new URL("../../../results/sample/all-modes-varied.csv", import.meta.url), "utf8");
    await page.setInputFiles("#load", { name: "cli.csv", mimeType: "text/csv", buffer: Buffer.from(csv) });
    await expect.poll(() => page.textContent("#progress")).toMatch(/^Loaded \d+ rows from cli\.csv\.$/);
    const series = await page.getAttribute("canvas#chart-codec-small", "data-series");
    // One name per source in every legend: the browser, and Bun from the loaded file.
    expect(series).toMatch(/^serialize, Chrome \d+\|serialize, bun 1\.\d+\.\d+, cli\.csv\|/);
    expect(await page.locator("canvas").count()).toBe(12);
    // Chromium's socket streams ~7,000 messages/s, Bun's client ~150,000: a logarithmic axis keeps both readable.
    expect(await page.getAttribute("canvas#chart-stream-small", "data-scale")).toBe("logarithmic");
    // The loaded rows join the table, with their flags and ratios; the run's verdict stays.
    expect(await page.locator("#table td", { hasText: "bun 1.4.4, cli.csv" }).count()).toBeGreaterThan(20);
    expect(await page.textContent("#verdict")).toMatch(/^Verdict from this run/);
    // The settings lay out without wrapping a label or one box over another, at a laptop's width too.
    for (const width of [1280, 1000]) {
      await page.setViewportSize({ width, height: 900 });
      const layout = await page.evaluate(() => {
        const boxes = [...document.querySelectorAll("#settings fieldset")].map((f) => f.getBoundingClientRect());
        const overlaps = boxes.some((a, i) => boxes.some((b, j) => j > i && a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom));
        const wrapped = [...document.querySelectorAll("#settings label")].filter((l) => l.getClientRects().length > 1 || l.getBoundingClientRect().height > 2 * parseFloat(getComputedStyle(l).fontSize) + 8).map((l) => l.textContent);
        return { overlaps, wrapped, wider: document.documentElement.scrollWidth > window.innerWidth };
      });
      expect(layout, `at ${width} px`).toEqual({ overlaps: false, wrapped: [], wider: false });
    }
  });

  it("works, with a visible warning, when not cross-origin isolated; a page on another origin cannot open a socket", async () => {
    // Same page, served without the isolation headers.
    const plain = Bun.serve({
      port: 0,
      hostname: "127.0.0.1",
      async fetch(req) {
        const url = new URL(req.url);
        const res = await fetch(`${held.server.url}${url.pathname}${url.search}`);
        return new Response(await res.arrayBuffer(), { status: res.status, headers: { "content-type": res.headers.get("content-type") ?? "text/plain" } });
      },
    });
    try {
      const page = await held.browser.context.newPage();
      await page.goto(`http://127.0.0.1:${plain.port}/`);
      expect(await page.evaluate(() => crossOriginIsolated)).toBe(false);
      expect(await page.isVisible("#isolation-warning")).toBe(true);

      // That page is another origin: the benchmark server refuses its sockets.
      const outcome = await page.evaluate(
        (url) =>
          new Promise<string>((resolve) => {
            const ws = new WebSocket(url);
            ws.onopen = () => resolve("open");
            ws.onclose = (ev) => resolve(`closed ${ev.code}`);
          }),
        `${held.server.url.replace("http", "ws")}/ws?codec=json&payload=small`,
      );
      expect(outcome).toBe("closed 1006");
      await page.close();
    } finally {
      await plain.stop(true);
    }
  });
});

describe.skipIf(skip)("the page with your own messages and the message sets", () => {
  const text = '[{"id": 1, "who": {"name": "Zoë"}, "tags": ["a", "日本"]}, {"id": 2, "who": {"name": "Li"}, "tags": [], "extra": null}]\n';
  const held = serverAndBrowser({ userMessages: [{ name: "orders", file: "orders.json", text }] });

  it("offers the server's --messages file, checked, beside the six built-in payloads; runs it and the sets from the Run button", async () => {
    const page = await held.browser.context.newPage();
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    await page.goto(`${held.server.url}/?codecs=json,msgpack,custom-binary,raw&modes=codec,stream&iterations-codec=200&iterations-stream=200&warmup=10&runs=1`);
    await expect.poll(() => page.locator("#payloads input").count()).toBe(7);
    const checked = await page.locator("#payloads input:checked").evaluateAll((inputs) => inputs.map((i) => (i as HTMLInputElement).value));
    expect(checked).toEqual(["orders"]);
    expect(await page.textContent("#payloads")).toContain("orders (your messages)");
    for (const set of ["chat", "game-tick"]) await page.check(`#payloads input[value="${set}"]`);
    await page.click("#run");
    await page.waitForFunction(() => document.querySelector("#progress")?.textContent?.startsWith("Done"), undefined, { timeout: 240_000 });
    expect(errors).toEqual([]);
    expect(await page.textContent("#progress")).not.toContain("FAILED");
    const [download] = await Promise.all([page.waitForEvent("download"), page.click("#download")]);
    const rows = parseCsv(readFileSync((await download.path())!, "utf8"));
    const at = (row: string[], col: string): string => row[CSV_COLUMNS.indexOf(col)]!;
    const ran = rows.slice(1).map((r) => `${at(r, "mode")} ${at(r, "payload")} ${at(r, "codec")} ${at(r, "verified")}`);
    // custom-binary has no layout for the user's messages: left out there, run on the sets.
    expect(ran.filter((r) => r.includes(" orders "))).toEqual(
      expect.arrayContaining(["codec orders json true", "codec orders msgpack true", "stream orders json true", "stream orders msgpack true", "stream orders raw true"]),
    );
    expect(ran.some((r) => r.includes("orders custom-binary"))).toBe(false);
    for (const set of ["chat", "game-tick"]) expect(ran).toEqual(expect.arrayContaining([`codec ${set} custom-binary true`, `stream ${set} custom-binary true`]));
    expect(ran.every((r) => r.endsWith(" true"))).toBe(true);
    // What each codec did to the file's messages, above the verdict.
    const verdict = (await page.textContent("#verdict")) ?? "";
    expect(verdict).toContain("== your messages: orders, what each codec gives back");
    expect(verdict).toMatch(/^json +0 of 2 +nothing: every value, key and key order kept$/m);
    expect(verdict).toMatch(/^custom-binary +n\/a +no layout for your own messages/m);
    await page.close();
  });
});

describe.skipIf(skip)("the page with a codec module", () => {
  const held = serverAndBrowser({ codecModules: [new URL("../../../docs/codecs/cbor-x.ts", import.meta.url).pathname] });

  it("imports the server's bundled cbor-x module, lists its codec and runs it in codec, roundtrip and stream mode", async () => {
    const page = await held.browser.context.newPage();
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    await page.goto(`${held.server.url}/?payloads=small,chat&iterations-codec=200&iterations-roundtrip=30&iterations-stream=200&warmup=10&runs=1`);
    await expect.poll(() => page.locator('#codecs input[value="cbor-x"]').count()).toBe(1);
    expect(await page.isChecked('#codecs input[value="cbor-x"]')).toBe(true);
    for (const other of ["json-bytes", "protobuf", "msgpack", "msgpackr", "msgpackr-records", "custom-binary"]) await page.uncheck(`#codecs input[value="${other}"]`);
    await page.click("#run");
    await page.waitForFunction(() => document.querySelector("#progress")?.textContent?.startsWith("Done"), undefined, { timeout: 240_000 });
    expect(errors).toEqual([]);
    const [download] = await Promise.all([page.waitForEvent("download"), page.click("#download")]);
    const rows = parseCsv(readFileSync((await download.path())!, "utf8"));
    const at = (row: string[], col: string): string => row[CSV_COLUMNS.indexOf(col)]!;
    const cbor = rows.slice(1).filter((r) => at(r, "codec") === "cbor-x");
    expect(cbor.map((r) => `${at(r, "mode")} ${at(r, "payload")} ${at(r, "verified")}`).sort()).toEqual(
      ["codec chat true", "codec small true", "roundtrip chat true", "roundtrip small true", "stream chat true", "stream small true"],
    );
    await page.close();
  });
});

