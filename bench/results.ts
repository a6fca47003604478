/**
 * The plain result objects every mode returns and every reporter reads.
 * Measuring code builds these; nothing here prints or writes.
 */

import type { Frame } from "../protocols/codec.ts";
import type { PayloadName } from "./payloads.ts";
import type { Summary } from "./stats.ts";
import type { Environment } from "./environment.ts";

export type Mode = "codec";
export type ClientKind = "inprocess";

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

/** One run of one case, as measured. All times are per message, in ns. */
export interface RunFigures {
  run: number;
  /** Position of this codec in the run's shuffled order (0 = first). */
  position: number;
  serializeNs: number;
  deserializeNs: number;
  totalNs: number;
}

export interface CaseResult {
  client: ClientKind;
  mode: Mode;
  codec: string;
  standard: boolean;
  frame: Frame;
  library: string;
  libraryVersion: string;
  payload: PayloadName;
  iterations: number;
  /** Runs that finished (equal to the requested runs unless the case failed). */
  runs: number;
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
  /** Messages per second from the mean total per message. */
  msgsPerS: number;
  serializeBatches: BatchPercentiles;
  deserializeBatches: BatchPercentiles;
  /** Per-message time of the same loop around an identity function, ns. */
  loopFloorNs: number;
  /** Warnings such as "near-empty-loop". */
  flags: string[];
  raw: RunFigures[];
}

export interface RunSettings {
  modes: Mode[];
  codecs: string[];
  payloads: PayloadName[];
  iterations: number;
  runs: number;
  warmup: number;
  seed: number;
  fixed: boolean;
  /** Smallest batch duration the harness aims for, ns. */
  minBatchNs: number;
}

export interface BenchResults {
  /** ISO 8601 start of the run. */
  timestamp: string;
  settings: RunSettings;
  environment: Environment;
  /** Codec order of each run and payload: order[run][payloadIndex] = codec names. */
  order: string[][][];
  cases: CaseResult[];
  /** Wall time of the whole benchmark, ms. */
  elapsedMs: number;
}
