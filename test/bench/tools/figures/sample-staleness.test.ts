/** What made each committed sample, said by figures --check: its commit, whether its code changed since, and a failure for an older format. */
import { spawnSync } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  madeLine,
  type SampleState,
  sampleStates,
  stalenessLines,
} from "../../../../bench/tools/figures/sample-staleness.ts";
import { SAMPLES } from "../../../../bench/tools/sample-list.ts";

const ROOT = path.resolve(import.meta.dirname, "../../../..");
const C = "0123456789abcdef0123456789abcdef01234567";

describe("what made each sample", () => {
  it("says the commit and date, and whether the measured code changed since, by file", () => {
    const states: SampleState[] = [
      { file: "a.json.gz", commit: C, date: "2026-11-27", changed: [] },
      {
        file: "b.json.gz",
        commit: C,
        date: "2026-11-27",
        changed: ["client/x.ts", "protocols/y.ts", "server/z.ts", "c.ts", "d.ts"],
      },
      { file: "c.json.gz", commit: "", date: "", changed: undefined },
      {
        file: "d.json.gz",
        commit: C,
        written: true,
        date: "2026-11-23",
        history: { why: "a pair" },
        changed: [],
      },
    ];
    const { lines, failed } = stalenessLines(states);
    expect(failed).toBe(false);
    expect(lines).toEqual([
      "  a.json.gz: made at 0123456789 (2026-11-27); the code it measures is unchanged since",
      "  b.json.gz: made at 0123456789 (2026-11-27); warning: the code it measures changed since (client/x.ts, protocols/y.ts, server/z.ts and 2 more)",
      "  c.json.gz: commit unknown; whether its code changed since cannot be told here",
      "  d.json.gz: written at 0123456789 (2026-11-23); kept as history; the code it measures is unchanged since",
    ]);
  });

  it("fails a listed sample whose format the reader refuses, saying why", () => {
    const why = "a results JSON of format 2, older than this reader's (4); remake it";
    const { lines, failed } = stalenessLines([
      { file: "a.json.gz", commit: C, date: "2026-11-23", oldFormat: why, changed: [] },
    ]);
    expect(failed).toBe(true);
    expect(lines[0]).toContain(`FAILED: ${why}`);
  });

  it("docs/results.md's opening line names the commit and the dates of the listed samples", () => {
    const a = { file: "a.json.gz", commit: C, date: "2026-11-27", changed: [] };
    expect(madeLine([a, { ...a, date: "2026-11-28" }])).toMatch(
      /^The samples below were made by commit `0123456789`, 2026-11-27 to 2026-11-28, with `bun run samples`;/,
    );
    // Two commits: one version of the measured code only when neither has seen it change since.
    const b = { ...a, commit: "fedcba9876543210fedcba9876543210fedcba98" };
    expect(madeLine([a, b])).toContain(
      "made by 2 commits (`0123456789`, `fedcba9876`, whose measured code is the same), 2026-11-27,",
    );
    expect(madeLine([a, { ...b, changed: ["client/x.ts"] }])).toContain(
      "made by 2 commits (`0123456789`, `fedcba9876`), 2026-11-27,",
    );
  });

  it("every listed sample in results/sample/ is in the current format and names a commit of this history", () => {
    const states = sampleStates();
    const listed = states.filter((s) => !s.history);
    expect(listed.length).toBe(SAMPLES.flatMap((s) => Object.keys(s.files)).filter((f) => !f.endsWith(".md")).length);
    // Every results file names its commit; only the text outputs (the cross-check's, the cold check's) are dated by git.
    expect(
      listed
        .filter((s) => s.written)
        .map((s) => s.file)
        .sort(),
    ).toEqual(["cold-check-bun-cold.txt", "crosscheck-bun-default-1.txt"]);
    for (const s of listed) {
      expect(s.oldFormat, s.file).toBeUndefined();
      expect(s.commit, s.file).toMatch(/^[0-9a-f]{40}$/);
      const known = spawnSync("git", ["cat-file", "-e", `${s.commit}^{commit}`], { cwd: ROOT });
      expect(known.status, `${s.file}: ${s.commit}`).toBe(0);
    }
  });
});
