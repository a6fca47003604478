/**
 * Command-line options of `bun run bench`, resolved once, at the edge: parsed
 * with util.parseArgs, filled with documented defaults, validated with one
 * clear message per mistake. Library code never reads process.argv.
 */

import { parseArgs } from "node:util";
import {
  browserOf,
  CLIENT_ALIASES,
  CLIENT_CHOICES,
  defaultSettings,
  MODE_NAMES,
  parseInteger,
  parseRates,
  type ClientChoice,
  type LinkProfile,
  type Mode,
  type Settings,
} from "../../client/harness/settings.ts";
import { SettingError } from "../../client/harness/harness-errors.ts";
import { closestName, didYouMean } from "../../client/harness/did-you-mean.ts";
import { EQUAL_KINDS } from "../../client/harness/fidelity.ts";
import { isLoopback, iterationsOverLink, parseLink, ratesOverLink } from "../../client/harness/link.ts";
import { messagesFor } from "../../client/harness/generator.ts";
import { jsonBytesPerMessage } from "../../client/harness/schedule.ts";
import { PAYLOAD_NAMES } from "../../protocols/messages.ts";
import type { Codec } from "../../protocols/codec.ts";
import { CALIBRATION_CODEC_NAMES } from "../../protocols/calibration.ts";
import { codecGroups, defaultCodecNames, RAW_CODEC_NAME, socketCodecNames } from "../../protocols/contract.ts";
import { CSP_POLICIES, type CspPolicy } from "../../server/routes.ts";
import { parseRedisUrl } from "../../server/redis-backplane.ts";
import { catalogFor } from "../../client/harness/plan.ts";
import { readMessagesFiles, readProtoFile, type CodecModule } from "../../client/harness/user-files.ts";
import { parseK6Flags, type K6Load } from "./k6-export.ts";

export interface BenchOptions {
  /** What to measure: one settings object, as the page and every client take it. */
  settings: Settings;
  /** The codecs of the --codec-module files, in order (the plan puts them in its catalog). */
  moduleCodecs: Codec[];
  client: ClientChoice;
  /** A running server to use instead of spawning one (http(s):// or ws(s)://). */
  url: string | undefined;
  /** Where the result files go. */
  out: string;
  /** false: write no files (the programmatic API's `out: false`); the results are only returned. */
  write: boolean;
  quick: boolean;
  /** Every column of the tables, wider than a terminal (the default fits 100 columns). */
  wide: boolean;
  /** Processes codec mode's runs are spread over (1: in the bench's own process). */
  forks: number;
  /** Leave the bench and the server wherever the scheduler puts them (processes/affinity.ts). */
  noPin: boolean;
  /** The page's Content-Security-Policy on the server the bench starts (--csp, --client browser only). */
  csp: CspPolicy;
  /** Server processes sharing the port of the server the bench starts (--processes; bun run server --processes). */
  processes: number;
  /** What joins them (--backplane): "redis", a redis-server the bench starts and stops, or redis://HOST:PORT, the user's. */
  backplane?: string;
  /** --link-sweep: stream mode over links of falling bandwidth, for each payload's crossover (bench/cli/link-sweep.ts). */
  linkSweep: boolean;
  /** --export-k6 DIR: write a k6 test there and run nothing (bench/cli/k6-export.ts). */
  exportK6?: { dir: string; load: K6Load };
  help: boolean;
}

/** Where results go without --out. */
export const DEFAULT_OUT = "results";

/** Codec mode's processes without --forks (--quick: fewer): each compiles the codecs its own way, so a ratio is pooled over several. */
export const DEFAULT_FORKS = 3;
export const QUICK_FORKS = 1;

