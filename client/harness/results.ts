/**
 * The plain result objects every mode returns and every reporter reads.
 * Measuring code builds these; nothing here prints or writes.
 */

import type { Frame, KeyAccess } from "../../protocols/codec.ts";
import type { AddedChecks } from "../../protocols/validation.ts";
import type { RouteWay } from "../../protocols/contract.ts";
import type { PayloadName } from "../../protocols/messages.ts";
import type { FidelityReport } from "./fidelity.ts";
import { summarizeByProcess, type Summary } from "./statistics.ts";
import type { ClusterSlice, ServerSliceFigures, SliceLatency, SocketFigures } from "./socket-results.ts";
import type { ClientKind, LoadSpec, Mode, Settings } from "./settings.ts";
import type { TimeAccount } from "./time-account.ts";

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
  /**
   * Browser only: the page could compile code from strings (eval, new
   * Function); false under a strict Content-Security-Policy (--csp strict),
   * where codecs that generate code fall back or fail.
   */
  evalAllowed?: boolean;
  /** Browser only: the page was cross-origin isolated (finer clock). */
  crossOriginIsolated?: boolean;
  /** Browser only. */
  userAgent?: string;
}

/**
 * What code made a results file: the bench fills it in when it writes one (files from before CSV
 * version 6 and JSON format 3 have none).
 */
