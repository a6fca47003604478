/** How a report says what code made a run. */
import { describe, expect, it } from "vitest";
import { provenanceLine } from "../../../bench/report/provenance-line.ts";

describe("provenanceLine", () => {
  it("names the commit, uncommitted changes, the bench's version and the file's format", () => {
    const commit = "0123456789abcdef0123456789abcdef01234567";
    expect(provenanceLine({ commit, dirty: false, benchVersion: "0.1.0", format: "csv 6" })).toBe(
      "made by commit 0123456789, bench 0.1.0, csv 6",
    );
    expect(provenanceLine({ commit, dirty: true, benchVersion: "0.1.0" })).toBe(
      "made by commit 0123456789 (with uncommitted changes), bench 0.1.0",
    );
    expect(provenanceLine({ commit: "", benchVersion: "0.1.0", format: "json 3" })).toBe(
      "made by an installed copy (no git checkout), bench 0.1.0, json 3",
    );
  });

  it("says when the results do not say (a page's own run)", () => {
    expect(provenanceLine({ commit: "", benchVersion: "", format: "json 4" })).toBe(
      "made by code of no known commit, json 4",
    );
    expect(provenanceLine(undefined)).toBe("made by code of no known commit");
  });
});
