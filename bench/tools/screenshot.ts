/**
 * `bun run screenshot [--browser chromium|firefox]`: the pictures in the
 * README, made by the project's own headless run: start the server, open the
 * page in the headless browser (Chromium unless told), press Run, load a
 * sample CLI run beside the browser's and save docs/page.png; then build
 * report.html from that sample run (as `bun run report` does) and save
 * docs/report.png. Firefox's pictures are docs/page-firefox.png and
 * docs/report-firefox.png.
 */

import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import type { BrowserName } from "../../client/harness/settings.ts";
import { findBrowser, launchBrowser, noBrowserMessage } from "../cli/processes/browser-driver.ts";
import { spawnServer } from "../cli/processes/server-process.ts";
import { ROOT } from "../cli/paths.ts";
import { CliError } from "../cli/cli-errors.ts";

const BROWSERS: readonly BrowserName[] = ["chromium", "firefox"];

function browserFlag(): BrowserName {
  let given: string | undefined;
  try {
    given = parseArgs({ options: { browser: { type: "string" } } }).values.browser;
  } catch (e) {
    process.stderr.write(
      `screenshot: ${(e as Error).message.split("\n")[0]}; valid flag: --browser ${BROWSERS.join("|")}\n`,
    );
    process.exit(2);
  }
  if (given === undefined) return "chromium";
  if (!(BROWSERS as readonly string[]).includes(given)) {
    process.stderr.write(`screenshot: --browser: unknown value '${given}'; valid values: ${BROWSERS.join(", ")}\n`);
    process.exit(2);
  }
  return given as BrowserName;
}

const browserName = browserFlag();
const binary = findBrowser(browserName);
if (!binary) {
  process.stderr.write(`screenshot: ${noBrowserMessage(browserName)}\n`);
  process.exit(2);
}
const suffix = browserName === "chromium" ? "" : `-${browserName}`;
/** A default run of `bun run bench`, with its rounds: its verdict and intervals show. */
const SAMPLE = path.join(ROOT, "results/sample/bun-default-1.json");

const server = await spawnServer();
const scratch = mkdtempSync(path.join(tmpdir(), "bench-screenshot-"));
const browser = await launchBrowser(browserName, binary, { viewport: { width: 1280, height: 1500 } });
try {
  const page = await browser.firstPage();
  await page.goto(
    `${server.url}/?payloads=small,large&iterations-codec=20000&iterations-roundtrip=300&iterations-stream=3000&runs=2`,
  );
  await page.click("#run");
  await page.waitForFunction(() => document.querySelector("#progress")?.textContent?.startsWith("Done"), 600_000);
  await page.setInputFiles("#load", SAMPLE);
  await page.waitForFunction(() => document.querySelector("#progress")?.textContent?.startsWith("Loaded"));
  // Choosing a file scrolls Firefox to its input; the picture starts at the top in either browser.
  await page.evaluate(() => window.scrollTo(0, 0));
  const out = path.join(ROOT, `docs/page${suffix}.png`);
  await page.screenshot(out);
  process.stdout.write(`Wrote ${out}\n`);

  const html = path.join(scratch, "report.html");
  const built = spawnSync(process.execPath, [path.join(ROOT, "bench/cli/report.ts"), SAMPLE, "--out", html], {
    encoding: "utf8",
  });
  if (built.status !== 0) throw new CliError("TOOL", `bun run report failed: ${built.stderr}`);
  await page.goto(pathToFileURL(html).href);
  // chart.js draws on load; every canvas has pixels once it has.
  await page.waitForFunction(() => [...document.querySelectorAll("canvas")].every((c) => c.width > 0 && c.height > 0));
  const reportPng = path.join(ROOT, `docs/report${suffix}.png`);
  await page.screenshot(reportPng);
  process.stdout.write(`Wrote ${reportPng}\n`);
} finally {
  await browser.close();
  await server.stop();
  rmSync(scratch, { recursive: true, force: true });
}
