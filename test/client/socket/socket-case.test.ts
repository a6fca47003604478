/** A WebSocket case's figures, run by run, as the result row every reporter reads. */
import { BUILT_IN } from "../../../protocols/registry.ts";
import { describe, expect, it } from "vitest";
import type { SliceFigures } from "../../../client/harness/results.ts";
import {
  socketCaseResult,
  type SocketCase,
  type SocketCaseSource,
  emptyFigures,
  type SocketCaseFigures,
} from "../../../client/socket/socket-case.ts";
import type { ServerConnectionStats } from "../../../protocols/contract.ts";
import { testSettings } from "../../helpers/settings.ts";

const source: SocketCaseSource = {
  catalog: BUILT_IN,
  client: "bun",
  clientLibrary: "bun WebSocket",
  libraryVersion: (lib) => (lib === "" ? "" : `${lib}@9.9.9`),
};

function serverStats(over: Partial<ServerConnectionStats>): ServerConnectionStats {
  return {
    ...{
      id: "s",
      codec: "json",
      payload: "small",
      messages: 0,
      bytesIn: 0,
      bytesOut: 0,
      decodeNs: 0,
      encodeNs: 0,
      sendNs: 0,
      timerOverheadNs: 30,
    },
    ...{
      backpressure: 0,
      dropped: 0,
      published: 0,
      publishBackpressure: 0,
      publishDropped: 0,
      unrouted: 0,
      cpuMs: 0,
      wakeups: 0,
      rssPeakBytes: 0,
      openMs: 0,
      closeCode: 1000,
      closeReason: "",
    },
    ...over,
  };
}

const figures = (over: Partial<SocketCaseFigures>): SocketCaseFigures => ({ ...emptyFigures(), ...over });

/** Run 1: all 100 back, one reordered. Run 2: 98 of 100 back, one corrupted. */
function twoRuns(): SocketCaseFigures[] {
  return [
    figures({
      sent: 100,
      received: 100,
      reordered: 1,
      elapsedMs: 50,
      bytesSent: 3300,
      bytesReceived: 3300,
      clientCpuMs: 10,
      extensions: "",
      server: serverStats({
        messages: 100,
        decodeNs: 5000,
        encodeNs: 3000,
        cpuMs: 7,
        rssPeakBytes: 80e6,
        backpressure: 2,
        publishBackpressure: 1,
      }),
    }),
    figures({
      sent: 100,
      received: 98,
      lost: 2,
      corrupted: 1,
      elapsedMs: 150,
      bytesSent: 3300,
      bytesReceived: 3234,
      clientCpuMs: 20,
      server: serverStats({
        messages: 100,
        decodeNs: 7000,
        encodeNs: 5000,
        cpuMs: 3,
        rssPeakBytes: 90e6,
        dropped: 1,
        publishDropped: 1,
      }),
    }),
  ];
}

const RUNS: SliceFigures[] = [
  { run: 0, round: 0, position: 0, serializeNs: 100, deserializeNs: 200, totalNs: 1000 },
  { run: 1, round: 1, position: 2, serializeNs: 300, deserializeNs: 400, totalNs: 2000 },
];

function socketCase(over: Partial<SocketCase> = {}): SocketCase {
  return {
    mode: "roundtrip",
    codec: "json",
    payload: "small",
    rate: 0,
    service: [],
    runs: RUNS.map((r) => ({ ...r })),
    figures: twoRuns(),
    // 200 round trips in all, pooled over the runs (each run's out of order).
    timesNs: [
      Float64Array.from({ length: 100 }, (_, i) => 200 - i),
      Float64Array.from({ length: 100 }, (_, i) => i + 1),
    ],
    perClient: [],
    warmed: true,
    ...over,
  };
}

