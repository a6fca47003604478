/** Cold mode in a browser: each process a fresh page in a context of its own, in the system's Chromium and Firefox. */

import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { coldStartPages, jsLiteral, type ColdStartPages } from "../../../../bench/cli/processes/cold-start-pages.ts";
import { findBrowser } from "../../../../bench/cli/processes/browser-driver.ts";
import { messagesFor } from "../../../../client/harness/generator.ts";
import { BROWSERS, skipBrowserTests } from "../../../helpers/browsers.ts";
import { runBenchCli } from "../../../helpers/bench-cli.ts";
import { parseCsv } from "../../../helpers/csv.ts";

describe("jsLiteral", () => {
  it("writes what a message holds as JavaScript that evaluates back to it", () => {
    const value = {
      n: -0,
      big: 2 ** 60,
      small: 1e-300,
      nan: Number.NaN,
      inf: [Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY],
      s: 'quote " back \\ line \u2028 para \u2029 emoji 😀 nul \u0000',
      "key with space": [true, false, null, { nested: [] }],
      id: 12n,
    };
    const back = new Function(`return ${jsLiteral(value)};`)();
    expect(back).toEqual(value);
    expect(Object.is(back.n, -0)).toBe(true);
  });

  it("refuses what a page could not be handed as a literal, naming it", () => {
    expect(() => jsLiteral({ when: new Date(0) })).toThrow(/cannot hand a page a \[object Date\]/);
    expect(() => jsLiteral(new Map())).toThrow(/\[object Map\]/);
  });
});

const messages = messagesFor({ seed: 1, fixed: false, userMessages: [] } as never, "small", 20);

for (const name of BROWSERS)
  describe.skipIf(skipBrowserTests("cold-start-pages.test.ts", name))(`cold mode's pages in ${name}`, () => {
    let pages: ColdStartPages;
    let stop = false;
    beforeAll(async () => {
      pages = await coldStartPages(name, findBrowser(name)!, [], () => stop);
    }, 60_000);
    afterAll(() => pages?.close());

    it("times a codec's load, set-up and first messages in a cross-origin isolated page, and checks them", async () => {
      for (const codec of ["json", "custom-binary"]) {
        const m = await pages.measure({ codec, payload: "small", messages, ownTrips: false });
        expect(m.slice.importNs).toBeGreaterThan(0);
        expect(m.slice.firstNs).toBeGreaterThanOrEqual(0);
        expect(m.slice.first10Ns).toBeGreaterThanOrEqual(0);
        expect(m.slice.first100Ns).toBeUndefined();
        expect(m.bytes).toBeGreaterThan(0);
        // Coarse but not 1 ms: the page is cross-origin isolated.
        expect(m.clockResolutionNs).toBeGreaterThan(1000);
        expect(m.clockResolutionNs).toBeLessThan(100_000);
      }
      expect(pages.browser.crossOriginIsolated).toBe(true);
      expect(pages.browser.userAgent).toMatch(name === "chromium" ? /Chrome\// : /Firefox\//);
    }, 60_000);

    it("fails a process whose messages do not come back, or whose codec it cannot load, with one line", async () => {
      // custom-binary's built-in layouts cannot carry a message the payload does not hold.
      const wrong = messages.map((m) => ({ ...m, extra: "not in the layout" }));
      await expect(
        pages.measure({ codec: "json", payload: "small", messages: wrong, ownTrips: false }),
      ).resolves.toBeDefined();
      await expect(
        pages.measure({ codec: "custom-binary", payload: "small", messages: wrong, ownTrips: false }),
      ).rejects.toThrow(/^message 1 did not come back exactly/);
      await expect(
        pages.measure({ codec: "no-such-codec", payload: "small", messages, ownTrips: false }),
      ).rejects.toThrow("cold mode cannot load codec 'no-such-codec' on its own");
    }, 60_000);

    it("a stop ends the page in flight", async () => {
      stop = true;
      try {
        // Asked before the page could report: its load takes longer than the stop's check.
        await expect(pages.measure({ codec: "json", payload: "small", messages, ownTrips: false })).rejects.toThrow(
          "stopped",
        );
      } finally {
        stop = false;
      }
    }, 60_000);
  });

const out = mkdtempSync(path.join(tmpdir(), "cold-pages-cli-"));
afterAll(() => rmSync(out, { recursive: true, force: true }));

describe.skipIf(skipBrowserTests("cold-start-pages.test.ts", "firefox"))(
  "bun run bench --client firefox --modes codec,cold",
  () => {
    it("runs codec mode in the page, then cold mode in fresh pages, and every output holds both", () => {
      const r = runBenchCli(
        [
          ...["--client", "firefox", "--modes", "codec,cold", "--codecs", "json,msgpackr", "--payloads", "small"],
          ...["--runs", "2", "--iterations", "50", "--warmup", "50", "--forks", "1", "--out", out],
        ],
        180_000,
      );
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toMatch(/2 fresh Firefox [\d.]+ pages per case/);
      expect(r.stdout).toMatch(/^Cold start \(fresh Firefox [\d.]+ pages\), fastest on the first message: /m);
      const [header, ...body] = parseCsv(readFileSync(path.join(out, "latest.csv"), "utf8"));
      const rows = body.map((cells) => Object.fromEntries(header!.map((h, i) => [h, cells[i] ?? ""])));
      expect(rows.map((row) => `${row.mode} ${row.client} ${row.codec}`).sort()).toEqual([
        "codec browser json",
        "codec browser msgpackr",
        "cold browser json",
        "cold browser msgpackr",
      ]);
      for (const row of rows.filter((row) => row.mode === "cold")) {
        expect(row.verified).toBe("true");
        expect(row.runs).toBe("2");
        expect(row.flags).toContain("coarse-clock");
        expect(Number(row.cold_import_ns)).toBeGreaterThan(0);
      }
      const msgpackr = rows.find((row) => row.mode === "cold" && row.codec === "msgpackr")!;
      expect(Number(msgpackr.cold_first_vs_json)).toBeGreaterThan(0);
      expect(Number(msgpackr.bundle_gzip_bytes)).toBeGreaterThan(0);
      const json = JSON.parse(readFileSync(path.join(out, "latest.json"), "utf8"));
      expect(json.settings.modes).toEqual(["codec", "cold"]);
      expect(json.order.cold).toHaveLength(1);
      expect(json.environments.browser.userAgent).toMatch(/Firefox\//);
    }, 200_000);
  },
);
