/**
 * The link between the clients and the server (`--link`): loopback, where a
 * byte costs nothing, or a network a user ships to, given as its round trip,
 * jitter and bandwidth each way. A named profile carries its figures and
 * where they come from (docs/links.md); the custom form names them itself
 * (`latency=40ms,jitter=10ms,down=10mbit,up=5mbit`), and may start from a
 * profile (`4g,jitter=20ms`). The bench emulates the link with Toxiproxy
 * (bench/cli/processes/link-emulator.ts); this file only says what it is.
 */

import { SettingError } from "./harness-errors.ts";
import { didYouMean } from "./did-you-mean.ts";
import {
  LINK_SLICE_RTTS,
  SWEEP_RATES,
  type LinkProfile,
  type Mode,
  type Settings,
  type SocketMode,
} from "./settings.ts";

/** No link at all: the clients reach the server over loopback (the default). */
export const LOOPBACK: LinkProfile = { name: "loopback", rttMs: 0, jitterMs: 0, downKbps: 0, upKbps: 0 };

/**
 * The named links. Chrome DevTools' presets give a round trip (the latency its throttling adds
 * to each request is that round trip times a factor for the handshakes of a new connection,
 * which a kept WebSocket does not repeat) and a throughput; the figures here are its round
 * trips and throughputs, as puppeteer's PredefinedNetworkConditions copies them.
 */
export const LINK_PROFILES: readonly LinkProfile[] = [
  LOOPBACK,
  {
    name: "lan",
    rttMs: 2,
    jitterMs: 0,
    downKbps: 1_000_000,
    upKbps: 1_000_000,
    source: "switched gigabit Ethernet; 1 ms each way is the emulator's smallest delay",
  },
  {
    name: "wifi",
    rttMs: 2,
    jitterMs: 0,
    downKbps: 40_000,
    upKbps: 33_000,
    source: "Apple Network Link Conditioner, Wi-Fi preset: 40 Mbit/s down, 33 up, 1 ms delay each way",
  },
  {
    name: "4g",
    rttMs: 60,
    jitterMs: 0,
    downKbps: 8_100,
    upKbps: 1_350,
    source: "Chrome DevTools, Fast 4G: 60 ms round trip, 9 Mbit/s down and 1.5 up at 90%",
  },
  {
    name: "slow-4g",
    rttMs: 150,
    jitterMs: 0,
    downKbps: 1_440,
    upKbps: 675,
    source:
      "Chrome DevTools, Slow 4G (Lighthouse's mobile throttling, once Fast 3G): 150 ms, 1.6 Mbit/s and 750 kbit/s at 90%",
  },
  {
    name: "3g",
    rttMs: 400,
    jitterMs: 0,
    downKbps: 400,
    upKbps: 400,
    source: "Chrome DevTools, Slow 3G: 400 ms round trip, 500 kbit/s each way at 80%",
  },
  {
    name: "intercontinental",
    rttMs: 185,
    jitterMs: 0,
    downKbps: 50_000,
    upKbps: 10_000,
    source:
      "WonderProxy's pings between cities, Fremont to Sydney: 184.9 ms; a 50/10 Mbit/s broadband line at either end",
  },
];

export const LINK_NAMES: readonly string[] = LINK_PROFILES.map((p) => p.name);

/** What `--link` takes, for its error lines and --help. */
const LINK_FORMS = `${LINK_NAMES.join(", ")}, or latency=40ms,jitter=10ms,down=10mbit,up=5mbit (after a profile's name to change some of its figures)`;

/** A duration in ms: 40ms, 0.2s. */
function durationMs(name: string, key: string, raw: string): number {
  const m = /^(\d+(?:\.\d+)?)(ms|s)$/.exec(raw);
  const ms = m ? Number(m[1]) * (m[2] === "s" ? 1000 : 1) : Number.NaN;
  if (!(ms >= 0 && ms <= 10_000))
    throw new SettingError(
      `${name}: ${key}=${raw} takes a duration from 0ms to 10s, like 40ms; valid forms: ${LINK_FORMS}`,
    );
  return ms;
}

