/**
 * The types of ws-serialization-bench's API (bench/api/compare-api.ts), in one file that imports
 * nothing, for a user's TypeScript. Written by `npm run api-types`; do not edit.
 */

interface SmallMessage {
  text: string;
  num: number;
}
interface MediumMessage {
  text: string;
  text2: string;
  num: number;
  decimal: number;
}
interface LargeMessage {
  text: string;
  text2: string;
  text3: string;
  text4: string;
  num: number;
  decimal: number;
  num2: number;
  decimal2: number;
}
interface Reaction {
  emoji: string;
  count: number;
}
interface ChatMessage {
  id: number;
  room: number;
  user: string;
  text: string;
  /** Milliseconds since the Unix epoch (above 2^32). */
  sentAt: number;
  reactions: Reaction[];
  replyTo?: number;
  editedAt?: number;
}
interface Entity {
  id: number;
  state: number;
  x: number;
  y: number;
  z: number;
  vx: number;
  vy: number;
  vz: number;
}
interface GameTickMessage {
  /** The match the tick belongs to: the routing key, 1..32 in the generated sets. */
  match: number;
  tick: number;
  entities: Entity[];
}
interface MarketMessage {
  symbol: string;
  seq: number;
  /** Microseconds since the Unix epoch (above 2^32, below 2^53). */
  ts: number;
  bid: number;
  bidSize: number;
  ask: number;
  askSize: number;
}
type PayloadName = string;
interface UserMessage {
  readonly [key: string]: unknown;
}
type BuiltInMessage = SmallMessage | MediumMessage | LargeMessage | ChatMessage | GameTickMessage | MarketMessage;
export type Message = BuiltInMessage | UserMessage;
/** The WebSocket frame type a codec's output travels in. */
export type Frame = "text" | "binary";
/** Encoded form of one message: a string for text frames, bytes for binary frames. */
export type Encoded = string | Uint8Array;
export interface PayloadCodec {
  /** Turns a plain message object into what goes on the wire. */
  encode(message: Message): Encoded;
  /** Turns what came off the wire back into an equal plain object. */
  decode(data: Encoded): Message;
  /**
   * The payload's routing key (ROUTING_KEYS in messages.ts: market's
   * symbol, chat's room, ...) read from a frame the cheapest correct way
   * the format offers (Codec.keyAccess says which), without building the
   * message. Where decode reads a frame, readKey gives what decode's object
   * holds in that field, or throws; where decode throws, it may still read
   * the key (it is not a validation). Absent: the key is taken from a full
   * decode.
   */
  readKey?(data: Encoded): unknown;
}
type KeyAccess = "offset" | "lazy" | "scan" | "decode";
type DecodeGuarantee = "none" | "types" | "all";
/**
 * What kind of format a codec is, for grouping in tables and charts and for
 * `--codecs`, in the order tables list them: text (JSON); schema binary
 * (both ends share a schema or a hand-written layout: custom-binary,
 * Protobuf, Avro, Bebop); schema-less binary (MessagePack, CBOR, BSON:
 * self-describing, no schema); zero-copy (FlatBuffers, Cap'n Proto: read
 * in place, here timed with the whole object built).
 */
