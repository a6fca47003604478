/**
 * The rounds on kept connections bring back the server's side of every slice, and the field
 * figure built from it passes its calibration against a real server process: cal-spin's known
 * cost is found (within 2x: a bound a busy machine keeps and a broken method does not), json's
 * twin reads as json, and raw's timers around no work read next to nothing.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { calibrationChecks, fieldCost } from "../../../bench/harness/field.ts";
import { runSocketModes } from "../../../client/socket/modes.ts";
import { serverForFile } from "../../helpers/server.ts";
import { testSettings } from "../../helpers/settings.ts";
import { bunModeContext } from "../../helpers/socket-case.ts";

const server = serverForFile({ ownProcess: true });

describe("rounds on kept connections, calibrated", () => {
  let result: Awaited<ReturnType<typeof runSocketModes>>;
  beforeAll(async () => {
    const settings = testSettings({
      codecs: ["json", "cal-json", "cal-spin", "raw"],
      payloads: ["small"],
      modes: ["roundtrip", "stream"],
      runs: 1,
      window: 16,
      iterations: { roundtrip: 600, stream: 2000 },
      warmup: { roundtrip: 2000, stream: 2000 },
    });
    result = await runSocketModes(settings, bunModeContext(server.url));
  }, 120_000);

  it("every slice carries the server's figures, and cal-spin's rounds the loop's cost timed after them", () => {
    expect(result.cases).toHaveLength(8);
    for (const c of result.cases) {
      expect(c.verified, `${c.mode} ${c.codec}: ${c.error}`).toBe(true);
      expect(c.raw.length).toBeGreaterThan(10);
      for (const r of c.raw) {
        expect(r.server, `${c.mode} ${c.codec} round ${r.round}`).toBeDefined();
        expect(r.server!.cpuNs).toBeGreaterThan(0);
        expect(r.server!.interrupted).toBeLessThan(0.5);
        if (c.codec === "cal-spin") expect(r.knownNs).toBeGreaterThan(0);
      }
      expect(c.socket!.field!.slices).toBe(c.raw.length);
      if (c.codec !== "raw") expect(fieldCost(c, result.cases)!.corrected).toBe(true);
    }
  });

  it("finds cal-spin's known cost within 2x, reads cal-json as json within 1.5x, and raw's timers near nothing, in both loads", () => {
    const checks = calibrationChecks(result.cases);
    expect(checks.map((c) => c.mode).sort()).toEqual(["roundtrip", "stream"]);
    for (const c of checks) {
      const where = `${c.mode}: cal-spin ${c.knownByTimers?.value}, cal-json ${c.twinByTimers?.value}, raw ${c.timersOnNothing?.value} ns, known ${c.known.value} ns`;
      expect(c.knownByTimers!.value, where).toBeGreaterThan(0.5);
      expect(c.knownByTimers!.value, where).toBeLessThan(2);
      expect(c.twinByTimers!.value, where).toBeGreaterThan(1 / 1.5);
      expect(c.twinByTimers!.value, where).toBeLessThan(1.5);
      expect(Math.abs(c.timersOnNothing!.value), where).toBeLessThan(0.25 * c.known.value);
    }
  });
});