const OPTION_SPEC = {
  codecs: { type: "string" },
  payloads: { type: "string" },
  modes: { type: "string" },
  iterations: { type: "string" },
  runs: { type: "string" },
  forks: { type: "string" },
  processes: { type: "string" },
  backplane: { type: "string" },
  warmup: { type: "string" },
  precision: { type: "string" },
  "max-time": { type: "string" },
  seed: { type: "string" },
  fixed: { type: "boolean" },
  quick: { type: "boolean" },
  wide: { type: "boolean" },
  out: { type: "string" },
  client: { type: "string" },
  url: { type: "string" },
  window: { type: "string" },
  rate: { type: "string" },
  clients: { type: "string" },
  deflate: { type: "boolean" },
  validate: { type: "boolean" },
  csp: { type: "string" },
  "stall-timeout": { type: "string" },
  messages: { type: "string", multiple: true },
  proto: { type: "string" },
  "proto-type": { type: "string" },
  "codec-module": { type: "string", multiple: true },
  "export-k6": { type: "string" },
  "k6-server": { type: "string" },
  "k6-connections": { type: "string" },
  "k6-rate": { type: "string" },
  "k6-messages": { type: "string" },
  "k6-ramp": { type: "string" },
  "k6-stall": { type: "string" },
  "allow-lossy": { type: "boolean" },
  equal: { type: "string" },
  calibrate: { type: "boolean" },
  "no-pin": { type: "boolean" },
  link: { type: "string" },
  "link-sweep": { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const;

const OPTION_LIST = Object.keys(OPTION_SPEC)
  .map((k) => `--${k}`)
  .join(", ");

/**
 * A comma-separated flag's values, each checked against `valid`; `groups`
 * are names that stand for several values ("all", and for --codecs
 * "default" and the families), expanded in place.
 */
function parseList<T extends string>(
  flag: string,
  raw: string | undefined,
  valid: readonly T[],
  fallback: readonly T[],
  groups: Readonly<Record<string, readonly T[]>> = { all: valid },
): T[] {
  const groupNames = Object.keys(groups);
  const choices = `${valid.join(", ")}${groupNames.length > 0 ? ` or ${groupNames.join(", ")}` : ""}`;
  if (raw === undefined) return [...fallback];
  const names = raw
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s !== "");
  if (names.length === 0) throw new SettingError(`--${flag} is empty; valid values: ${choices}`);
  const out: T[] = [];
  for (const name of names) {
    const group = Object.hasOwn(groups, name) ? groups[name]! : undefined;
    if (group === undefined && !(valid as readonly string[]).includes(name)) {
      throw new SettingError(
        `--${flag}: unknown value '${name}'; ${didYouMean(name, [...valid, ...groupNames])}valid values: ${choices}`,
      );
    }
    for (const v of group ?? [name as T]) if (!out.includes(v)) out.push(v);
  }
  return out;
}

/**
 * --calibrate: the calibration codecs join the run, with json (what they are held against) and raw
 * (the timers' own cost), whichever codecs were asked for.
 */
function withCalibration(codecs: string[], calibrate: boolean): string[] {
  if (!calibrate) return codecs;
  return [...new Set([...codecs, "json", ...CALIBRATION_CODEC_NAMES, RAW_CODEC_NAME])];
}

/** An integer flag, or `fallback` when it was not given. */
function integerFlag(flag: string, raw: string | undefined, fallback: number, min: number, max: number): number {
  return raw === undefined ? fallback : parseInteger(`--${flag}`, raw, min, max);
}

/** --precision PCT (or off) and --max-time DURATION, over the profile's defaults. */
function precisionFlags(v: BenchFlags, base: Settings): Pick<Settings, "precision" | "maxTimeMs"> {
  const raw = v.precision?.trim();
  let precision = base.precision;
  if (raw === "off") precision = undefined;
  else if (raw !== undefined) {
    const pct = Number(raw.replace(/%$/, ""));
    if (!/^\d+(\.\d+)?%?$/.test(raw) || !(pct >= 0.1 && pct <= 100))
      throw new SettingError(`--precision takes a percentage from 0.1 to 100 (3 for ±3%) or off, got '${v.precision}'`);
    precision = pct;
  }
  const maxTimeMs = v["max-time"] === undefined ? base.maxTimeMs : parseDuration("--max-time", v["max-time"]);
  return { ...(precision !== undefined ? { precision } : {}), ...(maxTimeMs !== undefined ? { maxTimeMs } : {}) };
}

/** A duration as a flag takes it: 90s, 2m, 500ms, 1h, or plain seconds; ms. */
function parseDuration(flag: string, raw: string): number {
  const m = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h)?\s*$/.exec(raw);
  const unit = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[(m?.[2] ?? "s") as "ms" | "s" | "m" | "h"];
  const ms = m ? Number(m[1]) * unit : NaN;
  if (!(ms >= 1 && ms <= 24 * 3_600_000))
    throw new SettingError(`${flag} takes a duration from 1ms to 24h: 90s, 2m, 500ms or seconds, got '${raw}'`);
  return ms;
}

const VALUE_OPTIONS = new Set(
  Object.entries(OPTION_SPEC)
    .filter(([, spec]) => spec.type === "string")
    .map(([name]) => `--${name}`),
);

/**
 * `--seed -1` as `--seed=-1`: parseArgs takes a value that starts with a
 * dash for an option, and would say the value is missing; joined, it
 * reaches the range check, which names what is wrong with it.
 */
