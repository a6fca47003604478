/** Cold mode: its processes' order, a case's row from them, and real fresh Bun processes measuring codecs. */

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { codecLoader } from "../../../client/harness/codec-loaders.ts";
import { coldCase, coldRuns, ColdMode, type ColdOutcome } from "../../../client/harness/cold-mode.ts";
import type { ColdMeasurement } from "../../../client/harness/cold-start.ts";
import { withRatios } from "../../../client/harness/ratios.ts";
import type { CaseResult } from "../../../client/harness/results.ts";
import { coldStartProcesses } from "../../../bench/cli/processes/cold-start-processes.ts";
import { BUILT_IN } from "../../../protocols/registry.ts";
import { CALIBRATION_CODEC_NAMES } from "../../../protocols/calibration.ts";
import { testSettings } from "../../helpers/settings.ts";

const ROOT = path.resolve(import.meta.dirname, "../../..");
const dir = mkdtempSync(path.join(tmpdir(), "cold-mode-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("coldRuns", () => {
  const settings = testSettings({
    codecs: ["raw", "json", "msgpackr", "cal-spin", "custom-binary"],
    payloads: ["small", "large"],
    runs: { cold: 3 },
    excluded: [{ codec: "msgpackr", payload: "large", why: "left out" }],
  });

  it("runs every case once per repeat, repeat after repeat, without raw, the calibration codecs or excluded pairs", () => {
    const runs = coldRuns(settings);
    const cases = ["small json", "small msgpackr", "small custom-binary", "large json", "large custom-binary"];
    expect(runs).toHaveLength(cases.length * 3);
    for (let repeat = 0; repeat < 3; repeat++) {
      const of = runs.slice(repeat * cases.length, (repeat + 1) * cases.length);
      expect(of.every((r) => r.repeat === repeat)).toBe(true);
      expect(of.map((r) => `${r.payload} ${r.codec}`).sort()).toEqual([...cases].sort());
      expect(of.map((r) => r.position)).toEqual([0, 1, 2, 3, 4]);
    }
  });

  it("shuffles each repeat by the run's seed: the same seed, the same order", () => {
    const order = (seed: number): string =>
      coldRuns({ ...settings, seed, runs: { ...settings.runs, cold: 8 } })
        .map((r) => `${r.payload} ${r.codec}`)
        .join();
    expect(order(1)).toBe(order(1));
    expect(order(1)).not.toBe(order(2));
    const repeats = coldRuns({ ...settings, runs: { ...settings.runs, cold: 8 } });
    const firsts = new Set(repeats.filter((r) => r.position === 0).map((r) => `${r.payload} ${r.codec}`));
    expect(firsts.size).toBeGreaterThan(1);
  });
});

describe("coldCase", () => {
  const settings = testSettings({ iterations: { cold: 1000 }, runs: { cold: 3 } });
  const measured = (firstNs: number, totalNs: number): ColdMeasurement => ({
    slice: {
      importNs: 2e6,
      setupNs: 1e5,
      firstNs,
      first10Ns: firstNs / 4,
      first100Ns: totalNs * 3,
      first1000Ns: totalNs,
    },
    serializeNs: totalNs / 2,
    deserializeNs: totalNs / 2,
    totalNs,
    bytes: 40,
    bytesMin: 30,
    bytesMax: 50,
    clockResolutionNs: 1,
  });
  const info = { standard: true, frame: "binary" as const, library: "" };
  const run = (codec: string, repeat: number) => ({ codec, payload: "small", repeat, position: 0 });

  it("gives each figure over the processes, one value per process, and its ratios to json repeat by repeat", () => {
    const outcomes: ColdOutcome[] = [0, 1, 2].flatMap((r) => [
      { run: run("json", r), measured: measured(10_000 * (1 + r / 10), 1_000) },
      { run: run("msgpackr", r), measured: measured(40_000 * (1 + r / 10), 3_000) },
    ]);
    const cases = ["json", "msgpackr"].map((codec) => coldCase(codec, "small", outcomes, settings, info));
    const [, msgpackr] = withRatios(cases).cases as [CaseResult, CaseResult];
    expect(msgpackr.mode).toBe("cold");
    expect(msgpackr.verified).toBe(true);
    expect(msgpackr.rounds).toBe(3);
    expect(msgpackr.warmup).toBe(0);
    expect(msgpackr.cold!.first.median).toBeCloseTo(44_000);
    expect(msgpackr.cold!.first.n).toBe(3);
    expect(msgpackr.cold!.first1000!.median).toBe(3_000);
    expect(msgpackr.raw.map((r) => r.process)).toEqual([0, 1, 2]);
    // Every repeat is 4x json's on the first message: the geometric mean is 4, its interval nothing wider.
    const first = msgpackr.ratios!.coldFirstVsJson!;
    expect(first.value).toBeCloseTo(4);
    expect(first.processes).toBe(3);
    expect(first.low).toBeCloseTo(4);
    expect(msgpackr.ratios!.coldFirst1000VsJson!.value).toBeCloseTo(3);
  });

  it("fails the case with the first process's error, keeping what the others measured", () => {
    const outcomes: ColdOutcome[] = [
      { run: run("msgpackr", 0), measured: measured(40_000, 3_000) },
      { run: run("msgpackr", 1), error: "message 7 did not come back exactly: field 'num' is 2, expected 1" },
    ];
    const c = coldCase("msgpackr", "small", outcomes, settings, info);
    expect(c.verified).toBe(false);
    expect(c.error).toMatch(/^message 7 did not come back exactly/);
    expect(c.raw).toHaveLength(1);
  });
});

