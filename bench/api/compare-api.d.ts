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
export type Mode = "codec" | "roundtrip" | "stream" | "fanout" | "latency" | "route" | "cold" | "evolve";
declare const CLIENT_CHOICES: readonly ["bun", "node", "chromium", "firefox"];
export type ClientChoice = (typeof CLIENT_CHOICES)[number];
/** Messages given in the call rather than in a file: a payload name and its message objects. */
export interface InlineMessages {
  /** The payload's name in every output: 1-40 letters, digits, '.', '_' or '-', not a built-in payload's. */
  name: string;
  /** Plain objects that JSON carries unchanged (they travel to the server and the other processes as JSON text). */
  messages: readonly object[];
}
/** A row of the CSV as a plain object: each column with a value (a cell that is not empty), by its name (docs/results-columns.md). */
export type CsvRecord = Record<string, string | number | boolean>;
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
/**
 * What to compare: the command line's options, each under its key (`--codec-module` is
 * `codecModules`, `--max-time` is `maxTime`), with the same defaults and checks; docs/your-project.md
 * says what each does. Paths resolve against the working directory, as on the command line; a
 * `file:` URL (`new URL("./codec.ts", import.meta.url)`) names a file wherever the script runs from.
 */
export interface CompareOptions {
  modes?: readonly Mode[];
  codecs?: readonly string[];
  payloads?: readonly string[];
  client?: ClientChoice;
  calibrate?: boolean;
  validate?: boolean;
  /** Files (a JSON array or JSON Lines, named after the file, or NAME=FILE), or messages given inline. */
  messages?: readonly (string | URL | InlineMessages)[];
  proto?: string | URL;
  protoType?: string;
  /** Codec modules of your own (a default export implementing Codec), TypeScript or JavaScript. */
  codecModules?: readonly (string | URL)[];
  allowLossy?: boolean;
  equal?: readonly ("negative-zero" | "key-order" | "undefined")[];
  quick?: boolean;
  iterations?: number;
  warmup?: number;
  runs?: number;
  precision?: number | "off";
  /** A duration ("90s", "2m", "500ms"), or seconds. */
  maxTime?: string | number;
  forks?: number;
  window?: number;
  rate?: number | readonly number[] | "sweep";
  /** Your traffic, messages a second per payload: "cursors=9000,strokes=600". */
  load?: string;
  fanout?: number;
  clients?: number;
  seed?: number;
  fixed?: boolean;
  /** Seconds. */
  stallTimeout?: number;
  url?: string;
  processes?: number;
  backplane?: string;
  link?: string;
  deflate?: boolean;
  csp?: "off" | "strict";
  noPin?: boolean;
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
  mode: Mode;
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
  /** Each payload's answer, in the verdict's order. */
  answers: PayloadAnswer[];
  /** The verdict's lines, as the terminal prints them. */
  verdict: string[];
  /** Each failed case or mode, one line each; empty when everything ran and was verified. */
  failures: string[];
  /** The rows the CSV holds, one per case (client, mode, payload, codec), as docs/results-columns.md describes them. */
  rows: CsvRecord[];
  /** The files written (with `out`). */
  files?: WrittenFiles;
  /** true when `signal` stopped the run: `rows` holds the cases that finished. */
  stopped: boolean;
}
/**
 * Runs one comparison and returns what it found. Throws SettingError, before anything is measured,
 * for an option the benchmark refuses (one line naming it as the call does); a case that fails is in
 * `failures`. One comparison at a time per process (each pins cores and starts servers of its own).
 */
export declare function compare(options?: CompareOptions): Promise<CompareResult>;

export {};
