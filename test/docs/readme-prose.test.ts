/**
 * Keeps the README's prose figures true to the committed runs: what the first
 * look ran on, how long the default runs took, and which field ratio moved
 * most between them.
 */
import { describe, expect, it } from "vitest";
import { resultsFromFile } from "../../bench/report/results-file.ts";
import { casesOf, csvSample, flat, front, sample } from "../helpers/samples.ts";

const text = flat(front);
const seconds = (ms: number): string => String(Math.round(ms / 1000));

describe("README.md", () => {
  it("the first look's machine and modes are the committed --quick run's", () => {
    const quick = csvSample("epyc-quick.csv");
    const cores = [...new Set(quick.rows.map((r) => r("cores")))];
    const cpus = [...new Set(quick.rows.map((r) => r("cpu")))];
    expect(cores, "the quick run's core counts").toHaveLength(1);
    expect(cpus, "the quick run's processors").toHaveLength(1);
    const modes = [...new Set(quick.rows.map((r) => r("mode")))];
    expect(text).toContain(
      `(\`results/sample/epyc-quick.csv\`, on a ${cores[0]}-core ${cpus[0]}: ${modes.map((m) => `${m} mode`).join(" and ")})`,
    );
  });

  it("how long the default run takes is the three committed runs' time, and codec mode's share of the first", () => {
    const elapsed = [1, 2, 3].map((i) => resultsFromFile(sample(`epyc-default-${i}.csv`)).elapsedMs);
    const codecMs = Object.entries(resultsFromFile(sample("epyc-default-1.json")).timings ?? {})
      .filter(([stretch]) => stretch.startsWith("codec "))
      .reduce((sum, [, t]) => sum + t.ms, 0);
    expect(codecMs).toBeGreaterThan(0);
    const mean = elapsed.reduce((a, b) => a + b, 0) / elapsed.length;
    const [lo, hi] = [seconds(Math.min(...elapsed)), seconds(Math.max(...elapsed))];
    expect(text).toContain(
      `the default run takes about ${Math.round(mean / 60_000)} minutes (${lo === hi ? lo : `${lo}-${hi}`} s for the three committed runs here, codec mode's ${seconds(codecMs)} s of it;`,
    );
  });

  it("the idle server's field ratio that moved most between the default runs is on the message it names", () => {
    const runs = [1, 2, 3].map((n) => casesOf(`epyc-default-${n}.csv`));
    const idle = runs[0]!
      .filter((c) => c.mode === "roundtrip" && c.codec !== "json" && c.codec !== "raw")
      .map((c) => {
        const ratios = runs.map(
          (cases) =>
            cases.find((x) => x.mode === "roundtrip" && x.payload === c.payload && x.codec === c.codec)!.ratios!
              .fieldVsJson!.ratio,
        );
        return { payload: c.payload, spread: Math.max(...ratios) / Math.min(...ratios) };
      });
    const most = idle.reduce((a, b) => (b.spread > a.spread ? b : a));
    expect(text).toContain(
      `but up to ${most.spread.toFixed(2)}x in an idle one (roundtrip, the ${most.payload} message)`,
    );
  });
});
