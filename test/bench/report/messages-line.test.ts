/** The line the table and report.html open with: which messages, and the runs the settings asked for. */
import { describe, expect, it } from "vitest";
import { messagesText, runsText } from "../../../bench/report/messages-line.ts";

const runs = { codec: 1, roundtrip: 3, stream: 3, fanout: 3, latency: 3, route: 3, cold: 10, evolve: 1 };

describe("the messages and runs of a run, in words", () => {
  it("names the built-in messages by their seed, the user's by their payloads, and both where both ran", () => {
    expect(messagesText({ fixed: false, seed: 1 }, ["large", "small"])).toBe("Varied messages (seed 1)");
    expect(messagesText({ fixed: true, seed: 1 }, ["small"])).toBe("The article's exact messages");
    expect(messagesText({ fixed: false, seed: 1 }, ["strokes", "cursors"])).toBe(
      "Your own messages (strokes, cursors)",
    );
    expect(messagesText({ fixed: false, seed: 7 }, ["orders", "small", "chat"])).toBe(
      "Varied messages (seed 7) of small, chat; your own of orders",
    );
  });

  it("says the runs the settings asked for, per mode where they differ, not a case's rounds for precision", () => {
    expect(runsText({ runs, modes: ["codec", "stream"] }, ["codec", "stream"])).toBe("codec 1, stream 3 run(s)");
    expect(runsText({ runs, modes: ["codec", "stream"] }, ["stream"])).toBe("3 run(s)");
    expect(runsText({ runs, modes: ["roundtrip", "stream"] }, [])).toBe("3 run(s)");
  });
});
