import { describe, expect, it } from "vitest";
import { plannedRounds, roundMessages } from "../../../client/socket/rounds.ts";
import { testSettings } from "../../helpers/settings.ts";

describe("socket rounds", () => {
  it("cut a stream run into rounds of 5,000 messages and a roundtrip run into rounds of 250", () => {
    const s = testSettings({ runs: 3, iterations: { stream: 100_000, roundtrip: 2_000 } });
    expect([roundMessages("stream", s), plannedRounds("stream", s)]).toEqual([5_000, 60]);
    expect([roundMessages("roundtrip", s), plannedRounds("roundtrip", s)]).toEqual([250, 24]);
  });

  it("a run shorter than a round is one round; a fanout run is always one", () => {
    const s = testSettings({ runs: 2, iterations: { stream: 300, fanout: 10_000 } });
    expect([roundMessages("stream", s), plannedRounds("stream", s)]).toEqual([300, 2]);
    expect([roundMessages("fanout", s), plannedRounds("fanout", s)]).toEqual([10_000, 2]);
  });

  it("a last round holds what is left", () => {
    expect(plannedRounds("stream", testSettings({ runs: 1, iterations: { stream: 12_000 } }))).toBe(3);
  });
});
