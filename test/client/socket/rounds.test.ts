/**
 * The rounds on kept connections bring back the server's side of every slice, and the field
 * figure built from it passes its calibration against a real server process: cal-spin's known
 * cost is found (within 2x: a bound a busy machine keeps and a broken method does not), json's
 * twin reads as json, and raw's timers around no work read next to nothing.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { calibrationChecks, fieldCost } from "../../../client/harness/field.ts";
import { runSocketModes } from "../../../client/socket/modes.ts";
import { warmedKey } from "../../../client/socket/mode-context.ts";
import { serverForFile } from "../../helpers/server.ts";
import { testSettings } from "../../helpers/settings.ts";
import { bunModeContext } from "../../helpers/socket-case.ts";
import type { Codec } from "../../../protocols/codec.ts";
import { BUILT_IN, type CodecCatalog } from "../../../protocols/registry.ts";

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

describe("the client's own warm-up", () => {
  /** The built-in catalog with json's encode counted, as the client calls it. */
  function countingCatalog(): { catalog: CodecCatalog; encodes: () => number } {
    let n = 0;
    const json = BUILT_IN.get("json")!;
    const counted: Codec = {
      ...json,
      forPayload: (payload) => {
        const pc = json.forPayload(payload);
        return { ...pc, encode: (m) => (n++, pc.encode(m)) };
      },
    };
    const catalog = Object.assign(Object.create(BUILT_IN) as CodecCatalog, {
      get: (name: string) => (name === "json" ? counted : BUILT_IN.get(name)),
    });
    return { catalog, encodes: () => n };
  }

  /** json's client-side encodes in one stream run of 3,000 messages after a warm-up of as many, with codec mode having made `already` calls in this process. */
  async function encodesWith(already: number | undefined): Promise<number> {
    const settings = testSettings({
      codecs: ["json"],
      payloads: ["small"],
      modes: ["stream"],
      runs: 1,
      window: 16,
      iterations: { stream: 3_000 },
      warmup: { stream: 3_000 },
    });
    const { catalog, encodes } = countingCatalog();
    const warmedInProcess = new Map(already === undefined ? [] : [[warmedKey("small", "json"), already]]);
    const result = await runSocketModes(settings, bunModeContext(server.url, { catalog, warmedInProcess }));
    expect(result.cases[0]!.verified, result.cases[0]!.error).toBe(true);
    return encodes();
  }

  it("makes only the calls codec mode, run in this process, left short of the warm-up", async () => {
    const cold = await encodesWith(undefined);
    const warm = await encodesWith(5_000);
    const half = await encodesWith(1_000);
    // The frames, the socket's warm-up and the run are the same each time; only the client's own calls differ.
    expect(cold - warm).toBe(3_000);
    expect(half - warm).toBe(2_000);
  }, 120_000);
});