function joinNegativeValues(argv: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const next = argv[i + 1];
    if (VALUE_OPTIONS.has(arg) && next !== undefined && /^-[\d.]/.test(next)) {
      out.push(`${arg}=${next}`);
      i++;
    } else out.push(arg);
  }
  return out;
}

/** The flags as given, each checked for its form only; what the options and the codec modules are resolved from. */
export type BenchFlags = ReturnType<
  typeof parseArgs<{ args: string[]; options: typeof OPTION_SPEC; strict: true; allowPositionals: false }>
>["values"];

/** Reads `bench` arguments (without the runtime and script) into flags; an unknown or malformed flag is a SettingError. */
export function readBenchFlags(argv: readonly string[]): BenchFlags {
  try {
    return parseArgs({ args: joinNegativeValues(argv), options: OPTION_SPEC, strict: true, allowPositionals: false })
      .values;
  } catch (e) {
    throw new SettingError(describeParseError(e));
  }
}

/** Parses `bench` arguments with the codec modules they name already imported (user-files.ts). Throws SettingError. */
export function parseBenchArgs(argv: readonly string[], modules: readonly CodecModule[] = []): BenchOptions {
  return benchOptions(readBenchFlags(argv), modules);
}

/** Resolves flags into options: defaults filled in, every value checked against the catalog the codec modules make. */
export function benchOptions(v: BenchFlags, modules: readonly CodecModule[]): BenchOptions {
  const quick = v.quick === true;
  const out = v.out ?? DEFAULT_OUT;
  if (out.trim() === "") throw new SettingError("--out must name a directory");
  const client = parseList("client", v.client, CLIENT_CHOICES, [CLIENT_CHOICES[0]], CLIENT_ALIASES);
  if (client.length !== 1)
    throw new SettingError(`--client takes one name; valid values: ${CLIENT_CHOICES.join(", ")}`);
  const browser = browserOf(client[0]!);
  // Route mode's members are connections of one client, wherever it runs; other modes' clients are Bun's worker threads.
  const routeOnly = v.modes !== undefined && v.modes.split(",").every((m) => m.trim() === "route");
  if (v.clients !== undefined && v.clients !== "1" && client[0] !== "bun" && !routeOnly) {
    throw new SettingError(
      `--clients above 1 needs --client bun (got --client ${client[0]}), except with --modes route, where they are its members`,
    );
  }
  if (client[0] !== "bun" && v.modes !== undefined && /(^|,)\s*(fanout|all)\s*(,|$)/.test(v.modes)) {
    throw new SettingError(`--modes fanout needs --client bun (got --client ${client[0]})`);
  }
  // --quick wins over the browser's defaults; explicit flags win over both.
  const iterations = integerFlag("iterations", v.iterations, NaN, 1, 10_000_000);
  const warmup = integerFlag("warmup", v.warmup, NaN, 0, 10_000_000);
  if (v["allow-lossy"] === true && v.messages === undefined)
    throw new SettingError("--allow-lossy applies to your own messages only; add --messages FILE");
  if (v.equal !== undefined && v.messages === undefined)
    throw new SettingError("--equal applies to your own messages only; add --messages FILE");
  const equal = parseList("equal", v.equal, EQUAL_KINDS, [], {});
  const userMessages = readMessagesFiles(v.messages ?? []);
  const userProto = readProtoFile(v.proto, v["proto-type"], userMessages);
  const moduleCodecs = modules.map((m) => m.codec);
  const codecModules = modules.map((m) => ({ file: m.file, name: m.codec.name }));
  const catalog = catalogFor({ userMessages, userProto }, moduleCodecs);
  if (codecModules.length > 0 && client[0] === "node")
    throw new SettingError(
      "--codec-module runs with --client bun, chromium or firefox; the Node client cannot import a module written for Bun",
    );
  const base = defaultSettings(quick ? "quick" : browser ? "browser" : "default", defaultCodecNames(catalog));
  const byMode = (given: number, fallback: Record<Mode, number>): Record<Mode, number> =>
    Number.isNaN(given)
      ? fallback
      : { codec: given, roundtrip: given, stream: given, fanout: given, latency: given, route: given };
  const settings: Settings = {
    codecs: withCalibration(
      parseList("codecs", v.codecs, socketCodecNames(catalog), base.codecs, codecGroups(catalog)),
      v.calibrate === true,
    ),
    payloads: parseList(
      "payloads",
      v.payloads,
      [...PAYLOAD_NAMES, ...userMessages.map((f) => f.name)],
      userMessages.length > 0 ? userMessages.map((f) => f.name) : base.payloads,
    ),
    modes: parseList("modes", v.modes, MODE_NAMES, base.modes),
    iterations: byMode(iterations, base.iterations),
    runs: byMode(integerFlag("runs", v.runs, NaN, 1, 1000), base.runs),
    warmup: byMode(warmup, base.warmup),
    ...precisionFlags(v, base),
    seed: integerFlag("seed", v.seed, base.seed, 0, 0xffffffff),
    fixed: v.fixed === true,
    window: integerFlag("window", v.window, base.window, 1, 65_536),
    ...(v.rate === undefined ? { rates: [...base.rates], sweep: false } : parseRates("--rate", v.rate)),
    clients: routeOnly ? base.clients : integerFlag("clients", v.clients, base.clients, 1, 1024),
    members: integerFlag("clients", v.clients, base.members, 1, 1024),
    validate: v.validate === true,
    deflate: v.deflate === true,
    stallTimeoutMs: integerFlag("stall-timeout", v["stall-timeout"], base.stallTimeoutMs / 1000, 1, 3600) * 1000,
    userMessages,
    allowLossy: v["allow-lossy"] === true,
    ...(equal.length > 0 ? { equal } : {}),
    excluded: [],
    ...(userProto ? { userProto } : {}),
    ...(codecModules.length > 0 ? { codecModules } : {}),
  };
  const link = linkFlag(v, settings);
  if (link) {
    settings.link = link;
    settings.rates = ratesOverLink(settings);
    // Without --iterations, as many messages as a run of the largest payload fits in the link's time budget.
    if (v.iterations === undefined) {
      const bytes = Math.max(...settings.payloads.map((p) => jsonBytesPerMessage(messagesFor(settings, p, 32))));
      settings.iterations = iterationsOverLink(settings.iterations, link, bytes, settings.window);
    }
  }
  if (settings.modes.includes("codec") && catalog.pick(settings.codecs).length === 0) {
    const socketModes = settings.modes.filter((m) => m !== "codec");
    throw new SettingError(
      `--modes codec has no codec to run: raw runs in the WebSocket modes only; add a codec (${catalog.names.join(", ")})${socketModes.length === 0 ? " or choose --modes roundtrip, stream or fanout" : " or leave codec out of --modes"}`,
    );
  }
  if (settings.validate && !settings.modes.includes("route")) {
    throw new SettingError(
      `--validate applies to route mode only; add route to --modes (got --modes ${settings.modes.join(",")})`,
    );
  }
  if (v.rate !== undefined && !settings.modes.includes("latency")) {
    throw new SettingError(
      `--rate applies to latency mode only; add latency to --modes (got --modes ${settings.modes.join(",")})`,
    );
  }
  const forks = integerFlag("forks", v.forks, quick ? QUICK_FORKS : DEFAULT_FORKS, 1, 64);
  const cspList = parseList("csp", v.csp, CSP_POLICIES, ["off"], {});
  if (cspList.length !== 1) throw new SettingError(`--csp takes one policy; valid values: ${CSP_POLICIES.join(", ")}`);
  const csp = cspList[0]!;
  if (csp !== "off" && !browser)
    throw new SettingError(
      `--csp applies to the page, so to --client chromium or firefox only (got --client ${client[0]})`,
    );
  if (csp !== "off" && v.url !== undefined)
    throw new SettingError(
      "--csp sets the policy of a server the bench starts; with --url, start that server with bun run server --csp",
    );
  const exportK6 = parseK6Flags(v as Record<string, string | undefined>);
  const { processes, backplane } = clusterFlags(v, settings);
  return {
    settings,
    moduleCodecs,
    client: client[0]!,
    url: parseUrl(v.url),
    out,
    write: true,
    quick,
    wide: v.wide === true,
    forks,
    processes,
    ...(backplane !== undefined ? { backplane } : {}),
    noPin: v["no-pin"] === true,
    csp,
    help: v.help === true,
    linkSweep: linkSweepFlag(v, client[0]!, settings),
    ...(exportK6 ? { exportK6 } : {}),
  };
}

