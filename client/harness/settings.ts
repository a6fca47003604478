/**
 * What a run measures, as one settings object, and the one table of
 * defaults. The CLI fills it from its flags, the page from its form and its
 * URL, the Node client and the worker threads receive it as it is, so
 * `--help`, the page and every client agree on every default.
 */

import { SettingError } from "./harness-errors.ts";
import type { EqualKind } from "./fidelity.ts";
import { ARTICLE_PAYLOADS, isBuiltIn, type PayloadName } from "../../protocols/messages.ts";
import { CALIBRATION_CODEC_NAMES } from "../../protocols/calibration.ts";
import { RAW_CODEC_NAME } from "../../protocols/contract.ts";

export type Mode = "codec" | "roundtrip" | "stream" | "fanout" | "latency" | "route" | "cold" | "evolve";
export const MODE_NAMES: readonly Mode[] = [
  "codec",
  "roundtrip",
  "stream",
  "fanout",
  "latency",
  "route",
  "cold",
  "evolve",
];
/** The modes that talk to a server over a WebSocket. */
export type SocketMode = Exclude<Mode, "codec" | "cold" | "evolve">;
export const SOCKET_MODES: readonly SocketMode[] = ["roundtrip", "stream", "fanout", "latency", "route"];
/** Whether `mode` talks to a server over a WebSocket (not codec mode's loop, not cold mode's fresh processes, not evolve mode's checks). */
export function isSocketMode(mode: string): mode is SocketMode {
  return (SOCKET_MODES as readonly string[]).includes(mode);
}

/** The codecs a mode without a server runs (cold, evolve): the settings' codecs but raw (no codec) and the calibration codecs (which measure the server). */
export function codecsWithoutServer(settings: Pick<Settings, "codecs">): string[] {
  return settings.codecs.filter((c) => c !== RAW_CODEC_NAME && !CALIBRATION_CODEC_NAMES.includes(c));
}

/** Who ran the client side: in process (codec mode), Bun's WebSocket, Node with npm `ws`, a browser. */
export type ClientKind = "inprocess" | "bun" | "node" | "browser";
/** The clients `--client` can pick: Bun's WebSocket, Node with npm `ws`, the page in a headless browser of either engine. */
export const CLIENT_CHOICES = ["bun", "node", "chromium", "firefox"] as const;
/** The browsers the page runs in: Chromium (V8) and Firefox (SpiderMonkey). */
export type BrowserName = "chromium" | "firefox";
export type ClientChoice = (typeof CLIENT_CHOICES)[number];
/** The browser a choice runs the page in, or undefined for a client that is not a browser. */
export function browserOf(choice: ClientChoice): BrowserName | undefined {
  return choice === "chromium" || choice === "firefox" ? choice : undefined;
}

export interface Settings {
  /** Codec names; `raw` (the transport baseline) runs in the WebSocket modes only. */
  codecs: string[];
  payloads: PayloadName[];
  modes: Mode[];
  /** Messages per run, by mode. */
  iterations: Record<Mode, number>;
  /** Timed runs per case, by mode (codec mode: times through the messages, spread over its processes). */
  runs: Record<Mode, number>;
  /** Untimed messages before a case's first run, by mode. */
  warmup: Record<Mode, number>;
  /**
   * Codec mode: after its planned runs, more rounds (in more processes) for each payload that has
   * a ratio whose 95% interval is wider than ± this percent of it, while `maxTimeMs` allows;
   * absent: the planned runs only.
   */
  precision?: number;
  /** Codec mode's wall time, ms, within which more rounds for `precision` may be expected to end. */
  maxTimeMs?: number;
  /** Seed of the message generator; the same seed gives the same bytes. */
  seed: number;
  /** The article's exact messages instead of varied ones. */
  fixed: boolean;
  /** Messages in flight in stream and fanout mode, per connection; in latency mode, at most. */
  window: number;
  /** Latency mode: the rates to run, messages per second each connection sends on a schedule that does not wait for replies. */
  rates: number[];
  /** Latency mode: `rates` is a ladder to climb until each codec misses one (knee.ts); each step lasts SWEEP_STEP_S per run. */
  sweep: boolean;
  /** Concurrent connections per WebSocket case (fanout: subscribers). */
  clients: number;
  /** Route mode: the members, each in one room or more (the CLI's --clients sets it in route mode). */
  members: number;
  /** Route mode: the server decodes and checks every message before routing it (the validated pattern). */
  validate: boolean;
  /** Offer permessage-deflate. */
  deflate: boolean;
  /** A WebSocket case with no reply for this long ends as stalled, ms. */
  stallTimeoutMs: number;
  /** The user's own messages (`--messages FILE`), each a payload named after its file. */
  userMessages: UserMessagesFile[];
  /** Time codecs that change the user's messages (the fidelity check), instead of only reporting what they change. */
  allowLossy: boolean;
  /** --equal: kinds of change to the user's messages they declare no loss (fidelity.ts), applied before deciding what is lossy. */
  equal?: EqualKind[];
  /** Codec and payload pairs that do not run, and why (client/harness/exclusions.ts); filled in before any mode runs. */
  excluded: Excluded[];
  /** The Protobuf message type of the user's messages (--proto FILE --proto-type NAME). */
  userProto?: UserProtoFile;
  /** Codecs of the user's own (--codec-module FILE): each module's absolute path and its codec's name. */
  codecModules?: CodecModuleFile[];
  /** The link between the clients and the server (--link, client/harness/link.ts); absent: loopback. */
  link?: LinkProfile;
  /** --load and --fanout: the user's traffic, driven after the socket modes and priced per codec (client/harness/load.ts). */
  load?: LoadSpec;
}

