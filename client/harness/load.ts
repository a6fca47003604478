/**
 * What each format costs at a user's traffic (`--load PAYLOAD=RATE,... --fanout N`): messages a
 * second arriving at the server, each delivered to N sockets. Predicted from the field figures
 * (what a codec costs inside the server per message, client/harness/field.ts) on top of the
 * transport's own cost at that load, which the same run measures by driving `raw` at it; then
 * checked by driving every codec at the load (client/socket/load-drive.ts) and reading the
 * server process's CPU over each window.
 *
 *   predicted cores = raw's measured cores at the load + sum over payloads of rate x field (ns) x 1e-9
 *
 * The server decodes and encodes a published message once and Bun's publish hands the same bytes
 * to every subscriber, so the fan-out multiplies the bytes that go down, never the codec's work.
 * Bytes are the codec's payload bytes (each frame's 2-14 bytes of header left out), plain and as
 * permessage-deflate with its context kept (codec mode's figures, compression.ts). What switching
 * from JSON saves a day comes from the field figures less JSON's, paired round by round
 * (fieldOverJson): the transport is the same for both and drops out.
 */

import type { PayloadName } from "../../protocols/messages.ts";
import { RAW_CODEC_NAME } from "../../protocols/contract.ts";
import { estimate } from "./pairing.ts";
import type { CaseResult, Estimate, LoadCodecFigures, LoadResult } from "./results.ts";
import type { LoadSpec, Settings } from "./settings.ts";
import { isExcluded } from "./exclusions.ts";
import { CALIBRATION_CODEC_NAMES } from "../../protocols/calibration.ts";
import { SettingError } from "./harness-errors.ts";

/**
 * The codecs a load is driven with: raw (the transport alone, which the predictions rest on) and
 * every codec of the run that carries all the load's payloads, the calibration codecs (JSON
 * measuring the measurement) left out.
 */
export function loadCodecs(settings: Pick<Settings, "codecs" | "excluded">, spec: LoadSpec): string[] {
  const carries = (c: string): boolean => spec.rates.every((r) => !isExcluded(settings, c, r.payload));
  return [
    RAW_CODEC_NAME,
    ...settings.codecs.filter((c) => c !== RAW_CODEC_NAME && !CALIBRATION_CODEC_NAMES.includes(c) && carries(c)),
  ];
}

/** Each codec is driven at the load this many times, in a shuffled order each round, taking turns over the server processes. */
export const LOAD_ROUNDS = 3;
/** Untimed seconds of load before each window: connections open, the server's code warm, its queues at their level. */
export const LOAD_WARM_MS = 500;
/** The window the server's CPU is read over. */
export const LOAD_WINDOW_MS = 2_000;
/** Below this share of the rate asked for, a drive did not carry the load (the client, not the server, may be the limit). */
export const LOAD_KEPT_SHARE = 0.95;
/** Without --fanout: each message goes back to one socket. */
export const DEFAULT_FANOUT = 1;
/** The most deliveries per message: the server keeps the figures of its last 1,000 connections, by which the drive checks each subscriber is there. */
export const MAX_FANOUT = 1_000;

/**
 * `--load cursors=9000,strokes=600`: each payload at most once, each rate a whole number of
 * messages a second from 1 to 1,000,000; `payloads` are the run's.
 */
export function parseLoad(option: string, raw: string, payloads: readonly PayloadName[]): LoadSpec["rates"] {
  const parts = raw.split(",").map((p) => p.trim());
  const rates: LoadSpec["rates"] = [];
  for (const part of parts) {
    const m = /^([^=\s]+)\s*=\s*(\d[\d_]*)$/.exec(part);
    if (!m)
      throw new SettingError(
        `${option} takes PAYLOAD=RATE[,PAYLOAD=RATE...], messages a second arriving at the server, like ${payloads[0] ?? "small"}=1000; got '${raw}'`,
      );
    const payload = m[1]!;
    if (!payloads.includes(payload))
      throw new SettingError(
        `${option}: '${payload}' is not a payload of this run; valid values: ${payloads.join(", ")}`,
      );
    if (rates.some((r) => r.payload === payload)) throw new SettingError(`${option} names ${payload} twice`);
    const rate = Number(m[2]!.replaceAll("_", ""));
    if (!Number.isSafeInteger(rate) || rate < 1 || rate > 1_000_000)
      throw new SettingError(`${option}: ${payload}'s rate must be an integer from 1 to 1000000, got '${m[2]}'`);
    rates.push({ payload, rate });
  }
  return rates;
}

