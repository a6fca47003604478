/** The page's settings in its URL: what `bench --client chromium` writes, the page reads back. */
import { BUILT_IN } from "../../../protocols/registry.ts";
import { describe, expect, it } from "vitest";
import { defaultSettings, type Settings } from "../../../client/harness/settings.ts";
import {
  forksFromQuery,
  PAGE_FORKS,
  PAGE_MODES,
  settingsFromQuery,
  settingsToQuery,
} from "../../../client/page/query.ts";
import { benchCodecNames, socketCodecNames } from "../../../protocols/contract.ts";

const base = (): Settings => defaultSettings("browser", socketCodecNames(BUILT_IN));
const read = (query: string): Settings => settingsFromQuery(new URLSearchParams(query), base(), BUILT_IN);

describe("settingsToQuery then settingsFromQuery", () => {
  it("round-trips every field the page uses", () => {
    const wanted: Settings = {
      ...base(),
      modes: ["roundtrip", "codec", "latency", "route"],
      codecs: ["protobuf", "raw", "json"],
      payloads: ["large", "small"],
      // The page does not run fanout: it stays as the base has it.
      // Nor cold mode (the CLI's, in fresh Bun processes).
      iterations: {
        codec: 12_345,
        roundtrip: 321,
        stream: 4_567,
        fanout: 0,
        latency: 777,
        route: 2_468,
        cold: 1_000,
        evolve: 100,
      },
      warmup: { codec: 11, roundtrip: 22, stream: 33, fanout: 0, latency: 44, route: 55, cold: 0, evolve: 0 },
      members: 5,
      validate: true,
      rates: [500, 1500],
      // The page does not run fanout: its runs stay as the base has them.
      runs: {
        codec: 2,
        roundtrip: 5,
        stream: 5,
        fanout: defaultSettings("browser", []).runs.fanout,
        latency: 5,
        route: 5,
        cold: defaultSettings("browser", []).runs.cold,
        evolve: defaultSettings("browser", []).runs.evolve,
      },
      seed: 4_000_000_000,
      window: 17,
      stallTimeoutMs: 45_000,
      fixed: true,
    };
    const q = new URLSearchParams();
    settingsToQuery(wanted, q);
    // Through a real URL's text, as the CLI hands it to the browser.
    const back = settingsFromQuery(new URL(`http://127.0.0.1/?${q}`).searchParams, base(), BUILT_IN);
    expect(back).toEqual(wanted);
  });

  it("round-trips fixed off and every codec", () => {
    const wanted: Settings = { ...base(), fixed: false, seed: 0 };
    const q = new URLSearchParams();
    settingsToQuery(wanted, q);
    expect(q.has("fixed")).toBe(false);
    expect(settingsFromQuery(q, { ...base(), seed: 9 }, BUILT_IN)).toEqual(wanted);
  });

  it("round-trips a latency sweep, and keeps the default rate for a rate that is not one", () => {
    const q = new URLSearchParams();
    settingsToQuery({ ...base(), ...{ rates: [1, 2], sweep: true } }, q);
    expect(q.get("rate")).toBe("sweep");
    const back = settingsFromQuery(q, base(), BUILT_IN);
    expect(back.sweep).toBe(true);
    expect(back.rates[0]).toBe(1000);
    expect(read("rate=0").rates).toEqual(base().rates);
    expect(read("rate=fast").rates).toEqual(base().rates);
    expect(read("rate=3000,1000").rates).toEqual([1000, 3000]);
  });

  it("writes per-mode parameters for the page's modes only, and the stall timeout in seconds", () => {
    const q = new URLSearchParams();
    settingsToQuery({ ...base(), stallTimeoutMs: 7000 }, q);
    for (const m of PAGE_MODES) expect(q.has(`iterations-${m}`), m).toBe(true);
    expect(q.has("iterations-fanout")).toBe(false);
    expect(q.get("stall-timeout")).toBe("7");
  });
});