/** The traffic a user names: each payload's messages a second arriving at the server, and deliveries per message. */
export interface LoadSpec {
  rates: { payload: PayloadName; rate: number }[];
  fanout: number;
}

/** A link's figures: what a message crossing it meets besides the codecs' CPU. */
export interface LinkProfile {
  /** `loopback`, a named profile, or `custom` (a profile with figures changed is `NAME+`). */
  name: string;
  /** Time the link adds to a round trip, ms: half of it each way. */
  rttMs: number;
  /** The round trip's added time varies by up to ± this, ms (each way: ± half of it, uniformly). */
  jitterMs: number;
  /** Bandwidth from the server to the client, kbit/s (1 kbit = 1,000 bits); 0: not limited. */
  downKbps: number;
  /** Bandwidth from the client to the server, kbit/s; 0: not limited. */
  upKbps: number;
  /** Where a named profile's figures come from. */
  source?: string;
}

/** A codec module (docs/codecs.md): where it is, and the name its codec goes by. */
export interface CodecModuleFile {
  file: string;
  name: string;
}

/** A user's .proto file and the message type in it that carries their messages. */
export interface UserProtoFile {
  file: string;
  text: string;
  type: string;
}

/** A codec left out on a payload: not applicable, unable to carry the messages, or lossy without --allow-lossy. */
export interface Excluded {
  codec: string;
  payload: string;
  why: string;
}

/** One `--messages` file: the payload name it runs under, where it came from, its text (client/harness/user-messages.ts). */
export interface UserMessagesFile {
  name: string;
  /** Absent for messages given inline to compare(): their text is their JSON. */
  file?: string;
  text: string;
}

/** `--rate sweep`: the ladder each codec climbs until it misses a rate. */
export const SWEEP_RATES: readonly number[] = [1_000, 2_000, 5_000, 10_000, 20_000, 50_000, 100_000];
/** `--rate sweep`: seconds of messages per run at each step (at least 200 messages). */
export const SWEEP_STEP_S = 0.25;

/**
 * Over a link, a stream or latency slice spans at least this many of the link's round trips. A
 * stream slice ends with its last frames on the link, a round trip in which the case sends
 * nothing: where the link's rate paced the messages, a slice of four windows spent a tenth of its
 * time so (over loopback: microseconds). A latency slice of 40 messages never met the link's rate
 * at all: it was over before the queue built. Over 20 round trips the last is at most 5%.
 */
export const LINK_SLICE_RTTS = 20;

/**
 * Over a link, a latency slice lasts at least this long too: a rate 10-20% over what the link
 * carries builds its queue slowly, and a slice over before the queue passes the window would keep
 * a rate the link cannot carry (a 0.6 s slice kept 450/s where 1 Mbit/s carries 370 of 337 bytes).
 */
const LINK_LATENCY_SLICE_MS = 1000;

/** Messages a latency slice sends at `rate` over the settings' link: LINK_SLICE_RTTS of its round trips, and at least a second; 0 without a link. */
export function latencyMessagesOverLink(settings: Pick<Settings, "link">, rate: number): number {
  if (!settings.link) return 0;
  return Math.ceil((Math.max(LINK_SLICE_RTTS * settings.link.rttMs, LINK_LATENCY_SLICE_MS) * rate) / 1000);
}

/** The settings of one latency step: its rate, and under a sweep its messages per run (over a link, at least a slice's). */
export function latencyStep(settings: Settings, rate: number): Settings {
  const iterations = settings.sweep
    ? Math.max(200, Math.round(rate * SWEEP_STEP_S), latencyMessagesOverLink(settings, rate))
    : settings.iterations.latency;
  return { ...settings, rates: [rate], iterations: { ...settings.iterations, latency: iterations } };
}

/** Which column of the defaults table: a full run, `--quick`, or a browser client. */
export type Profile = "default" | "quick" | "browser";

const perMode = (
  codec: number,
  roundtrip: number,
  stream: number,
  fanout: number,
  latency: number,
  route: number,
  cold: number,
  evolve: number,
): Record<Mode, number> => ({ codec, roundtrip, stream, fanout, latency, route, cold, evolve });

