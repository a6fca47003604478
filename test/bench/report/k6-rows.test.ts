import { describe, expect, it } from "vitest";
import { isK6Output, k6Results } from "../../../bench/report/k6-rows.ts";
import { sourcedCases } from "../../../bench/report/sources.ts";

const point = (
  metric: string,
  value: number,
  codec = "json",
  payload = "small",
  t = "2026-11-23T10:00:00.000Z",
): string =>
  JSON.stringify({
    metric,
    type: "Point",
    data: { time: t, value, tags: { codec, payload, k6_version: "k6 v1.8.1" } },
  });

function file(latencies: number[], sent: number, lost = 0): string {
  return [
    JSON.stringify({ type: "Metric", data: { name: "wsbench_due_ms", type: "trend" }, metric: "wsbench_due_ms" }),
    ...latencies.map((v) => point("wsbench_due_ms", v)),
    ...latencies.map((v) => point("wsbench_echo_ms", v / 2)),
    point("wsbench_sent", sent),
    point("wsbench_received", sent - lost),
    ...(lost > 0 ? [point("wsbench_lost", lost)] : []),
    ...latencies.map(() => point("checks", 1)),
    point("checks", 1, "json", "small", "2026-11-23T10:00:02.000Z"),
  ].join("\n");
}

describe("k6's JSON output as our results", () => {
  it("recognises k6's output and nothing else", () => {
    expect(isK6Output(file([1], 1))).toBe(true);
    expect(isK6Output('{"timestamp": "x", "cases": []}')).toBe(false);
    expect(isK6Output("client,mode\n")).toBe(false);
  });

  it("merges the samples of several processes into one distribution: never an average of their percentiles", () => {
    const a = file([1, 1, 1, 1, 1, 1], 6);
    const b = file([100, 100], 2);
    const { results, counts } = k6Results([a, b]);
    expect(results.cases).toHaveLength(1);
    const c = results.cases[0]!;
    // Per file, p50 would be 1 ms and 100 ms (mean 50.5); over the 8 samples it is 1 ms, p99 100 ms.
    expect(c.socket!.latency!.p50).toBe(1e6);
    expect(c.socket!.latency!.p99).toBe(100e6);
    expect(c.socket!.received).toBe(8);
    expect(sourcedCases(results)[0]!.source).toBe("k6 v1.8.1");
    expect([c.client, c.mode, c.clientLibrary]).toEqual(["k6", "latency", "k6 v1.8.1"]);
    expect(c.msgsPerS).toBe(4); // 8 echoes over the 2 s the points span
    expect(results.timestamp).toBe("2026-11-23T10:00:00.000Z");
    expect(counts[0]).toMatchObject({
      sent: 8,
      received: 8,
      lost: 0,
      checksPassed: 10,
      checksFailed: 0,
      serviceP50Ms: 0.5,
      serviceP99Ms: 50,
    });
  });

  it("sums losses and failed checks, and flags them", () => {
    const { results, counts } = k6Results([file([3], 5, 4) + "\n" + point("checks", 0)]);
    expect(counts[0]).toMatchObject({ sent: 5, received: 1, lost: 4, checksFailed: 1 });
    expect(results.cases[0]!.flags).toEqual(expect.arrayContaining(["lost", "failed-checks"]));
  });

  it("a line that is not JSON is named", () => {
    expect(() => k6Results([`${point("wsbench_sent", 1)}\nnot json`])).toThrow("line 2 is not k6's JSON output");
  });
});
