/** --link's profiles and forms (client/harness/link.ts): what each means, and one clear line for each mistake. */
import { describe, expect, it } from "vitest";
import {
  isLoopback,
  iterationsOverLink,
  LINK_MIN_MESSAGES,
  LINK_MIN_SLICES,
  LINK_PROFILES,
  LINK_RUN_BUDGET_S,
  linkMsPerMessage,
  linkUse,
  linkText,
  parseLink,
  ratesOverLink,
  streamSliceOverLink,
} from "../../../client/harness/link.ts";
import { DEFAULTS, LINK_SLICE_RTTS, parseRates, SWEEP_RATES } from "../../../client/harness/settings.ts";

describe("parseLink", () => {
  it("knows each named profile, with its figures and where they come from", () => {
    for (const p of LINK_PROFILES) {
      expect(parseLink(p.name)).toEqual(p);
      if (p.name !== "loopback") {
        expect(p.source, p.name).toMatch(/\w/);
        expect(p.rttMs, p.name).toBeGreaterThan(0);
      }
    }
    expect(parseLink("4G").name).toBe("4g");
  });

  it("reads the custom form: the round trip, jitter and each way's rate", () => {
    expect(parseLink("latency=40ms,jitter=10ms,down=10mbit,up=5mbit")).toEqual({
      name: "custom",
      rttMs: 40,
      jitterMs: 10,
      downKbps: 10_000,
      upKbps: 5_000,
    });
    expect(parseLink("rtt=0.2s, down=500kbit").rttMs).toBe(200);
    expect(parseLink("down=1gbps").downKbps).toBe(1_000_000);
  });

  it("changes some of a profile's figures, and says so in its name", () => {
    const p = parseLink("4g,jitter=20ms");
    expect(p).toMatchObject({ name: "4g+", rttMs: 60, jitterMs: 20, downKbps: 8_100, upKbps: 1_350 });
    expect(p.source).toBeUndefined();
  });

  it.each([
    ["", /--link is empty; valid forms: loopback, lan/],
    ["5g", /unknown profile '5g'; valid forms: loopback, lan, wifi, 4g/],
    ["latency=40", /latency=40 takes a duration from 0ms to 10s/],
    ["down=fast", /down=fast takes a rate from 8kbit to 10gbit/],
    ["up=1kbit", /up=1kbit takes a rate from 8kbit/],
    ["loss=1%", /'loss=1%' is not one of latency=, jitter=, down=, up=/],
    ["latency=10ms,rtt=20ms", /gives latency= twice/],
    ["latency=10ms,jitter=20ms", /jitter=20ms is more than the round trip/],
    ["loopback,latency=5ms", /loopback has no figures to change/],
  ])("refuses %j in one line naming it", (raw, message) => {
    let error: Error | undefined;
    try {
      parseLink(raw, "--link");
    } catch (e) {
      error = e as Error;
    }
    expect(error?.name).toBe("SettingError");
    expect(error?.message).toMatch(message);
    expect(error?.message).not.toContain("\n");
  });

  it("loopback, and a link of nothing, are no link at all", () => {
    expect(isLoopback(parseLink("loopback"))).toBe(true);
    expect(isLoopback(parseLink("latency=0ms"))).toBe(true);
    expect(isLoopback(parseLink("lan"))).toBe(false);
    expect(linkText(parseLink("4g"))).toBe("4g: 60 ms round trip, 8.1 Mbit/s down, 1.35 Mbit/s up");
    expect(linkText(parseLink("latency=30ms,jitter=4ms"))).toBe(
      "custom: 30 ms round trip ± 4 ms, unlimited down, unlimited up",
    );
  });
});

