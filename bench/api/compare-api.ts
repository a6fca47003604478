/**
 * The programmatic API: `compare()` runs the benchmark from a user's own
 * script or test, with the settings `ws-serialization-bench` takes on the
 * command line, and returns the results object the CSV and JSON are written
 * from, the verdict lines and each payload's answer. It writes no files
 * unless `out` names a folder, prints nothing unless `print` is set, and
 * never installs a signal handler or exits the process.
 *
 *   import { compare } from "ws-serialization-bench";
 *   const run = await compare({ messages: ["positions.jsonl"], codecModules: ["./position-codec.ts"], modes: ["codec"], quick: true });
 *   run.answers[0].fastest; // ["positions"]: the fastest, and every codec tied with it
 *
 * It runs under Bun (which arrives with the package): `npx bun test`, `npx bun script.ts`.
 * docs/your-project.md documents it with a test that fails when a chosen codec stops being the fastest.
 */

import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { SettingError } from "../../client/harness/harness-errors.ts";
import type { BenchResults } from "../../client/harness/results.ts";
import type { ClientChoice, Mode } from "../../client/harness/settings.ts";
import { importCodecModuleFiles, messagesArgument } from "../../client/harness/user-files.ts";
import { checkPayloadName, parseUserMessages } from "../../client/harness/user-messages.ts";
import { runSummary } from "../report/summary.ts";
import { payloadAnswers, type SpeedMode } from "../report/verdict.ts";
import { benchOptions, readBenchFlags } from "../cli/options.ts";
import type { WrittenFiles } from "../cli/output.ts";
import type { ProgressSink } from "../cli/progress-line.ts";
import { runBenchmark, type StopControl } from "../cli/run-benchmark.ts";

export type { Codec, CodecFamily, Encoded, Frame, PayloadCodec } from "../../protocols/codec.ts";
export type { Message } from "../../protocols/messages.ts";
export type { BenchResults, CaseResult, Comparison, Ratio } from "../../client/harness/results.ts";
export type { ClientChoice, Mode } from "../../client/harness/settings.ts";
export type { WrittenFiles } from "../cli/output.ts";
export { SettingError } from "../../client/harness/harness-errors.ts";

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
  print?: boolean | { stdout: ProgressSink; stderr: ProgressSink };
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

/** Each option's command-line flag. */
const FLAGS: Readonly<Record<string, string>> = {
  messages: "--messages",
  codecModules: "--codec-module",
  codecs: "--codecs",
  payloads: "--payloads",
  modes: "--modes",
  quick: "--quick",
  iterations: "--iterations",
  runs: "--runs",
  warmup: "--warmup",
  forks: "--forks",
  precision: "--precision",
  maxTime: "--max-time",
  seed: "--seed",
  fixed: "--fixed",
  client: "--client",
  url: "--url",
  window: "--window",
  rate: "--rate",
  clients: "--clients",
  processes: "--processes",
  backplane: "--backplane",
  deflate: "--deflate",
  validate: "--validate",
  csp: "--csp",
  stallTimeout: "--stall-timeout",
  proto: "--proto",
  protoType: "--proto-type",
  allowLossy: "--allow-lossy",
  equal: "--equal",
  calibrate: "--calibrate",
  noPin: "--no-pin",
  link: "--link",
  wide: "--wide",
};
/** Options the call takes that are not flags. */
const CALL_ONLY = ["out", "print", "signal"];

/** A file option's value as a path: a `file:` URL's path, or the string as given. */
function pathOf(key: string, v: unknown): string {
  if (v instanceof URL) {
    if (v.protocol !== "file:") throw new SettingError(`${key}: a URL must be a file: URL, got ${v.href}`);
    return fileURLToPath(v);
  }
  if (typeof v !== "string") throw new SettingError(`${key} takes file paths (strings or file: URLs)`);
  return v;
}

/** One option's value as its flag's text: lists comma-separated, numbers and strings as given. */
function flagValue(key: string, v: unknown): string {
  if (Array.isArray(v)) return v.map((x) => flagValue(key, x)).join(",");
  if (typeof v === "number" || typeof v === "string") return String(v);
  if (v instanceof URL) return pathOf(key, v);
  throw new SettingError(`${key}: expected a string, a number or a list of them, got ${typeof v}`);
}

/**
 * Where a value stops being what JSON text carries back unchanged: `-0`, `undefined`, NaN, a Date,
 * a Map, a typed array, a bigint. The path of the first such value and what JSON makes of it.
 */
function jsonChange(v: unknown, at: string): string | undefined {
  if (v === null || typeof v === "string" || typeof v === "boolean") return undefined;
  if (typeof v === "number") {
    if (Object.is(v, -0)) return `${at} is -0, which JSON writes as 0`;
    return Number.isFinite(v) ? undefined : `${at} is ${v}, which JSON writes as null`;
  }
  if (typeof v !== "object")
    return `${at} is ${typeof v === "undefined" ? "undefined" : `a ${typeof v}`}, which JSON leaves out or refuses`;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      const change = jsonChange(v[i], `${at}[${i}]`);
      if (change) return change;
    }
    return undefined;
  }
  const proto = Object.getPrototypeOf(v);
  if (proto !== Object.prototype && proto !== null)
    return `${at} is a ${(v as object).constructor?.name ?? "class instance"}, which JSON does not carry as it is; give plain objects`;
  for (const [k, x] of Object.entries(v)) {
    const change = jsonChange(x, `${at}.${k}`);
    if (change) return change;
  }
  return undefined;
}