export interface Provenance {
  /** The git commit the bench ran from; "" when it ran from no checkout of its own (an installed package). */
  commit: string;
  /** The checkout had uncommitted changes to its code (anything but docs/, test/, results/ and Markdown); absent without a checkout. */
  dirty?: boolean;
  /** The bench's own version (its package.json). */
  benchVersion: string;
  /** Read from a file: its format and version ("csv 6", "json 3"); absent for results in memory. */
  format?: string;
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
 * One timed slice of one case, as measured (docs/glossary.md): one round's
 * slice of a run's messages, in codec mode and on the WebSocket modes' kept
 * connections; a whole run on fresh connections. All times are per
 * message, in ns. In the WebSocket modes serialize/deserialize are the
 * client's, and total is the round-trip time (roundtrip) or wall time per
 * message (stream).
 */
export interface SliceFigures {
  /** The run this slice belongs to. */
  run: number;
  /** The round: every codec of the payload ran one slice in it, close in time; ratios pair by round. */
  round: number;
  /** Position of this codec in the round's shuffled order (0 = first). */
  position: number;
  /** The process that timed this round, 0 for the first: codec mode's fresh process, or the server process a socket mode's round ran on (--forks); the unit of its intervals (pairing.ts). */
  process?: number;
  serializeNs: number;
  deserializeNs: number;
  totalNs: number;
  /** Codec mode: one decode then one encode of what it gave, per frame (the server's echo), ns per message. */
  echoNs?: number;
  /** Codec mode, built-in payloads: the routing key read from each frame (read-one: PayloadCodec.readKey, or a full decode), ns per message. */
  readOneNs?: number;
  /** Codec mode, built-in payloads: a decode and the checks that make it a well-formed message (the validated pattern), ns per message. */
  validatedNs?: number;
  /** WebSocket modes on kept connections: the server's side of this slice, per message. */
  server?: ServerSliceFigures;
  /** cal-spin on kept connections: its loop's cost per call, timed hot in the server right after this round (protocols/calibration.ts), ns. */
  knownNs?: number;
  /** Latency mode: the slice's p99, late share and rate kept. */
  latency?: SliceLatency;
  /** Route mode: the run's figures for each way the server routed the same messages. */
  route?: Record<RouteWay, RouteWaySlice>;
  /** fanout: the whole server side of the benchmark, every process and the backplane. */
  cluster?: ClusterSlice;
  /** Cold mode: this fresh process's import, set-up and first messages (client/harness/cold-start.ts). */
  cold?: ColdSlice;
}

/** One fresh process of cold mode: what the codec cost before and on its first messages, ns (per message for the firsts: encode + decode, each message timed alone). */
export interface ColdSlice {
  /** The import of the codec's own module (its library with it), from a process that had imported no codec. */
  importNs: number;
  /** Making the codec and its encoder/decoder pair for the payload (forPayload): schemas parsed, code generated where a codec does so up front. */
  setupNs: number;
  /** The first message alone, and the mean of the first 10, 100 and 1,000 (absent where the process timed fewer). */
  firstNs: number;
  first10Ns?: number;
  first100Ns?: number;
  first1000Ns?: number;
}

/** Cold mode's figures of a case over its processes (each process one value). */
export interface ColdSummaries {
  import: Summary;
  setup: Summary;
  first: Summary;
  first10?: Summary;
  first100?: Summary;
  first1000?: Summary;
  /** What the codec's code adds to a page over json's: bundled for the browser and minified, then gzip-compressed, bytes (the CLI's bench/cli/bundle-bytes.ts). */
  bundleBytes?: number;
  bundleGzipBytes?: number;
}

/** One run of route mode, one way: per routed message, ns. */
export interface RouteWaySlice {
  /** Wall time, the first send to the last delivery, over the messages routed. */
  totalNs: number;
  /** The server process's CPU (user + system) while it routed, from the routers' slices. */
  cpuNs: number;
  /** The server's time reading the key: readKey (or the decode it needs) forwarding, the decode recoding, each with the checks under --validate. */
  keyNs: number;
  /** The server's time encoding the message again (0 forwarding). */
  encodeNs: number;
  /** The server's time in publish(), which writes to every member of the room. */
  publishNs: number;
  /** Every server process's CPU (a cluster's, or the one server's) while the slice was routed, from each process's /health (client/socket/cluster-figures.ts). */
  clusterCpuNs?: number;
  /** Backplane wire bytes per routed message, every process (0 without one). */
  backplaneBytesPerMsg?: number;
}

/** Route mode's figures of a case, over its runs. */
export interface RouteResult {
  /** Rooms (distinct routing keys of the messages), routers, and members (--clients). */
  rooms: number;
  publishers: number;
  members: number;
  /** The server decoded and checked every message before routing it (--validate). */
  validate: boolean;
  /** How the forwarding router read the key (Codec.keyAccess). */
  keyAccess: KeyAccess;
  /** Deliveries the runs called for (each message once per member of its room, both ways), made, and made to a member outside the room. */
  expected: number;
  delivered: number;
  misrouted: number;
  forward: RouteWaySummary;
  recode: RouteWaySummary;
  /** The recoding router's server CPU per message over the forwarding one's, run by run. */
  recodeOverForward?: Estimate;
}

/** One way of routing over a case's runs: each figure per routed message. */
export interface RouteWaySummary {
  cpuNs: Summary;
  keyNs: Summary;
  encodeNs: Summary;
  publishNs: Summary;
  /** Messages routed per second, the first send to the last delivery. */
  msgsPerS: Summary;
  /** Every server process's CPU per routed message, and the backplane's wire bytes (absent in older files). */
  clusterCpuNs?: Summary;
  backplaneBytesPerMsg?: Summary;
}

/** Who ran a case: one of the bench's clients, or k6 (its output read by `bun run report`, bench/report/k6-rows.ts). */
type CaseClient = ClientKind | "k6";

export interface CaseResult {
  client: CaseClient;
  /** The WebSocket implementation and its version ("" in codec mode). */
  clientLibrary: string;
  mode: Mode;
  codec: string;
  standard: boolean;
  /** The codec's family as it declares it (protocols/codec.ts); absent for raw and a codec module that names none. */
  family?: string;
  frame: Frame;
  library: string;
  libraryVersion: string;
  payload: PayloadName;
  iterations: number;
  /** Runs that timed at least one slice (equal to the requested runs unless stopped or failed). */
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
  /** Codec mode, built-in payloads: the routing key read from each frame, per message, across rounds (absent in older files and for a user's messages). */
  readOne?: Summary;
  /** How read-one reads the key (Codec.keyAccess): at an offset, lazily, by a scan of the wire format, or by a full decode. */
  keyAccess?: KeyAccess;
  /** Codec mode, built-in payloads: a decode and the checks that make it a well-formed message, per message, across rounds. */
  validated?: Summary;
  /** What the validated pattern adds after the decode (protocols/validation.ts): a schema validator, range checks, or nothing. */
  addedChecks?: AddedChecks;
  /** Route mode: the server as a router, forwarding and recoding side by side. */
  route?: RouteResult;
  /** Messages per second from the mean total per message. */
  msgsPerS: number;
  serializeBatches: BatchPercentiles;
  deserializeBatches: BatchPercentiles;
  /** Per-message time of the same loop around an identity function, ns. */
  loopFloorNs: number;
  /** Warnings such as "near-empty-loop". */
  flags: string[];
  raw: SliceFigures[];
  /** WebSocket modes only. */
  socket?: SocketFigures;
  /** Codec mode, from the CLI: the codec's messages compressed (client/harness/compression.ts). */
  compression?: CompressionFigures;
  /** Cold mode: the import, set-up and first messages over the case's fresh processes. */
  cold?: ColdSummaries;
  /** How the case compares with the others of its run, worked out once when the results are assembled (client/harness/ratios.ts). */
  ratios?: CaseRatios;
}

/**
 * A figure with its 95% interval, over the rounds it rests on: the ratio of two cases' time per
 * message paired round by round (client/harness/pairing.ts: the median of the per-round ratios,
 * their geometric mean below 6 rounds), a median of per-round values (the mean with a Student's t
 * interval below 6 rounds), what a codec costs inside the server (client/harness/field.ts). Every
 * report writes it as "0.82 ±6.0%" (bench/report/format.ts, ratioText).
 */
export interface Estimate {
  value: number;
  /** Its 95% interval (equal to it with one round). */
  low: number;
  high: number;
  /** Rounds it rests on: for a ratio, the rounds both cases finished. */
  rounds: number;
  /** Processes it rests on, where its rounds came from fresh processes: its interval is theirs, each process one estimate. */
  processes?: number;
  /** A ratio to a baseline: its interval holds 1, so neither is shown faster. */
  overlap?: boolean;
  /** Codec mode: its interval is still wider than the precision the benchmark asked for (--precision): the time ran out first. */
  wide?: boolean;
  /** A field figure: raw's timers (the same clock reads around no work) were taken off. */
  corrected?: boolean;
}

/**
 * A case beside the baselines of its run (json's and raw's case of the same client, mode,
 * payload and rate), each paired round by round: what every report shows as "vs json" and
 * "vs raw", in the lab and in the field. Absent where the run has no such baseline or the
 * case failed; a results file read back carries what its columns held.
 */
export interface CaseRatios {
  /** Encoded size over json's. */
  bytesVsJson?: number;
  /** Time per message relative to json's (below 1: faster than JSON). */
  vsJson?: Estimate;
  /** Throughput relative to raw's, the transport alone: raw's time per message over this case's. */
  vsRaw?: Estimate;
  /** Codec mode: the echo (decode, then encode what it gave) relative to json's. */
  echoVsJson?: Estimate;
  /** Codec mode: read-one (the routing key from a frame) relative to json's read-one. */
  readOneVsJson?: Estimate;
  /** Codec mode: validated (decode and checks) relative to json's validated. */
  validatedVsJson?: Estimate;
  /** Route mode: the server's CPU per routed message relative to json's, forwarding bytes, and recoding. */
  routeVsJson?: Estimate;
  routeRecodeVsJson?: Estimate;
  /** Socket modes: the client's encode + decode per message relative to json's. */
  clientVsJson?: Estimate;
  /** Socket modes on kept connections: the field figure, the codec's cost inside the server per message. */
  field?: Estimate;
  /** The field figure relative to json's, and less json's. */
  fieldVsJson?: Estimate;
  fieldOverJson?: Estimate;
  /** The server process's CPU per message over raw's. */
  cpuOverRaw?: Estimate;
  /** Cold mode: the first message, and the mean of the first 10, 100 and 1,000, relative to json's, repeat by repeat. */
  coldFirstVsJson?: Estimate;
  coldFirst10VsJson?: Estimate;
  coldFirst100VsJson?: Estimate;
  coldFirst1000VsJson?: Estimate;
}

/**
 * How closely each way of measuring inside the server recovers what the calibration codecs
 * cost, in one mode and payload (client/harness/field.ts):
 * - cal-spin over json, as a share of its known cost, round by round (the known
 *   work timed hot in the server right after the round, so the machine's drift over a run does
 *   not count against the method): 1 when the method finds exactly that much more;
 * - cal-json relative to json, as the method compares any codec with json: 1 when it finds a
 *   codec that costs what JSON costs to cost that much.
 */
export interface CalibrationCheck {
  client: string;
  mode: string;
  payload: string;
  /** Latency mode: the rate. */
  rate?: number;
  /** The known-cost codec (cal-spin). */
  codec: string;
  /** Its known work timed hot in the server after each round, ns per call. */
  known: Estimate;
  /** By the field figure: the codec's cost over json's as a share of the known cost; cal-json's relative to json's. */
  knownByTimers?: Estimate;
  twinByTimers?: Estimate;
  /** By the field figure with interrupted messages left out (collections too): the share of the known cost it finds (absent in older files). */
  knownByQuiet?: Estimate;
  /** The same by the server's CPU per message over raw's. */
  knownByCpu?: Estimate;
  twinByCpu?: Estimate;
  /** raw's timers around no work: what the field figure takes off (uncorrected, ns per message). */
  timersOnNothing?: Estimate;
}

/** A codec's messages compressed (client/harness/compression.ts): mean bytes per message, and median of the repeats' mean time per message, ns. */
export interface CompressionFigures {
  deflateBytes: number;
  deflateContextBytes: number;
  zstdBytes: number;
  /** One zstdCompressSync call per message, and the same call on an empty message (its set-up). */
  zstdNs: number;
  zstdEmptyNs: number;
}

/** The settings a run was made with, as every results file records them. */
export interface BenchmarkSettings extends Settings {
  /** Smallest batch duration the harness aims for, ns. */
  minBatchNs: number;
  client: CaseClient;
  /** The server the WebSocket modes talked to ("spawned" when the bench started its own). */
  server?: string;
  /** Where the bench and the server ran while the sockets did ("bench on CPU 0, server on CPU 1"), or why they were not pinned (bench/cli/processes/affinity.ts). */
  pinning?: string;
  /** Processes codec mode's runs were spread over (absent: one). */
  forks?: number;
  /** Server processes sharing the port of each server the bench started (--processes; absent: one). */
  processes?: number;
  /** What joined them (--backplane): "redis://HOST:PORT", the bench's own redis-server's or the user's. */
  backplane?: string;
  /** Ctrl-C stopped the run: the files hold the cases that finished. */
  interrupted?: boolean;
}

export interface BenchResults {
  /** ISO 8601 start of the benchmark. */
  timestamp: string;
  /** The code that made these results (absent in older files and in a page's own run). */
  provenance?: Provenance;
  settings: BenchmarkSettings;
  environment: Environment;
  /** Where a client ran somewhere else (a browser), its own environment; rows of that client use it. */
  environments?: Partial<Record<CaseClient, Environment>>;
  /** Codec order of each mode, payload and round: order[mode][payloadIndex][round] = codec names (one round per run on fresh connections). */
  order: Record<string, string[][][]>;
  cases: CaseResult[];
  /** Wall time of the whole benchmark, ms. */
  elapsedMs: number;
  /** Where that wall time went, and each process's peak memory (time-account.ts; absent in older files). */
  account?: TimeAccount;
  /** Wall time per mode and payload ("codec small"), for the next run's time estimate. */
  timings?: Record<string, StretchTiming>;
  /** Latency mode at several rates: each codec's knee per payload and client (client/harness/knee.ts). */
  knees?: Knee[];
  /** A user's own messages: what each codec did to them (client/harness/fidelity.ts). */
  fidelity?: FidelityReport[];
  /** The calibration codecs' checks of measuring inside the server, per mode and payload, worked out with the cases' ratios (client/harness/field.ts). */
  calibration?: CalibrationCheck[];
  /** --load: each codec at the user's traffic, predicted from the field figures and measured (client/harness/load.ts). */
  load?: LoadResult;
  /** Evolve mode: what a reader on one version of each payload's messages read from a writer on another, per codec, change and direction (client/harness/evolve.ts). */
  evolve?: EvolveRow[];
}

/** Where a codec stopped keeping up in latency mode (client/harness/knee.ts). */
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
  /** The knee when a rate counts against the codec only where raw kept it (client/harness/knee.ts); absent where it is `rate`. */
  besideRaw?: { rate: number; missed?: number };
}

