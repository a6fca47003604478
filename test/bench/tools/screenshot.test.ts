/**
 * `bun run screenshot [--browser chromium|firefox]`: a bad flag is one line
 * naming it and the valid values, exit 2, before any server or browser
 * starts.
 */
import { spawnSync } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../../..");
const screenshot = (...args: string[]) =>
  spawnSync(process.execPath, ["bench/tools/screenshot.ts", ...args], { cwd: ROOT, encoding: "utf8", timeout: 60_000 });

describe("bun run screenshot", () => {
  it("refuses an unknown browser or flag in one line, exit 2", () => {
    const browser = screenshot("--browser", "safari");
    expect(browser.stderr).toBe("screenshot: --browser: unknown value 'safari'; valid values: chromium, firefox\n");
    expect(browser.status).toBe(2);
    const flag = screenshot("--bogus");
    expect(flag.stderr).toBe("screenshot: Unknown option '--bogus'; valid flag: --browser chromium|firefox\n");
    expect(flag.status).toBe(2);
  });

  it("without the browser asked for: how to install it, exit 2", () => {
    const r = spawnSync(process.execPath, ["bench/tools/screenshot.ts", "--browser", "firefox"], {
      cwd: ROOT,
      encoding: "utf8",
      env: { ...process.env, FIREFOX_PATH: "/nonexistent/firefox" },
    });
    expect(r.stderr).toBe(
      "screenshot: no Firefox found: install Debian's package (apt-get install -y firefox-esr) or set FIREFOX_PATH to a Firefox binary\n",
    );
    expect(r.status).toBe(2);
  });
});
