/**
 * Results files read back: the JSON a run writes is the one record, read whole (every round, the
 * codec order as tables, NaN where a failed case has no figure); a CSV, or a JSON of another
 * format, is refused with a line saying what it is and what to give instead.
 */
import { readdirSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { resultsText } from "../../../bench/cli/read-results.ts";
import { toCsv } from "../../../bench/report/csv.ts";
import { ReportError } from "../../../bench/report/report-errors.ts";
import { JSON_VERSION, toJson } from "../../../bench/report/results-json.ts";
import { hasRounds, resultsFromFile } from "../../../bench/report/results-file.ts";

const ROOT = path.resolve(import.meta.dirname, "../../..");

/** A committed default run: every round of every case. */
const run = resultsFromFile(resultsText(path.join(ROOT, "results/sample/bun-default-1.json.gz")));

/** The ReportError a text is refused with. */
function refusal(text: string): ReportError {
  try {
    resultsFromFile(text);
  } catch (e) {
    if (e instanceof ReportError) return e;
    throw e;
  }
  throw new Error("read, where a refusal was expected");
}

describe("results files", () => {
  it("the JSON the bench writes keeps every round and the codec order as tables, read back whole", () => {
    const text = toJson(run);
    expect(text).toMatch(
      new RegExp(`^\\{\\n  "format": "ws-serialization-bench/${JSON_VERSION}",\\n  "provenance": \\{`),
    );
    expect(text).toMatch(/"raw": \{"columns": \["run","round","position",/);
    const again = resultsFromFile(text);
    expect(again.order).toEqual(run.order);
    expect(again.provenance?.format).toBe(`json ${JSON_VERSION}`);
    for (const [i, c] of run.cases.entries()) {
      const back = again.cases[i]!.raw;
      expect(back.length).toBe(c.raw.length);
      expect(again.cases[i]!.ratios).toEqual(c.ratios);
      // Nested figures (a round's server side) come back nested; every figure to 5 significant digits.
      for (const [k, r] of c.raw.entries()) {
        expect(Object.keys(back[k]!).sort()).toEqual(Object.keys(r).sort());
        expect(back[k]!.totalNs).toBeCloseTo(
          r.totalNs,
          Math.max(0, 4 - Math.floor(Math.log10(Math.abs(r.totalNs) || 1))),
        );
        if (r.server)
          expect(back[k]!.server!.cpuNs).toBeCloseTo(
            r.server.cpuNs,
            Math.max(0, 4 - Math.floor(Math.log10(Math.abs(r.server.cpuNs) || 1))),
          );
      }
    }
    // Every case's rounds in one table: the committed run's cases and their codec order in 2.4 MB, not 7.7.
    expect(text.length).toBeLessThan(2.6e6);
    expect(hasRounds(again)).toBe(true);
  });

  it("a case's figures come back exactly, so a report read back prints what the run printed", () => {
    // 112,315.49 msgs/s printed 112,315 in the run; kept to 7 digits it read back as 112,315.5 and printed 112,316.
    const c = run.cases[0]!;
    const exact = { ...run, cases: [{ ...c, msgsPerS: 112_315.49, total: { ...c.total, median: 1234.567891234 } }] };
    const back = resultsFromFile(toJson(exact)).cases[0]!;
    expect(back.msgsPerS).toBe(112_315.49);
    expect(back.total.median).toBe(1234.567891234);
  });

  it("a figure a failed case never got is written as null and read back as NaN", () => {
    const failed = {
      ...run,
      cases: [{ ...run.cases[0]!, verified: false, total: { ...run.cases[0]!.total, median: NaN } }],
    };
    const text = toJson(failed);
    expect(text).toContain('"median": null');
    expect(resultsFromFile(text).cases[0]!.total.median).toBeNaN();
  });

  it("refuses the CSV, an export for spreadsheets, naming the JSON to give instead", () => {
    const e = refusal(toCsv(run));
    expect(e.code).toBe("CSV_NOT_READ");
    expect(e.message).toBe(
      "a results CSV is an export for spreadsheets and is not read back; give the .json the run wrote beside it",
    );
  });

  it("refuses a JSON of another format in one line naming its version and what remakes it", () => {
    const older = toJson(run).replace(`"ws-serialization-bench/${JSON_VERSION}"`, '"ws-serialization-bench/2"');
    const e = refusal(older);
    expect(e.code).toBe("OLD_FORMAT");
    expect(e.message).toMatch(
      new RegExp(
        `^a results JSON of format 2, older than this reader's \\(${JSON_VERSION}\\); remake it with .*bun run bench`,
      ),
    );
    expect(e.message).not.toContain("\n");
  });

  it("refuses a JSON that is not results, and text that is neither", () => {
    expect(refusal('{"name": "package"}').message).toBe("not a results JSON: no cases");
    expect(refusal("hello").code).toBe("NOT_RESULTS");
  });

  it("the committed samples a clone carries stay under 5 MB", () => {
    const size = (dir: string): number =>
      readdirSync(dir, { withFileTypes: true }).reduce(
        (n, e) => n + (e.isDirectory() ? size(path.join(dir, e.name)) : statSync(path.join(dir, e.name)).size),
        0,
      );
    expect(size(path.join(ROOT, "results/sample"))).toBeLessThan(5_000_000);
  });
});
