/**
 * The socket modes against the real server (port 0): roundtrip and stream
 * in interleaved rounds on connections kept open, fanout on fresh
 * connections, a stop at a round boundary, an unreachable server.
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { Progress } from "../../../client/harness/progress.ts";
import { socketSliceSize } from "../../../client/harness/schedule.ts";
import type { Settings } from "../../../client/harness/settings.ts";
import { between, refinements, runSocketModes, type SocketModeContext } from "../../../client/socket/modes.ts";
import type { CaseResult } from "../../../client/harness/results.ts";
import { serverForFile, withServer } from "../../helpers/server.ts";
import { testSettings } from "../../helpers/settings.ts";
import { bunModeContext } from "../../helpers/socket-case.ts";

const bench = serverForFile();

const context = (over: Partial<SocketModeContext> = {}): SocketModeContext => bunModeContext(bench.url, over);

const CODECS = ["json", "custom-binary", "raw"];

function settings(over: Parameters<typeof testSettings>[0] = {}): Settings {
  return testSettings({
    codecs: CODECS,
    payloads: ["small", "medium"],
    modes: ["roundtrip", "stream"],
    runs: 2,
    window: 8,
    ...over,
    iterations: { roundtrip: 60, stream: 400, ...over.iterations },
    warmup: { roundtrip: 10, stream: 50, ...over.warmup },
  });
}

describe("roundtrip and stream with one client: interleaved rounds", () => {
  const s = settings();
  let result: Awaited<ReturnType<typeof runSocketModes>>;
  const done: string[] = [];
  beforeAll(async () => {
    result = await runSocketModes(s, context({ onCaseDone: (c) => done.push(`${c.mode}/${c.payload}/${c.codec}`) }));
  });

  it("times every case in runs x rounds slices, the same rounds for every codec of a payload", () => {
    expect(result.cases).toHaveLength(2 * 2 * CODECS.length);
    for (const c of result.cases) {
      const perRun = Math.ceil(
        s.iterations[c.mode as "roundtrip" | "stream"] /
          socketSliceSize(s.iterations[c.mode as "roundtrip"], c.mode === "roundtrip" ? 1 : s.window),
      );
      expect(c.error).toBe("");
      expect(c.verified).toBe(true);
      expect(c.runs).toBe(2);
      expect(c.rounds).toBe(2 * perRun);
      expect(c.rounds).toBeGreaterThan(2);
      expect(c.flags).not.toContain("partial");
      expect(c.raw.map((r) => r.round)).toEqual(Array.from({ length: c.rounds }, (_, i) => i));
      // Every message of every run went out and came back.
      expect(c.socket!.sent).toBe(2 * c.iterations);
      expect(c.socket!.received).toBe(2 * c.iterations);
    }
    expect(done).toHaveLength(result.cases.length);
  });

  it("sends every slice of a case on one connection: the server counts all of them on it", () => {
    for (const c of result.cases.filter((x) => x.codec !== "raw")) {
      // The server's per-message times come from one connection's figures, covering both runs.
      expect(c.socket!.serverDeserialize.n).toBe(1);
    }
    // Its CPU goes to the connections that were busy; with slices this short, turns come within a
    // millisecond and a connection may be charged for its neighbour's (cpu.ts), but none of it is lost.
    const serverCpu = result.cases.reduce((sum, c) => sum + c.socket!.serverCpuMs, 0);
    expect(serverCpu).toBeGreaterThan(0);
  });

  it("shuffles the codecs per round and records the order", () => {
    const rounds = result.order.stream![0]!;
    expect(rounds.length).toBe(result.cases.find((c) => c.mode === "stream")!.rounds);
    for (const r of rounds) expect([...r].sort()).toEqual([...CODECS].sort());
    expect(new Set(rounds.map((r) => r.join())).size).toBeGreaterThan(1);
  });
});

describe("warm-up across the modes", () => {
  const warmups = async (over: Parameters<typeof settings>[0]): Promise<Record<string, number>> => {
    const events: Progress[] = [];
    await runSocketModes(settings({ payloads: ["small"], ...over }), context({ onProgress: (e) => events.push(e) }));
    const count: Record<string, number> = {};
    for (const e of events.filter((x) => x.stage === "warmup")) count[e.mode] = (count[e.mode] ?? 0) + 1;
    return count;
  };

  it("a server that ran a codec's warm-up in roundtrip is not warmed up again for stream, when that was as long", async () => {
    expect(await warmups({ warmup: { roundtrip: 60, stream: 40 } })).toEqual({ roundtrip: CODECS.length });
  });

  it("a shorter warm-up before does not stand in for a longer one", async () => {
    expect(await warmups({ warmup: { roundtrip: 10, stream: 50 } })).toEqual({
      roundtrip: CODECS.length,
      stream: CODECS.length,
    });
  });
});

describe("stopping and failing", () => {
  it("a stop lands at a round boundary: finished rounds kept, the case flagged partial, none failed", async () => {
    const events: Progress[] = [];
    const result = await runSocketModes(
      settings({ modes: ["stream"], payloads: ["small"] }),
      context({
        onProgress: (e) => events.push(e),
        shouldStop: () => events.filter((e) => e.stage === "run").length >= 3,
      }),
    );
    expect(result.stopped).toBe(true);
    expect(result.cases).toHaveLength(CODECS.length);
    for (const c of result.cases) {
      expect(c.error).toBe("");
      expect(c.rounds).toBe(3);
      expect(c.flags).toContain("partial");
    }
  });

  it("a stop during the warm-ups ends before the first round: no case reported, none failed", async () => {
    const events: Progress[] = [];
    const result = await runSocketModes(
      settings({ modes: ["stream"], payloads: ["small"] }),
      context({ onProgress: (e) => events.push(e), shouldStop: () => events.some((e) => e.stage === "warmup") }),
    );
    expect(result.stopped).toBe(true);
    expect(events.filter((e) => e.stage === "warmup")).toHaveLength(1);
    expect(events.some((e) => e.stage === "run")).toBe(false);
    expect(result.cases).toEqual([]);
  });

  it("an unreachable server aborts at the first case with the reason", async () => {
    // A server that was there and has stopped.
    const url = await withServer({}, async (gone) => gone.url);
    const result = await runSocketModes(settings({ stallTimeoutMs: 3000 }), context({ server: url }));
    expect(result.aborted).toMatch(/^roundtrip \S+ small: (warm-up: )?cannot connect to /);
    expect(result.cases).toHaveLength(1);
    expect(result.cases[0]!.verified).toBe(false);
  });
});

describe("fanout: fresh connections per run", () => {
  it("one round per run, subscribers' figures per run", async () => {
    const s = settings({
      modes: ["fanout"],
      payloads: ["small"],
      clients: 2,
      iterations: { fanout: 50 },
      warmup: { fanout: 10 },
    });
    const result = await runSocketModes(s, context());
    const withoutRaw = result.cases.filter((c) => c.codec !== "raw");
    for (const c of withoutRaw) {
      expect(c.error).toBe("");
      expect(c.rounds).toBe(2);
      expect(c.socket!.perClient).toHaveLength(2);
    }
    expect(result.order.fanout![0]).toHaveLength(2);
  });
});

describe("a sweep's bisections", () => {
  /** A latency case at `rate`, kept or missed (its p99 within or past 10 ms). */
  const step = (codec: string, rate: number, kept: boolean): CaseResult =>
    ({
      client: "bun",
      mode: "latency",
      codec,
      payload: "small",
      verified: true,
      raw: [],
      socket: { targetRate: rate, achievedRate: rate, late: 0, sent: 1000, latency: { p99: kept ? 5e5 : 5e7 } },
    }) as unknown as CaseResult;

  it("ask for the rate between each codec's knee and its miss above, shared by codecs that meet there, with raw beside them", () => {
    const done = [
      ...[1000, 20_000].map((r) => step("json", r, true)),
      step("json", 50_000, false),
      step("json", 100_000, false),
      ...[1000, 20_000].map((r) => step("msgpack", r, true)),
      step("msgpack", 50_000, false),
      step("msgpack", 100_000, false),
      ...[1000, 50_000].map((r) => step("raw", r, true)),
      step("raw", 100_000, false),
    ];
    const plan = refinements(done, ["json", "msgpack", "raw"]);
    expect([...plan.entries()]).toEqual([
      [32_000, ["json", "msgpack", "raw"]],
      [71_000, ["raw"]],
    ]);
    // Within 1.2x: nothing more to ask.
    expect(
      refinements([step("json", 1000, true), step("json", 50_000, true), step("json", 59_000, false)], ["json"]).size,
    ).toBe(0);
  });

  it("round the rate to two significant digits, strictly between the two", () => {
    expect(between(20_000, 50_000)).toBe(32_000);
    expect(between(50_000, 60_000)).toBe(55_000);
    expect(between(1000, 1001)).toBe(1000);
    expect(between(100, 102)).toBe(101);
  });
});
