/** Evolve mode's table and verdict line, and `bun run bench --modes evolve` as a user runs it, in Bun and in the page. */

import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { evolveSection, evolveVerdictLines } from "../../../bench/report/evolve-table.ts";
import type { EvolveRow } from "../../../client/harness/results.ts";
import { skipBrowserTests } from "../../helpers/browsers.ts";
import { skipWithoutCompiler } from "../../helpers/compilers.ts";
import { runBenchCli } from "../../helpers/bench-cli.ts";
import { parseCsv } from "../../helpers/csv.ts";

const row = (
  codec: string,
  change: EvolveRow["change"],
  direction: EvolveRow["direction"],
  outcome: EvolveRow["outcome"],
  detail = "",
): EvolveRow => ({
  codec,
  payload: "market",
  change,
  direction,
  outcome,
  detail,
  messages: 100,
});

const rows: EvolveRow[] = [
  row("json", "field-added", "old-reader", "exact"),
  row("json", "field-added", "new-reader", "missing-defaulted"),
  row("protobuf", "field-added", "old-reader", "extra-ignored"),
  row("protobuf", "number-widened", "new-reader", "silently-wrong", "'seq': wrote 5, read 0"),
  row("custom-binary", "field-added", "old-reader", "error", "custom-binary: truncated"),
  row("flatbuffers", "field-added", "old-reader", "not-run", "flatc is not installed"),
];

describe("the evolve section", () => {
  it("prints a block per payload, an old and a new reader per change, then every row read silently wrong", () => {
    const lines = evolveSection(rows);
    expect(lines[1]).toMatch(/^== evolve mode/);
    const at = lines.indexOf("market");
    expect(lines[at + 1]).toMatch(/^codec +added +removed +renamed +widened +enum\+1 +optional$/);
    expect(lines.find((l) => l.startsWith("json "))).toMatch(/^json +exact +dflt/);
    expect(lines.find((l) => l.startsWith("protobuf "))).toMatch(/^protobuf +drop /);
    expect(lines.find((l) => l.startsWith("custom-binary "))).toMatch(/ERROR/);
    expect(lines.find((l) => l.startsWith("flatbuffers "))).toMatch(/^flatbuffers +- /);
    expect(lines.join("\n")).toContain("market protobuf, number-widened, new-reader: 'seq': wrote 5, read 0");
    for (const l of lines) expect([...l].length).toBeLessThanOrEqual(100);
  });

  it("lists the rows whose untouched fields read as the writer's own version reads them, by payload and codec", () => {
    const note = (f: string) => `'${f}' read as 0, as the writer's own version reads it`;
    const lines = evolveSection([
      row(
        "pbf",
        "field-added",
        "old-reader",
        "extra-ignored",
        `'addedNote' dropped; ${note("replyTo")}; ${note("editedAt")}`,
      ),
      row("pbf", "field-renamed", "old-reader", "exact", note("replyTo")),
    ]);
    const at = lines.indexOf(
      "Read as the writer's own version reads them (a field left out, read as its default), not as written:",
    );
    expect(lines[at + 1]).toBe("  market pbf: 'replyTo', 'editedAt', in 2 rows");
  });

  it("says nothing for a run without evolve mode", () => {
    expect(evolveSection(undefined)).toEqual([]);
    expect(evolveVerdictLines([])).toEqual([]);
  });

  it("the verdict names the codecs with no error and no wrong value, then the wrong ones and the refused, and where", () => {
    expect(evolveVerdictLines(rows).join(" ").replace(/\s+/g, " ")).toBe(
      "Schema change (evolve): read every change both ways, no error and no wrong value: json; a value read wrong without an error: protobuf (number-widened); refused: custom-binary (field-added)",
    );
  });
});

const out = mkdtempSync(path.join(tmpdir(), "evolve-cli-"));
afterAll(() => rmSync(out, { recursive: true, force: true }));

/** The CSV's evolve rows of a run written to `dir`, as `codec change direction outcome`. */
function outcomes(dir: string): string[] {
  const [header, ...body] = parseCsv(readFileSync(path.join(dir, "latest.csv"), "utf8"));
  return body
    .map((cells) => Object.fromEntries(header!.map((h, i) => [h, cells[i] ?? ""])))
    .filter((r) => r.mode === "evolve")
    .map((r) => `${r.codec} ${r.change} ${r.direction} ${r.outcome}`);
}

const ARGS = ["--modes", "evolve", "--payloads", "market", "--codecs", "json,custom-binary,protobuf,avro,flatbuffers"];

describe("bun run bench --modes evolve", () => {
  it("prints the section and the verdict line, and writes a CSV row per codec, change and direction", () => {
    const dir = path.join(out, "bun");
    const r = runBenchCli([...ARGS, "--out", dir]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^== evolve mode/m);
    expect(r.stdout).toMatch(
      /^Schema change \(evolve\): read every change both ways, no error and no wrong value: json/m,
    );
    // Nothing timed: no verdict line per payload, no timing paragraph.
    expect(r.stdout).not.toMatch(/not timed|"vs json"/);
    const got = outcomes(dir);
    expect(got).toHaveLength(5 * 6 * 2);
    expect(got).toContain("json field-added old-reader exact");
    expect(got).toContain("protobuf field-added old-reader extra-ignored");
    expect(got).toContain("avro number-widened old-reader error");
    // flatc made each version's code: an old reader skips the field it does not know (without flatc: not run, and says so).
    expect(got).toContain(
      `flatbuffers field-added old-reader ${skipWithoutCompiler("evolve-table.test.ts", "flatbuffers") ? "not-run" : "extra-ignored"}`,
    );
    const json = JSON.parse(readFileSync(path.join(dir, "latest.json"), "utf8"));
    expect(json.evolve).toHaveLength(60);
    expect(json.evolve[0]).toMatchObject({ codec: "json", payload: "market", messages: 100 });
  });

  describe.skipIf(skipBrowserTests("evolve-table.test.ts"))("in the page", () => {
    it("the page reads the same outcomes in Chromium's engine as Bun does, but for a codec a compiler makes", () => {
      const dir = path.join(out, "chromium");
      const r = runBenchCli(["--client", "chromium", ...ARGS, "--out", dir], 180_000);
      expect(r.code, r.stderr).toBe(0);
      // The page runs no compiler: flatbuffers' rows say so; every other row is Bun's.
      const page = outcomes(dir);
      const bun = outcomes(path.join(out, "bun"));
      const notFlatbuffers = (rows: string[]) => rows.filter((r) => !r.startsWith("flatbuffers ")).sort();
      expect(notFlatbuffers(page)).toEqual(notFlatbuffers(bun));
      expect(page.filter((r) => r.startsWith("flatbuffers ")).every((r) => r.endsWith(" not-run"))).toBe(true);
      expect(page.filter((r) => r.startsWith("flatbuffers "))).toHaveLength(12);
    }, 200_000);
  });
});
