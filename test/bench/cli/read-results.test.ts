/** A results file from disk, as it is or gzip-compressed: the same results. */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { gunzipSync } from "node:zlib";
import { afterAll, describe, expect, it } from "vitest";
import { readResults, resultsText } from "../../../bench/cli/read-results.ts";

const ROOT = path.resolve(import.meta.dirname, "../../..");
const tmp = mkdtempSync(path.join(tmpdir(), "read-results-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe("readResults", () => {
  it("reads a gzip-compressed JSON and the same JSON as it is alike, whatever the file is called", () => {
    const gz = path.join(ROOT, "results/sample/bun-quick.json.gz");
    const plain = path.join(tmp, "quick.results");
    writeFileSync(plain, gunzipSync(readFileSync(gz)));
    expect(resultsText(plain)).toBe(resultsText(gz));
    expect(readResults(plain).cases.length).toBeGreaterThan(10);
    expect(readResults(gz)).toEqual(readResults(plain));
  });
});
