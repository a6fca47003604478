/**
 * `bun run bench --link-sweep` as a user runs it: stream mode on loopback, then
 * each payload's fastest and smallest codec over links of falling bandwidth
 * through the link emulator; the crossover measured and predicted, one verdict
 * line per payload, link-sweep.json and .csv; a bad combination of flags in
 * one line with exit 2.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { findToxiproxy } from "../../../bench/cli/processes/link-emulator.ts";
import { runBenchCli, type BenchCli } from "../../helpers/bench-cli.ts";

const tmp = mkdtempSync(path.join(tmpdir(), "bench-link-sweep-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const skip = findToxiproxy() === undefined && process.env.CI !== "true";
if (skip)
  process.stderr.write(
    "\n[link-sweep.test.ts] SKIPPED: no toxiproxy-server (see docs/links.md for the go install line)\n\n",
  );

const bench = (...args: string[]): BenchCli => runBenchCli(args, 240_000);

describe.skipIf(skip)("--link-sweep", () => {
  it("--link-sweep: the fastest and the smallest codec of a payload over falling bandwidths, the crossover measured and predicted, in one verdict line and two files", () => {
    const out = path.join(tmp, "sweep");
    const r = bench(
      "--link-sweep",
      "--codecs",
      // protobuf-es's frames are json's smallest rival on the large message and its
      // codec is about three times json's work, so json streams the faster on
      // loopback by a margin no busy machine closes, and the sweep always runs.
      "json,protobuf-es",
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
    expect(r.stderr).toMatch(/link sweep: large: the emulator carries [\d.]+ [MkG]bit\/s of json's frames here/);
    const sweep = JSON.parse(readFileSync(path.join(out, "link-sweep.json"), "utf8")) as {
      crossovers: {
        payload: string;
        fast: { codec: string };
        small: { codec: string };
        steps: unknown[];
        verdict: string;
      }[];
    };
    expect(sweep.crossovers).toHaveLength(1);
    const [c] = sweep.crossovers;
    expect(c!.payload).toBe("large");
    expect(c!.fast.codec).toBe("json");
    expect(c!.small.codec).toBe("protobuf-es");
    expect(r.stdout).toContain(`  ${c!.verdict}`);
    // On a machine so busy the emulator carries less than every step of the ladder, none runs and the verdict says so.
    if (!c!.verdict.includes("the emulator carries only")) expect(c!.steps.length).toBeGreaterThan(0);
    expect(c!.verdict).toMatch(
      /^large: (below .*, protobuf-es beats json|json beats protobuf-es down to|protobuf-es beats json on every|the emulator carries only)/,
    );
    const csv = readFileSync(path.join(out, "link-sweep.csv"), "utf8").trim().split("\n");
    expect(csv[0]).toBe(
      "payload,link_kbps,codec,role,msgs_per_s,wire_bytes,predicted_crossover_kbps,measured_crossover_kbps,bench_version,commit,dirty",
    );
    expect(csv.length).toBe(1 + 2 + 2 * c!.steps.length);
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