/** --processes at most: beyond the machine's cores the processes measure the scheduler. */
const MAX_PROCESSES = 16;

/** --processes and --backplane, checked against each other, the modes and --url. */
function clusterFlags(v: BenchFlags, settings: Settings): { processes: number; backplane?: string } {
  const processes = integerFlag("processes", v.processes, 1, 1, MAX_PROCESSES);
  const backplane = v.backplane;
  if ((v.processes !== undefined || backplane !== undefined) && v.url !== undefined) {
    throw new SettingError(
      "--processes and --backplane shape the server the bench starts; with --url, start yours with bun run server --processes N --backplane URL",
    );
  }
  if (backplane !== undefined && backplane !== "redis") {
    try {
      parseRedisUrl(backplane);
    } catch (e) {
      throw new SettingError(
        `--backplane takes redis (a redis-server the bench starts) or redis://HOST:PORT: ${(e as Error).message}`,
      );
    }
  }
  const pubsub = settings.modes.filter((m) => m === "fanout" || m === "route");
  if (processes > 1 && pubsub.length > 0 && backplane === undefined) {
    throw new SettingError(
      `--modes ${pubsub.join(",")} with --processes ${processes} needs --backplane redis (or redis://HOST:PORT): Bun's publish reaches only the process it runs in`,
    );
  }
  if (backplane !== undefined && pubsub.length === 0)
    throw new SettingError(
      `--backplane carries fanout and route mode; add one to --modes (got --modes ${settings.modes.join(",")})`,
    );
  return { processes, ...(backplane !== undefined ? { backplane } : {}) };
}

