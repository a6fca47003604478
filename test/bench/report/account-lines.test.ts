import { describe, expect, it } from "vitest";
import { accountLine, accountLines, peaksLine } from "../../../bench/report/account-lines.ts";
import type { TimeAccount } from "../../../client/harness/time-account.ts";

const account: TimeAccount = {
  wallMs: 28_300,
  phases: {
    timed: 17_000,
    warmup: 2_830,
    messages: 850,
    verify: 2_264,
    start: 1_132,
    collections: 100,
    compression: 1_415,
    files: 90,
    other: 2_619,
  },
  peaks: [
    { process: "bench", peakRssBytes: 150 * 1048576 },
    { process: "codec-mode process", peakRssBytes: 280 * 1048576 },
    { process: "codec-mode process", peakRssBytes: 310 * 1048576 },
    { process: "server", peakRssBytes: 95 * 1048576 },
  ],
};

describe("the benchmark's time account under the table", () => {
  it("says the wall time and each phase's share, leaving out what took under 1%", () => {
    expect(accountLine(account)).toBe(
      "Time 28.3 s, %: timed 60, warm-up 10, messages 3, verify 8, start 4, compression 5, other 9",
    );
  });

  it("fits a terminal's 100 columns", () => {
    expect(accountLine(account).length).toBeLessThanOrEqual(100);
  });

  it("names each kind of process once, with the most any of them held", () => {
    expect(peaksLine(account)).toBe("Peak memory: bench 150 MiB, codec-mode process (2) up to 310 MiB, server 95 MiB");
  });

  it("says nothing for a run without an account (a file from before them)", () => {
    expect(accountLines(undefined)).toEqual([]);
    expect(accountLines({ ...account, peaks: [] })).toEqual([accountLine(account)]);
  });
});
