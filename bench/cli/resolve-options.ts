/**
 * The one resolver of a benchmark's options, at the edge: what a caller gives (the command line's
 * flags as typed, or compare()'s options as values: numbers, lists, file: URLs, inline messages)
 * becomes the options runBenchmark takes. It imports the codec modules, reads the user's files,
 * checks every value against the catalog they make, fills in the documented defaults, and looks
 * for what the machine must have (a server at the URL, Node.js, redis-server, the link emulator, a
 * writable folder for the files), all before anything is measured. Every refusal is one
 * SettingError line naming the option as the caller spells it (`spell`: `--codec-module` on the
 * command line, `codecModules` in compare()).
 */

import { fileURLToPath } from "node:url";
import { coldCodecs } from "../../client/harness/cold-mode.ts";
import {
  browserOf,
  CLIENT_CHOICES,
  defaultSettings,
  isSocketMode,
  MODE_NAMES,
  parseInteger,
  parseRates,
  type ClientChoice,
  type LinkProfile,
  type LoadSpec,
  type Mode,
  type Settings,
} from "../../client/harness/settings.ts";
import { SettingError } from "../../client/harness/harness-errors.ts";
import { DEFAULT_FANOUT, MAX_FANOUT, parseLoad } from "../../client/harness/load.ts";
import { didYouMean } from "../../client/harness/did-you-mean.ts";
import { EQUAL_KINDS } from "../../client/harness/fidelity.ts";
import { isLoopback, iterationsOverLink, parseLink, ratesOverLink } from "../../client/harness/link.ts";
import { messagesFor } from "../../client/harness/generator.ts";
import { jsonBytesPerMessage } from "../../client/harness/schedule.ts";
import { catalogFor } from "../../client/harness/plan.ts";
import {
  importCodecModuleFiles,
  readProtoFile,
  readUserMessages,
  type InlineMessages,
} from "../../client/harness/user-files.ts";
import { PAYLOAD_NAMES } from "../../protocols/messages.ts";
import type { Codec } from "../../protocols/codec.ts";
import { CALIBRATION_CODEC_NAMES } from "../../protocols/calibration.ts";
import { codecGroups, defaultCodecNames, RAW_CODEC_NAME, socketCodecNames } from "../../protocols/contract.ts";
import { CSP_POLICIES, type CspPolicy } from "../../server/requests.ts";
import { parseRedisUrl } from "../../server/redis-backplane.ts";
import { reusePortRefusal } from "../../server/cluster.ts";
import { K6_DEFAULTS, type K6Load } from "./k6-export.ts";
import { BROWSER_FORKS, DEFAULT_FORKS, QUICK_FORKS, type BenchKey } from "./option-specs.ts";
import { prepareOutDir } from "./output.ts";
import { CliError } from "./cli-errors.ts";
import { nodeVersion } from "./processes/node.ts";
import { hasRedisServer, noRedisMessage } from "./processes/redis-server.ts";
import { findToxiproxy, noToxiproxyMessage } from "./processes/link-emulator.ts";

/** A benchmark's options, resolved: what runBenchmark carries out. */
export interface BenchOptions {
  /** What to measure: one settings object, as the page and every client take it. */
  settings: Settings;
  /** The codecs of the codec modules, in order (the plan puts them in its catalog). */
  moduleCodecs: Codec[];
  client: ClientChoice;
  /** A running server to use instead of spawning one (http(s)://). */
  url: string | undefined;
  /** Where the result files go; absent: none are written, the results are only returned (compare() without `out`). */
  out?: string;
  quick: boolean;
  /** Every column of the tables, wider than a terminal (the default fits 100 columns). */
  wide: boolean;
  /** Processes codec mode's runs are spread over (1: in the bench's own process). */
  forks: number;
  /** Server processes the socket modes' rounds take turns with: --forks, or one for --quick without it. */
  serverForks: number;
  /** Leave the bench and the server wherever the scheduler puts them (processes/affinity.ts). */
  noPin: boolean;
  /** The page's Content-Security-Policy on the server the bench starts (a browser client only). */
  csp: CspPolicy;
  /** Server processes sharing the port of the server the bench starts. */
  processes: number;
  /** What joins them: "redis", a redis-server the bench starts and stops, or redis://HOST:PORT, the user's. */
  backplane?: string;
  /** Stream mode over links of falling bandwidth, for each payload's crossover (bench/cli/link-sweep.ts). */
  linkSweep: boolean;
  /** Where custom-binary's layout of each user payload is written as a codec module before the run (bench/cli/emit-codec.ts). */
  emitCodec?: string;
  /** Write a k6 test to `dir` and run nothing (bench/cli/k6-export.ts). */
  exportK6?: { dir: string; load: K6Load };
}