/** --link: the link the WebSocket modes' clients reach the server through; undefined for loopback. */
function linkFlag(v: BenchFlags, settings: Settings): LinkProfile | undefined {
  if (v.link === undefined) return undefined;
  const link = parseLink(v.link);
  if (isLoopback(link)) return undefined;
  if (v["export-k6"] !== undefined)
    throw new SettingError(
      "--link applies to the bench's own clients; run the k6 test through a link of yours (docs/k6.md, Over a link)",
    );
  if (!settings.modes.some((m) => m !== "codec"))
    throw new SettingError(
      `--link applies to the WebSocket modes; add roundtrip, stream, fanout, latency or route to --modes (got --modes ${settings.modes.join(",")})`,
    );
  if (v.url !== undefined && /^(https|wss):/i.test(v.url))
    throw new SettingError(
      "--link with an https:// or wss:// --url: the link's loopback address would not match the server's certificate; name its plain ws:// or http:// port",
    );
  return link;
}

/** --link-sweep, checked against what it cannot run with; it runs stream mode alone. */
function linkSweepFlag(v: BenchFlags, client: ClientChoice, settings: Settings): boolean {
  if (v["link-sweep"] !== true) return false;
  if (v.link !== undefined)
    throw new SettingError("--link-sweep chooses its own links (a ladder of bandwidths); leave --link out");
  if (client !== "bun") throw new SettingError(`--link-sweep runs Bun's client (got --client ${client})`);
  if (v.modes !== undefined && v.modes.trim() !== "stream")
    throw new SettingError(`--link-sweep runs stream mode; leave --modes out (got --modes ${v.modes})`);
  if (v["export-k6"] !== undefined) throw new SettingError("--link-sweep and --export-k6 are two different runs");
  settings.modes = ["stream"];
  return true;
}

/** A server URL as an http(s) base; ws(s) is accepted and translated. */
function parseUrl(raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new SettingError(`--url must be a URL like ws://127.0.0.1:8080, got '${raw}'`);
  }
  if (!["ws:", "wss:", "http:", "https:"].includes(url.protocol)) {
    throw new SettingError(`--url must start with ws://, wss://, http:// or https://, got '${raw}'`);
  }
  return `${url.protocol.replace(/^ws/, "http")}//${url.host}`;
}

function describeParseError(e: unknown): string {
  const err = e as { code?: string; message?: string };
  const message = err.message ?? String(e);
  const flag = /'([^']+)'/.exec(message)?.[1];
  switch (err.code) {
    case "ERR_PARSE_ARGS_UNKNOWN_OPTION": {
      const given = flag ?? message;
      const near = closestName(
        given.split("=")[0]!,
        Object.keys(OPTION_SPEC).map((k) => `--${k}`),
      );
      return near !== undefined
        ? `unknown option '${given}'; did you mean ${near}? (--help lists every option)`
        : `unknown option '${given}'; valid options: ${OPTION_LIST}`;
    }
    case "ERR_PARSE_ARGS_INVALID_OPTION_VALUE":
      return message.includes("does not take")
        ? `option '${flag ?? message}' takes no value; see --help`
        : `option '${flag?.split(" ")[0] ?? message}' needs a value; see --help`;
    case "ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL":
      return `unexpected argument '${flag ?? message}'; options start with --, valid options: ${OPTION_LIST}`;
    default:
      return message.split("\n")[0] ?? message;
  }
}