describe("settingsFromQuery: what the page cannot use", () => {
  it("leaves every default with no parameters", () => {
    expect(read("")).toEqual(base());
  });

  it("keeps the default for a negative, fractional or non-numeric number", () => {
    const d = base();
    const s = read("runs=-5&seed=1.5&window=abc&stall-timeout=-1&iterations-stream=-100&warmup=1e3");
    expect(s.runs).toEqual(d.runs);
    expect(s.seed).toBe(d.seed);
    expect(s.window).toBe(d.window);
    expect(s.stallTimeoutMs).toBe(d.stallTimeoutMs);
    expect(s.iterations).toEqual(d.iterations);
    expect(s.warmup).toEqual(d.warmup);
  });

  it("drops an unknown codec or payload and keeps the known ones", () => {
    const s = read("codecs=json,yaml,raw&payloads=huge,medium");
    expect(s.codecs).toEqual(["json", "raw"]);
    expect(s.payloads).toEqual(["medium"]);
  });

  it("drops fanout from the modes (a page opens no subscribers)", () => {
    expect(read("modes=stream,fanout,codec").modes).toEqual(["stream", "codec"]);
    expect(read("modes=all").modes).toEqual([...PAGE_MODES]);
    // Defaults that include fanout lose it too.
    const withFanout = { ...base(), modes: ["codec", "fanout", "stream"] as Settings["modes"] };
    expect(settingsFromQuery(new URLSearchParams(), withFanout, BUILT_IN).modes).toEqual(["codec", "stream"]);
  });

  it("expands all for codecs and payloads", () => {
    const s = read("codecs=all&payloads=all");
    expect(s.codecs).toEqual(benchCodecNames(BUILT_IN));
    // Families and default, as --codecs takes them.
    expect(read("codecs=zero-copy,json").codecs).toEqual(["flatbuffers", "capnp", "json"]);
    expect(read("codecs=default").codecs).toEqual([...BUILT_IN.defaults, "raw"]);
    expect(s.payloads).toEqual(["small", "medium", "large", "chat", "game-tick", "market"]);
  });

  it("reads fixed as 1 or true only", () => {
    expect(read("fixed=1").fixed).toBe(true);
    expect(read("fixed=true").fixed).toBe(true);
    expect(read("fixed=yes").fixed).toBe(false);
  });
});

describe("settingsFromQuery: every mode and one mode", () => {
  it("iterations=N sets every page mode, leaving fanout alone", () => {
    const s = read("iterations=250");
    for (const m of PAGE_MODES) expect(s.iterations[m], m).toBe(250);
    expect(s.iterations.fanout).toBe(base().iterations.fanout);
  });

  it("iterations-codec=M wins over iterations=N for codec mode", () => {
    const s = read("iterations-codec=9000&iterations=250");
    expect(s.iterations).toMatchObject({ codec: 9000, roundtrip: 250, stream: 250 });
  });

  it("warmup works the same way", () => {
    const s = read("warmup=3&warmup-stream=40");
    expect(s.warmup).toMatchObject({ codec: 3, roundtrip: 3, stream: 40 });
  });

  it("does not change the base settings it was given", () => {
    const b = base();
    const snapshot = structuredClone(b);
    settingsFromQuery(new URLSearchParams("iterations=5&modes=codec&codecs=json&payloads=small"), b, BUILT_IN);
    expect(b).toEqual(snapshot);
  });
});

describe("settingsFromQuery: values that would stall or empty a run", () => {
  const base = defaultSettings("browser", socketCodecNames(BUILT_IN));
  const from = (query: string): Settings => settingsFromQuery(new URLSearchParams(query), base, BUILT_IN);

  it("keeps the default for a zero count, a zero window and a zero stall timeout; warm-up may be 0", () => {
    const s = from("runs=0&iterations=0&window=0&stall-timeout=0&warmup=0");
    expect([s.runs, s.iterations.stream, s.window, s.stallTimeoutMs]).toEqual([
      base.runs,
      base.iterations.stream,
      base.window,
      base.stallTimeoutMs,
    ]);
    expect(s.warmup.codec).toBe(0);
  });

  it("keeps the default list when nothing in it can be used", () => {
    expect(from("modes=fanout").modes).toEqual(base.modes);
    expect(from("codecs=nope").codecs).toEqual(base.codecs);
  });

  it("keeps the base's fixed when the URL does not say", () => {
    expect(settingsFromQuery(new URLSearchParams(""), { ...base, fixed: true }, BUILT_IN).fixed).toBe(true);
    expect(settingsFromQuery(new URLSearchParams("fixed=0"), { ...base, fixed: true }, BUILT_IN).fixed).toBe(false);
  });
});

describe("forksFromQuery", () => {
  it("reads codec mode's workers from `forks`, 1 to 64, and falls back to the page's default for anything else", () => {
    const forks = (query: string): number => forksFromQuery(new URLSearchParams(query));
    expect(forks("")).toBe(PAGE_FORKS);
    expect(forks("forks=1")).toBe(1);
    expect(forks("forks=64")).toBe(64);
    for (const bad of ["0", "65", "-2", "2.5", "three", ""]) expect(forks(`forks=${bad}`), bad).toBe(PAGE_FORKS);
  });
});