const COMMON = {
  modes: ["codec", "roundtrip", "stream"] as Mode[],
  payloads: [...ARTICLE_PAYLOADS],
  seed: 1,
  fixed: false,
  window: 64,
  rates: [2_000],
  sweep: false,
  clients: 1,
  members: 8,
  validate: false,
  deflate: false,
  stallTimeoutMs: 10_000,
  userMessages: [] as UserMessagesFile[],
  allowLossy: false,
  excluded: [] as Excluded[],
};

/**
 * The one table of defaults. `default` makes plain `bun run bench` (every
 * mode, codec and payload) finish within two minutes on a 2-core
 * machine: the article's 100,000-message loop in process and in stream
 * mode, fewer round trips because each waits for its reply, each socket
 * mode in one run of short slices, and a warm-up in every codec-mode
 * process and in the server long enough that the engine has finished
 * compiling every codec (100,000 calls: docs/performance-notes.md,
 * "Figures behind the defaults" and "Where a benchmark's time goes"). `browser`: a browser's WebSocket moves only
 * thousands of messages per second (docs/page.md), so the socket modes
 * send fewer messages and a run stays in minutes. `quick`: a first look,
 * codec mode and stream mode (the first look's two columns).
 * `codecs: []` means every codec (the registry's, plus raw).
 */
export const DEFAULTS: Readonly<Record<Profile, Readonly<Settings>>> = {
  default: {
    ...COMMON,
    codecs: [],
    precision: 3,
    maxTimeMs: 40_000,
    runs: perMode(1, 1, 1, 3, 3, 3, 10, 1),
    iterations: perMode(100_000, 6_000, 100_000, 10_000, 2_000, 40_000, 1_000, 100),
    warmup: perMode(100_000, 100_000, 100_000, 1_000, 500, 4_000, 0, 0),
  },
  quick: {
    ...COMMON,
    modes: ["codec", "stream"],
    codecs: [],
    precision: 10,
    maxTimeMs: 4_000,
    runs: perMode(1, 1, 1, 2, 2, 2, 5, 1),
    iterations: perMode(10_000, 1_000, 12_000, 1_000, 1_000, 4_000, 1_000, 40),
    warmup: perMode(5_000, 1_000, 12_000, 100, 100, 400, 0, 0),
  },
  // A page's WebSocket keeps 1,000 messages/s with sub-millisecond p50 in Chromium here, not 5,000 (docs/page.md).
  browser: {
    ...COMMON,
    codecs: [],
    rates: [1_000],
    runs: perMode(3, 3, 3, 3, 3, 3, 10, 1),
    iterations: perMode(100_000, 1_000, 20_000, 0, 1_000, 4_000, 1_000, 100),
    warmup: perMode(20_000, 500, 10_000, 0, 200, 400, 0, 0),
  },
};

/** A fresh, mutable copy of a profile's settings, with `codecs` filled in. */
export function defaultSettings(profile: Profile, allCodecs: readonly string[]): Settings {
  const d = DEFAULTS[profile];
  return {
    ...d,
    codecs: [...allCodecs],
    payloads: [...d.payloads],
    modes: [...d.modes],
    runs: { ...d.runs },
    iterations: { ...d.iterations },
    warmup: { ...d.warmup },
    userMessages: [],
    excluded: [],
  };
}

/**
 * An integer setting from text (a flag, a form field, a URL parameter):
 * digits only (`_` allowed between them), within [min, max].
 */
export function parseInteger(name: string, raw: string, min: number, max: number, unit = ""): number {
  const value = Number(raw.trim().replaceAll("_", ""));
  if (!/^\s*\d+(_\d+)*\s*$/.test(raw) || !Number.isSafeInteger(value) || value < min || value > max) {
    throw new SettingError(`${name} must be an integer from ${min} to ${max}${unit}, got '${raw}'`);
  }
  return value;
}

/** Latency rates from text (`--rate`, the page's field): "sweep" (the ladder, climbed to each codec's knee) or one or more rates, lowest first. */
export function parseRates(name: string, raw: string): Pick<Settings, "rates" | "sweep"> {
  if (raw.trim() === "sweep") return { rates: [...SWEEP_RATES], sweep: true };
  if (!/^\s*\d[\d_]*(\s*,\s*\d[\d_]*)*\s*$/.test(raw))
    throw new SettingError(`${name} takes 'sweep' or messages per second N[,N...] from 1 to 1000000, got '${raw}'`);
  const rates = raw.split(",").map((r) => parseInteger(name, r, 1, 1_000_000));
  return { rates: [...new Set(rates)].sort((a, b) => a - b), sweep: false };
}

/**
 * Whether a case's replies are checked against the codec's own round trip of each message
 * rather than the message itself: on a user's messages, where the user let codecs that change
 * them run (--allow-lossy) or declared some changes no loss (--equal).
 */
export function checksOwnRoundTrip(settings: Pick<Settings, "allowLossy" | "equal">, payload: PayloadName): boolean {
  return (settings.allowLossy || (settings.equal?.length ?? 0) > 0) && !isBuiltIn(payload);
}
