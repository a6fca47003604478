/** Several clients' figures for one case: counts and times add up, the server's memory is its highest sample. */
import { describe, expect, it } from "vitest";
import { emptyFigures, type SocketCaseFigures } from "../../../client/socket/figures.ts";
import { mergeFigures } from "../../../client/socket/workers.ts";
import { newStats } from "../../../protocols/socket/stats.ts";

function client(over: Partial<SocketCaseFigures>, server: { messages: number; cpuMs: number; rssPeakBytes: number }): SocketCaseFigures {
  return { ...emptyFigures(), ...over, server: { ...newStats("c", "json", "small", 0), ...server } };
}

describe("mergeFigures", () => {
  it("adds the clients' counts, busy time and late sends; the server's CPU adds up and its memory is the highest sample", () => {
    const a = client({ sent: 100, received: 100, late: 2, busyNs: 1e6, sendingMs: 50, elapsedMs: 60, rttNs: Float64Array.of(1, 2) }, { messages: 100, cpuMs: 5, rssPeakBytes: 70e6 });
    const b = client({ sent: 100, received: 99, lost: 1, late: 3, busyNs: 3e6, sendingMs: 55, elapsedMs: 70, rttNs: Float64Array.of(3) }, { messages: 99, cpuMs: 4, rssPeakBytes: 90e6 });
    const { merged, perClient } = mergeFigures([a, b], 80);
    expect(merged).toMatchObject({ sent: 200, received: 199, lost: 1, late: 5, busyNs: 4e6, sendingMs: 55, elapsedMs: 80 });
    expect([...merged.rttNs!]).toEqual([1, 2, 3]);
    expect(merged.server).toMatchObject({ messages: 199, cpuMs: 9, rssPeakBytes: 90e6 });
    expect(perClient.map((p) => p.lost)).toEqual([0, 1]);
  });
});
