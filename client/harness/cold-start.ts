/**
 * Cold mode: what a codec costs before its code is warm, as a client meets it
 * after a deploy, a reconnect or a page load. Every other mode times a codec
 * after 100,000 calls of warm-up; here each case runs in fresh processes,
 * one per repeat (`--runs`), and each process times, once:
 *
 * - the import of the codec's own module, its library with it, in a process
 *   that has imported no codec (codec-loaders.ts);
 * - its set-up: the codec made and its encoder/decoder pair for the payload
 *   (forPayload), where schema codecs parse their schemas and generate code;
 * - its first messages (1,000 unless `--iterations` says otherwise, made by
 *   the process that starts it and handed over as a structured clone), each
 *   encode + decode timed alone, so the first message, the first 10, 100 and
 *   1,000 are figures of their own. Each message is checked once its timing ends:
 *   a process whose messages do not come back exactly fails its case.
 *
 * The process is the unit (docs/methodology.md): a case's figure over its
 * processes is their median with the interval of their logarithms, and its
 * ratio to json is taken repeat by repeat (json's process of the same
 * repeat), their geometric mean with a Student's t interval (pairing.ts).
 * The repeats run in turn, every case once per repeat in a shuffled order,
 * so the machine's drift over the run falls on every codec alike.
 */

import type { Clock } from "./clock.ts";
import { calibrateClock } from "./clock.ts";
import type { CodecLoader, UserPayloadSchemas } from "./codec-loaders.ts";
import type { ColdSlice } from "./results.ts";
import type { TimeLedger } from "./time-account.ts";
import { describeMismatch, ownRoundTrips, sameMessage } from "./verify.ts";
import { encodedBytes, type Codec, type PayloadCodec } from "../../protocols/codec.ts";
import type { Message, PayloadName } from "../../protocols/messages.ts";

/** The first messages cold mode gives a figure for: the first alone, then the mean of the first 10, 100 and 1,000. */
const COLD_FIRSTS = [1, 10, 100, 1000] as const;

/**
 * What one fresh process of cold mode is given, made by the process that starts it: the messages
 * themselves and, on a user's payload, the schemas its schema codecs are made from. It crosses as a
 * structured clone (bun:jsc's serialize), not as JSON: parsing a job or a user's messages as JSON
 * in the process would run JSON's code, and json's first messages would find it warm.
 */
export interface ColdJob {
  codec: string;
  payload: PayloadName;
  /** The messages it times, in order. */
  messages: Message[];
  /** A user's payload: what custom-binary, protobuf and avro are made from. */
  user?: UserPayloadSchemas;
  /** Check each message against the codec's own round trip (a user's messages with --allow-lossy or --equal), not against itself. */
  ownTrips: boolean;
  /** The codec module's file, for a codec of the user's (--codec-module). */
  moduleFile?: string;
}

/** What one fresh process measured. */
export interface ColdMeasurement {
  slice: ColdSlice;
  /** Means over every message it timed, ns per message. */
  serializeNs: number;
  deserializeNs: number;
  totalNs: number;
  bytes: number;
  bytesMin: number;
  bytesMax: number;
  /** The clock's step, ns: a browser's is coarse (5 µs in Chromium, 20 µs in Firefox, cross-origin isolated). */
  clockResolutionNs: number;
}

/**
 * Runs one process's measurement: call it once, in a process that has imported no codec and run
 * no codec's code, before anything else times. Throws (one line) where the codec cannot be loaded
 * or a message does not come back exactly.
 */
export async function measureColdStart(
  job: ColdJob,
  clock: Clock,
  loader: CodecLoader,
  ledger?: TimeLedger,
): Promise<ColdMeasurement> {
  const { messages, user, ownTrips } = job;
  const n = messages.length;
  const encodeNs = new Float64Array(n);
  const decodeNs = new Float64Array(n);
  // Each message is checked as soon as it is timed, and what came back is dropped: a thousand decoded
  // messages held to the end made the collector's work, and allocation-heavy codecs' times, grow.
  // Checked against the codec's own round trip (your lossy messages), they are held: that trip comes after.
  const decoded: unknown[] = ownTrips ? new Array(n) : [];
  const sizes = new Float64Array(n);
  const wrong = (i: number, expected: Message, actual: unknown): Error =>
    new Error(`message ${i + 1} did not come back exactly: ${describeMismatch(expected, actual)}`);
  const t0 = clock.now();
  const make = await loader(user);
  const t1 = clock.now();
  const codec: Codec = make();
  const pc: PayloadCodec = codec.forPayload(job.payload);
  const t2 = clock.now();
  for (let i = 0; i < n; i++) {
    const a = clock.now();
    const wire = pc.encode(messages[i]!);
    const b = clock.now();
    const back = pc.decode(wire);
    const c = clock.now();
    encodeNs[i] = b - a;
    decodeNs[i] = c - b;
    // Untimed: the size before the next encode may reuse the buffer, and what came back.
    sizes[i] = encodedBytes(wire);
    if (ownTrips) decoded[i] = back;
    else if (!sameMessage(messages[i]!, back)) throw wrong(i, messages[i]!, back);
  }
  const timed = clock.now();
  ledger?.add("timed", timed - t0);
  // After the messages, so the calibration's own loop warms nothing they ran.
  const { overheadNs: timerNs, resolutionNs } = calibrateClock(clock, 50, 5_000, 5);
  if (ownTrips) {
    const expected = ownRoundTrips(pc, messages);
    for (let i = 0; i < n; i++) if (!sameMessage(expected[i]!, decoded[i])) throw wrong(i, expected[i]!, decoded[i]);
  }
  ledger?.add("verify", clock.now() - timed);
  // Each interval holds one clock read's cost; ms to ns.
  const ns = (ms: number): number => Math.max(0, ms * 1e6 - timerNs);
  let encodeSum = 0;
  let decodeSum = 0;
  const firsts: Partial<Record<(typeof COLD_FIRSTS)[number], number>> = {};
  for (let i = 0; i < n; i++) {
    encodeSum += ns(encodeNs[i]!);
    decodeSum += ns(decodeNs[i]!);
    for (const k of COLD_FIRSTS) if (i + 1 === k) firsts[k] = (encodeSum + decodeSum) / k;
  }
  let bytes = 0;
  for (const s of sizes) bytes += s;
  return {
    slice: {
      importNs: (t1 - t0) * 1e6,
      setupNs: (t2 - t1) * 1e6,
      firstNs: firsts[1] ?? NaN,
      ...(firsts[10] !== undefined ? { first10Ns: firsts[10] } : {}),
      ...(firsts[100] !== undefined ? { first100Ns: firsts[100] } : {}),
      ...(firsts[1000] !== undefined ? { first1000Ns: firsts[1000] } : {}),
    },
    serializeNs: encodeSum / n,
    deserializeNs: decodeSum / n,
    totalNs: (encodeSum + decodeSum) / n,
    bytes: bytes / n,
    bytesMin: sizes.reduce((m, x) => Math.min(m, x), Number.POSITIVE_INFINITY),
    bytesMax: sizes.reduce((m, x) => Math.max(m, x), 0),
    clockResolutionNs: resolutionNs,
  };
}