describe("socketCaseResult: a finished case", () => {
  const settings = testSettings({ runs: 2 });
  const r = socketCaseResult(socketCase(), settings, source);
  const s = r.socket!;

  it("describes the case and who ran it", () => {
    expect(r).toMatchObject({
      client: "bun",
      clientLibrary: "bun WebSocket",
      mode: "roundtrip",
      codec: "json",
      payload: "small",
      frame: "text",
      standard: true,
    });
    expect(r.iterations).toBe(settings.iterations.roundtrip);
    expect(r.warmup).toBe(settings.warmup.roundtrip);
    expect(r.runs).toBe(2);
    expect(r.rounds).toBe(2);
    expect(r.verified).toBe(true);
    expect(r.error).toBe("");
    expect(r.flags).toEqual([]);
    expect(r.raw).toEqual(RUNS);
  });

  it("sums the counts over the runs", () => {
    expect(s).toMatchObject({ sent: 200, received: 198, lost: 2, reordered: 1, corrupted: 1, elapsedMs: 200 });
    expect(s.clientCpuMs).toBe(30);
    expect(s.serverCpuMs).toBe(10);
    // Per message: the client's 30 ms over 200 sent, the server's 10 ms over the 200 it answered; the higher memory peak of the two runs.
    expect(s.clientCpuNsPerMsg).toBe(150_000);
    expect(s.serverCpuNsPerMsg).toBe(50_000);
    expect(s.serverRssPeakBytes).toBe(90e6);
    expect(s.backpressure).toBe(3);
    expect(s.dropped).toBe(2);
  });

  it("works out sizes and rates per message", () => {
    expect(r.bytes).toBe(33);
    expect(s.replyBytes).toBe(33);
    expect(s.wireBytes).toBe(33 + 2 + 4); // short header and mask
    expect(s.mbPerS).toBeCloseTo(6600 / 1e6 / 0.2, 12);
    // From the median of the runs' time per message (1,000 and 2,000 ns), as every ratio is.
    expect(r.msgsPerS).toBeCloseTo(1e9 / 1500, 6);
  });

  it("summarizes the client's times over the runs and the server's per message", () => {
    expect(r.serialize).toMatchObject({ n: 2, mean: 200 });
    expect(r.deserialize).toMatchObject({ n: 2, mean: 300 });
    expect(r.total).toMatchObject({ n: 2, mean: 1500 });
    expect(s.serverDeserialize).toMatchObject({ n: 2, mean: 60, min: 50, max: 70 });
    expect(s.serverSerialize).toMatchObject({ n: 2, mean: 40, min: 30, max: 50 });
  });

  it("pools the round-trip samples of every run into one set of percentiles", () => {
    expect(s.rtt!.samples).toBe(200);
    expect(s.rtt!.max).toBe(200);
    expect(s.rtt!.p50).toBeCloseTo(100.5, 9);
    expect(s.rtt!.p90).toBeCloseTo(180.1, 9);
    expect(s.rtt!.p99).toBeGreaterThan(s.rtt!.p90);
  });

  it("in latency mode pools the same samples as latency from the due time, leaving round-trip time out", () => {
    const latency = socketCaseResult(
      socketCase({ mode: "latency", rate: 1000, service: socketCase().timesNs }),
      settings,
      source,
    ).socket!;
    expect(latency.rtt).toBeUndefined();
    expect(latency.latency!.samples).toBe(200);
    expect(latency.latency!.p50).toBeCloseTo(100.5, 9);
    expect(latency.serviceTime!.samples).toBe(200);
  });

  it("has one message in flight in roundtrip mode", () => {
    expect(s.window).toBe(1);
    expect(s.clients).toBe(settings.clients);
    expect(s.perClient).toBeUndefined();
  });
});