/** What a caller gives: each option under its key, as the command line typed it or as compare() takes it. */
export type BenchInput = { readonly [K in BenchKey]?: unknown };

/** How a caller names an option in a refusal: its flag on the command line, its key in compare(). */
export type Spell = (key: BenchKey) => string;

/** --processes at most: beyond the machine's cores the processes measure the scheduler. */
const MAX_PROCESSES = 16;

/** The input's values, each read as what its option takes; a value of another kind is refused, naming the option. */
function reader(input: BenchInput, spell: Spell) {
  return {
    /** A value option's text: a string as given, a number or a list of them as the command line writes it. */
    text(key: BenchKey): string | undefined {
      const v = input[key];
      if (v === undefined || typeof v === "string") return v;
      if (typeof v === "number") return String(v);
      if (Array.isArray(v) && v.every((x) => typeof x === "string" || typeof x === "number")) return v.join(",");
      throw new SettingError(`${spell(key)}: expected a string, a number or a list of them, got ${typeof v}`);
    },
    /** A switch: given (true) or not. */
    on(key: BenchKey): boolean {
      const v = input[key];
      if (v === undefined || typeof v === "boolean") return v === true;
      throw new SettingError(`${spell(key)}: expected true or false, got ${typeof v}`);
    },
    /** A repeatable option's values. */
    list(key: BenchKey): readonly unknown[] {
      const v = input[key];
      if (v === undefined) return [];
      if (!Array.isArray(v)) throw new SettingError(`${spell(key)} takes a list`);
      return v;
    },
    /** A file option's value as a path: a `file:` URL's path, or the string as given. */
    path(key: BenchKey, v: unknown): string {
      if (v instanceof URL) {
        if (v.protocol !== "file:") throw new SettingError(`${spell(key)}: a URL must be a file: URL, got ${v.href}`);
        return fileURLToPath(v);
      }
      if (typeof v !== "string") throw new SettingError(`${spell(key)} takes file paths (strings or file: URLs)`);
      return v;
    },
  };
}
type Reader = ReturnType<typeof reader>;

/**
 * A comma-separated option's values, each checked against `valid`; `groups` are names that stand
 * for several values ("all", and for codecs "default" and the families), expanded in place.
 */
function parseList<T extends string>(
  option: string,
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
  if (names.length === 0) throw new SettingError(`${option} is empty; valid values: ${choices}`);
  const out: T[] = [];
  for (const name of names) {
    const group = Object.hasOwn(groups, name) ? groups[name]! : undefined;
    if (group === undefined && !(valid as readonly string[]).includes(name)) {
      throw new SettingError(
        `${option}: unknown value '${name}'; ${didYouMean(name, [...valid, ...groupNames])}valid values: ${choices}`,
      );
    }
    for (const v of group ?? [name as T]) if (!out.includes(v)) out.push(v);
  }
  return out;
}

/** The one value an option takes from a list of choices. */
function oneOf<T extends string>(
  option: string,
  what: string,
  raw: string | undefined,
  valid: readonly T[],
  fallback: T,
): T {
  const given = parseList(option, raw, valid, [fallback], {});
  if (given.length !== 1) throw new SettingError(`${option} takes one ${what}; valid values: ${valid.join(", ")}`);
  return given[0]!;
}

/** A duration as an option takes it: 90s, 2m, 500ms, 1h, or plain seconds; ms. */
function parseDuration(option: string, raw: string): number {
  const m = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h)?\s*$/.exec(raw);
  const unit = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[(m?.[2] ?? "s") as "ms" | "s" | "m" | "h"];
  const ms = m ? Number(m[1]) * unit : NaN;
  if (!(ms >= 1 && ms <= 24 * 3_600_000))
    throw new SettingError(`${option} takes a duration from 1ms to 24h: 90s, 2m, 500ms or seconds, got '${raw}'`);
  return ms;
}

