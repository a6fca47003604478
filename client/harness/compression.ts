/**
 * What compression does to each codec's messages, in process, with the runtime's own zlib and
 * zstd (no dependency). Per message, as a WebSocket would carry it:
 * - permessage-deflate on its own (no context takeover): raw deflate ending in a sync flush,
 *   whose trailing 00 00 ff ff RFC 7692 strips;
 * - permessage-deflate with the context kept across the stream (context takeover, the default of
 *   the extension): one deflate stream, flushed after every message, as the extension runs it.
 *   (Priming a one-shot call with the previous 32 KiB as a preset dictionary comes within a byte
 *   or two of it, not exactly: the stream is the real thing.)
 * - zstd on its own, at its default level.
 * Deflate's time is not measured. The runtime's synchronous call builds a compressor each time,
 * and that is most of it (docs/performance-notes.md has the figures), while
 * a WebSocket server keeps its compressor; the only API that keeps one is asynchronous, whose
 * thread hop would swamp the figure. The socket modes with `--deflate` show what compression
 * costs a server. zstd's time is of one `zstdCompressSync` call per message, as an application
 * compressing its messages itself would make it, set-up included; the call on an empty message
 * is timed beside it, so a reader sees how much of it is set-up.
 * Times are per message, by the clock around each call, median of several repeats over the
 * messages, clock read cost subtracted; the empty message's is the same call for every codec, so
 * a run times it once. Every compressed message is decompressed once and compared with the
 * original, so no size is of a stream that does not decode. The sizes are untimed: every codec's
 * are taken at once (a deflate stream waits on the runtime's compression threads after each
 * message), then each codec's zstd is timed alone.
 */

import { HarnessError } from "./harness-errors.ts";
import zlib from "node:zlib";
import { isBuiltIn, type Message, type PayloadName } from "../../protocols/messages.ts";
import { errorText } from "../../protocols/codec.ts";
import type { Plan } from "./plan.ts";
import type { Clock } from "./clock.ts";
import { messagesFor } from "./generator.ts";
import { userMessagesOf } from "./user-messages.ts";
import type { CaseResult, CompressionFigures } from "./results.ts";

/** RFC 7692 7.2.1: a sync flush ends in these four bytes, which the sender removes. */
const FLUSH_TAIL = 4;
const TIMED_REPEATS = 5;
const EMPTY = new Uint8Array(0);

const deflateAlone = (frame: Uint8Array): Buffer =>
  zlib.deflateRawSync(frame, { finishFlush: zlib.constants.Z_SYNC_FLUSH });
const zstd = (frame: Uint8Array): Uint8Array => zlib.zstdCompressSync(frame);

/**
 * Each frame through one deflate stream, flushed after every frame: bytes per frame, its flush tail
 * removed. Checks that the whole stream inflates back to the frames in order.
 */
export async function deflateWithContext(frames: readonly Uint8Array[]): Promise<number[]> {
  const stream = zlib.createDeflateRaw();
  const outputs: Buffer[] = [];
  try {
    for (const frame of frames) {
      const chunks: Buffer[] = [];
      const onData = (c: Buffer): number => chunks.push(c);
      stream.on("data", onData);
      stream.write(frame);
      await new Promise<void>((resolve) => stream.flush(zlib.constants.Z_SYNC_FLUSH, () => resolve()));
      stream.off("data", onData);
      outputs.push(Buffer.concat(chunks));
    }
  } finally {
    stream.close();
  }
  const back = zlib.inflateRawSync(Buffer.concat(outputs), { finishFlush: zlib.constants.Z_SYNC_FLUSH });
  if (!sameBytes(back, Buffer.concat(frames)))
    throw new HarnessError("NOT_GIVEN_BACK", "the deflate stream did not give the messages back");
  return outputs.map((o) => o.length - FLUSH_TAIL);
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return (
    a.byteLength === b.byteLength &&
    Buffer.compare(
      Buffer.from(a.buffer, a.byteOffset, a.byteLength),
      Buffer.from(b.buffer, b.byteOffset, b.byteLength),
    ) === 0
  );
}

/** Median over repeats of the mean time per frame of `compress`, ns. */
function timePerFrame(
  frames: readonly Uint8Array[],
  compress: (f: Uint8Array) => unknown,
  clock: Clock,
  overheadNs: number,
): number {
  const repeats: number[] = [];
  for (let p = 0; p < TIMED_REPEATS; p++) {
    let ns = 0;
    for (const frame of frames) {
      const t0 = clock.now();
      compress(frame);
      ns += (clock.now() - t0) * 1e6 - overheadNs;
    }
    repeats.push(ns / frames.length);
  }
  repeats.sort((a, b) => a - b);
  return repeats[Math.floor(repeats.length / 2)]!;
}

type CompressedSizes = Pick<CompressionFigures, "deflateBytes" | "deflateContextBytes" | "zstdBytes">;

