/**
 * The plain result objects every mode returns and every reporter reads.
 * Measuring code builds these; nothing here prints or writes.
 */

import type { Frame } from "../../protocols/codec.ts";
import type { PayloadName } from "../../protocols/messages.ts";
import type { FidelityReport } from "./fidelity.ts";
import { summarize, type Summary } from "./stats.ts";
import type { ClientKind, Mode, Settings } from "./settings.ts";

/** What the numbers were measured on. Every results file carries it. */
export interface Environment {
  runtime: string;
  runtimeVersion: string;
  os: string;
  arch: string;
  cpu: string;
  cores: number;
  memoryGiB: number;
  /** npm package name -> version, for every library a codec uses. */
  libraries: Record<string, string>;
  clock: string;
  timerResolutionNs: number;
  timerOverheadNs: number;
  /** true when a full garbage collection runs between cases. */
  gcBetweenCases: boolean;
  /** msgpackr's optional native string decoder (msgpackr-extract) was loaded. */
  msgpackrNative: boolean;
  /** Browser only: the page was cross-origin isolated (finer clock). */
  crossOriginIsolated?: boolean;
  /** Browser only. */
  userAgent?: string;
}


/** Latency percentiles from every round-trip sample, ns. */
export interface LatencyPercentiles {
  samples: number;
  p50: number;
  p90: number;
  p99: number;
  p999: number;
  /** Absent in files written before it was recorded. */
  p9999?: number;
  max: number;
}

/** One client's share of a `--clients N` case run. */
export interface ClientFigures {
  sent: number;
  received: number;
  lost: number;
  msgsPerS: number;
}

/** What only the WebSocket modes have. Counts are summed over runs. */
interface SocketFigures {
  /** Concurrent connections per case (--clients). */
  clients: number;
  /** With several clients: each client's figures, per run. */
  perClient?: ClientFigures[][];
  /** Messages in flight: 1 for roundtrip, the window for stream. */
  window: number;
  /** Messages per timed slice: one round's share in interleaved rounds, the whole run on fresh connections. */
  slice: number;
  sent: number;
  received: number;
  lost: number;
  reordered: number;
  corrupted: number;
  /** Client-to-server frame per message (payload + header + mask), bytes; with compression, as measured on the socket (NaN when not measured). */
  wireBytes: number;
  /** Server's reply payload per message, bytes. */
  replyBytes: number;
  /** Server-to-client frame per message (payload + header), bytes; with compression, as measured on the socket (NaN when not measured; absent in older files). */
  replyWireBytes?: number;
  /** With compression: the share of the client's messages it sent compressed (a client may leave small ones alone). */
  compressedShare?: number;
  /** roundtrip: every message's round-trip time; latency: each reply's time since its message was due (corrected); pooled over runs. */
  rtt: LatencyPercentiles | undefined;
  /** latency mode: each reply's time since its message actually went out (uncorrected, what a closed loop sees). */
  serviceTime?: LatencyPercentiles;
  /** latency mode: messages sent more than one interval (at least 1 ms) after they were due, summed over runs. */
  late?: number;
  /** latency mode: messages per second asked for (all clients together) and achieved (sent over the spans they were sent in at the pace the client kept: a line fitted through each run's send times, client/socket/open-loop.ts). */
  targetRate?: number;
  achievedRate?: number;
  /** latency mode: every sample of both, as HdrHistograms (µs, 3 significant digits) in HdrHistogram's compressed base64 encoding. */
  histograms?: { correctedUs: string; serviceUs: string };
  /** Server-side decode / encode per message, per-call timing with clock cost subtracted, across runs, ns. */
  serverDeserialize: Summary;
  serverSerialize: Summary;
  /** Kept connections: the server's figures of every slice (RunFigures.server) across the slices, per message, ns (absent in older files). */
  field?: FieldFigures;
  /** Payload megabytes (10^6) per second, one direction. */
  mbPerS: number;
  /** CPU time of the server and of the client while the cases ran, and the cases' wall time, ms. */
  serverCpuMs: number;
  clientCpuMs: number;
  /** CPU per message on each side, ns: the client's over messages sent (its pacing loop included in latency mode), the server's over messages it answered (absent in older files). */
  clientCpuNsPerMsg?: number;
  serverCpuNsPerMsg?: number;
  /** The server process's highest resident memory sampled while the case's connections were busy, bytes (NaN when the server did not say; absent in older files). */
  serverRssPeakBytes?: number;
  /** latency mode: the client's time on messages (encode and send, decode and check) per message, ns; its process CPU includes the pacing loop's polling. */
  clientBusyNsPerMsg?: number;
  elapsedMs: number;
  backpressure: number;
  dropped: number;
  extensions: string;
}

