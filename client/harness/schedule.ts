/**
 * How long a timed batch must last and in what order cases run: the
 * pieces of the measuring plan every mode shares.
 */

import type { ClockCalibration } from "./clock.ts";
import { streamSliceOverLink } from "./link.ts";
import { latencyMessagesOverLink, type Settings, type SocketMode } from "./settings.ts";

/**
 * Shortest batch worth timing: 100x the clock's resolution, so a tick is at
 * most 1% of a sample, and 100x the cost of a clock read (which is taken off
 * every batch's time besides), so reading the clock is at most 1% of it.
 */
export function minBatchNs(calibration: ClockCalibration): number {
  return Math.max(100 * calibration.resolutionNs, 100 * calibration.overheadNs);
}

/**
 * How long the fastest codec's slice should take: long against the clock, short against the
 * machine's drift, and short so that rounds are many: a ratio's interval narrows with the rounds
 * it rests on, and a round's spread hardly grows from 250 to 150 µs slices (docs/performance-notes.md).
 */
export const SLICE_TARGET_NS = 150_000;

/**
 * Messages per slice for one payload, the same for every codec so that a
 * round's codecs handle the same messages: enough for the fastest codec's
 * slice to last SLICE_TARGET_NS and for every codec's serialize and
 * deserialize loop to last 1.1x the clock's minimum batch, at most every
 * message. `costs` are each codec's estimated ns per call.
 */
export function sliceSize(
  costs: readonly { encodeNs: number; decodeNs: number }[],
  calibration: ClockCalibration,
  iterations: number,
): number {
  if (costs.length === 0) return iterations;
  let fastest = Infinity;
  let longest = 1;
  for (const { encodeNs, decodeNs } of costs) {
    fastest = Math.min(fastest, encodeNs + decodeNs);
    longest = Math.max(
      longest,
      Math.ceil((1.1 * minBatchNs(calibration)) / Math.max(1e-3, Math.min(encodeNs, decodeNs))),
    );
  }
  const forTarget = Math.ceil(SLICE_TARGET_NS / Math.max(1e-3, fastest));
  return Math.max(1, Math.min(iterations, Math.max(longest, forTarget)));
}

/** The most slices one read-one loop reads (each slice's frames are then read in that many rounds). */
const READ_ONE_MAX_SLICES = 16;

/**
 * How many slices' frames a codec's read-one loop reads in a round: enough for the loop to last
 * 1.1x the clock's minimum batch (reading one field takes a router a few nanoseconds, far below a
 * slice's decode), at most READ_ONE_MAX_SLICES. `readOneNs`: the codec's estimated ns per read.
 */
export function readOneSlices(readOneNs: number, slice: number, calibration: ClockCalibration): number {
  if (!(readOneNs > 0)) return 1;
  return Math.max(1, Math.min(READ_ONE_MAX_SLICES, Math.ceil((1.1 * minBatchNs(calibration)) / (readOneNs * slice))));
}

/**
 * Roundtrip and stream mode cut each run into this many slices, one per
 * round: short slices pair codecs that ran within milliseconds of each
 * other, so the machine's drift cancels in their ratio. One run of 200
 * slices (stream: 500 messages, about 5 ms; roundtrip: 30 round trips)
 * puts the field ratios' intervals at ±2-5% (stream) and ±4-9%
 * (roundtrip), where three runs of 50 slices, three times the messages,
 * gave ±3-6% and ±4-7% (docs/performance-notes.md, "Short slices").
 * Each slice is still at least four windows, so filling and draining the
 * window stays a small part of it.
 */
const SOCKET_SLICES_PER_RUN = 200;

/** Messages per slice in roundtrip and stream mode: a run's share of SOCKET_SLICES_PER_RUN, at least four windows, at most the run. */
export function socketSliceSize(iterations: number, window: number): number {
  return Math.max(1, Math.min(iterations, Math.max(4 * window, Math.ceil(iterations / SOCKET_SLICES_PER_RUN))));
}

/**
 * Latency mode's slices: messages are paced, not windowed, so a slice needs no
 * room to fill a window; it needs to be short, so that a pause of the machine
 * (several ms on a shared one) lands in few of a step's slices and leaves their
 * median alone. A run's share of LATENCY_SLICES_PER_RUN, at least this many
 * messages: at 1,000 messages/s, 25 ms.
 */