/** One mode x payload's wall time in a run, and the work it did. */
export interface StretchTiming {
  ms: number;
  /** Case-runs finished, and messages per case-run. */
  units: number;
  iterations: number;
}

/** The per-message summaries every mode reports, from its runs' figures. */
export function summarizeRuns(
  runs: readonly SliceFigures[],
  iterations: number,
): Pick<CaseResult, "serialize" | "deserialize" | "total" | "totalMs" | "echo" | "readOne" | "validated"> {
  // A figure's summary over the rounds that have it; its interval the processes' where fresh ones timed them.
  const of = (pick: (r: SliceFigures) => number | undefined): Summary => {
    const has = runs.filter((r) => pick(r) !== undefined);
    return summarizeByProcess(
      has.map((r) => pick(r)!),
      has.map((r) => r.process),
    );
  };
  const echo = of((r) => r.echoNs);
  const readOne = of((r) => r.readOneNs);
  const validated = of((r) => r.validatedNs);
  return {
    serialize: of((r) => r.serializeNs),
    deserialize: of((r) => r.deserializeNs),
    total: of((r) => r.totalNs),
    totalMs: of((r) => (r.totalNs * iterations) / 1e6),
    ...(echo.n > 0 ? { echo } : {}),
    ...(readOne.n > 0 ? { readOne } : {}),
    ...(validated.n > 0 ? { validated } : {}),
  };
}

