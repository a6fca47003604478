/**
 * results/report.html: the same charts as the page, offline, straight from disk.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { spawnSync } from "node:child_process";
import { afterAll, describe, expect, it } from "vitest";
import { launchChromiumContext, skipBrowserTests } from "../../helpers/browsers.ts";
import { readResults } from "../../../bench/cli/read-results.ts";
import { toCsv } from "../../../bench/report/csv.ts";

const ROOT = path.resolve(import.meta.dirname, "../../..");
const tmp = mkdtempSync(path.join(tmpdir(), "bench-report-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function buildReport(...files: string[]): string {
  const out = path.join(tmp, `report-${files.length}.html`);
  const r = spawnSync(process.execPath, ["bench/cli/report.ts", ...files, "--out", out], {
    cwd: ROOT,
    encoding: "utf8",
  });
  expect(r.status, r.stderr).toBe(0);
  expect(r.stdout).toMatch(/(^|\n)Wrote .*report-\d\.html \(\d+ rows\)\.\n$/);
  return out;
}

/** Two committed runs: a first look (codec and stream mode) and a default run (roundtrip too). */
const sample = path.join(ROOT, "results/sample/bun-quick.json.gz");
const sampleJson = path.join(ROOT, "results/sample/bun-default-2.json.gz");

