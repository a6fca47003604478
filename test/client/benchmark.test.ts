/**
 * The one orchestrator: a plan carried out by Benchmark, codec mode in this
 * process and the socket modes with Bun's client against a real server.
 * A codec the catalog gains (what its one line in the registry, or a
 * codec module, gives it) runs in every step without anything else being
 * told of it.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { calibrateClock, performanceClock } from "../../client/harness/clock.ts";
import { importCodecModule } from "../../client/harness/codec-modules.ts";
import { makePlan, type Plan } from "../../client/harness/plan.ts";
import { caseRatios, withRatios } from "../../client/harness/ratios.ts";
import type { BenchResults, Environment } from "../../client/harness/results.ts";
import { Benchmark, type FrontEnd } from "../../client/benchmark.ts";
import { runSocketModes } from "../../client/socket/modes.ts";
import { withServer } from "../helpers/server.ts";
import { testSettings } from "../helpers/settings.ts";
import { bunModeContext } from "../helpers/socket-case.ts";

const tmp = mkdtempSync(path.join(tmpdir(), "benchmark-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** A codec file as a new built-in codec's would be: JSON with its keys reversed, in a text frame. */
const THROWAWAY = `
const reverse = (v) => (Array.isArray(v) ? v.map(reverse) : v && typeof v === "object" ? Object.fromEntries(Object.entries(v).reverse().map(([k, x]) => [k, reverse(x)])) : v);
export default {
  name: "reversed-json",
  description: "JSON with every object's keys in reverse order",
  frame: "text",
  standard: false,
  library: "",
  forPayload: () => ({ encode: (m) => JSON.stringify(reverse(m)), decode: (d) => reverse(JSON.parse(d)) }),
};
`;

const ENVIRONMENT: Environment = {
  runtime: "bun",
  runtimeVersion: Bun.version,
  os: process.platform,
  arch: process.arch,
  cpu: "test",
  cores: 1,
  memoryGiB: 1,
  libraries: {},
  clock: "performance.now",
  timerResolutionNs: 1,
  timerOverheadNs: 0,
  gcBetweenCases: false,
  msgpackrNative: false,
};

function front(server: string, plan: Plan, failures: string[]): FrontEnd {
  const calibration = calibrateClock(performanceClock);
  return {
    client: "bun",
    timestamp: new Date().toISOString(),
    environment: ENVIRONMENT,
    clock: performanceClock,
    calibration,
    hooks: { libraryVersion: () => "" },
    socketModes: async (p, hooks) => ({
      result: await runSocketModes(p.settings, {
        ...bunModeContext(server, { catalog: p.catalog, calibration }),
        ...hooks,
      }),
      server,
    }),
    onFailure: (line) => failures.push(line),
  };
}

describe("a plan carried out by Benchmark", () => {
  const failures: string[] = [];
  let results: BenchResults;
  beforeAll(async () => {
    const file = path.join(tmp, "reversed-json.ts");
    writeFileSync(file, THROWAWAY);
    const codec = await importCodecModule(file);
    const settings = testSettings({
      codecs: ["json", "reversed-json"],
      payloads: ["small", "chat"],
      modes: ["codec", "roundtrip"],
      runs: 2,
      iterations: { codec: 200, roundtrip: 60 },
      warmup: { codec: 20, roundtrip: 10 },
    });
    const plan = makePlan(settings, [codec]);
    // The server learns the codec the way every process does: from its file.
    results = await withServer({ codecModules: [file] }, (server) =>
      new Benchmark(plan, front(server.url, plan, failures)).run(),
    );
  });

  it("runs a codec the catalog gained through codec mode and a socket mode, verified, beside JSON", () => {
    expect(failures).toEqual([]);
    for (const mode of ["codec", "roundtrip"]) {
      for (const payload of ["small", "chat"]) {
        const ran = results.cases.filter((c) => c.mode === mode && c.payload === payload).map((c) => c.codec);
        expect(ran.sort()).toEqual(["json", "reversed-json"]);
      }
    }
    for (const c of results.cases) {
      expect(c.error).toBe("");
      expect(c.verified).toBe(true);
      expect(c.total.mean).toBeGreaterThan(0);
    }
  });

  it("assembles the results once: the settings, the order of every mode, and not interrupted", () => {
    expect(results.settings.client).toBe("bun");
    expect(results.settings.interrupted).toBe(false);
    expect(Number.isFinite(results.settings.minBatchNs)).toBe(true);
    expect(Object.keys(results.order).sort()).toEqual(["codec", "roundtrip"]);
  });

  it("carries each case's ratios to json, worked out once from the rounds as the results are assembled", () => {
    // With the precision the benchmark asked for, its codec-mode ratios still wider than it marked.
    const again = withRatios(results.cases, results.settings.precision).cases;
    for (const [i, c] of results.cases.entries()) {
      const where = `${c.mode} ${c.payload} ${c.codec}`;
      expect(c.ratios, where).toEqual(again[i]!.ratios);
      expect(c.ratios!.vsJson, where).toEqual({
        ...caseRatios(c, results.cases).vsJson!,
        ...(c.ratios!.vsJson!.wide ? { wide: true } : {}),
      });
      expect(c.ratios!.vsJson!.rounds, where).toBeGreaterThan(0);
      expect(c.ratios!.bytesVsJson, where).toBeGreaterThan(0);
    }
    expect(results.cases.filter((c) => c.codec === "json").every((c) => c.ratios!.vsJson!.value === 1)).toBe(true);
    // The socket mode's cases are compared on the client's time and, inside the server, on the field figure too.
    expect(
      results.cases
        .filter((c) => c.mode === "roundtrip")
        .every((c) => c.ratios!.clientVsJson !== undefined && c.ratios!.fieldVsJson !== undefined),
    ).toBe(true);
  });

  it("keeps codec mode's cases when the untimed step after it fails, and says so in one line", async () => {
    const lines: string[] = [];
    const plan = makePlan(
      testSettings({
        codecs: ["json"],
        payloads: ["small"],
        modes: ["codec"],
        runs: 1,
        iterations: { codec: 100 },
        warmup: { codec: 10 },
      }),
    );
    const run = new Benchmark(plan, {
      ...front("http://127.0.0.1:9", plan, lines),
      afterCodecMode: () => Promise.reject(new Error("the compressor broke")),
    });
    const after = await run.run();
    expect(after.cases.map((c) => `${c.mode} ${c.codec} ${c.verified}`)).toEqual(["codec json true"]);
    expect(lines).toEqual(["after codec mode: the compressor broke"]);
  });

  it("hands back what it holds at any moment, with finished cases it has not yet seen added once", () => {
    const run = new Benchmark(
      makePlan(testSettings({ codecs: ["json"], payloads: ["small"], modes: ["codec"] })),
      front("http://127.0.0.1:9", makePlan(testSettings()), []),
    );
    const held = results.cases.slice(0, 2);
    const partial = run.results([...held, ...held], true);
    expect(partial.cases).toHaveLength(2);
    expect(partial.settings.interrupted).toBe(true);
    expect(partial.cases.every((c) => c.ratios !== undefined)).toBe(true);
  });
});