/** A rate in kbit/s: 10mbit, 500kbit, 1gbit (kbps, mbps, gbps too). */
function rateKbps(name: string, key: string, raw: string): number {
  const m = /^(\d+(?:\.\d+)?)(kbit|mbit|gbit|kbps|mbps|gbps)$/i.exec(raw);
  const unit = m ? { k: 1, m: 1000, g: 1_000_000 }[m[2]![0]!.toLowerCase() as "k" | "m" | "g"] : Number.NaN;
  const kbps = m ? Number(m[1]) * unit : Number.NaN;
  // The emulator counts bandwidth in whole kilobytes per second: 8 kbit/s is its least.
  if (!(kbps >= 8 && kbps <= 10_000_000))
    throw new SettingError(
      `${name}: ${key}=${raw} takes a rate from 8kbit to 10gbit, like 10mbit; valid forms: ${LINK_FORMS}`,
    );
  return kbps;
}

/**
 * `--link` text as a profile: a name, key=value pairs, or a name and pairs; a SettingError names
 * what is wrong, opening with `name` (the option as the caller spells it).
 */
export function parseLink(raw: string, name = "link"): LinkProfile {
  const parts = raw
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s !== "");
  if (parts.length === 0) throw new SettingError(`${name} is empty; valid forms: ${LINK_FORMS}`);
  const first = parts[0]!;
  const named = first.includes("=") ? undefined : LINK_PROFILES.find((p) => p.name === first.toLowerCase());
  if (!first.includes("=") && !named) {
    throw new SettingError(
      `${name}: unknown profile '${first}'; ${didYouMean(first, LINK_NAMES)}valid forms: ${LINK_FORMS}`,
    );
  }
  const pairs = named ? parts.slice(1) : parts;
  if (named && pairs.length === 0) return named;
  if (named === LOOPBACK) throw new SettingError(`${name} loopback has no figures to change; it is no link at all`);
  const out: LinkProfile = named
    ? { ...named, name: `${named.name}+` }
    : { name: "custom", rttMs: 0, jitterMs: 0, downKbps: 0, upKbps: 0 };
  delete out.source;
  const seen = new Set<string>();
  for (const pair of pairs) {
    const m = /^([a-z]+)=(.+)$/i.exec(pair);
    const key = m?.[1]!.toLowerCase();
    if (!m || !["latency", "rtt", "jitter", "down", "up"].includes(key!))
      throw new SettingError(
        `${name}: '${pair}' is not one of latency=, jitter=, down=, up= or a profile's name; valid forms: ${LINK_FORMS}`,
      );
    const field = key === "rtt" ? "latency" : key!;
    if (seen.has(field)) throw new SettingError(`${name} gives ${field}= twice; valid forms: ${LINK_FORMS}`);
    seen.add(field);
    const value = m[2]!.trim().toLowerCase();
    if (field === "latency") out.rttMs = durationMs(name, key!, value);
    else if (field === "jitter") out.jitterMs = durationMs(name, key!, value);
    else if (field === "down") out.downKbps = rateKbps(name, key!, value);
    else out.upKbps = rateKbps(name, key!, value);
  }
  if (out.jitterMs > out.rttMs)
    throw new SettingError(
      `${name}: jitter=${out.jitterMs}ms is more than the round trip (latency=${out.rttMs}ms); a delay cannot go below nothing`,
    );
  return out;
}

/** True when the link is loopback itself: nothing between the clients and the server. */
export function isLoopback(link: LinkProfile | undefined): boolean {
  return link === undefined || (link.rttMs === 0 && link.jitterMs === 0 && link.downKbps === 0 && link.upKbps === 0);
}

