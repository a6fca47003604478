/**
 * The programmatic API: `compare()` runs the benchmark from a user's own script or test, with the
 * options `ws-serialization-bench` takes on the command line (bench/cli/option-specs.ts describes
 * each one), resolved by the same function the command line's are (bench/cli/resolve-options.ts),
 * and returns each payload's answer, the verdict lines, the rows the CSV holds and the files
 * written. It writes no files unless `out` names a folder, prints nothing unless `print` is set,
 * and never installs a signal handler or exits the process.
 *
 *   import { compare } from "ws-serialization-bench";
 *   const run = await compare({ messages: ["positions.jsonl"], codecModules: ["./position-codec.ts"], modes: ["codec"], quick: true });
 *   run.answers[0].fastest; // ["positions"]: the fastest, and every codec tied with it
 *
 * This file is the API's public types too: bench/tools/api-types.ts writes compare-api.d.ts from
 * what it exports. It runs under Bun (which arrives with the package): `npx bun test`, `npx bun script.ts`.
 */

import { SettingError } from "../../client/harness/harness-errors.ts";
import type { InlineMessages } from "../../client/harness/user-files.ts";
import type { ClientChoice, Mode } from "../../client/harness/settings.ts";
import { csvRecords, type CsvRecord } from "../report/csv.ts";
import { benchmarkSummary } from "../report/summary.ts";
import { payloadAnswers } from "../report/verdict.ts";
import { BENCH_OPTIONS } from "../cli/option-specs.ts";
import type { WrittenFiles } from "../cli/output.ts";
import type { ProgressSink } from "../cli/progress-line.ts";
import { resolveBenchOptions } from "../cli/resolve-options.ts";
import { runBenchmark, type StopControl } from "../cli/run-benchmark.ts";

export type { Codec, CodecFamily, Encoded, Frame, PayloadCodec } from "../../protocols/codec.ts";
export type { Message } from "../../protocols/messages.ts";
export type { ClientChoice, Mode } from "../../client/harness/settings.ts";
export type { CsvRecord } from "../report/csv.ts";
export type { InlineMessages } from "../../client/harness/user-files.ts";
export type { WrittenFiles } from "../cli/output.ts";
export { SettingError } from "../../client/harness/harness-errors.ts";

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
  print?: boolean | { stdout: ProgressSink; stderr: ProgressSink };
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

/** The command line's options compare() takes (CompareOptions declares each: test/bench/api/compare-api.test.ts), and its own. */
const OPTIONS: readonly string[] = [
  ...BENCH_OPTIONS.filter((s) => !("cliOnly" in s)).map((s) => s.key),
  "out",
  "print",
  "signal",
];

let running = false;

/**
 * Runs one comparison and returns what it found. Throws SettingError, before anything is measured,
 * for an option the benchmark refuses (one line naming it as the call does); a case that fails is in
 * `failures`. One comparison at a time per process (each pins cores and starts servers of its own).
 */
export async function compare(options: CompareOptions = {}): Promise<CompareResult> {
  if (running) throw new SettingError("compare() is already running in this process; await it before the next");
  if (options.signal?.aborted) throw options.signal.reason;
  running = true;
  try {
    const { out, print, signal, ...given } = options;
    const unknown = Object.keys(options).find((key) => !OPTIONS.includes(key));
    if (unknown !== undefined)
      throw new SettingError(`unknown option '${unknown}'; valid options: ${OPTIONS.join(", ")}`);
    if (out !== undefined && out !== false && (typeof out !== "string" || out.trim() === ""))
      throw new SettingError("out must name a folder, or be false for no files");
    const bench = await resolveBenchOptions({ ...given, ...(out ? { out } : {}) }, (key) => key);
    const silent: ProgressSink = { write: () => true };
    const streams =
      print === true ? { stdout: process.stdout, stderr: process.stderr } : print || { stdout: silent, stderr: silent };
    const control: StopControl = { stopRequested: false };
    const stop = (): void => void (control.stopRequested = true);
    signal?.addEventListener("abort", stop, { once: true });
    try {
      const outcome = await runBenchmark(bench, streams, control);
      const results = outcome.results!;
      return {
        answers: payloadAnswers(results.cases).map((a) => ({
          payload: a.payload,
          mode: a.mode,
          basis: a.basis,
          order: a.order.map((c) => c.codec),
          fastest: a.fastest.map((c) => c.codec),
          smallest: a.smallest.map((c) => c.codec),
        })),
        verdict: benchmarkSummary(results).verdict.slice(),
        failures: outcome.failures,
        rows: csvRecords(results),
        ...(outcome.files ? { files: outcome.files } : {}),
        stopped: control.stopRequested,
      };
    } finally {
      signal?.removeEventListener("abort", stop);
    }
  } finally {
    running = false;
  }
}
