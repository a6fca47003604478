import { describe, expect, it } from "vitest";
import { peakRssOfPid } from "../../../../bench/cli/processes/peak-memory.ts";

describe("another process's peak memory", () => {
  it.runIf(process.platform === "linux")(
    "reads a running process's high-water mark, at least its resident memory now",
    () => {
      const peak = peakRssOfPid(process.pid)!;
      expect(peak).toBeGreaterThanOrEqual(process.memoryUsage().rss * 0.5);
      expect(peak).toBeGreaterThan(1e6);
    },
  );

  it("has no figure for a process that is not there", () => {
    expect(peakRssOfPid(2 ** 30)).toBeUndefined();
  });
});
