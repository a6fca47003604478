/**
 * `bun run screenshot`: the picture of the page in the README, made by the
 * project's own headless run: start the server, open the page in headless
 * Chromium, press Run, load the sample CLI results beside the browser's,
 * and save docs/page.png.
 */

import path from "node:path";
import { findChromium, launchChromium, NO_CHROMIUM_MESSAGE } from "./processes/browser.ts";
import { spawnServer } from "./processes/server.ts";
import { ROOT } from "./paths.ts";


const chromiumPath = findChromium();
if (!chromiumPath) {
  process.stderr.write(`screenshot: ${NO_CHROMIUM_MESSAGE}\n`);
  process.exit(2);
}
const server = await spawnServer();
const browser = await launchChromium(chromiumPath, { viewport: { width: 1280, height: 1500 } });
const context = browser.context;
try {
  const page = context.pages()[0] ?? (await context.newPage());
  await page.goto(`${server.url}/?payloads=small,large&iterations-codec=20000&iterations-roundtrip=300&iterations-stream=3000&runs=2`);
  await page.click("#run");
  await page.waitForFunction(() => document.querySelector("#progress")?.textContent?.startsWith("Done"), undefined, { timeout: 600_000 });
  await page.setInputFiles("#load", path.join(ROOT, "results/sample/all-modes-varied.csv"));
  await page.waitForFunction(() => document.querySelector("#progress")?.textContent?.startsWith("Loaded"));
  const out = path.join(ROOT, "docs/page.png");
  await page.screenshot({ path: out });
  process.stdout.write(`Wrote ${out}\n`);
} finally {
  await browser.close();
  await server.stop();
}