export type CodecFamily = "text" | "schema" | "schemaless" | "zero-copy";
export interface Codec {
  /** Registry key, used on the command line and in every results file. */
  readonly name: string;
  /** One line for the help text and the README. */
  readonly description: string;
  readonly frame: Frame;
  /** Its family; absent (a codec module may leave it out): listed after the families. */
  readonly family?: CodecFamily;
  /**
   * false for formats that only the same library can read (msgpackr
   * records); every output labels them non-standard.
   */
  readonly standard: boolean;
  /** npm packages that do the work, for the version columns ("" when built in). */
  readonly library: string;
  /** How its PayloadCodecs' readKey reads the routing key; absent: "decode" (and no readKey). */
  readonly keyAccess?: KeyAccess;
  /** What its decoder guarantees of a built-in payload's message; absent: "none" (the validated pattern checks the whole message). */
  readonly decodeGuarantees?: DecodeGuarantee;
  /**
   * Why this codec cannot carry `payload` (a schema codec without a schema
   * for a user's own messages), or undefined when it can. Absent: it
   * carries every payload.
   */
  notApplicable?(payload: PayloadName): string | undefined;
  /**
   * A fresh encoder/decoder pair for one payload kind. Pairs may keep reusable
   * buffers; each pair is used by one loop at a time.
   */
  forPayload(payload: PayloadName): PayloadCodec;
}
type AddedChecks = "validator" | "ranges" | "none";
type RouteWay = "forward" | "recode";
interface FidelityChange {
  /** The field's path, array indices as `[]`: `order.items[].price`; `(message)` for the message itself. */
  path: string;
  /** What happened to it: `-0 became 0`, `Date became string`, `key order changed`, ... */
  change: string;
  /** Messages in which it happened. */
  messages: number;
  /** The first message it happened in, counted from 1 in the file's order (a JSON Lines file's line, blank lines aside). */
  first: number;
  /** The user declared this kind of change no loss (`--equal`): reported, not lossy. */
  equal?: boolean;
}
declare const EQUAL_KINDS: readonly ["negative-zero", "key-order", "undefined"];
type EqualKind = (typeof EQUAL_KINDS)[number];
interface FidelityReport {
  codec: string;
  payload: string;
  /** Distinct messages checked (the file's). */
  messages: number;
  /** Messages that came back changed in any way. */
  changed: number;
  changes: FidelityChange[];
  /** A value changed (a changed key order alone is not a loss). */
  lossy: boolean;
  /** The codec threw on a message, with the first error: it cannot carry these messages at all. */
  error?: string;
}
interface Summary {
  n: number;
  mean: number;
  median: number;
  /** The median's distribution-free 95% interval (medianInterval); NaN below 6 values, where none exists. */
  medianLow: number;
  medianHigh: number;
  p90: number;
  p99: number;
  min: number;
  max: number;
  stddev: number;
  /** Half-width of the 95% confidence interval of the mean (0 when n < 2). */
  ci95: number;
}
export type Mode = "codec" | "roundtrip" | "stream" | "fanout" | "latency" | "route";
type ClientKind = "inprocess" | "bun" | "node" | "browser";
declare const CLIENT_CHOICES: readonly ["bun", "node", "chromium", "firefox"];
export type ClientChoice = (typeof CLIENT_CHOICES)[number];
interface Settings {
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
}
interface LinkProfile {
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
interface CodecModuleFile {
  file: string;
  name: string;
}
interface UserProtoFile {
  file: string;
  text: string;
  type: string;
}
interface Excluded {
  codec: string;
  payload: string;
  why: string;
}
interface UserMessagesFile {
  name: string;
  file: string;
  text: string;
}
interface LatencyPercentiles {
  samples: number;
  p50: number;
  p90: number;
  p99: number;
  p999: number;
  /** Absent in files written before it was recorded. */
  p9999?: number;
  max: number;
}
interface ClientFigures {
  sent: number;
  received: number;
  lost: number;
  msgsPerS: number;
}
interface SocketFigures {
  /** Concurrent connections per case (--clients). */
  clients: number;
  /** With several clients: each client's figures, per run. */
  perClient?: ClientFigures[][];
  /** Messages in flight: 1 for roundtrip, the window for stream. */
  window: number;
  /** The link the case's connections crossed (--link); absent: loopback. */
  link?: LinkProfile;
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
  /** roundtrip and stream: every message's round-trip time, pooled over runs (undefined in latency mode, which has `latency`). */
  rtt: LatencyPercentiles | undefined;
  /** latency mode: each reply's time since its message was due (corrected for coordinated omission), pooled over runs. */
  latency?: LatencyPercentiles;
  /** latency mode: each reply's time since its message actually went out (uncorrected, what a closed loop sees). */
  serviceTime?: LatencyPercentiles;
  /** latency mode: messages sent more than one interval (at least 1 ms) after they were due, summed over runs. */
  late?: number;
  /** latency mode: messages per second asked for (all clients together) and achieved (sent over the spans they were sent in at the pace the client kept: a line fitted through each run's send times, client/socket/open-loop.ts). */
  targetRate?: number;
  achievedRate?: number;
  /** latency mode: every sample of both, as HdrHistograms (µs, 3 significant digits) in HdrHistogram's compressed base64 encoding. */
  histograms?: {
    correctedUs: string;
    serviceUs: string;
  };
  /** Server-side decode / encode per message, per-call timing with clock cost subtracted, across runs, ns. */
  serverDeserialize: Summary;
  serverSerialize: Summary;
  /** Kept connections: the server's figures of every slice (SliceFigures.server) across the slices, per message, ns (absent in older files). */
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
  /** fanout: the whole server side per delivery, every process and the backplane, over the runs (absent in older files). */
  cluster?: ClusterFigures;
}
interface ClusterFigures {
  /** Server processes (bun run server --processes N; 1 alone). */
  processes: number;
  /** What joined them: "redis", or "" for none. */
  backplane: string;
  /** Every process's CPU (user + system) over the deliveries, ns per delivered message. */
  cpuNsPerDelivery: Summary;
  /** Backplane wire bytes (RESP framing included; published and received, every process) per published message; 0 without one. */
  backplaneBytesPerMsg: Summary;
}
interface ClusterSlice {
  processes: number;
  cpuNsPerDelivery: number;
  backplaneBytesPerMsg: number;
}
interface FieldFigures {
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
  /** The share of messages interrupted: decode + encode past 10 times the slice's median (mean over the slices; absent in older files). */
  interrupted?: number;
  /** The share of the field figure that went to pauses the codec caused, collections mostly (mean over the slices; absent in older files, whose field figure left them out). */
  collection?: number;
  /** The share of the server's decode + encode the scheduler took for other processes, left out of the field figure (mean over the slices; absent in older files). */
  scheduler?: number;
}
interface SliceLatency {
  /** The slice's corrected p99 (from when each message was due), ns. */
  p99Ns: number;
  /** Messages sent more than one interval late, as a share of the slice's. */
  lateShare: number;
  /** The rate the client kept over the rate asked for. */
  achievedShare: number;
}
interface ServerSliceFigures {
  /**
   * Decode + encode, each call timed in the server with the clock's read cost subtracted, over
   * every message of the slice, less what the scheduler took from the interrupted ones for other
   * processes (ServerSlice.schedulerNs): the field figure, collections included.
   */
  codecNs: number;
  /** Decode + encode over the messages not interrupted only (ServerSlice.kept): collections left out too, as the field figure was before they counted. */
  quietNs: number;
  /** The share of the slice's messages interrupted (decode + encode past INTERRUPTION_FACTOR times the slice's median). */
  interrupted: number;
  /** The share of codecNs that went to pauses the codec caused: interrupted messages' time over the median the scheduler does not explain (collections, mostly). */
  collection: number;
  /** The share of the slice's decode + encode the scheduler took for other processes, taken off. */
  scheduler: number;
  /** send(): where the server encodes a text frame to UTF-8. */
  sendNs: number;
  /** The server process's CPU (user + system) while this connection was busy: the codec and everything else. */
  cpuNs: number;
  /** Times the server slept and woke, per message (voluntary context switches). */
  wakeups: number;
}
declare const ACCOUNT_PHASES: readonly [
  "timed",
  "warmup",
  "messages",
  "verify",
  "start",
  "collections",
  "compression",
  "files",
  "other",
];
type AccountPhase = (typeof ACCOUNT_PHASES)[number];
type PhaseTimes = Record<AccountPhase, number>;
interface ProcessPeak {
  process: string;
  peakRssBytes: number;
}
interface TimeAccount {
  wallMs: number;
  phases: PhaseTimes;
  peaks: ProcessPeak[];
}
interface Environment {
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
interface Provenance {
  /** The git commit the bench ran from; "" when it ran from no checkout of its own (an installed package). */
  commit: string;
  /** The checkout had uncommitted changes to its code (anything but docs/, test/, results/ and Markdown); absent without a checkout. */
  dirty?: boolean;
  /** The bench's own version (its package.json). */
  benchVersion: string;
  /** Read from a file: its format and version ("csv 6", "json 3"); absent for results in memory. */
  format?: string;
}
interface BatchPercentiles {
  /** Messages per batch (the last batch of a run may hold fewer). */
  batch: number;
  /** Number of batch samples pooled across runs. */
  samples: number;
  p50: number;
  p90: number;
  p99: number;
}
interface SliceFigures {
  /** The run this slice belongs to. */
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
}
interface RouteWaySlice {
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
interface RouteResult {
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
interface RouteWaySummary {
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
  /** How the case compares with the others of its run, worked out once when the results are assembled (client/harness/ratios.ts). */
  ratios?: CaseRatios;
}
/** The ratio of two cases' time per message, paired round by round (client/harness/pairing.ts). */
export interface Ratio {
  /** Median of the per-round ratios (geometric mean below 6 rounds). */
  ratio: number;
  /** 95% interval of that ratio (equal to it with one round). */
  low: number;
  high: number;
  /** Rounds both cases finished. */
  rounds: number;
}
/** A ratio to a baseline, and whether its interval holds 1 (then neither is shown faster). */
export interface Comparison extends Ratio {
  overlap: boolean;
  /** Codec mode: its interval is still wider than the precision the benchmark asked for (--precision): the time ran out first. */
  wide?: boolean;
}
interface Estimate {
  value: number;
  low: number;
  high: number;
  rounds: number;
}
interface FieldEstimate extends Estimate {
  corrected: boolean;
}
interface CaseRatios {
  /** Encoded size over json's. */
  bytesVsJson?: number;
  /** Time per message relative to json's (below 1: faster than JSON). */
  vsJson?: Comparison;
  /** Throughput relative to raw's, the transport alone: raw's time per message over this case's. */
  vsRaw?: Comparison;
  /** Codec mode: the echo (decode, then encode what it gave) relative to json's. */
  echoVsJson?: Comparison;
  /** Codec mode: read-one (the routing key from a frame) relative to json's read-one. */
  readOneVsJson?: Comparison;
  /** Codec mode: validated (decode and checks) relative to json's validated. */
  validatedVsJson?: Comparison;
  /** Route mode: the server's CPU per routed message relative to json's, forwarding bytes, and recoding. */
  routeVsJson?: Comparison;
  routeRecodeVsJson?: Comparison;
  /** Socket modes: the client's encode + decode per message relative to json's. */
  clientVsJson?: Comparison;
  /** Socket modes on kept connections: the field figure, the codec's cost inside the server per message. */
  field?: FieldEstimate;
  /** The field figure relative to json's, and less json's. */
  fieldVsJson?: Comparison;
  fieldOverJson?: Estimate;
  /** The server process's CPU per message over raw's. */
  cpuOverRaw?: Estimate;
}
interface CalibrationCheck {
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
interface CompressionFigures {
  deflateBytes: number;
  deflateContextBytes: number;
  zstdBytes: number;
  /** One zstdCompressSync call per message, and the same call on an empty message (its set-up). */
  zstdNs: number;
  zstdEmptyNs: number;
}
interface BenchmarkSettings extends Settings {
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
}
interface Knee {
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
  besideRaw?: {
    rate: number;
    missed?: number;
  };
}
interface StretchTiming {
  ms: number;
  /** Case-runs finished, and messages per case-run. */
  units: number;
  iterations: number;
}
declare const SPEED_MODES: readonly ["codec", "roundtrip", "stream", "fanout", "latency", "route"];
type SpeedMode = (typeof SPEED_MODES)[number];
export interface WrittenFiles {
  csv: string;
  json: string;
  latestCsv: string;
  latestJson: string;
  report: string;
  latestReport: string;
  /** latency mode: one percentile spectrum per case and measure, in `<stamp>-hgrm/`. */
  hgrm: string[];
}
interface ProgressSink {
  isTTY?: boolean;
  write(text: string): unknown;
}
type HarnessErrorCode = "SETTING" | "NOT_GIVEN_BACK" | "NO_MESSAGES";
declare class HarnessError extends Error {
  readonly code: HarnessErrorCode;
  readonly name: string;
  constructor(code: HarnessErrorCode, message: string);
}
/** A bad setting: one line naming it and the valid values (the CLI prints it and exits 2). */
export declare class SettingError extends HarnessError {
  readonly name = "SettingError";
  constructor(message: string);
}
/** Messages given in the call rather than in a file: a payload name and its message objects. */
export interface InlineMessages {
  /** The payload's name in every output: 1-40 letters, digits, '.', '_' or '-', not a built-in payload's. */
  name: string;
  /** Plain objects that JSON carries unchanged (they travel to the server and the other processes as JSON text). */
  messages: readonly object[];
}
/**
 * What to compare: the command line's settings, each under its flag's name in camelCase
 * (`--codec-module` is `codecModules`, `--max-time` is `maxTime`), with the same defaults and checks.
 * Paths resolve against the working directory, as on the command line; a `file:` URL
 * (`new URL("./codec.ts", import.meta.url)`) names a file wherever the script runs from.
 */
export interface CompareOptions {
  /** Your messages: files (a JSON array or JSON Lines, named after the file, or NAME=FILE) or inline arrays. */
  messages?: readonly (string | URL | InlineMessages)[];
  /** Codec modules of your own (a default export implementing Codec), TypeScript or JavaScript. */
  codecModules?: readonly (string | URL)[];
  /** Codecs by name or group (`default`, `all`, a family); default: the command line's default set. */
  codecs?: readonly string[];
  /** Payloads by name (`small`, `medium`, `large`, `all`, yours); default: yours if given, else the built-in three. */
  payloads?: readonly string[];
  modes?: readonly Mode[];
  /** The short profile the command line's `--quick` runs (one codec-mode process, fewer rounds). */
  quick?: boolean;
  iterations?: number;
  runs?: number;
  warmup?: number;
  forks?: number;
  /** Stop a case's rounds once its interval is within this percentage, or "off". */
  precision?: number | "off";
  /** A duration as the command line takes it ("90s", "2m", "500ms"), or seconds. */
  maxTime?: string | number;
  seed?: number;
  /** The article's exact messages instead of varied ones. */
  fixed?: boolean;
  client?: ClientChoice;
  /** A running server instead of one the benchmark starts. */
  url?: string;
  window?: number;
  /** Latency mode's rates per second, or "sweep". */
  rate?: number | readonly number[] | "sweep";
  clients?: number;
  processes?: number;
  backplane?: string;
  deflate?: boolean;
  validate?: boolean;
  csp?: string;
  /** Seconds a case may go without progress before it fails. */
  stallTimeout?: number;
  proto?: string | URL;
  protoType?: string;
  allowLossy?: boolean;
  /** Changes to your messages that do not matter to you (negative-zero, key-order, undefined): not lossy. */
  equal?: readonly ("negative-zero" | "key-order" | "undefined")[];
  calibrate?: boolean;
  noPin?: boolean;
  /** An emulated network link (`4g`, `wifi`, or the custom form); docs/links.md. */
  link?: string;
  /** Every column in the printed table (with `print`). */
  wide?: boolean;
  /** A folder for the CSV, JSON and report.html, as the command line writes them; false or absent: no files. */
  out?: string | false;
  /** true: the table to stdout and the progress line to stderr, as the command line prints them; or streams of your own. */
  print?:
    | boolean
    | {
        stdout: ProgressSink;
        stderr: ProgressSink;
      };
  /** Aborting it stops the run after the case (or codec-mode round) in flight; the result holds what finished. */
  signal?: AbortSignal;
}
/** One payload's answer, by codec name, as the verdict's line for it says it. */
export interface PayloadAnswer {
  payload: string;
  /** The mode speed is judged in: codec mode if the run has it, else the first socket mode it has. */
  mode: SpeedMode;
  /** What that mode ranks by, in words ("encode + decode in process"). */
  basis: string;
  /** Every codec verified on the payload in that mode, fastest first. */
  order: string[];
  /**
   * The fastest codec, then every codec tied with it: their paired 95% interval holds 1, so this run
   * cannot tell them apart. A codec in this list is as fast as this run can say; one outside it is slower.
   */
  fastest: string[];
  /** The codecs with the fewest bytes per message. */
  smallest: string[];
}
/** What `compare()` returns. */
export interface CompareResult {
  /** What the CSV and JSON are written from (docs/results-columns.md describes its figures). */
  results: BenchResults;
  /** The verdict's lines, as the terminal prints them. */
  verdict: string[];
  /** Each payload's answer, in the verdict's order. */
  answers: PayloadAnswer[];
  /** Each failed case or mode, one line each; empty when everything ran and was verified. */
  failures: string[];
  /** The files written (with `out`). */
  files?: WrittenFiles;
  /** true when `signal` stopped the run: `results` holds the cases that finished. */
  stopped: boolean;
}
/**
 * Runs one comparison and returns its results. Throws SettingError, before anything is measured,
 * for a setting the benchmark refuses (one line naming it); a case that fails is in `failures`.
 * One comparison at a time per process (each pins cores and starts servers of its own).
 */
export declare function compare(options?: CompareOptions): Promise<CompareResult>;

export {};