/** The server's side of a case, from its slices: what the codec costs inside the server (bench/report/field.ts pairs it with JSON's and raw's). */
export interface FieldFigures {
  /** Slices the server answered the mark of. */
  slices: number;
  /** Decode + encode per message, timed in the server: the field figure. */
  codecNs: Summary;
  /** send() per message. */
  sendNs: Summary;
  /** The server process's CPU per message while the connection was busy. */
  cpuNs: Summary;
  /** Times the server slept and woke, per message (mean over the slices). */
  wakeupsPerMsg: number;
}

/** Percentiles of per-message times taken from batch samples. */
export interface BatchPercentiles {
  /** Messages per batch (the last batch of a run may hold fewer). */
  batch: number;
  /** Number of batch samples pooled across runs. */
  samples: number;
  p50: number;
  p90: number;
  p99: number;
}

/**
 * One timed slice of one case, as measured: in codec mode one round's
 * slice of messages, in the WebSocket modes one run. All times are per
 * message, in ns. In the WebSocket modes serialize/deserialize are the
 * client's, and total is the round-trip time (roundtrip) or wall time per
 * message (stream).
 */
export interface RunFigures {
  /** The pass over the messages this slice belongs to. */
  run: number;
  /** The round: every codec of the payload ran one slice in it, close in time; ratios pair by round. */
  round: number;
  /** Position of this codec in the round's shuffled order (0 = first). */
  position: number;
  serializeNs: number;
  deserializeNs: number;
  totalNs: number;
  /** Codec mode: one decode then one encode of what it gave, per frame (the server's echo), ns per message. */
  echoNs?: number;
  /** WebSocket modes on kept connections: the server's side of this slice, per message. */
  server?: ServerSliceFigures;
  /** cal-spin on kept connections: its loop's cost per call, timed hot in the server right after this round (protocols/calibration.ts), ns. */
  knownNs?: number;
}

/** The server's figures of one slice (its answer to the slice mark, protocols/socket/contract.ts), per message, ns. */
export interface ServerSliceFigures {
  /** Decode + encode, each call timed in the server with the clock's read cost subtracted: the field figure. */
  codecNs: number;
  /** send(): where the server encodes a text frame to UTF-8. */
  sendNs: number;
  /** The server process's CPU (user + system) while this connection was busy: the codec and everything else. */
  cpuNs: number;
  /** Times the server slept and woke, per message (voluntary context switches). */
  wakeups: number;
}

export interface CaseResult {
  client: ClientKind;
  /** The WebSocket implementation and its version ("" in codec mode). */
  clientLibrary: string;
  mode: Mode;
  codec: string;
  standard: boolean;
  frame: Frame;
  library: string;
  libraryVersion: string;
  payload: PayloadName;
  iterations: number;
  /** Passes over the messages that timed at least one slice (equal to the requested runs unless stopped or failed). */
  runs: number;
  /** Timed slices the figures rest on: codec mode's rounds, one per run in the WebSocket modes. */
  rounds: number;
  warmup: number;
  /** Encoded size per message: mean, and min/max over the messages. */
  bytes: number;
  bytesMin: number;
  bytesMax: number;
  /** Every message round-tripped exactly before timing, and spot checks held during it. */
  verified: boolean;
  /** Why the case failed, when it did. */
  error: string;
  /** Across runs, per message, ns. */
  serialize: Summary;
  deserialize: Summary;
  total: Summary;
  /** Across runs: time for all `iterations` messages (serialize + deserialize), ms. */
  totalMs: Summary;
  /** Codec mode: decode a frame, then encode what it gave (the server's echo), per message, across rounds (absent in older files). */
  echo?: Summary;
  /** Messages per second from the mean total per message. */
  msgsPerS: number;
  serializeBatches: BatchPercentiles;
  deserializeBatches: BatchPercentiles;
  /** Per-message time of the same loop around an identity function, ns. */
  loopFloorNs: number;
  /** Warnings such as "near-empty-loop". */
  flags: string[];
  raw: RunFigures[];
  /** WebSocket modes only. */
  socket?: SocketFigures;
  /** Codec mode, from the CLI: the codec's messages compressed (bench/harness/compression.ts). */
  compression?: CompressionFigures;
}