/** A rate as people say it: 8.1 Mbit/s, 400 kbit/s, unlimited. */
export function rateText(kbps: number): string {
  if (!(kbps > 0)) return "unlimited";
  if (kbps >= 1_000_000) return `${+(kbps / 1_000_000).toPrecision(3)} Gbit/s`;
  if (kbps >= 1000) return `${+(kbps / 1000).toPrecision(3)} Mbit/s`;
  return `${+kbps.toPrecision(3)} kbit/s`;
}

/** One line for a link: "4g: 60 ms round trip, 8.1 Mbit/s down, 1.35 Mbit/s up". */
export function linkText(link: LinkProfile): string {
  if (isLoopback(link)) return `${link.name}: no link (loopback)`;
  const jitter = link.jitterMs > 0 ? ` ± ${link.jitterMs} ms` : "";
  return `${link.name}: ${link.rttMs} ms round trip${jitter}, ${rateText(link.downKbps)} down, ${rateText(link.upKbps)} up`;
}

/** Seconds of a link's time one run of a case takes, about, when --iterations is not given. */
export const LINK_RUN_BUDGET_S = 2;
/** The fewest messages a run over a link sends without --iterations: enough for a p99 to mean something. */
export const LINK_MIN_MESSAGES = 100;

/** The fewest slices a stream run over a link is cut into without --iterations, so the codecs' turns pair in rounds. */
export const LINK_MIN_SLICES = 3;

/**
 * The link's own time per message of `bytes` in `mode`, ms, before any CPU: a round trip waits
 * for its reply (the round trip, then the bytes each way at the link's rates); a stream keeps
 * `window` in flight, so the round trip is shared by them, or the bandwidth of the busier way
 * sets the pace. (1 kbit/s carries a bit per ms, so 8 × bytes / kbit/s is ms.)
 */
export function linkMsPerMessage(mode: SocketMode, link: LinkProfile, bytes: number, window: number): number {
  const up = link.upKbps > 0 ? (8 * bytes) / link.upKbps : 0;
  const down = link.downKbps > 0 ? (8 * bytes) / link.downKbps : 0;
  if (mode === "roundtrip") return link.rttMs + up + down;
  return Math.max(link.rttMs / Math.max(1, window), up, down);
}

/**
 * Messages in a stream slice that spans LINK_SLICE_RTTS of the link's round trips, `bytes` a
 * message (a window a round trip at best, or the bytes at the way's rate); 0 without a round trip.
 */
export function streamSliceOverLink(link: LinkProfile, bytes: number, window: number): number {
  return link.rttMs > 0
    ? Math.ceil((LINK_SLICE_RTTS * link.rttMs) / linkMsPerMessage("stream", link, bytes, window))
    : 0;
}

/**
 * Messages per run over `link` without --iterations: each mode's default, or fewer, so that a run
 * of the run's largest messages (`bytes`, JSON's size of them) takes about LINK_RUN_BUDGET_S of
 * the link's time (100,000 round trips over a 60 ms link would take 100 minutes), though a
 * stream over a link with a round trip gets at least LINK_MIN_SLICES slices of 20 round trips.
 * Latency mode keeps its own: a run lasts its messages over its rate on any link.
 */
export function iterationsOverLink(
  iterations: Readonly<Record<Mode, number>>,
  link: LinkProfile,
  bytes: number,
  window: number,
): Record<Mode, number> {
  const out = { ...iterations };
  for (const mode of ["roundtrip", "stream", "fanout", "route"] as const) {
    const fit = Math.floor((LINK_RUN_BUDGET_S * 1000) / linkMsPerMessage(mode, link, bytes, window));
    // A stream's slices span LINK_SLICE_RTTS round trips (schedule.ts): enough for LINK_MIN_SLICES of them to pair.
    const slices = mode === "stream" ? LINK_MIN_SLICES * streamSliceOverLink(link, bytes, window) : 0;
    out[mode] = Math.min(iterations[mode], Math.max(LINK_MIN_MESSAGES, fit, slices));
  }
  return out;
}