/** One codec at the load: predicted and measured, the bytes, and against JSON. */
export interface LoadCodecFigures {
  codec: string;
  /** The codec's own decode + encode inside the server at the load, in cores, by the field figures: what the format itself costs there (absent for raw). */
  codecCores?: Estimate;
  /** The server's cores predicted from raw's measured cores and the field figures (absent for raw, and where a payload has no field figure: `why`). */
  predictedCores?: Estimate;
  /** The server's cores measured while this codec carried the load. */
  measuredCores?: Estimate;
  /** Measured over predicted, less 1 (0.05: measured 5% above the prediction), paired window by window with raw's on the same server process. */
  agreement?: number;
  /** Each window's server cores (and the client's), by round: the figures the estimates rest on. */
  windows?: { round: number; cores: number; clientCores?: number }[];
  /** Payload bytes a second to the server and from it (fan-out times), plain. */
  bytesUpPerS?: number;
  bytesDownPerS?: number;
  /** The same with permessage-deflate, context kept (absent without codec mode's compression figures). */
  deflatedUpPerS?: number;
  deflatedDownPerS?: number;
  /** Messages a second the drive sent, over what the load asks (below LOAD_KEPT_SHARE: it did not carry it). */
  keptShare?: number;
  /** Switching from JSON to this codec, a day: core-hours saved (the field figures less JSON's), and gigabytes both ways, plain and deflated. */
  savedCoreHoursPerDay?: Estimate;
  /** The same measured: json's cores at the load less this codec's, window by window on the same server process, times 24. */
  measuredSavedCoreHoursPerDay?: Estimate;
  savedGbPerDay?: number;
  savedDeflatedGbPerDay?: number;
  /** The drive ran to its end at the rate asked (no error, at least LOAD_KEPT_SHARE of the rate sent): its measured figures are of the load. */
  carried?: boolean;
  /** Why a figure is missing, or why the drive stopped: one line. */
  why?: string;
}

