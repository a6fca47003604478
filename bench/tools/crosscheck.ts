/**
 * `bun run crosscheck [--from FILE] [--iterations N] [--repetitions N] [--forks N]`:
 * codec mode's ratios to JSON beside those of the plainest possible loop,
 * one codec and payload per process (plain-loop.ts), each in `--forks`
 * processes (taken in turn, codec after codec) whose median it uses: one
 * process's compiled code can run a codec 1.7x slower than another's, so a
 * single process per codec would cross-check nothing. A harness that
 * agrees only with itself proves little; where the two differ by more than
 * 10% the line says so, beside how far the plain loop's own processes were
 * apart, and beside the field figures (what the codec cost inside the
 * server, roundtrip and stream) of the same run: a disagreement the field
 * explains is one where the server too departs from codec mode, the same
 * way, by more than 10%. Without --from it first runs `bun run bench`
 * (codec, roundtrip and stream modes) into a temporary folder.
 */

import { spawnSync } from "node:child_process";
import path from "node:path";
import { parseArgs } from "node:util";
import type { BenchResults } from "../../client/harness/results.ts";
import { parseInteger } from "../../client/harness/settings.ts";
import { pad } from "../report/format.ts";
import { ROOT } from "../cli/paths.ts";
import { resultsToCheck } from "./bench-results.ts";
import { CliError } from "../cli/cli-errors.ts";

const USAGE = "usage: bun run crosscheck [--from results.json] [--iterations N] [--repetitions N] [--forks N]";
/** Ratios further apart than this are called out. */
const AGREE_WITHIN = 0.1;

/** ns per message (encode + decode) of one codec and payload, in a process of its own. */
function plainLoop(codec: string, payload: string, iterations: number, repetitions: number, seed: number): number {
  const r = spawnSync(
    process.execPath,
    [
      path.join(ROOT, "bench/tools/plain-loop.ts"),
      codec,
      payload,
      String(iterations),
      String(repetitions),
      String(seed),
    ],
    { cwd: ROOT, encoding: "utf8" },
  );
  if (r.status !== 0) throw new CliError("TOOL", `plain loop ${codec} ${payload} failed: ${r.stderr.trim()}`);
  return (JSON.parse(r.stdout) as { nsPerMessage: number }).nsPerMessage;
}

interface Options {
  from?: string;
  iterations: string;
  repetitions: string;
  forks: string;
}

/** The options, "help", or the one-line error for a bad one. */
function parseOptions(argv: string[]): Options | "help" | Error {
  try {
    const values = parseArgs({
      args: argv,
      options: {
        from: { type: "string" },
        iterations: { type: "string" },
        repetitions: { type: "string" },
        forks: { type: "string" },
        help: { type: "boolean", short: "h" },
      },
      strict: true,
    }).values;
    if (values.help) return "help";
    const options = {
      from: values.from,
      iterations: values.iterations ?? "100000",
      repetitions: values.repetitions ?? "7",
      forks: values.forks ?? "3",
    };
    parseInteger("--forks", options.forks, 1, 100);
    parseInteger("--iterations", options.iterations, 1, 10_000_000);
    parseInteger("--repetitions", options.repetitions, 1, 1000);
    return options;
  } catch (e) {
    return e as Error;
  }
}