/** Messages a second the load brings in, all payloads. */
export function loadRate(spec: LoadSpec): number {
  return spec.rates.reduce((n, r) => n + r.rate, 0);
}

/** How a load reads in a line: "cursors 9,000/s + strokes 600/s, fan-out 50". */
export function loadText(spec: LoadSpec): string {
  const rates = spec.rates.map((r) => `${r.payload} ${r.rate.toLocaleString("en-US")}/s`).join(" + ");
  return `${rates}, fan-out ${spec.fanout}`;
}

/** The load as one payload cell of the CSV: "cursors=9000+strokes=600". */
export function loadCell(spec: LoadSpec): string {
  return spec.rates.map((r) => `${r.payload}=${r.rate}`).join("+");
}

/** One window of a codec's drive at the load. */
export interface LoadRound {
  /** Which of the LOAD_ROUNDS (0-based). */
  round: number;
  /** The server process's CPU over the window, in cores (CPU seconds a second). */
  cores: number;
  /** Messages sent a second over the window, all payloads; the load asks for loadRate(spec). (Every delivery of them arrived: the drive checks it before the window counts.) */
  sentPerS: number;
  /** The client's own CPU over the window, in cores, where its runtime tells it: near 1, the client (one thread) may be what limits the drive. */
  clientCores?: number;
}

/** A codec's drive at the load, window by window; `error`: why it stopped (its rounds so far still count). */
export interface LoadDrive {
  codec: string;
  rounds: LoadRound[];
  error?: string;
}

/** What driving the load measured: every codec's windows, `raw` (the transport alone) among them. */
export interface LoadMeasurement {
  spec: LoadSpec;
  windowMs: number;
  drives: LoadDrive[];
}

/**
 * The socket modes whose field figure a prediction takes, the first that ran. A server below
 * saturation wakes to a few messages and sleeps again, as roundtrip's server (one message in
 * flight) does, and a codec costs it about twice what it costs stream's, which is never idle (its
 * caches hot, its messages back to back). Measured at a load, roundtrip's figures came closer to
 * the server's cores than stream's (docs/your-load.md).
 */
const FIELD_MODES = ["roundtrip", "latency", "stream"] as const;

/** The case a codec's field figure on a payload comes from: the first of FIELD_MODES with one. */
function fieldCase(cases: readonly CaseResult[], codec: string, payload: string): CaseResult | undefined {
  for (const mode of FIELD_MODES) {
    const c = cases.find(
      (x) =>
        x.mode === mode &&
        x.codec === codec &&
        x.payload === payload &&
        x.client === "bun" &&
        x.verified &&
        x.ratios?.field !== undefined,
    );
    if (c) return c;
  }
  return undefined;
}

/** The codec's bytes per message on a payload: codec mode's case first (its deflate figures too), else any verified case. */
function sizeCase(cases: readonly CaseResult[], codec: string, payload: string): CaseResult | undefined {
  const of = cases.filter((x) => x.codec === codec && x.payload === payload && x.verified);
  return of.find((x) => x.mode === "codec") ?? of[0];
}

/** Sums a figure over the load's payloads, rate times it; undefined when a payload lacks it. */
function perSecond(spec: LoadSpec, figure: (payload: string) => number | undefined): number | undefined {
  let sum = 0;
  for (const { payload, rate } of spec.rates) {
    const v = figure(payload);
    if (v === undefined || !Number.isFinite(v)) return undefined;
    sum += rate * v;
  }
  return sum;
}