/**
 * `--rate sweep` over a link climbs from 100 messages a second: a window of 64 over a 60 ms round
 * trip lets through about 1,070 a second, and a large message fills 1.35 Mbit/s at about 500, so
 * loopback's first step (1,000) would already be past most links' knees. Each step still sends at
 * least 200 messages, 2 s of them at 100/s.
 */
export const LINK_SWEEP_RATES: readonly number[] = [100, 200, 500, ...SWEEP_RATES];

/** The latency rates of `settings` over `link`: a sweep's ladder reaches down to LINK_SWEEP_RATES; set rates stay. */
export function ratesOverLink(settings: Pick<Settings, "rates" | "sweep">): number[] {
  return settings.sweep ? [...LINK_SWEEP_RATES] : [...settings.rates];
}

/** How much of the link a case used, and what held it back. */
export interface LinkUse {
  /** Shares of each way's rate the case's frames filled (msgs/s x frame bytes x 8 over the rate); NaN where the way is not limited. */
  upShare: number;
  downShare: number;
  /** Stream and fanout: the share the case reached of window / (round trip + its frames' time on the wire), the most a window lets through the link. */
  windowShare: number;
  /**
   * What held the case back: `up` or `down` (that way's rate), `window` (the messages in flight
   * over the link's round trip), or `cpu` (none of those near: the codecs, the sockets, the
   * emulator's own work); roundtrip mode has none, its figures are the parts of its round trip;
   * nor has a case whose frames' size on the wire is unknown (--deflate where nothing counted them).
   */
  limit: "up" | "down" | "window" | "cpu" | "";
  /** Roundtrip: the link's part of a round trip, ms: its own round trip (the same for every codec) and the frames' time at its rates (more for more bytes). */
  fixedMs: number;
  bytesMs: number;
}

/**
 * A share of a way's capacity counts as the limit from this much on: the emulator's pacing and
 * delays are coarse (whole ms, a chunk at a time), so a full link or window shows 60 to 95%.
 */
const LIMIT_SHARE = 0.6;

/**
 * What `link` did to a case: `msgsPerS` messages a second of `upBytes` frames out and `downBytes`
 * back (a fanout's every subscriber, each over a link of its own), `window` in flight.
 */
export function linkUse(
  mode: SocketMode,
  link: LinkProfile,
  msgsPerS: number,
  upBytes: number,
  downBytes: number,
  window: number,
): LinkUse {
  const share = (bytes: number, kbps: number): number => (kbps > 0 ? (msgsPerS * bytes * 8) / (kbps * 1000) : NaN);
  const upShare = share(upBytes, link.upKbps);
  const downShare = share(downBytes, link.downKbps);
  const fixedMs = link.rttMs;
  const bytesMs =
    (link.upKbps > 0 ? (8 * upBytes) / link.upKbps : 0) + (link.downKbps > 0 ? (8 * downBytes) / link.downKbps : 0);
  if (mode === "roundtrip") return { upShare, downShare, windowShare: NaN, limit: "", fixedMs, bytesMs };
  // Compressed frames nothing counted: which way was full is not known, so nothing is named.
  if (!Number.isFinite(upBytes) || !Number.isFinite(downBytes))
    return { upShare, downShare, windowShare: NaN, limit: "", fixedMs, bytesMs };
  const windowShare = link.rttMs > 0 ? msgsPerS / (window / ((link.rttMs + bytesMs) / 1000)) : NaN;
  // The way nearest its capacity, if near enough, held the case back.
  let limit: LinkUse["limit"] = "cpu";
  let most = LIMIT_SHARE;
  for (const [name, used] of [
    ["up", upShare],
    ["down", downShare],
    ["window", windowShare],
  ] as const) {
    if (used >= most) [limit, most] = [name, used];
  }
  return { upShare, downShare, windowShare, limit, fixedMs, bytesMs };
}