function main(argv: string[]): number {
  const values = parseOptions(argv);
  if (values === "help") {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  if (values instanceof Error) {
    process.stderr.write(`crosscheck: ${values.message.split("\n")[0]}; ${USAGE}\n`);
    return 2;
  }
  let results: BenchResults;
  try {
    results = resultsToCheck("crosscheck", values.from, [], "codec, roundtrip and stream modes");
  } catch (e) {
    process.stderr.write(`crosscheck: ${(e as Error).message.split("\n")[0]}\n`);
    return 1;
  }
  const verified = results.cases.filter((c) => c.verified);
  const codecRows = verified.filter((c) => c.mode === "codec");
  if (codecRows.length === 0) {
    process.stderr.write(
      `crosscheck: ${values.from} has no verified codec-mode rows; run bun run bench (or --modes codec) first\n`,
    );
    return 1;
  }
  const field = (mode: string, payload: string, codec: string): number =>
    verified.find((c) => c.mode === mode && c.payload === payload && c.codec === codec)?.ratios?.fieldVsJson?.value ??
    NaN;
  const machine = results.environments?.[codecRows[0]!.client] ?? results.environment;
  const lines = [
    `codec mode (${machine.cpu}) against a plain loop, one codec per process, median of ${values.forks} processes; ratio to json, encode + decode per message`,
    `("processes apart": the plain loop's slowest process over its fastest, for that codec; "field": the same codec's decode + encode inside the server,`,
    ` roundtrip and stream mode of the same run; "field explains": the server departs from codec mode the same way as the plain loop, by more than 10%)`,
    "",
    `${pad("payload", 8)}${pad("codec", 19)}${pad("codec mode", 22, true)}${pad("plain loop", 12, true)}${pad("difference", 12, true)}${pad("processes apart", 17, true)}${pad("field rt", 10, true)}${pad("field stream", 14, true)}  field explains`,
  ];
  let disagreements = 0;
  let explained = 0;
  let anyField = false;
  const processes = Number(values.forks);
  for (const payload of [...new Set(codecRows.map((c) => c.payload))]) {
    const codecs = codecRows.filter((c) => c.payload === payload).map((c) => c.codec);
    const runs = new Map(codecs.map((codec) => [codec, [] as number[]]));
    // In turn: every codec's k-th process before any codec's (k+1)-th, so the machine's drift spreads over all of them.
    for (let k = 0; k < processes; k++)
      for (const codec of codecs)
        runs
          .get(codec)!
          .push(
            plainLoop(codec, payload, Number(values.iterations), Number(values.repetitions), results.settings.seed),
          );
    const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
    for (const row of codecRows.filter((c) => c.payload === payload && c.codec !== "json")) {
      const codec = row.codec;
      const vs = row.ratios?.vsJson;
      const ratio = vs?.value ?? NaN;
      if (!Number.isFinite(ratio) || !runs.has("json")) continue;
      const mine = runs.get(codec)!;
      const plainRatio = median(mine) / median(runs.get("json")!);
      const difference = plainRatio / ratio - 1;
      const off = Math.abs(difference) > AGREE_WITHIN;
      const fields = { rt: field("roundtrip", payload, codec), stream: field("stream", payload, codec) };
      const sameWay = Object.entries(fields)
        .filter(
          ([, f]) =>
            Number.isFinite(f) &&
            Math.abs(f / ratio - 1) > AGREE_WITHIN &&
            Math.sign(f / ratio - 1) === Math.sign(difference),
        )
        .map(([name]) => name);
      const hasField = Number.isFinite(fields.rt) || Number.isFinite(fields.stream);
      const explains = !off ? "" : !hasField ? "-" : sameWay.length > 0 ? `yes (${sameWay.join(", ")})` : "no";
      anyField ||= hasField;
      if (off) disagreements++;
      if (off && sameWay.length > 0) explained++;
      const interval = `${ratio.toFixed(2)} [${(vs?.low ?? NaN).toFixed(2)}-${(vs?.high ?? NaN).toFixed(2)}]`;
      const apart = `${(Math.max(...mine) / Math.min(...mine)).toFixed(2)}x`;
      const f = (x: number): string => (Number.isFinite(x) ? x.toFixed(2) : "-");
      lines.push(
        `${pad(payload, 8)}${pad(codec, 19)}${pad(interval, 22, true)}${pad(plainRatio.toFixed(2), 12, true)}${pad(`${difference >= 0 ? "+" : ""}${(100 * difference).toFixed(1)}%${off ? " !" : ""}`, 12, true)}${pad(apart, 17, true)}${pad(f(fields.rt), 10, true)}${pad(f(fields.stream), 14, true)}  ${explains}`.trimEnd(),
      );
    }
  }
  lines.push(
    "",
    disagreements === 0
      ? `Every ratio agrees within ${100 * AGREE_WITHIN}%.`
      : `${disagreements} ratio(s) differ by more than ${100 * AGREE_WITHIN}% (marked !); ${anyField ? `the field explains ${explained} of them (the server departs from codec mode the same way)` : "this run has no field figures (roundtrip or stream mode) to explain them"}: see docs/lab-and-field.md, "Cross-check".`,
  );
  process.stdout.write(lines.join("\n") + "\n");
  return 0;
}

process.exitCode = main(process.argv.slice(2));