/** The precision codec mode's extra rounds aim for (or off), and the time they have, over the profile's. */
function precisionOf(read: Reader, spell: Spell, base: Settings): Pick<Settings, "precision" | "maxTimeMs"> {
  const given = read.text("precision");
  const raw = given?.trim();
  let precision = base.precision;
  if (raw === "off") precision = undefined;
  else if (raw !== undefined) {
    const pct = Number(raw.replace(/%$/, ""));
    if (!/^\d+(\.\d+)?%?$/.test(raw) || !(pct >= 0.1 && pct <= 100))
      throw new SettingError(
        `${spell("precision")} takes a percentage from 0.1 to 100 (3 for ±3%) or off, got '${given}'`,
      );
    precision = pct;
  }
  const time = read.text("maxTime");
  const maxTimeMs = time === undefined ? base.maxTimeMs : parseDuration(spell("maxTime"), time);
  return { ...(precision !== undefined ? { precision } : {}), ...(maxTimeMs !== undefined ? { maxTimeMs } : {}) };
}

/** A server URL as an http(s) base; ws(s) is accepted and translated. */
function parseUrl(option: string, raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new SettingError(`${option} must be a URL like ws://127.0.0.1:8080, got '${raw}'`);
  }
  if (!["ws:", "wss:", "http:", "https:"].includes(url.protocol)) {
    throw new SettingError(`${option} must start with ws://, wss://, http:// or https://, got '${raw}'`);
  }
  return `${url.protocol.replace(/^ws/, "http")}//${url.host}`;
}

/** The link the WebSocket modes' clients reach the server through; undefined for loopback. */
function linkOf(read: Reader, spell: Spell, settings: Settings): LinkProfile | undefined {
  const raw = read.text("link");
  if (raw === undefined) return undefined;
  const link = parseLink(raw, spell("link"));
  if (isLoopback(link)) return undefined;
  if (read.text("exportK6") !== undefined)
    throw new SettingError(
      `${spell("link")} applies to the bench's own clients; run the k6 test through a link of yours (docs/k6.md, Over a link)`,
    );
  if (!settings.modes.some(isSocketMode))
    throw new SettingError(
      `${spell("link")} applies to the WebSocket modes; add roundtrip, stream, fanout, latency or route to ${spell("modes")} (got ${spell("modes")} ${settings.modes.join(",")})`,
    );
  if (/^(https|wss):/i.test(read.text("url") ?? ""))
    throw new SettingError(
      `${spell("link")} with an https:// or wss:// ${spell("url")}: the link's loopback address would not match the server's certificate; name its plain ws:// or http:// port`,
    );
  return link;
}

/**
 * --load and --fanout: the user's traffic, driven by Bun's client at one server process after the
 * socket modes, priced with a socket mode's field figures (client/harness/load.ts).
 */
function loadOf(
  read: Reader,
  spell: Spell,
  int: (key: BenchKey, fallback: number, min: number, max: number) => number,
  settings: Settings,
  client: ClientChoice,
): LoadSpec | undefined {
  const raw = read.text("load");
  if (raw === undefined) {
    if (read.text("fanout") !== undefined)
      throw new SettingError(
        `${spell("fanout")} sets the deliveries per message of ${spell("load")}; add ${spell("load")} PAYLOAD=RATE`,
      );
    return undefined;
  }
  const opt = spell("load");
  const rates = parseLoad(opt, raw, settings.payloads);
  if (client !== "bun") throw new SettingError(`${opt} runs Bun's client (got ${spell("client")} ${client})`);
  const field = settings.modes.filter((m) => m === "stream" || m === "roundtrip" || m === "latency");
  if (field.length === 0)
    throw new SettingError(
      `${opt} is priced with the field figures of stream, roundtrip or latency mode; add one to ${spell("modes")} (got ${spell("modes")} ${settings.modes.join(",")})`,
    );
  if (settings.clients !== 1)
    throw new SettingError(
      `${opt} takes its field figures from one client's kept connections; leave ${spell("clients")} out`,
    );
  if (read.text("link") !== undefined)
    throw new SettingError(`${opt} measures the server's CPU on loopback; leave ${spell("link")} out`);
  if (read.text("processes") !== undefined && read.text("processes") !== "1")
    throw new SettingError(`${opt} reads one server process's CPU; leave ${spell("processes")} out`);
  if (read.text("backplane") !== undefined)
    throw new SettingError(
      `${opt} reads one server process's CPU; a backplane's is not counted: leave ${spell("backplane")} out`,
    );
  if (read.text("url") !== undefined)
    throw new SettingError(
      `${opt} drives the server the bench starts, on loopback, and reads its CPU; leave ${spell("url")} out`,
    );
  if (read.on("linkSweep")) throw new SettingError(`${spell("linkSweep")} and ${opt} are two different runs`);
  if (read.text("exportK6") !== undefined)
    throw new SettingError(`${spell("exportK6")} and ${opt} are two different runs`);
  return { rates, fanout: int("fanout", DEFAULT_FANOUT, 1, MAX_FANOUT) };
}