/**
 * The codec's cores inside the server at the load, by the field figures: each end of the interval
 * from each payload's interval end (undefined when a payload has no field figure).
 */
function codecCores(spec: LoadSpec, cases: readonly CaseResult[], codec: string, pick: "field" | "fieldOverJson") {
  const parts = spec.rates.map(({ payload, rate }) => ({ rate, e: fieldCase(cases, codec, payload)?.ratios?.[pick] }));
  if (parts.some((p) => p.e === undefined)) return undefined;
  const sum = (end: "value" | "low" | "high"): number => parts.reduce((n, p) => n + p.rate * p.e![end] * 1e-9, 0);
  return {
    value: sum("value"),
    low: sum("low"),
    high: sum("high"),
    rounds: Math.min(...parts.map((p) => p.e!.rounds)),
  };
}

/** Payload bytes a second up (to the server) and down (fan-out times), plain and deflated. */
function bytesAtLoad(spec: LoadSpec, cases: readonly CaseResult[], codec: string) {
  const up = perSecond(spec, (p) => sizeCase(cases, codec, p)?.bytes);
  const deflated = perSecond(spec, (p) => sizeCase(cases, codec, p)?.compression?.deflateContextBytes);
  return {
    up,
    down: up === undefined ? undefined : up * spec.fanout,
    deflatedUp: deflated,
    deflatedDown: deflated === undefined ? undefined : deflated * spec.fanout,
  };
}

const DAY_S = 86_400;

/** Bytes a second both ways (plain, or deflated), for what switching saves a day. */
function bothWays(b: ReturnType<typeof bytesAtLoad>, deflated: boolean): number | undefined {
  const [up, down] = deflated ? [b.deflatedUp, b.deflatedDown] : [b.up, b.down];
  return up === undefined || down === undefined ? undefined : up + down;
}

/** `f` of each window of `d` and the window of `base` in the same round (so on the same server process). */
function byWindow(d: LoadDrive, base: LoadDrive | undefined, f: (own: number, theirs: number) => number): number[] {
  const theirs = new Map((base?.rounds ?? []).map((r) => [r.round, r.cores]));
  return d.rounds.flatMap((r) => {
    const t = theirs.get(r.round);
    return t === undefined ? [] : [f(r.cores, t)];
  });
}

/** A payload of the load on which the codec has no field figure, for the line that says why none is predicted. */
function missingField(spec: LoadSpec, cases: readonly CaseResult[], codec: string): string | undefined {
  return spec.rates.find((r) => fieldCase(cases, codec, r.payload) === undefined)?.payload;
}

/**
 * The load's figures from what the drive measured and the run's cases (their ratios worked out):
 * each codec's measured cores, its prediction from raw's and the field figures, the bytes, and
 * what switching from JSON saves a day.
 */
