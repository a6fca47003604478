import { describe, expect, it } from "vitest";
import { ACCOUNT_PHASES, inPhase, TimeLedger, type TimeAccount } from "../../../client/harness/time-account.ts";

/** A clock that moves only when told to. */
function manualClock(): { now: () => number; advance: (ms: number) => void } {
  let t = 0;
  return { now: () => t, advance: (ms) => (t += ms) };
}

describe("where a run's time went", () => {
  it("counts each phase, and 'other' is the wall time no phase holds", () => {
    const clock = manualClock();
    const ledger = new TimeLedger(clock.now);
    ledger.time("verify", () => clock.advance(30));
    ledger.time("timed", () => clock.advance(50));
    ledger.add("warmup", 15);
    const account = ledger.account(120);
    expect(account.phases.verify).toBe(30);
    expect(account.phases.timed).toBe(50);
    expect(account.phases.warmup).toBe(15);
    expect(account.phases.other).toBe(25);
    expect(ACCOUNT_PHASES.reduce((sum, p) => sum + account.phases[p], 0)).toBe(120);
  });

  it("counts a phase whose work threw, and passes the error on", () => {
    const clock = manualClock();
    const ledger = new TimeLedger(clock.now);
    expect(() =>
      ledger.time("messages", () => {
        clock.advance(7);
        throw new Error("boom");
      }),
    ).toThrow("boom");
    expect(ledger.account(10).phases.messages).toBe(7);
  });

  it("times awaited work", async () => {
    const clock = manualClock();
    const ledger = new TimeLedger(clock.now);
    await ledger.timeAsync("start", async () => {
      await Promise.resolve();
      clock.advance(12);
    });
    expect(ledger.account(12).phases).toMatchObject({ start: 12, other: 0 });
  });

  it("counts a phase timed inside another once: to the inner phase, the outer keeping the rest", async () => {
    const clock = manualClock();
    const ledger = new TimeLedger(clock.now);
    await ledger.timeAsync("warmup", async () => {
      clock.advance(10);
      ledger.time("messages", () => clock.advance(40));
      await ledger.timeAsync("start", async () => {
        ledger.add("verify", 5);
        clock.advance(20);
      });
      ledger.add("timed", 3);
      clock.advance(3);
    });
    ledger.time("files", () => clock.advance(2));
    const account = ledger.account(100);
    expect(account.phases).toMatchObject({
      warmup: 10,
      messages: 40,
      start: 15,
      verify: 5,
      timed: 3,
      files: 2,
      other: 25,
    });
    expect(ACCOUNT_PHASES.reduce((sum, p) => sum + account.phases[p], 0)).toBe(100);
  });

  it("takes another process's phases and peaks; the wait beyond its own wall time is starting it", () => {
    const ledger = new TimeLedger(manualClock().now);
    const child: TimeAccount = {
      wallMs: 900,
      phases: {
        timed: 500,
        warmup: 100,
        messages: 50,
        verify: 150,
        start: 60,
        collections: 10,
        compression: 0,
        files: 0,
        other: 30,
      },
      peaks: [{ process: "codec-mode process", peakRssBytes: 300e6 }],
    };
    ledger.addProcess(child, 1000);
    const account = ledger.account(1100);
    // Its "other" stays in this process's rest: 30 of it, and 100 of this process's own.
    expect(account.phases).toMatchObject({ timed: 500, start: 160, other: 130 });
    expect(account.peaks).toEqual(child.peaks);
  });

  it("never gives 'other' a negative share, nor counts a non-finite time", () => {
    const ledger = new TimeLedger(manualClock().now);
    ledger.add("timed", 100);
    ledger.add("verify", Number.NaN);
    ledger.add("files", -3);
    expect(ledger.account(80).phases).toMatchObject({ timed: 100, verify: 0, files: 0, other: 0 });
  });

  it("inPhase runs the work with or without a ledger", () => {
    expect(inPhase(undefined, "timed", () => 42)).toBe(42);
    const clock = manualClock();
    const ledger = new TimeLedger(clock.now);
    expect(inPhase(ledger, "timed", () => (clock.advance(3), 7))).toBe(7);
    expect(ledger.account(3).phases.timed).toBe(3);
  });

  it("keeps a peak only where one was read", () => {
    const ledger = new TimeLedger();
    ledger.addPeak("server", undefined);
    ledger.addPeak("server", 0);
    ledger.addPeak("bench", 5e8);
    expect(ledger.account(1).peaks).toEqual([{ process: "bench", peakRssBytes: 5e8 }]);
  });
});