/** The link sweep, checked against what it cannot run with; it runs stream mode alone. */
function linkSweepOf(read: Reader, spell: Spell, client: ClientChoice, settings: Settings): boolean {
  if (!read.on("linkSweep")) return false;
  const sweep = spell("linkSweep");
  if (read.text("link") !== undefined)
    throw new SettingError(`${sweep} chooses its own links (a ladder of bandwidths); leave ${spell("link")} out`);
  if (client !== "bun") throw new SettingError(`${sweep} runs Bun's client (got ${spell("client")} ${client})`);
  const modes = read.text("modes");
  if (modes !== undefined && modes.trim() !== "stream")
    throw new SettingError(`${sweep} runs stream mode; leave ${spell("modes")} out (got ${spell("modes")} ${modes})`);
  if (read.text("exportK6") !== undefined)
    throw new SettingError(`${sweep} and ${spell("exportK6")} are two different runs`);
  settings.modes = ["stream"];
  return true;
}

/** The server's processes and what joins them, checked against each other, the modes and the URL. */
function clusterOf(
  read: Reader,
  spell: Spell,
  int: (key: BenchKey, fallback: number, min: number, max: number) => number,
  settings: Settings,
): { processes: number; backplane?: string } {
  const processes = int("processes", 1, 1, MAX_PROCESSES);
  const backplane = read.text("backplane");
  if ((read.text("processes") !== undefined || backplane !== undefined) && read.text("url") !== undefined) {
    throw new SettingError(
      `${spell("processes")} and ${spell("backplane")} shape the server the bench starts; with ${spell("url")}, start yours with bun run server --processes N --backplane URL`,
    );
  }
  if (backplane !== undefined && backplane !== "redis") {
    try {
      parseRedisUrl(backplane);
    } catch (e) {
      throw new SettingError(
        `${spell("backplane")} takes redis (a redis-server the bench starts) or redis://HOST:PORT: ${(e as Error).message}`,
      );
    }
  }
  const pubsub = settings.modes.filter((m) => m === "fanout" || m === "route");
  if (processes > 1 && pubsub.length > 0 && backplane === undefined) {
    throw new SettingError(
      `${spell("modes")} ${pubsub.join(",")} with ${spell("processes")} ${processes} needs ${spell("backplane")} redis (or redis://HOST:PORT): Bun's publish reaches only the process it runs in`,
    );
  }
  if (backplane !== undefined && pubsub.length === 0)
    throw new SettingError(
      `${spell("backplane")} carries fanout and route mode; add one to ${spell("modes")} (got ${spell("modes")} ${settings.modes.join(",")})`,
    );
  return { processes, ...(backplane !== undefined ? { backplane } : {}) };
}

/** The k6 test to export and its load model; a load option without the export is refused. */
function k6Of(
  read: Reader,
  spell: Spell,
  int: (key: BenchKey, fallback: number, min: number, max: number) => number,
): BenchOptions["exportK6"] {
  const dir = read.text("exportK6");
  if (dir === undefined) {
    const load = (["k6Server", "k6Connections", "k6Rate", "k6Messages", "k6Ramp", "k6Stall"] as const).find(
      (k) => read.text(k) !== undefined,
    );
    if (load)
      throw new SettingError(`${spell(load)} sets the load of an exported k6 test; add ${spell("exportK6")} DIR`);
    return undefined;
  }
  const server = read.text("k6Server") ?? K6_DEFAULTS.server;
  if (!/^(ws|wss|http|https):\/\/[^/\s]+\/?$/.test(server))
    throw new SettingError(`${spell("k6Server")} must be a server's address like ws://10.0.0.5:8080, got '${server}'`);
  return {
    dir,
    load: {
      server: server.replace(/^http/, "ws").replace(/\/$/, ""),
      connections: int("k6Connections", K6_DEFAULTS.connections, 1, 1_000_000),
      rate: int("k6Rate", K6_DEFAULTS.rate, 1, 100_000),
      messages: int("k6Messages", K6_DEFAULTS.messages, 1, 10_000_000),
      rampS: int("k6Ramp", K6_DEFAULTS.rampS, 0, 3600),
      stallS: int("k6Stall", K6_DEFAULTS.stallS, 1, 3600),
    },
  };
}