export function loadFigures(m: LoadMeasurement, cases: readonly CaseResult[]): LoadResult {
  const target = loadRate(m.spec);
  const measured = (d: LoadDrive | undefined): Estimate | undefined => d && estimate(d.rounds.map((r) => r.cores));
  const raw = m.drives.find((d) => d.codec === RAW_CODEC_NAME);
  const json = m.drives.find((d) => d.codec === "json");
  // The mean rate a drive sent, over what the load asks.
  const keptOf = (d: LoadDrive): number | undefined =>
    d.rounds.length > 0 ? d.rounds.reduce((n, r) => n + r.sentPerS, 0) / d.rounds.length / target : undefined;
  // A transport measured at less than the load is no floor for it: no prediction rests on it.
  const rawKept = raw ? keptOf(raw) : undefined;
  const transport = rawKept !== undefined && rawKept >= LOAD_KEPT_SHARE ? measured(raw) : undefined;
  const jsonBytes = bytesAtLoad(m.spec, cases, "json");
  const codecs = m.drives.map((d): LoadCodecFigures => {
    const own = measured(d);
    const kept = keptOf(d);
    const out: LoadCodecFigures = {
      codec: d.codec,
      windows: d.rounds.map((r) => ({
        round: r.round,
        cores: r.cores,
        ...(r.clientCores !== undefined ? { clientCores: r.clientCores } : {}),
      })),
      ...(own ? { measuredCores: own } : {}),
      ...(kept !== undefined ? { keptShare: kept } : {}),
    };
    const bytes = bytesAtLoad(m.spec, cases, d.codec);
    if (bytes.up !== undefined) Object.assign(out, { bytesUpPerS: bytes.up, bytesDownPerS: bytes.down });
    if (bytes.deflatedUp !== undefined)
      Object.assign(out, { deflatedUpPerS: bytes.deflatedUp, deflatedDownPerS: bytes.deflatedDown });
    const whys: string[] = [];
    if (d.error !== undefined) whys.push(d.error);
    if (d.codec !== RAW_CODEC_NAME) {
      const codec = codecCores(m.spec, cases, d.codec, "field");
      const lacking = missingField(m.spec, cases, d.codec);
      if (lacking !== undefined)
        whys.push(`no field figure on ${lacking} (no roundtrip, latency or stream case of it verified with json)`);
      else if (!transport)
        whys.push(
          rawKept === undefined
            ? "raw, the transport alone, was not measured at the load"
            : "raw, the transport alone, did not carry the load: nothing to predict from",
        );
      if (codec) out.codecCores = codec;
      if (codec && transport) {
        out.predictedCores = {
          value: transport.value + codec.value,
          low: transport.low + codec.low,
          high: transport.high + codec.high,
          rounds: Math.min(transport.rounds, codec.rounds),
        };
        // Paired window by window: round r of every codec ran on the same server process as raw's round r.
        // Only where this drive carried the load: at less, it measured another load than the one predicted.
        const paired = estimate(byWindow(d, raw, (own, t) => own / (t + codec.value)));
        if (paired && kept !== undefined && kept >= LOAD_KEPT_SHARE) out.agreement = paired.value - 1;
      }
      if (d.codec !== "json") {
        // Measured: json's cores less this codec's, window by window on the same server process.
        const savedMeasured = estimate(byWindow(d, json, (own, j) => (j - own) * 24));
        if (savedMeasured) out.measuredSavedCoreHoursPerDay = savedMeasured;
        // By the field figures: less json's cost is a saving, so the interval's ends swap sides.
        const over = codecCores(m.spec, cases, d.codec, "fieldOverJson");
        if (over)
          out.savedCoreHoursPerDay = { ...over, value: -over.value * 24, low: -over.high * 24, high: -over.low * 24 };
        for (const deflated of [false, true]) {
          const [theirs, mine] = [bothWays(jsonBytes, deflated), bothWays(bytes, deflated)];
          if (theirs === undefined || mine === undefined) continue;
          out[deflated ? "savedDeflatedGbPerDay" : "savedGbPerDay"] = ((theirs - mine) * DAY_S) / 1e9;
        }
      }
    }
    if (out.keptShare !== undefined && out.keptShare < LOAD_KEPT_SHARE)
      whys.push(
        `sent ${Math.round(out.keptShare * target).toLocaleString("en-US")} of ${target.toLocaleString("en-US")} messages a second: the load was not carried`,
      );
    if (whys.length > 0) out.why = whys.join("; ");
    out.carried = d.error === undefined && kept !== undefined && kept >= LOAD_KEPT_SHARE;
    return out;
  });
  // raw first: the transport every prediction rests on.
  codecs.sort((a, b) => Number(b.codec === RAW_CODEC_NAME) - Number(a.codec === RAW_CODEC_NAME));
  const fieldModes = [
    ...new Set(m.drives.flatMap((d) => m.spec.rates.map((r) => fieldCase(cases, d.codec, r.payload)?.mode))),
  ].filter((mode) => mode !== undefined);
  return { spec: m.spec, windowMs: m.windowMs, fieldModes, codecs };
}