export const LATENCY_SLICE_MIN = 25;
const LATENCY_SLICES_PER_RUN = 50;

export function latencySliceSize(iterations: number): number {
  return Math.max(1, Math.min(iterations, Math.max(LATENCY_SLICE_MIN, Math.ceil(iterations / LATENCY_SLICES_PER_RUN))));
}

/**
 * A slice over a link: at least LINK_SLICE_RTTS of its round trips, so its last (the frames still
 * on the link, nothing sent) stays a small part of it; at most the run. Stream mode: the
 * messages of 20 round trips (a window each, or fewer where the link's rate paces `bytes`, the
 * payload's JSON size, the largest of the codecs'); latency mode: 20 round trips at the step's
 * rate, and at least a second. Roundtrip mode has no such round trip; over loopback nothing changes.
 */
export function sliceOverLink(
  slice: number,
  iterations: number,
  mode: SocketMode,
  settings: Pick<Settings, "link" | "window" | "rates">,
  bytes: number,
): number {
  const link = settings.link;
  if (!link) return slice;
  const least =
    mode === "stream"
      ? streamSliceOverLink(link, bytes, settings.window)
      : mode === "latency"
        ? latencyMessagesOverLink(settings, settings.rates[0] ?? 0)
        : 0;
  return Math.min(iterations, Math.max(slice, least));
}

/** Fisher-Yates with the benchmark's seeded generator. */
export function shuffled<T>(items: readonly T[], rng: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(rng() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/** Most messages a payload's shared list holds for the socket modes (memory: 100,000 of the large message are about 45 MB). */
const SHARED_LIST_MAX = 100_000;
/**
 * Most JSON text a payload's shared list holds, bytes: the article's large message keeps its
 * 100,000 (30 MB of JSON, 42 MiB of heap), the game tick (3.3 KB a message, 48 entities at most)
 * about 12,700 instead of 217 MiB of heap for 100,000.
 */
export const SHARED_LIST_BYTES = 40 * 1048576;
/** Fewest messages a shared list holds, however large each is (or every message the codecs send, if fewer). */
const SHARED_LIST_MIN = 1_000;

/**
 * How long the list of a payload's messages must be for `codecs` codecs to send `perCodec` each
 * in the socket modes without any two sending the same message in a run: all of them, up to
 * SHARED_LIST_MAX messages and SHARED_LIST_BYTES of their JSON (`bytesPerMessage`). Beyond it they
 * share, spread apart as far as they can be: a codec meets a message another sent, or one it sent
 * itself, a list's length later. The game tick's 12,700 messages over 17 codecs put that 2.4 MB
 * of text apart, further than the small message's 100,000 over 8 codecs (425 KB).
 */
export function sharedListLength(perCodec: number, codecs: number, bytesPerMessage = 0): number {
  const all = perCodec * Math.max(1, codecs);
  const byBytes = bytesPerMessage > 0 ? Math.floor(SHARED_LIST_BYTES / bytesPerMessage) : Infinity;
  return Math.min(all, Math.max(SHARED_LIST_MIN, Math.min(SHARED_LIST_MAX, byBytes)));
}

/** The mean size of `sample`'s messages as JSON text, bytes: what sharedListLength weighs a list by. */
export function jsonBytesPerMessage(sample: readonly unknown[]): number {
  if (sample.length === 0) return 0;
  return sample.reduce<number>((sum, m) => sum + JSON.stringify(m).length, 0) / sample.length;
}

/**
 * The messages codec number `index` of `codecs` sends in the socket modes: `count` of them, from
 * its own place in the shared `list`, the codecs' places spread evenly over it (references, not
 * copies). A server that has just handled a message handles the same text again faster
 * (docs/performance-notes.md, "Figures behind the defaults"), so no
 * codec may send what another just sent: with a list as long as sharedListLength asks, no two
 * codecs send the same message in a run.
 */
export function codecMessages<T>(list: readonly T[], index: number, codecs: number, count: number): T[] {
  const offset = Math.floor((index * list.length) / Math.max(1, codecs));
  return Array.from({ length: count }, (_, k) => list[(offset + k) % list.length]!);
}