describe("static report", () => {
  it("has a chart per payload and kind, and loads nothing from outside", () => {
    const html = readFileSync(buildReport(sample, sampleJson), "utf8");
    for (const payload of ["small", "medium", "large"]) {
      for (const kind of ["codec", "bytes", "roundtrip", "stream"])
        expect(html).toContain(`<canvas id="chart-${kind}-${payload}" data-payload="${payload}">`);
    }
    // No external script, style sheet, image, frame or font: chart.js is inlined.
    expect(html).not.toMatch(/<(script|link|img|iframe)[^>]+(src|href)=["']?(https?:)?\/\//i);
    expect(html).not.toMatch(/url\(\s*["']?(https?:)?\/\//i);
    expect(html).toContain("Chart");
    // Both sources, side by side.
    expect(html).toContain("bun-quick.json.gz");
    expect(html).toContain("bun-default-2.json.gz");
  });

  it("from one run's JSON: its verdict, its machine, clock and settings, intervals and ratios in the table", () => {
    const json = path.join(ROOT, "results/sample/bun-default-1.json.gz");
    const html = readFileSync(buildReport(json), "utf8");
    expect(html).toMatch(
      /<section class="verdict"><pre>Verdict from this run \(fastest by encode \+ decode in process/,
    );
    const { cpu, cores } = readResults(json).environment;
    expect(html).toContain(`${cpu} x${cores}; clock resolution`);
    expect(html).toMatch(
      /<li>bun 1\.4\.4: Linux [^<]* x2; clock resolution [^<]*, read [^<]*\. Varied messages \(seed 1\), \d run\(s\) per case; messages per run: codec 100,000, roundtrip 6,000, stream 100,000; compression off\.<\/li>/,
    );
    // The terminal's columns, a table per mode: medians, the mean beside them, the ratio with its interval.
    expect(html).toMatch(
      /<td>large<\/td><td>custom-binary<\/td><td>222<\/td>(<td>[\d.]+ [nµ]s<\/td>){4}<td class="wraps"><span>[\d.]+ <\/span><wbr><span>±[\d.]+%†?<\/span><\/td>/,
    );
    expect(html).toContain(
      "<caption>codec mode: serialize + deserialize in process, per message, median of the rounds</caption>",
    );
    expect(html).toContain("Times per message: the median of the rounds");
    // Whiskers on the time charts: the specs carry intervals, and the plugin that draws them is registered.
    expect(html).toContain('"errorBars":[[');
    expect(html).toContain("Chart.register(errorBarsPlugin)");
  });

  it("from a file without rounds: says why there is no verdict", () => {
    // A committed sample other than the first default run and --quick keeps its figures but not its rounds.
    const html = readFileSync(buildReport(path.join(ROOT, "results/sample/fanout-1-process.json.gz")), "utf8");
    expect(html).toContain("No verdict: it pairs each codec's rounds with json's, which this file does not hold.");
  });

  it("refuses a file that is not a result, with one line and exit 2", () => {
    const r = spawnSync(process.execPath, ["bench/cli/report.ts", path.join(ROOT, "package.json")], {
      cwd: ROOT,
      encoding: "utf8",
    });
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/^report: .*package\.json: not a results JSON: no cases\n$/);
    // A run's CSV is for a spreadsheet: the line names the file to give instead.
    const dir = mkdtempSync(path.join(tmp, "csv-"));
    writeFileSync(path.join(dir, "latest.csv"), toCsv(readResults(sample)));
    const csv = spawnSync(process.execPath, ["bench/cli/report.ts", path.join(dir, "latest.csv")], {
      cwd: ROOT,
      encoding: "utf8",
    });
    expect(csv.status).toBe(2);
    expect(csv.stderr).toMatch(
      /^report: .*latest\.csv: a results CSV is an export for spreadsheets and is not read back; give the \.json the run wrote beside it\n$/,
    );
    const none = spawnSync(process.execPath, ["bench/cli/report.ts"], { cwd: ROOT, encoding: "utf8" });
    expect(none.status).toBe(2);
    expect(none.stderr).toMatch(/^report: name at least one results file/);
  });

  it.skipIf(skipBrowserTests("test/bench/report/html.test.ts"))(
    "opens offline in Chromium and draws every chart",
    async () => {
      // A run's rounds give each median its interval: whiskers to draw.
      const file = buildReport(path.join(ROOT, "results/sample/bun-default-1.json.gz"));
      const browser = await launchChromiumContext();
      try {
        const page = await browser.context.newPage();
        const requests: string[] = [];
        await page.route("**/*", (route) => {
          const url = route.request().url();
          if (url.startsWith("file:")) return route.continue();
          requests.push(url);
          return route.abort();
        });
        const errors: string[] = [];
        page.on("pageerror", (e) => errors.push(e.message));
        await page.setViewportSize({ width: 1280, height: 900 });
        await page.goto(`file://${file}`);
        await page.waitForFunction(
          () =>
            document.querySelectorAll("canvas").length > 0 &&
            [...document.querySelectorAll("canvas")].every((c) => c.width > 0),
        );
        expect(errors).toEqual([]);
        expect(requests).toEqual([]);
        // Per payload: codec mode, bytes, stream, and the server's figure beside the lab's.
        expect(await page.locator("canvas").count()).toBe(15);
        // At 1,280 px the page does not scroll sideways: the results table scrolls inside itself.
        const widths = await page.evaluate(() => ({
          page: document.documentElement.scrollWidth,
          box: document.querySelector(".table-scroll")!.clientWidth,
        }));
        expect(widths.page).toBeLessThanOrEqual(1280);
        expect(widths.box).toBeLessThanOrEqual(1280);
        // And no case table needs that scroll: a header wraps between words, a figure before its interval.
        const tables = await page.evaluate(() =>
          [...document.querySelectorAll<HTMLTableElement>("table.cases")].map((t) => [t.dataset.mode, t.scrollWidth]),
        );
        expect(tables.map(([mode]) => mode)).toEqual(["codec", "roundtrip", "stream"]);
        for (const [mode, width] of tables) expect(width, `${mode}`).toBeLessThanOrEqual(widths.box);
        // A figure's text reads as it did, whatever its cell lets it wrap at.
        expect(await page.locator('table[data-mode="codec"] td.wraps').first().textContent()).toMatch(
          /^[\d.]+ ±[\d.]+%†?$/,
        );
        // chart.js drew something: the canvas is not blank.
        const painted = await page.evaluate(() => {
          const c = document.querySelector<HTMLCanvasElement>("canvas#chart-codec-small")!;
          const data = c.getContext("2d")!.getImageData(0, 0, c.width, c.height).data;
          let ink = 0;
          for (let i = 3; i < data.length; i += 4) if (data[i]! > 0) ink++;
          return ink;
        });
        expect(painted).toBeGreaterThan(1000);
        // The whiskers: dark pixels over the bars, which are drawn in pale hues.
        const dark = await page.evaluate(() => {
          const c = document.querySelector<HTMLCanvasElement>("canvas#chart-codec-small")!;
          const data = c.getContext("2d")!.getImageData(0, 0, c.width, c.height).data;
          let n = 0;
          for (let i = 0; i < data.length; i += 4)
            if (data[i + 3]! > 200 && data[i]! < 60 && data[i + 1]! < 60 && data[i + 2]! < 60) n++;
          return n;
        });
        expect(dark).toBeGreaterThan(50);
      } finally {
        await browser.close();
      }
    },
  );

  it.skipIf(skipBrowserTests("test/bench/report/html.test.ts"))(
    "draws a latency sweep: latency against rate per codec, and the spectrum on a percentile axis",
    async () => {
      const file = buildReport(path.join(ROOT, "results/sample/bun-sweep-1.json.gz"));
      const browser = await launchChromiumContext();
      try {
        const page = await browser.context.newPage();
        const errors: string[] = [];
        page.on("pageerror", (e) => errors.push(e.message));
        await page.goto(`file://${file}`);
        await page.waitForFunction(() => [...document.querySelectorAll("canvas")].every((c) => c.width > 0));
        expect(errors).toEqual([]);
        const drawn = await page.evaluate(() => {
          const chart = (id: string) =>
            (
              window as unknown as {
                Chart: {
                  getChart(c: Element): {
                    data: { datasets: { label: string; data: unknown[] }[] };
                    scales: Record<string, { type: string; ticks: { label: string }[] }>;
                  };
                };
              }
            ).Chart.getChart(document.getElementById(id)!)!;
          const rate = chart("chart-latency-rate-small");
          const spectrum = chart("chart-latency-spectrum-small");
          const json = spectrum.data.datasets.find((d) => d.label === "json")!;
          return {
            rateSeries: rate.data.datasets.map((d) => d.label),
            rateAxis: rate.scales.x!.type,
            spectrumTitle: (spectrum as unknown as { options: { plugins: { title: { text: string } } } }).options
              .plugins.title.text,
            spectrumTicks: spectrum.scales.x!.ticks.map((t) => t.label).filter((l) => l !== ""),
            spectrumAt: (json.data as { x: number }[]).map((p) => p.x),
          };
        });
        expect(drawn.rateSeries).toContain("json p50");
        expect(drawn.rateSeries).toContain("json p99");
        expect(drawn.rateAxis).toBe("logarithmic");
        // The spectrum stands at the rate its title names. Its points are the percentiles that rate's
        // replies resolve (1 in 2, 10, 100, 1,000, 10,000 replies), then the max at the reply count;
        // the axis labels each of those percentiles, and none beyond.
        const rate = Number(/at ([\d,]+) msgs\/s/.exec(drawn.spectrumTitle)![1]!.replaceAll(",", ""));
        const received = readResults(path.join(ROOT, "results/sample/bun-sweep-1.json.gz")).cases.find(
          (c) => c.mode === "latency" && c.payload === "small" && c.codec === "json" && c.socket?.targetRate === rate,
        )!.socket!.received;
        const decades = [2, 10, 100, 1000, 10_000].filter((x) => x <= received);
        expect(drawn.spectrumAt).toEqual([...decades, received]);
        const labels = ["50%", "90%", "99%", "99.9%", "99.99%"];
        expect(drawn.spectrumTicks).toEqual(labels.slice(0, decades.length));
      } finally {
        await browser.close();
      }
    },
  );
});