/** Checks that a server the user named answers, with a message per kind of failure. */
export async function probeServer(url: string, timeoutMs: number): Promise<void> {
  try {
    await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
  } catch (e) {
    const err = e as { code?: string; name?: string; message?: string; cause?: { code?: string } };
    const code = err.code ?? err.cause?.code ?? "";
    const host = new URL(url).host;
    if (/ConnectionRefused|ECONNREFUSED/i.test(code + (err.message ?? "")))
      throw new CliError("UNREACHABLE", `connection refused by ${host}: is the server running? (bun run server)`);
    if (/ENOTFOUND|EAI_AGAIN|DNS|getaddrinfo/i.test(code + (err.message ?? "")))
      throw new CliError("UNREACHABLE", `cannot resolve the host of ${url} (DNS lookup failed)`);
    if (err.name === "TimeoutError" || /timed out|timeout/i.test(err.message ?? ""))
      throw new CliError("UNREACHABLE", `${host} did not answer within ${timeoutMs} ms`);
    throw new CliError("UNREACHABLE", `cannot reach ${url}: ${err.message ?? String(e)}`);
  }
}

/** How long `checkUrl` waits for the server --url names. */
const URL_CHECK_TIMEOUT_MS = 5000;

/** Checks, before anything is measured, that the server --url names answers: a bad --url, in one line naming `option`. */
async function checkUrl(url: string, option: string): Promise<void> {
  try {
    await probeServer(url, URL_CHECK_TIMEOUT_MS);
  } catch (e) {
    throw new SettingError(`${option} ${url}: ${(e as Error).message}`);
  }
}

/** What the run needs of the machine, looked for before anything is measured. */
async function checkMachine(options: BenchOptions, spell: Spell): Promise<void> {
  if (options.out !== undefined) prepareOutDir(options.out, spell("out"));
  if (options.emitCodec !== undefined) prepareOutDir(options.emitCodec, spell("emitCodec"));
  if (options.exportK6) return;
  const browser = browserOf(options.client);
  const socket = options.settings.modes.some(isSocketMode);
  if (options.url !== undefined && (socket || browser)) await checkUrl(options.url, spell("url"));
  const refusal = options.processes > 1 ? reusePortRefusal(spell("processes")) : undefined;
  if (refusal !== undefined) throw new SettingError(refusal);
  if (options.backplane === "redis" && !hasRedisServer()) throw new SettingError(noRedisMessage(spell("backplane")));
  if ((options.settings.link || options.linkSweep) && !findToxiproxy())
    throw new SettingError(noToxiproxyMessage(spell(options.linkSweep ? "linkSweep" : "link")));
  if (socket && options.client === "node" && nodeVersion() === undefined)
    throw new SettingError(
      `${spell("client")} node needs Node.js on PATH (node --version failed); install Node.js or use ${spell("client")} bun`,
    );
}

/**
 * --calibrate: the calibration codecs join the run, with json (what they are held against) and raw
 * (the timers' own cost), whichever codecs were asked for.
 */
function withCalibration(codecs: string[], calibrate: boolean): string[] {
  if (!calibrate) return codecs;
  return [...new Set([...codecs, "json", ...CALIBRATION_CODEC_NAMES, RAW_CODEC_NAME])];
}