describe("codecLoader", () => {
  it("loads every built-in codec but the calibration codecs on its own, under its own name", async () => {
    for (const codec of BUILT_IN.codecs) {
      if (CALIBRATION_CODEC_NAMES.includes(codec.name)) continue;
      const loader = codecLoader(codec.name);
      expect(loader, codec.name).toBeDefined();
      expect((await loader!())().name).toBe(codec.name);
    }
    expect(codecLoader("no-such-codec")).toBeUndefined();
  });

  it("makes the schema codecs for a user's payload from its layout", async () => {
    const layout = { layout: { kind: "object", fields: [] } } as never;
    const make = await codecLoader("custom-binary")!({ payload: "orders", layout });
    expect(make().notApplicable?.("orders")).toBeUndefined();
  });
});

/** The modules a file reaches by its static imports (type-only ones are not imported at run time), as the runtime follows them. */
function reachable(entry: string): Set<string> {
  const transpiler = new Bun.Transpiler({ loader: "ts" });
  const seen = new Set<string>();
  const visit = (file: string): void => {
    if (seen.has(file)) return;
    seen.add(file);
    if (!file.startsWith(ROOT) || file.includes("node_modules")) return;
    for (const i of transpiler.scanImports(readFileSync(file, "utf8"))) {
      if (i.kind !== "import-statement") continue;
      visit(Bun.resolveSync(i.path, path.dirname(file)));
    }
  };
  visit(entry);
  return seen;
}

describe("the cold-start process and page", () => {
  it.each(["bench/cli/processes/cold-start-child.ts", "bench/page/cold-page.ts"])(
    "%s reaches no codec's module and no codec library before the one it times",
    (entry) => {
      const files = [...reachable(path.join(ROOT, entry))].map((f) => path.relative(ROOT, f));
      // The interface and the messages (their types and examples) are no codec; every other file in protocols/ is one, or its schemas.
      const messages = ["protocols/codec.ts", "protocols/messages.ts", "protocols/message-sets.ts"];
      const codecs = files.filter((f) => f.startsWith("protocols/") && !messages.includes(f));
      expect(codecs).toEqual([]);
      expect(files.filter((f) => f.includes("node_modules"))).toEqual([]);
      expect(files).toContain("client/harness/cold-start.ts");
    },
  );
});

describe("ColdMode in fresh Bun processes", () => {
  it("measures each codec's import, set-up and first messages, each process once, and pairs them with json's", async () => {
    const settings = testSettings({
      codecs: ["json", "msgpackr"],
      payloads: ["small"],
      modes: ["cold"],
      iterations: { cold: 200 },
      runs: { cold: 2 },
    });
    const done: CaseResult[] = [];
    const progress: number[] = [];
    const mode = new ColdMode(
      settings,
      BUILT_IN.pick(settings.codecs),
      {
        onCaseDone: (c) => done.push(c),
        onProgress: (e) => progress.push(e.done),
      },
      performance.now.bind(performance),
    );
    const { cases, order } = await mode.run(coldStartProcesses());
    expect(progress).toEqual([1, 2, 3, 4]);
    expect(done.map((c) => c.codec).sort()).toEqual(["json", "msgpackr"]);
    expect(order).toHaveLength(1);
    expect(order[0]!.map((r) => [...r].sort())).toEqual([
      ["json", "msgpackr"],
      ["json", "msgpackr"],
    ]);
    const [json, msgpackr] = withRatios(cases).cases as [CaseResult, CaseResult];
    for (const c of [json, msgpackr]) {
      expect(c.verified, c.error).toBe(true);
      expect(c.runs).toBe(2);
      expect(c.iterations).toBe(200);
      expect(c.cold!.import.median).toBeGreaterThan(0);
      expect(c.cold!.first.median).toBeGreaterThan(0);
      expect(c.cold!.first100!.n).toBe(2);
      // 200 messages: no first 1,000.
      expect(c.cold!.first1000).toBeUndefined();
    }
    expect(json.bytes).toBeGreaterThan(msgpackr.bytes);
    expect(msgpackr.ratios!.coldFirstVsJson!.processes).toBe(2);
  }, 60_000);

  it("fails a codec whose messages do not come back, and carries on with the others", async () => {
    const file = path.join(dir, "drops-num.ts");
    writeFileSync(
      file,
      `export default {
  name: "drops-num", description: "JSON that loses num", frame: "text", standard: false, library: "",
  forPayload: () => ({
    encode: (m) => JSON.stringify({ ...m, num: 0 }),
    decode: (d) => JSON.parse(d),
  }),
};
`,
    );
    const settings = testSettings({
      codecs: ["json", "drops-num"],
      payloads: ["small"],
      modes: ["cold"],
      iterations: { cold: 20 },
      runs: { cold: 2 },
      codecModules: [{ file, name: "drops-num" }],
    });
    const codecs = [...BUILT_IN.pick(["json"])];
    const { cases } = await new ColdMode(settings, codecs, {}, performance.now.bind(performance)).run(
      coldStartProcesses(),
    );
    const json = cases.find((c) => c.codec === "json")!;
    const drops = cases.find((c) => c.codec === "drops-num")!;
    expect(json.verified).toBe(true);
    expect(json.runs).toBe(2);
    expect(drops.verified).toBe(false);
    expect(drops.error).toMatch(/cold-start process of drops-num on small failed: message 1 did not come back exactly/);
    // Its second process is not run: the case failed already.
    expect(drops.runs).toBe(0);
  }, 60_000);
});