describe("socketCaseResult: failures", () => {
  it("is not verified and carries the error when the case failed", () => {
    const r = socketCaseResult(
      socketCase({ error: "run 2: 2 of 100 message(s) lost" }),
      testSettings({ runs: 3 }),
      source,
    );
    expect(r.verified).toBe(false);
    expect(r.error).toBe("run 2: 2 of 100 message(s) lost");
    expect(r.msgsPerS).toBeNaN();
    // Failed, not stopped early.
    expect(r.flags).not.toContain("partial");
    // Counts still add up, so the report can say what happened.
    expect(r.socket!.lost).toBe(2);
  });

  it("says no run finished when there are none and no error", () => {
    const r = socketCaseResult(socketCase({ runs: [], figures: [], timesNs: [] }), testSettings(), source);
    expect(r.verified).toBe(false);
    expect(r.error).toBe("no run finished");
    expect(r.runs).toBe(0);
    expect(r.bytes).toBeNaN();
    expect(r.socket!.replyBytes).toBeNaN();
    expect(r.socket!.mbPerS).toBeNaN();
    expect(r.socket!.rtt).toBeUndefined();
  });

  it("flags a case stopped early: fewer runs than the settings asked for", () => {
    expect(socketCaseResult(socketCase(), testSettings({ runs: 3 }), source).flags).toEqual(["partial"]);
    expect(socketCaseResult(socketCase(), testSettings({ runs: 2 }), source).flags).toEqual([]);
  });
});

describe("socketCaseResult: codecs and settings", () => {
  it("flags msgpackr-records as non-standard and names its library", () => {
    const r = socketCaseResult(socketCase({ codec: "msgpackr-records" }), testSettings({ runs: 2 }), source);
    expect(r.standard).toBe(false);
    expect(r.flags).toEqual(["non-standard"]);
    expect(r.library).toBe("msgpackr");
    expect(r.libraryVersion).toBe("msgpackr@9.9.9");
    expect(r.frame).toBe("binary");
  });

  it("labels raw the transport baseline, with no serialize times on either side", () => {
    const r = socketCaseResult(socketCase({ codec: "raw" }), testSettings({ runs: 2 }), source);
    expect(r.flags).toEqual(["transport-baseline"]);
    expect(r.standard).toBe(true);
    expect(r.frame).toBe("binary");
    expect(r.library).toBe("");
    expect(r.serialize.n).toBe(0);
    expect(r.serialize.mean).toBeNaN();
    expect(r.deserialize.n).toBe(0);
    // The server only echoed: its figures are not decode/encode times.
    expect(r.socket!.serverSerialize.n).toBe(0);
    expect(r.socket!.serverDeserialize.n).toBe(0);
    // The transport numbers stay.
    expect(r.total.mean).toBe(1500);
    expect(r.socket!.sent).toBe(200);
  });

  it("uses the window in stream mode, never more than the messages per run", () => {
    const stream = socketCase({ mode: "stream", timesNs: [] });
    expect(socketCaseResult(stream, testSettings({ runs: 2, window: 16 }), source).socket!.window).toBe(16);
    expect(
      socketCaseResult(stream, testSettings({ runs: 2, window: 64, iterations: { stream: 10 } }), source).socket!
        .window,
    ).toBe(10);
    expect(socketCaseResult(stream, testSettings({ runs: 2, window: 16 }), source).socket!.rtt).toBeUndefined();
  });

  it("has no wire size with deflate (compression changes it)", () => {
    const r = socketCaseResult(socketCase(), testSettings({ runs: 2, deflate: true }), source);
    expect(r.socket!.wireBytes).toBeNaN();
    expect(r.bytes).toBe(33);
  });

  it("keeps each client's figures when there were several", () => {
    const perClient = [
      [
        { sent: 50, received: 50, lost: 0, msgsPerS: 1000 },
        { sent: 50, received: 48, lost: 2, msgsPerS: 900 },
      ],
    ];
    const r = socketCaseResult(socketCase({ perClient }), testSettings({ runs: 2, clients: 2 }), source);
    expect(r.socket!.perClient).toEqual(perClient);
    expect(r.socket!.clients).toBe(2);
  });
});
