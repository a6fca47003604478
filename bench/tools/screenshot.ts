/**
 * `bun run screenshot`: the pictures in the README, made by the project's
 * own headless run: start the server, open the page in headless Chromium,
 * press Run, load a sample CLI run beside the browser's and save
 * docs/page.png; then build report.html from that sample run (as
 * `bun run report` does) and save docs/report.png.
 */

import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { findChromium, launchChromium, NO_CHROMIUM_MESSAGE } from "../cli/processes/browser.ts";
import { spawnServer } from "../cli/processes/server-process.ts";
import { ROOT } from "../cli/paths.ts";
import { CliError } from "../cli/cli-errors.ts";


const chromiumPath = findChromium();
if (!chromiumPath) {
  process.stderr.write(`screenshot: ${NO_CHROMIUM_MESSAGE}\n`);
  process.exit(2);
}
/** A default run of `bun run bench`, with its rounds: its verdict and intervals show. */
const SAMPLE = path.join(ROOT, "results/sample/epyc-default-1.json");

const server = await spawnServer();
const scratch = mkdtempSync(path.join(tmpdir(), "bench-screenshot-"));
const browser = await launchChromium(chromiumPath, { viewport: { width: 1280, height: 1500 } });
const context = browser.context;
try {
  const page = context.pages()[0] ?? (await context.newPage());
  await page.goto(`${server.url}/?payloads=small,large&iterations-codec=20000&iterations-roundtrip=300&iterations-stream=3000&runs=2`);
  await page.click("#run");
  await page.waitForFunction(() => document.querySelector("#progress")?.textContent?.startsWith("Done"), undefined, { timeout: 600_000 });
  await page.setInputFiles("#load", SAMPLE);
  await page.waitForFunction(() => document.querySelector("#progress")?.textContent?.startsWith("Loaded"));
  const out = path.join(ROOT, "docs/page.png");
  await page.screenshot({ path: out });
  process.stdout.write(`Wrote ${out}\n`);

  const html = path.join(scratch, "report.html");
  const built = spawnSync(process.execPath, [path.join(ROOT, "bench/cli/report.ts"), SAMPLE, "--out", html], { encoding: "utf8" });
  if (built.status !== 0) throw new CliError("TOOL", `bun run report failed: ${built.stderr}`);
  await page.goto(pathToFileURL(html).href);
  // chart.js draws on load; every canvas has pixels once it has.
  await page.waitForFunction(() => [...document.querySelectorAll("canvas")].every((c) => c.width > 0 && c.height > 0));
  const reportPng = path.join(ROOT, "docs/report.png");
  await page.screenshot({ path: reportPng });
  process.stdout.write(`Wrote ${reportPng}\n`);
} finally {
  await browser.close();
  await server.stop();
  rmSync(scratch, { recursive: true, force: true });
}