/** A codec's messages compressed (bench/harness/compression.ts): mean bytes per message, and median of the passes' mean time per message, ns. */
export interface CompressionFigures {
  deflateBytes: number;
  deflateContextBytes: number;
  zstdBytes: number;
  /** One zstdCompressSync call per message, and the same call on an empty message (its set-up). */
  zstdNs: number;
  zstdEmptyNs: number;
}

/** The settings a run was made with, as every results file records them. */
export interface RunSettings extends Settings {
  /** Smallest batch duration the harness aims for, ns. */
  minBatchNs: number;
  client: ClientKind;
  /** The server the WebSocket modes talked to ("spawned" when the bench started its own). */
  server?: string;
  /** Processes codec mode's passes were spread over (absent: one). */
  forks?: number;
  /** Ctrl-C stopped the run: the files hold the cases that finished. */
  interrupted?: boolean;
}

export interface BenchResults {
  /** ISO 8601 start of the run. */
  timestamp: string;
  settings: RunSettings;
  environment: Environment;
  /** Where a client ran somewhere else (a browser), its own environment; rows of that client use it. */
  environments?: Partial<Record<ClientKind, Environment>>;
  /** Codec order of each mode, payload and round: order[mode][payloadIndex][round] = codec names (one round per run on fresh connections). */
  order: Record<string, string[][][]>;
  cases: CaseResult[];
  /** Wall time of the whole benchmark, ms. */
  elapsedMs: number;
  /** Wall time per mode and payload ("codec small"), for the next run's time estimate. */
  timings?: Record<string, StretchTiming>;
  /** Latency mode at several rates: each codec's knee per payload and client (bench/harness/knee.ts). */
  knees?: Knee[];
  /** A user's own messages: what each codec did to them (bench/harness/fidelity.ts). */
  fidelity?: FidelityReport[];
}

/** Where a codec stopped keeping up in latency mode (bench/harness/knee.ts). */
export interface Knee {
  client: string;
  payload: string;
  codec: string;
  /** The highest rate kept before two misses in a row (0: none kept), messages per second. */
  rate: number;
  /** The rate missed above the knee (the first of two in a row, or the last rate run), if any was. */
  missed?: number;
  /** Rates below the knee missed once and followed by a kept one (a pause of the machine, not the codec's limit). */
  forgiven?: number[];
}

/** One mode x payload's wall time in a run, and the work it did. */
export interface StretchTiming {
  ms: number;
  /** Case-runs finished, and messages per case-run. */
  units: number;
  iterations: number;
}

/** The per-message summaries every mode reports, from its runs' figures. */
export function summarizeRuns(runs: readonly RunFigures[], iterations: number): Pick<CaseResult, "serialize" | "deserialize" | "total" | "totalMs" | "echo"> {
  const echo = runs.map((r) => r.echoNs).filter((x) => x !== undefined);
  return {
    serialize: summarize(runs.map((r) => r.serializeNs)),
    deserialize: summarize(runs.map((r) => r.deserializeNs)),
    total: summarize(runs.map((r) => r.totalNs)),
    totalMs: summarize(runs.map((r) => (r.totalNs * iterations) / 1e6)),
    ...(echo.length > 0 ? { echo: summarize(echo) } : {}),
  };
}