/** Resolves what a caller gives into a benchmark's options, or refuses it in one line (see the file's comment). */
export async function resolveBenchOptions(input: BenchInput, spell: Spell): Promise<BenchOptions> {
  const read = reader(input, spell);
  const int = (key: BenchKey, fallback: number, min: number, max: number): number => {
    const raw = read.text(key);
    return raw === undefined ? fallback : parseInteger(spell(key), raw, min, max);
  };
  const list = <T extends string>(
    key: BenchKey,
    valid: readonly T[],
    fallback: readonly T[],
    groups?: Readonly<Record<string, readonly T[]>>,
  ): T[] => parseList(spell(key), read.text(key), valid, fallback, groups);
  const modules = await importCodecModuleFiles(
    read.list("codecModules").map((v) => read.path("codecModules", v)),
    spell,
  );
  const quick = read.on("quick");
  const out = read.text("out");
  if (out !== undefined && out.trim() === "") throw new SettingError(`${spell("out")} must name a directory`);
  const client = oneOf(spell("client"), "name", read.text("client"), CLIENT_CHOICES, "bun");
  const browser = browserOf(client);
  const modesGiven = read.text("modes");
  // Route mode's members are connections of one client, wherever it runs; other modes' clients are Bun's worker threads.
  const routeOnly = modesGiven !== undefined && modesGiven.split(",").every((m) => m.trim() === "route");
  const clientsGiven = read.text("clients");
  if (clientsGiven !== undefined && clientsGiven !== "1" && client !== "bun" && !routeOnly) {
    throw new SettingError(
      `${spell("clients")} above 1 needs ${spell("client")} bun (got ${spell("client")} ${client}), except with ${spell("modes")} route, where they are its members`,
    );
  }
  if (client !== "bun" && modesGiven !== undefined && /(^|,)\s*(fanout|all)\s*(,|$)/.test(modesGiven))
    throw new SettingError(`${spell("modes")} fanout needs ${spell("client")} bun (got ${spell("client")} ${client})`);
  if (client === "node" && modesGiven !== undefined && /(^|,)\s*cold\s*(,|$)/.test(modesGiven))
    throw new SettingError(
      `${spell("modes")} cold times fresh Bun processes of the bench's own, or a browser's fresh pages; it runs with ${spell("client")} bun, chromium or firefox (got ${spell("client")} node)`,
    );
  // --quick wins over the browser's defaults; options given win over both.
  const iterations = int("iterations", NaN, 1, 10_000_000);
  const warmup = int("warmup", NaN, 0, 10_000_000);
  const messages = read.list("messages");
  if (read.on("allowLossy") && messages.length === 0)
    throw new SettingError(`${spell("allowLossy")} applies to your own messages only; add ${spell("messages")} FILE`);
  if (read.text("equal") !== undefined && messages.length === 0)
    throw new SettingError(`${spell("equal")} applies to your own messages only; add ${spell("messages")} FILE`);
  const equal = list("equal", EQUAL_KINDS, [], {});
  const userMessages = readUserMessages(
    messages.map((v) =>
      typeof v === "object" && v !== null && !(v instanceof URL) ? (v as InlineMessages) : read.path("messages", v),
    ),
    spell,
  );
  const proto = input.proto === undefined ? undefined : read.path("proto", input.proto);
  const userProto = readProtoFile(proto, read.text("protoType"), userMessages, spell);
  const moduleCodecs = modules.map((m) => m.codec);
  const codecModules = modules.map((m) => ({ file: m.file, name: m.codec.name }));
  const catalog = catalogFor({ userMessages, userProto }, moduleCodecs);
  if (codecModules.length > 0 && client === "node")
    throw new SettingError(
      `${spell("codecModules")} runs with ${spell("client")} bun, chromium or firefox; the Node client cannot import a module written for Bun`,
    );
  const base = defaultSettings(quick ? "quick" : browser ? "browser" : "default", defaultCodecNames(catalog));
  const byMode = (given: number, fallback: Record<Mode, number>): Record<Mode, number> =>
    Number.isNaN(given) ? fallback : (Object.fromEntries(MODE_NAMES.map((m) => [m, given])) as Record<Mode, number>);
  const rate = read.text("rate");
  const settings: Settings = {
    codecs: withCalibration(
      list("codecs", socketCodecNames(catalog), base.codecs, codecGroups(catalog)),
      read.on("calibrate"),
    ),
    payloads: list(
      "payloads",
      [...PAYLOAD_NAMES, ...userMessages.map((f) => f.name)],
      userMessages.length > 0 ? userMessages.map((f) => f.name) : base.payloads,
    ),
    modes: list("modes", MODE_NAMES, base.modes),
    iterations: byMode(iterations, base.iterations),
    runs: byMode(int("runs", NaN, 1, 1000), base.runs),
    // Cold mode never warms up: its figures are a fresh process's first messages.
    warmup: { ...byMode(warmup, base.warmup), cold: 0 },
    ...precisionOf(read, spell, base),
    seed: int("seed", base.seed, 0, 0xffffffff),
    fixed: read.on("fixed"),
    window: int("window", base.window, 1, 65_536),
    ...(rate === undefined ? { rates: [...base.rates], sweep: false } : parseRates(spell("rate"), rate)),
    clients: routeOnly ? base.clients : int("clients", base.clients, 1, 1024),
    members: int("clients", base.members, 1, 1024),
    validate: read.on("validate"),
    deflate: read.on("deflate"),
    stallTimeoutMs: int("stallTimeout", base.stallTimeoutMs / 1000, 1, 3600) * 1000,
    userMessages,
    allowLossy: read.on("allowLossy"),
    ...(equal.length > 0 ? { equal } : {}),
    excluded: [],
    ...(userProto ? { userProto } : {}),
    ...(codecModules.length > 0 ? { codecModules } : {}),
  };
  const link = linkOf(read, spell, settings);
  if (link) {
    settings.link = link;
    settings.rates = ratesOverLink(settings);
    // Without iterations given, as many messages as a run of the largest payload fits in the link's time budget.
    if (Number.isNaN(iterations)) {
      const bytes = Math.max(...settings.payloads.map((p) => jsonBytesPerMessage(messagesFor(settings, p, 32))));
      settings.iterations = iterationsOverLink(settings.iterations, link, bytes, settings.window);
    }
  }
  const modes = `${spell("modes")} ${settings.modes.join(",")}`;
  if (settings.modes.includes("codec") && catalog.pick(settings.codecs).length === 0) {
    const socketModes = settings.modes.filter(isSocketMode);
    throw new SettingError(
      `${spell("modes")} codec has no codec to run: raw runs in the WebSocket modes only; add a codec (${catalog.names.join(", ")})${socketModes.length === 0 ? ` or choose ${spell("modes")} roundtrip, stream or fanout` : ` or leave codec out of ${spell("modes")}`}`,
    );
  }
  if (settings.modes.includes("cold") && coldCodecs(settings).length === 0)
    throw new SettingError(
      `${spell("modes")} cold has no codec to run: raw and the calibration codecs do not run cold; add a codec (${catalog.names.filter((n) => coldCodecs({ codecs: [n] }).length > 0).join(", ")})`,
    );
  if (settings.validate && !settings.modes.includes("route"))
    throw new SettingError(
      `${spell("validate")} applies to route mode only; add route to ${spell("modes")} (got ${modes})`,
    );
  if (rate !== undefined && !settings.modes.includes("latency"))
    throw new SettingError(
      `${spell("rate")} applies to latency mode only; add latency to ${spell("modes")} (got ${modes})`,
    );
  const load = loadOf(read, spell, int, settings, client);
  if (load) settings.load = load;
  const forks = int("forks", quick ? QUICK_FORKS : browser ? BROWSER_FORKS : DEFAULT_FORKS, 1, 64);
  // A first look starts one server; codec mode's intervals need their processes all the same.
  const serverForks = quick && read.text("forks") === undefined ? 1 : forks;
  const csp = oneOf(spell("csp"), "policy", read.text("csp"), CSP_POLICIES, "off");
  const url = parseUrl(spell("url"), read.text("url"));
  if (csp !== "off" && !browser)
    throw new SettingError(
      `${spell("csp")} applies to the page, so to ${spell("client")} chromium or firefox only (got ${spell("client")} ${client})`,
    );
  if (csp !== "off" && url !== undefined)
    throw new SettingError(
      `${spell("csp")} sets the policy of a server the bench starts; with ${spell("url")}, start that server with bun run server --csp`,
    );
  const exportK6 = k6Of(read, spell, int);
  const emitCodec = read.text("emitCodec");
  if (emitCodec !== undefined && emitCodec.trim() === "")
    throw new SettingError(`${spell("emitCodec")} must name a directory`);
  if (emitCodec !== undefined && userMessages.length === 0)
    throw new SettingError(
      `${spell("emitCodec")} writes custom-binary's layout of your own messages; add ${spell("messages")} FILE`,
    );
  const options: BenchOptions = {
    settings,
    moduleCodecs,
    client,
    url,
    ...(out !== undefined ? { out } : {}),
    quick,
    wide: read.on("wide"),
    forks,
    serverForks,
    ...clusterOf(read, spell, int, settings),
    noPin: read.on("noPin"),
    csp,
    linkSweep: linkSweepOf(read, spell, client, settings),
    ...(exportK6 ? { exportK6 } : {}),
    ...(emitCodec !== undefined ? { emitCodec } : {}),
  };
  await checkMachine(options, spell);
  return options;
}
