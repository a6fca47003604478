/**
 * `bun run bench --link` from the command line, with each client: the bench
 * starts the link emulator itself, every socket case crosses the link (its
 * round trips take the link's time), the table names the link, the CSV holds
 * it in its link columns and reads back, and without --iterations a run fits
 * the link's time budget.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { findToxiproxy } from "../../../bench/cli/processes/link-emulator.ts";
import { parseCsv } from "../../../bench/report/csv-read.ts";
import { resultsFromFile } from "../../../bench/report/results-file.ts";
import { LINK_MIN_MESSAGES } from "../../../client/harness/link.ts";
import { skipBrowserTests } from "../../helpers/browsers.ts";

const ROOT = path.resolve(import.meta.dirname, "../../..");
const tmp = mkdtempSync(path.join(tmpdir(), "bench-link-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const skip = findToxiproxy() === undefined && process.env.CI !== "true";
if (skip)
  process.stderr.write("\n[link.test.ts] SKIPPED: no toxiproxy-server (see docs/links.md for the go install line)\n\n");

function bench(...args: string[]): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, ["bench/cli/bench.ts", ...args], {
    cwd: ROOT,
    encoding: "utf8",
    timeout: 240_000,
    env: { ...process.env, NO_COLOR: "1" },
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** The rows of `out`'s latest.csv, each as column -> cell. */
function rowsOf(out: string): Record<string, string>[] {
  const [header, ...rows] = parseCsv(readFileSync(path.join(out, "latest.csv"), "utf8"));
  return rows.map((row) => Object.fromEntries(header!.map((h, i) => [h, row[i]!])));
}

const LINK = "latency=30ms,down=5mbit,up=2mbit";

describe.skipIf(skip)("--link from the command line", () => {
  it.each([
    ["bun", ["--modes", "roundtrip,stream"]],
    ["node", ["--modes", "roundtrip,stream", "--iterations", "60"]],
  ])("--client %s: every case over the link, named in the table, the CSV and the JSON", (client, extra) => {
    const out = path.join(tmp, client);
    const r = bench(
      "--client",
      client,
      "--codecs",
      "json,custom-binary",
      "--payloads",
      "small",
      "--runs",
      "1",
      "--link",
      LINK,
      "--out",
      out,
      ...extra,
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain("over a link, custom: 30 ms round trip, 5 Mbit/s down, 2 Mbit/s up");
    const rows = rowsOf(out);
    expect(rows).toHaveLength(2 * 2);
    for (const row of rows) {
      expect(row.verified).toBe("true");
      expect(row.lost).toBe("0");
      expect([row.link, row.link_rtt_ms, row.link_down_kbps, row.link_up_kbps]).toEqual([
        "custom",
        "30",
        "5000",
        "2000",
      ]);
      if (row.mode === "roundtrip") {
        // The round trips crossed the link: their median is at least its 30 ms.
        expect(Number(row.rtt_p50_ns)).toBeGreaterThanOrEqual(30e6);
        // Without --iterations a run fits the link's time: 2 s of 30 ms round trips is fewer than the floor.
        expect(row.sent).toBe(client === "bun" ? String(LINK_MIN_MESSAGES) : "60");
      }
    }
    const json = resultsFromFile(readFileSync(path.join(out, "latest.json"), "utf8"));
    expect(json.settings.link).toMatchObject({ name: "custom", rttMs: 30, downKbps: 5000, upKbps: 2000 });
    // The CSV read back says the same.
    const csv = resultsFromFile(readFileSync(path.join(out, "latest.csv"), "utf8"));
    expect(csv.settings.link).toMatchObject({ name: "custom", rttMs: 30, downKbps: 5000, upKbps: 2000 });
  });

  it.skipIf(skipBrowserTests("link.test.ts"))(
    "--client chromium: the page loads from the server, its WebSockets cross the link",
    () => {
      const out = path.join(tmp, "chromium");
      const r = bench(
        "--client",
        "chromium",
        "--modes",
        "roundtrip",
        "--codecs",
        "json",
        "--payloads",
        "small",
        "--iterations",
        "40",
        "--runs",
        "1",
        "--link",
        LINK,
        "--out",
        out,
      );
      expect(r.code, r.stderr).toBe(0);
      const [row] = rowsOf(out);
      expect(row!.verified).toBe("true");
      expect(row!.link).toBe("custom");
      expect(Number(row!.rtt_p50_ns)).toBeGreaterThanOrEqual(30e6);
    },
  );

  it("--link-sweep: the fastest and the smallest codec of a payload over falling bandwidths, the crossover measured and predicted, in one verdict line and two files", () => {
    const out = path.join(tmp, "sweep");
    const r = bench(
      "--link-sweep",
      "--codecs",
      "json,protobuf",
      "--payloads",
      "large",
      "--quick",
      "--iterations",
      "3000",
      "--out",
      out,
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain("== link sweep: stream mode over links of falling bandwidth");
    expect(r.stderr).toMatch(
      /link sweep: large: the emulator carries [\d.]+ [MkG]bit\/s of (json|protobuf)'s frames here/,
    );
    const sweep = JSON.parse(readFileSync(path.join(out, "link-sweep.json"), "utf8")) as {
      crossovers: {
        payload: string;
        fast: { codec: string };
        small: { codec: string };
        rungs: unknown[];
        verdict: string;
      }[];
    };
    expect(sweep.crossovers).toHaveLength(1);
    const [c] = sweep.crossovers;
    expect(c!.payload).toBe("large");
    // protobuf's frames are smaller than json's on the large message.
    expect(c!.small.codec).toBe("protobuf");
    expect(r.stdout).toContain(`  ${c!.verdict}`);
    if (c!.fast.codec !== c!.small.codec) {
      expect(c!.rungs.length).toBeGreaterThan(0);
      expect(c!.verdict).toMatch(
        /^large: (below .*, protobuf beats json|json beats protobuf down to|protobuf beats json on every)/,
      );
    } else expect(c!.verdict).toMatch(/^large: protobuf is both the fastest and the smallest/);
    const csv = readFileSync(path.join(out, "link-sweep.csv"), "utf8").trim().split("\n");
    expect(csv[0]).toBe(
      "payload,link_kbps,codec,role,msgs_per_s,wire_bytes,predicted_crossover_kbps,measured_crossover_kbps",
    );
    expect(csv.length).toBe(1 + 2 + 2 * c!.rungs.length);
  });

  it("--link-sweep refuses --link, another client or another mode in one line, exit 2", () => {
    for (const [args, message] of [
      [["--link", "4g"], /^bench: --link-sweep chooses its own links/],
      [["--client", "node"], /^bench: --link-sweep runs Bun's client \(got --client node\)/],
      [["--modes", "roundtrip"], /^bench: --link-sweep runs stream mode; leave --modes out/],
    ] as const) {
      const r = bench("--link-sweep", ...args);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(message);
      expect(r.stderr.trim().split("\n")).toHaveLength(1);
    }
  });
});