/** One codec's frames' mean compressed sizes, untimed (in the order they would go out). Throws if a compressed frame does not decompress to itself. */
async function compressedSizes(frames: readonly Uint8Array[]): Promise<CompressedSizes> {
  let deflateBytes = 0;
  let zstdBytes = 0;
  for (const frame of frames) {
    const d = deflateAlone(frame);
    const z = zstd(frame);
    if (!sameBytes(zlib.inflateRawSync(d, { finishFlush: zlib.constants.Z_SYNC_FLUSH }), frame))
      throw new HarnessError("NOT_GIVEN_BACK", "deflate did not give the message back");
    if (!sameBytes(zlib.zstdDecompressSync(z), frame))
      throw new HarnessError("NOT_GIVEN_BACK", "zstd did not give the message back");
    deflateBytes += d.length - FLUSH_TAIL;
    zstdBytes += z.byteLength;
  }
  const context = await deflateWithContext(frames);
  return {
    deflateBytes: deflateBytes / frames.length,
    deflateContextBytes: context.reduce((a, b) => a + b, 0) / frames.length,
    zstdBytes: zstdBytes / frames.length,
  };
}

/** zstd's set-up: one call on an empty message, as many times as `frames` has messages. */
function zstdEmptyNs(frames: number, clock: Clock, overheadNs: number): number {
  return timePerFrame(
    Array.from({ length: frames }, () => EMPTY),
    zstd,
    clock,
    overheadNs,
  );
}

/** The figures for one codec's frames (in the order they would go out). Throws if a compressed frame does not decompress to itself. */
export async function compressionFigures(
  frames: readonly Uint8Array[],
  clock: Clock,
  overheadNs: number,
): Promise<CompressionFigures> {
  if (frames.length === 0)
    return { deflateBytes: NaN, deflateContextBytes: NaN, zstdBytes: NaN, zstdNs: NaN, zstdEmptyNs: NaN };
  return {
    ...(await compressedSizes(frames)),
    zstdNs: timePerFrame(frames, zstd, clock, overheadNs),
    zstdEmptyNs: zstdEmptyNs(frames.length, clock, overheadNs),
  };
}

/**
 * Messages per codec and payload the compressed sizes are taken over (the first of the run's
 * list): 500, or a fiftieth of a run when that is fewer (the quick look's 10,000: 200), so that a
 * short run does not spend a tenth of its time on sizes.
 */
const COMPRESSION_MESSAGES = 500;
const COMPRESSION_SHARE = 1 / 50;

/**
 * Adds compressed sizes to every verified codec-mode case: the payload's first messages (the
 * run's seed), encoded by the codec in order as a stream would carry them, text as UTF-8. A case
 * whose sizes cannot be taken keeps its timings and gets none; why is returned, one line each.
 */
export async function addCompression(
  cases: CaseResult[],
  plan: Plan,
  clock: Clock,
  overheadNs: number,
): Promise<string[]> {
  const { settings } = plan;
  const messagesOf = new Map<PayloadName, readonly Message[]>();
  const work: { c: CaseResult; frames: Uint8Array[] }[] = [];
  for (const c of cases) {
    const codec = plan.catalog.get(c.codec);
    if (c.mode !== "codec" || !c.verified || !codec) continue;
    const payload = c.payload as PayloadName;
    if (!messagesOf.has(payload)) {
      // A user's file is taken once through, never cycled: a stream of repeats would compress to nothing.
      const count = Math.min(
        COMPRESSION_MESSAGES,
        Math.max(1, Math.ceil(settings.iterations.codec * COMPRESSION_SHARE)),
        isBuiltIn(payload) ? Infinity : userMessagesOf(settings.userMessages, payload).messages.length,
      );
      messagesOf.set(payload, messagesFor(settings, payload, count));
    }
    const pair = codec.forPayload(payload);
    const frames = messagesOf.get(payload)!.map((m) => {
      const e = pair.encode(m);
      return typeof e === "string" ? Buffer.from(e, "utf8") : Uint8Array.from(e);
    });
    if (frames.length > 0) work.push({ c, frames });
  }
  // Sizes untimed, every codec's at once; then each codec's zstd timed on its own.
  const sizes = await Promise.all(
    work.map(({ frames }) => compressedSizes(frames).catch((e: unknown) => errorText(e))),
  );
  const emptyNs = work.length > 0 ? zstdEmptyNs(Math.max(...work.map((w) => w.frames.length)), clock, overheadNs) : NaN;
  const errors: string[] = [];
  work.forEach(({ c, frames }, i) => {
    const size = sizes[i]!;
    if (typeof size === "string") errors.push(`compressed sizes of ${c.codec} ${c.payload}: ${size}`);
    else c.compression = { ...size, zstdNs: timePerFrame(frames, zstd, clock, overheadNs), zstdEmptyNs: emptyNs };
  });
  return errors;
}
