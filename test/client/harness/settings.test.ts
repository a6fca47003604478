/** The one settings object and its defaults table; the CLI and the page read the same defaults. */
import { BUILT_IN } from "../../../protocols/registry.ts";
import { describe, expect, it } from "vitest";
import { readFlags } from "../../../bench/cli/flags.ts";
import { BENCH_OPTIONS, benchFlag, helpText } from "../../../bench/cli/option-specs.ts";
import { resolveBenchOptions } from "../../../bench/cli/resolve-options.ts";
import { DEFAULTS, defaultSettings, MODE_NAMES, parseInteger } from "../../../client/harness/settings.ts";
import { SettingError } from "../../../client/harness/harness-errors.ts";
import { ARTICLE_PAYLOADS } from "../../../protocols/messages.ts";
import { benchCodecNames, defaultCodecNames, socketCodecNames } from "../../../protocols/contract.ts";

/** The options the command line resolves `args` into. */
const parseBenchArgs = (args: string[]) => resolveBenchOptions(readFlags(args, BENCH_OPTIONS), benchFlag);

describe("parseInteger", () => {
  it("reads plain digits, and underscores between digits", () => {
    expect(parseInteger("--runs", "7", 1, 10)).toBe(7);
    expect(parseInteger("--iterations", "1_000", 1, 1_000_000)).toBe(1000);
    expect(parseInteger("--iterations", "100_000", 1, 1_000_000)).toBe(100_000);
    for (const bad of ["1_", "_1", "1__0"])
      expect(() => parseInteger("--iterations", bad, 1, 1_000_000), bad).toThrow(SettingError);
    expect(parseInteger("--seed", " 42 ", 0, 100)).toBe(42);
  });

  it("accepts both ends of the range", () => {
    expect(parseInteger("--window", "1", 1, 64)).toBe(1);
    expect(parseInteger("--window", "64", 1, 64)).toBe(64);
  });

  for (const raw of ["-5", "1.5", "abc", "", "1e3", "0x10", "_1"]) {
    it(`refuses '${raw}' with a SettingError naming the setting, the range and the value`, () => {
      let err: unknown;
      try {
        parseInteger("--runs", raw, 0, 1000);
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(SettingError);
      expect((err as Error).name).toBe("SettingError");
      expect((err as Error).message).toBe(`--runs must be an integer from 0 to 1000, got '${raw}'`);
    });
  }

  it("refuses values outside the range, and puts the unit after the range", () => {
    expect(() => parseInteger("--window", "0", 1, 64)).toThrow("--window must be an integer from 1 to 64, got '0'");
    expect(() => parseInteger("--window", "65", 1, 64)).toThrow("--window must be an integer from 1 to 64, got '65'");
    expect(() => parseInteger("--stall-timeout", "4000", 1, 3600, " seconds")).toThrow(
      "--stall-timeout must be an integer from 1 to 3600 seconds, got '4000'",
    );
  });

  it("refuses a number too large to be an exact integer", () => {
    expect(() => parseInteger("--seed", "99999999999999999999", 0, Number.MAX_VALUE)).toThrow(SettingError);
  });
});

describe("defaultSettings", () => {
  it("fills in the codecs it is given and copies the profile", () => {
    const s = defaultSettings("default", socketCodecNames(BUILT_IN));
    expect(s.codecs).toEqual([...socketCodecNames(BUILT_IN)]);
    expect(s.codecs).not.toBe(socketCodecNames(BUILT_IN));
    expect(s.payloads).toEqual([...ARTICLE_PAYLOADS]);
    expect(s.iterations).toEqual(DEFAULTS.default.iterations);
    expect(s.warmup).toEqual(DEFAULTS.default.warmup);
    expect(s.runs).toEqual(DEFAULTS.default.runs);
  });

  it("returns independent copies: changing one changes neither DEFAULTS nor another copy", () => {
    const before = JSON.stringify(DEFAULTS);
    const a = defaultSettings("quick", ["json"]);
    const b = defaultSettings("quick", ["json"]);
    a.codecs.push("raw");
    a.payloads.pop();
    a.modes.push("fanout");
    a.iterations.stream = 1;
    a.warmup.codec = 1;
    a.runs.stream = 99;
    expect(JSON.stringify(DEFAULTS)).toBe(before);
    expect(b.codecs).toEqual(["json"]);
    expect(b.payloads).toEqual([...ARTICLE_PAYLOADS]);
    expect(b.modes).toEqual(DEFAULTS.quick.modes);
    expect(b.iterations.stream).toBe(DEFAULTS.quick.iterations.stream);
    expect(b.warmup.codec).toBe(DEFAULTS.quick.warmup.codec);
    expect(b.runs).toEqual(DEFAULTS.quick.runs);
  });

  it("makes the quick profile smaller than the default one in every mode", () => {
    for (const m of MODE_NAMES) {
      // Cold mode's first 1,000 messages are its figures: the quick look runs fewer processes instead.
      if (m === "cold") expect(DEFAULTS.quick.runs.cold).toBeLessThan(DEFAULTS.default.runs.cold);
      else expect(DEFAULTS.quick.iterations[m], m).toBeLessThan(DEFAULTS.default.iterations[m]);
      expect(DEFAULTS.quick.warmup[m], m).toBeLessThanOrEqual(DEFAULTS.default.warmup[m]);
      expect(DEFAULTS.quick.runs[m], m).toBeLessThanOrEqual(DEFAULTS.default.runs[m]);
    }
    // Ask for precision, not iterations: the quick look asks for less, in less time.
    expect(DEFAULTS.quick.precision!).toBeGreaterThan(DEFAULTS.default.precision!);
    expect(DEFAULTS.quick.maxTimeMs!).toBeLessThan(DEFAULTS.default.maxTimeMs!);
  });
});

describe("the page and the CLI agree", () => {
  it("--help names the browser profile's iterations, runs and warm-up for every mode, in its table's rows", () => {
    const rows = helpText(BUILT_IN)
      .split("\n")
      .filter((l) => /^ {4}in a browser /.test(l));
    expect(rows).toHaveLength(3);
    expect(rows[0]!.trim().split(/ +/).slice(3).map(Number)).toEqual(
      MODE_NAMES.map((m) => DEFAULTS.browser.iterations[m]),
    );
    expect(rows[1]!.trim().split(/ +/).slice(3).map(Number)).toEqual(MODE_NAMES.map((m) => DEFAULTS.browser.runs[m]));
    expect(rows[2]!.trim().split(/ +/).slice(3).map(Number)).toEqual(MODE_NAMES.map((m) => DEFAULTS.browser.warmup[m]));
  });

  it("--precision and --max-time: a percentage or off, a duration in ms, s, m or h; --runs sets every mode's", async () => {
    const at = async (...args: string[]) => (await parseBenchArgs(args)).settings;
    expect((await at()).precision).toBe(DEFAULTS.default.precision);
    expect((await at("--quick")).maxTimeMs).toBe(DEFAULTS.quick.maxTimeMs);
    expect((await at("--precision", "5")).precision).toBe(5);
    expect((await at("--precision", "2.5%")).precision).toBe(2.5);
    expect((await at("--precision", "off")).precision).toBeUndefined();
    expect((await at("--max-time", "2m")).maxTimeMs).toBe(120_000);
    expect((await at("--max-time", "90s")).maxTimeMs).toBe(90_000);
    expect((await at("--max-time", "500ms")).maxTimeMs).toBe(500);
    expect((await at("--max-time", "45")).maxTimeMs).toBe(45_000);
    expect(Object.values((await at("--runs", "4")).runs)).toEqual(MODE_NAMES.map(() => 4));
  });

  it("--client chromium and firefox give exactly the page's defaults; browser names no one engine", async () => {
    for (const name of ["chromium", "firefox"])
      expect((await parseBenchArgs(["--client", name])).settings).toEqual(
        defaultSettings("browser", defaultCodecNames(BUILT_IN)),
      );
    await expect(parseBenchArgs(["--client", "browser"])).rejects.toThrow(
      "--client: unknown value 'browser'; valid values: bun, node, chromium, firefox",
    );
    expect((await parseBenchArgs(["--client", "firefox"])).client).toBe("firefox");
  });

  it("runs the calibration codecs only when asked: --calibrate adds them, with json and raw", async () => {
    expect((await parseBenchArgs([])).settings.codecs).not.toContain("cal-spin");
    expect((await parseBenchArgs(["--codecs", "all"])).settings.codecs).toEqual(benchCodecNames(BUILT_IN));
    // Groups expand in place, each codec once: a family, the defaults, and single codecs beside them.
    expect((await parseBenchArgs(["--codecs", "zero-copy,json,capnp"])).settings.codecs).toEqual([
      "flatbuffers",
      "capnp",
      "json",
    ]);
    expect((await parseBenchArgs(["--codecs", "text,schemaless"])).settings.codecs).toEqual([
      "json",
      "json-bytes",
      "msgpack",
      "msgpackr",
      "msgpackr-records",
      "cbor",
      "bson",
    ]);
    expect((await parseBenchArgs(["--codecs", "default,bson"])).settings.codecs).toEqual([
      ...defaultCodecNames(BUILT_IN),
      "bson",
    ]);
    expect((await parseBenchArgs(["--codecs", "custom-binary", "--calibrate"])).settings.codecs).toEqual([
      "custom-binary",
      "json",
      "cal-json",
      "cal-spin",
      "raw",
    ]);
    expect((await parseBenchArgs(["--codecs", "cal-spin"])).settings.codecs).toEqual(["cal-spin"]);
    expect((await parseBenchArgs(["--no-pin"])).noPin).toBe(true);
    expect((await parseBenchArgs([])).noPin).toBe(false);
  });

  it("plain bench gives the default profile, and --quick the quick one", async () => {
    expect((await parseBenchArgs([])).settings).toEqual(defaultSettings("default", defaultCodecNames(BUILT_IN)));
    expect((await parseBenchArgs(["--quick"])).settings).toEqual(defaultSettings("quick", defaultCodecNames(BUILT_IN)));
  });
});