describe("messages per run over a link", () => {
  const link = parseLink("latency=60ms,down=8mbit,up=1mbit");

  it("prices a message at the link's time: a round trip waits, a stream shares the round trip or meets the rate", () => {
    // 1,000 bytes: 8 ms up at 1 Mbit/s, 1 ms down at 8 Mbit/s.
    expect(linkMsPerMessage("roundtrip", link, 1000, 1)).toBeCloseTo(60 + 8 + 1);
    expect(linkMsPerMessage("stream", link, 1000, 64)).toBeCloseTo(8);
    expect(linkMsPerMessage("stream", link, 10, 64)).toBeCloseTo(60 / 64);
  });

  it("fits a run into the budget, never below the floor nor above the default; latency mode keeps its own", () => {
    const d = DEFAULTS.default.iterations;
    const fit = iterationsOverLink(d, link, 1000, 64);
    expect(fit.roundtrip).toBe(Math.max(LINK_MIN_MESSAGES, Math.floor((LINK_RUN_BUDGET_S * 1000) / 69)));
    // 2 s of 8 ms messages is 250; three slices of 20 round trips (150 messages each) are more.
    expect(fit.stream).toBe(Math.max(Math.floor((LINK_RUN_BUDGET_S * 1000) / 8), LINK_MIN_SLICES * 150));
    // With no round trip a stream's slices need not be long: the budget alone.
    expect(iterationsOverLink(d, parseLink("down=8mbit,up=1mbit"), 1000, 64).stream).toBe(250);
    // Small frames over a long round trip: three slices of 20 round trips' windows, more than the budget's share.
    expect(iterationsOverLink(d, link, 20, 64).stream).toBe(LINK_MIN_SLICES * LINK_SLICE_RTTS * 64);
    expect(streamSliceOverLink(link, 1000, 64)).toBe(Math.ceil((LINK_SLICE_RTTS * 60) / 8));
    expect(fit.latency).toBe(d.latency);
    expect(fit.codec).toBe(d.codec);
    const fast = iterationsOverLink(d, parseLink("down=1gbit,up=1gbit"), 30, 64);
    expect(fast.stream).toBe(d.stream);
  });

  it("a latency sweep over a link climbs from 100 messages a second; rates the user set stay", () => {
    const sweep = ratesOverLink(parseRates("--rate", "sweep"));
    expect(sweep.slice(0, 3)).toEqual([100, 200, 500]);
    expect(sweep.slice(3)).toEqual(SWEEP_RATES);
    expect(ratesOverLink(parseRates("--rate", "300,2000"))).toEqual([300, 2000]);
  });
});

describe("what a link did to a case", () => {
  const link = parseLink("latency=100ms,down=8mbit,up=1mbit");

  it("a stream that fills the way up is held by it, with the share it filled", () => {
    // 100 msgs/s of 1,000-byte frames: 800 kbit/s of the 1 Mbit/s up.
    const u = linkUse("stream", link, 100, 1000, 996, 64);
    expect(u.upShare).toBeCloseTo(0.8);
    expect(u.downShare).toBeCloseTo(0.0996);
    // The window over the round trip and the frames' 8 + 0.996 ms on the wire: 64 / 108.996 ms.
    expect(u.windowShare).toBeCloseTo(100 / (64 / 0.108996));
    expect(u.limit).toBe("up");
  });

  it("a stream that keeps its window full over the round trip is held by the window; one far from every limit by cpu", () => {
    expect(linkUse("stream", link, 600, 20, 16, 64).limit).toBe("window");
    expect(linkUse("stream", link, 100, 20, 16, 64).limit).toBe("cpu");
    // Unlimited ways and no round trip: nothing of the link can hold it.
    const none = linkUse("stream", parseLink("lan,down=1gbit"), 10, 20, 16, 64);
    expect(none.limit).toBe("cpu");
  });

  it("names nothing when the frames' size on the wire is unknown (compressed, not counted)", () => {
    const u = linkUse("stream", link, 600, Number.NaN, Number.NaN, 64);
    expect(u.limit).toBe("");
    expect(u.upShare).toBeNaN();
  });

  it("a round trip splits into the link's own round trip and its frames' time at the rates", () => {
    const u = linkUse("roundtrip", link, 9, 1000, 1000, 1);
    expect(u.fixedMs).toBe(100);
    expect(u.bytesMs).toBeCloseTo(8 + 1);
    expect(u.limit).toBe("");
  });
});
