/** `bun run bench --modes cold` as a user runs it: fresh processes, then every output holds the cold rows. */

import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runBenchCli } from "../../../helpers/bench-cli.ts";
import { parseCsv } from "../../../helpers/csv.ts";

const out = mkdtempSync(path.join(tmpdir(), "cold-cli-"));
afterAll(() => rmSync(out, { recursive: true, force: true }));

describe("bun run bench --modes cold", () => {
  it("times each codec's first messages in fresh processes, and says so in the table, the verdict and the CSV", () => {
    const r = runBenchCli([
      ...["--modes", "cold", "--codecs", "json,custom-binary,msgpackr", "--payloads", "small"],
      ...["--runs", "3", "--iterations", "100", "--out", out],
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/== cold mode: each codec's first messages in fresh processes/);
    expect(r.stdout).toMatch(/3 fresh Bun processes per case/);
    expect(r.stdout).toMatch(/^Cold start \(fresh Bun processes\), fastest on the first message: /m);
    const [header, ...body] = parseCsv(readFileSync(path.join(out, "latest.csv"), "utf8"));
    const rows = body.map((cells) => Object.fromEntries(header!.map((h, i) => [h, cells[i] ?? ""])));
    expect(rows.map((row) => `${row.mode} ${row.codec}`).sort()).toEqual([
      "cold custom-binary",
      "cold json",
      "cold msgpackr",
    ]);
    for (const row of rows) {
      expect(row.verified).toBe("true");
      expect(row.runs).toBe("3");
      expect(row.warmup).toBe("0");
      expect(Number(row.cold_first_ns)).toBeGreaterThan(0);
      expect(Number(row.cold_first_ci95_low_ns)).toBeLessThanOrEqual(Number(row.cold_first_ns));
      expect(Number(row.cold_first100_ns)).toBeGreaterThan(0);
      expect(Number(row.cold_import_ns)).toBeGreaterThan(0);
      expect(Number(row.cold_setup_ns)).toBeGreaterThan(0);
      // 100 messages a process: no first 1,000.
      expect(row.cold_first1000_ns).toBe("");
    }
    const msgpackr = rows.find((row) => row.codec === "msgpackr")!;
    // What each codec's code adds to a page over json's: nothing for json, msgpackr's library for msgpackr.
    expect(rows.find((row) => row.codec === "json")!.bundle_bytes).toBe("0");
    expect(Number(msgpackr.bundle_bytes)).toBeGreaterThan(10_000);
    expect(Number(msgpackr.bundle_gzip_bytes)).toBeGreaterThan(0);
    expect(Number(msgpackr.bundle_gzip_bytes)).toBeLessThan(Number(msgpackr.bundle_bytes));
    expect(Number(msgpackr.cold_first_vs_json)).toBeGreaterThan(0);
    expect(Number(msgpackr.cold_first_vs_json_ci95_low)).toBeLessThanOrEqual(Number(msgpackr.cold_first_vs_json));
  }, 120_000);

  it("refuses Node's client, in one line, exit 2", () => {
    const r = runBenchCli(["--modes", "codec,cold", "--client", "node"]);
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toBe(
      "bench: --modes cold times fresh Bun processes of the bench's own, or a browser's fresh pages; it runs with --client bun, chromium or firefox (got --client node)",
    );
  });
});