/** The load's figures, as the results file keeps them. */
export interface LoadResult {
  spec: LoadSpec;
  windowMs: number;
  /** The socket modes whose field figures priced the codecs (client/harness/load.ts): roundtrip where it ran. */
  fieldModes?: string[];
  /** Every codec driven, raw (the transport alone) first. */
  codecs: LoadCodecFigures[];
}

// ---------------------------------------------------------------- Evolve mode (client/harness/evolve.ts)

export type EvolveChange =
  | "field-added"
  | "field-removed"
  | "field-renamed"
  | "number-widened"
  | "enum-member-added"
  | "optional-left-out";

/** old-reader: a reader still on the old version reads the new writer's messages; new-reader: the reverse. */
export type EvolveDirection = "old-reader" | "new-reader";

/**
 * What the reader got (docs/schema-evolution.md#outcomes), best first:
 * - exact: every field as written (a field the reader does not know came through as written);
 * - extra-ignored: a field the reader does not know was dropped; every other field exact;
 * - missing-defaulted: a field the reader expects and the writer did not write came back absent
 *   or as a default (0, "", false, null, empty); every other field exact;
 * - error: the reader (or its schema, or the writer) refused, with the error's message;
 * - silently-wrong: a message came back with a value the writer did not write, and no error;
 * - not-run: the codec cannot make a second version here (no schema carries the messages, or the
 *   compiler its code comes from cannot run here); not-applicable: the payload has no field the
 *   change needs.
 */
export type EvolveOutcome =
  | "exact"
  | "extra-ignored"
  | "missing-defaulted"
  | "error"
  | "silently-wrong"
  | "not-run"
  | "not-applicable";

/** One codec, payload, change and direction: the outcome over every message, and the first message that gave it. */
export interface EvolveRow {
  codec: string;
  payload: PayloadName;
  change: EvolveChange;
  direction: EvolveDirection;
  outcome: EvolveOutcome;
  /** One line: the field and what the reader got, the error, or why it did not run. */
  detail: string;
  /** Messages written and read (0 where none was). */
  messages: number;
}