/**
 * Inline messages, checked (name, plain objects JSON carries unchanged, the checks a messages file
 * gets) and written as JSON to a file in `dir`: the server the benchmark starts reads messages from files.
 */
function inlineMessagesFile(given: InlineMessages, dir: string, taken: Set<string>): string {
  const { name, messages } = given;
  const label = `messages '${String(name)}'`;
  try {
    checkPayloadName(name, label);
  } catch {
    throw new SettingError(
      `${label}: a payload name is 1-40 letters, digits, '.', '_' or '-', and not a built-in payload's (small, medium, large, ...)`,
    );
  }
  if (taken.has(name)) throw new SettingError(`${label}: two payloads are named '${name}'; payload names must differ`);
  taken.add(name);
  if (!Array.isArray(messages)) throw new SettingError(`${label}: messages must be an array of objects`);
  const change = jsonChange(messages, "messages");
  if (change)
    throw new SettingError(
      `${label}: ${change}; inline messages travel as JSON text, so give this payload as a file to keep that value`,
    );
  const text = JSON.stringify(messages);
  // Its refusals read `--messages 'NAME': ...`, which the call words as `messages 'NAME': ...`.
  parseUserMessages({ name, file: `'${name}'`, text });
  const file = path.join(dir, `${name}.json`);
  writeFileSync(file, text);
  return file;
}

/** The command line's words for the options, the inline messages written to files in `dir`. */
function argvOf(options: CompareOptions, dir: () => string): string[] {
  const argv: string[] = [];
  const taken = new Set<string>();
  for (const [key, value] of Object.entries(options)) {
    if (value === undefined || CALL_ONLY.includes(key)) continue;
    const flag = FLAGS[key];
    if (flag === undefined)
      throw new SettingError(
        `unknown option '${key}'; valid options: ${[...Object.keys(FLAGS), ...CALL_ONLY].join(", ")}`,
      );
    if (key === "messages" || key === "codecModules") {
      if (!Array.isArray(value)) throw new SettingError(`${key} takes a list`);
      for (const v of value) {
        const inline = key === "messages" && typeof v === "object" && v !== null && !(v instanceof URL);
        const file = inline ? inlineMessagesFile(v as InlineMessages, dir(), taken) : pathOf(key, v);
        if (!inline && key === "messages") taken.add(messagesArgument(file).name);
        argv.push(flag, file);
      }
    } else if (typeof value === "boolean") {
      if (value) argv.push(flag);
    } else argv.push(flag, key === "proto" ? pathOf(key, value) : flagValue(key, value));
  }
  return argv;
}

/** A refusal worded for the call: each flag named by its option (`--codec-module` as codecModules). */
function asOptions(e: SettingError): SettingError {
  const byFlag = new Map(Object.entries(FLAGS).map(([k, f]) => [f, k]));
  return new SettingError(e.message.replace(/--[a-z][a-z0-9-]*/g, (f) => byFlag.get(f) ?? f));
}

let running = false;

/**
 * Runs one comparison and returns its results. Throws SettingError, before anything is measured,
 * for a setting the benchmark refuses (one line naming it); a case that fails is in `failures`.
 * One comparison at a time per process (each pins cores and starts servers of its own).
 */
export async function compare(options: CompareOptions = {}): Promise<CompareResult> {
  if (running) throw new SettingError("compare() is already running in this process; await it before the next");
  if (options.signal?.aborted) throw options.signal.reason;
  running = true;
  let tempDir: string | undefined;
  try {
    let bench;
    try {
      const argv = argvOf(options, () => (tempDir ??= mkdtempSync(path.join(tmpdir(), "ws-serialization-bench-"))));
      const flags = readBenchFlags(argv);
      const modules = await importCodecModuleFiles(flags["codec-module"] ?? []);
      bench = benchOptions(flags, modules);
    } catch (e) {
      throw e instanceof SettingError ? asOptions(e) : e;
    }
    const out = options.out;
    if (out !== undefined && out !== false && (typeof out !== "string" || out.trim() === ""))
      throw new SettingError("out must name a folder, or be false for no files");
    const silent: ProgressSink = { write: () => true };
    const print = options.print;
    const streams =
      print === true
        ? { stdout: process.stdout, stderr: process.stderr }
        : print
          ? print
          : { stdout: silent, stderr: silent };
    const control: StopControl = { stopRequested: false };
    const stop = (): void => void (control.stopRequested = true);
    options.signal?.addEventListener("abort", stop, { once: true });
    try {
      const outcome = await runBenchmark(
        { ...bench, write: typeof out === "string", ...(typeof out === "string" ? { out } : {}) },
        streams,
        control,
      );
      const results = outcome.results!;
      return {
        results,
        verdict: runSummary(results).verdict.slice(),
        answers: payloadAnswers(results.cases).map((a) => ({
          payload: a.payload,
          mode: a.mode,
          basis: a.basis,
          order: a.order.map((c) => c.codec),
          fastest: a.fastest.map((c) => c.codec),
          smallest: a.smallest.map((c) => c.codec),
        })),
        failures: outcome.failures,
        ...(outcome.files ? { files: outcome.files } : {}),
        stopped: control.stopRequested,
      };
    } catch (e) {
      throw e instanceof SettingError ? asOptions(e) : e;
    } finally {
      options.signal?.removeEventListener("abort", stop);
    }
  } finally {
    running = false;
    if (tempDir !== undefined) rmSync(tempDir, { recursive: true, force: true });
  }
}
