/**
 * Command-line options of `bun run bench`, resolved once, at the edge: parsed
 * with util.parseArgs, filled with documented defaults, validated with one
 * clear message per mistake. Library code never reads process.argv.
 */

import { parseArgs } from "node:util";
import { CODEC_NAMES } from "../protocols/registry.ts";
import { PAYLOAD_NAMES, type PayloadName } from "./payloads.ts";
import type { Mode } from "./results.ts";

export const MODE_NAMES: readonly Mode[] = ["codec"];

export interface BenchOptions {
  codecs: string[];
  payloads: PayloadName[];
  modes: Mode[];
  iterations: number;
  runs: number;
  warmup: number;
  seed: number;
  fixed: boolean;
  quick: boolean;
  out: string;
  help: boolean;
}

export const DEFAULTS = {
  iterations: 100_000,
  runs: 5,
  warmup: 20_000,
  seed: 1,
  out: "results",
} as const;

/** What `--quick` changes (a flag given explicitly still wins). */
export const QUICK = { iterations: 10_000, runs: 3, warmup: 2_000 } as const;

/** A bad flag or value: the CLI prints `message` on one line and exits 2. */
export class OptionError extends Error {
  override readonly name = "OptionError";
}

const OPTION_SPEC = {
  codecs: { type: "string" },
  payloads: { type: "string" },
  modes: { type: "string" },
  iterations: { type: "string" },
  runs: { type: "string" },
  warmup: { type: "string" },
  seed: { type: "string" },
  fixed: { type: "boolean" },
  quick: { type: "boolean" },
  out: { type: "string" },
  help: { type: "boolean", short: "h" },
} as const;

const OPTION_LIST = Object.keys(OPTION_SPEC)
  .map((k) => `--${k}`)
  .join(", ");

export const HELP = `Usage: bun run bench [options]

Measures serialize and deserialize time per message, and bytes per message,
for each codec and payload, and writes results/<timestamp>.csv and .json
(plus results/latest.csv and latest.json).

Options:
  --codecs LIST      comma-separated, or "all" (default: all)
                     ${CODEC_NAMES.join(", ")}
  --payloads LIST    comma-separated, or "all" (default: all): ${PAYLOAD_NAMES.join(", ")}
  --modes LIST       comma-separated (default: codec): ${MODE_NAMES.join(", ")}
  --iterations N     messages per run, the article's loop (default: ${DEFAULTS.iterations})
  --runs N           timed runs per case (default: ${DEFAULTS.runs})
  --warmup N         untimed messages before a case's first run (default: ${DEFAULTS.warmup})
  --seed N           seed of the message generator, 0..4294967295 (default: ${DEFAULTS.seed})
  --fixed            send the article's exact messages instead of varied ones
  --quick            a first look in seconds: ${QUICK.iterations} iterations, ${QUICK.runs} runs, ${QUICK.warmup} warm-up
  --out DIR          where results go (default: ${DEFAULTS.out})
  -h, --help         this text
`;

function parseList<T extends string>(flag: string, raw: string | undefined, valid: readonly T[], fallback: readonly T[]): T[] {
  if (raw === undefined) return [...fallback];
  const names = raw
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s !== "");
  if (names.length === 0) throw new OptionError(`--${flag} is empty; valid values: ${valid.join(", ")} or all`);
  if (names.includes("all")) return [...valid];
  const out: T[] = [];
  for (const name of names) {
    if (!(valid as readonly string[]).includes(name)) {
      throw new OptionError(`--${flag}: unknown value '${name}'; valid values: ${valid.join(", ")} or all`);
    }
    if (!out.includes(name as T)) out.push(name as T);
  }
  return out;
}

function parseInteger(flag: string, raw: string | undefined, fallback: number, min: number, max: number): number {
  if (raw === undefined) return fallback;
  const value = Number(raw.replaceAll("_", ""));
  if (!/^\s*[0-9_]+\s*$/.test(raw) || !Number.isSafeInteger(value) || value < min || value > max) {
    throw new OptionError(`--${flag} must be an integer from ${min} to ${max}, got '${raw}'`);
  }
  return value;
}

/** Parses `bench` arguments (without the runtime and script). Throws OptionError. */
export function parseBenchArgs(argv: readonly string[]): BenchOptions {
  let parsed;
  try {
    parsed = parseArgs({ args: [...argv], options: OPTION_SPEC, strict: true, allowPositionals: false });
  } catch (e) {
    throw new OptionError(describeParseError(e));
  }
  const v = parsed.values;
  const quick = v.quick === true;
  const out = v.out ?? DEFAULTS.out;
  if (out.trim() === "") throw new OptionError("--out must name a directory");
  return {
    codecs: parseList("codecs", v.codecs, CODEC_NAMES, CODEC_NAMES),
    payloads: parseList("payloads", v.payloads, PAYLOAD_NAMES, PAYLOAD_NAMES),
    modes: parseList("modes", v.modes, MODE_NAMES, MODE_NAMES),
    iterations: parseInteger("iterations", v.iterations, quick ? QUICK.iterations : DEFAULTS.iterations, 1, 10_000_000),
    runs: parseInteger("runs", v.runs, quick ? QUICK.runs : DEFAULTS.runs, 1, 1000),
    warmup: parseInteger("warmup", v.warmup, quick ? QUICK.warmup : DEFAULTS.warmup, 0, 10_000_000),
    seed: parseInteger("seed", v.seed, DEFAULTS.seed, 0, 0xffffffff),
    fixed: v.fixed === true,
    quick,
    out,
    help: v.help === true,
  };
}

function describeParseError(e: unknown): string {
  const err = e as { code?: string; message?: string };
  const message = err.message ?? String(e);
  const flag = /'([^']+)'/.exec(message)?.[1];
  switch (err.code) {
    case "ERR_PARSE_ARGS_UNKNOWN_OPTION":
      return `unknown option '${flag ?? message}'; valid options: ${OPTION_LIST}`;
    case "ERR_PARSE_ARGS_INVALID_OPTION_VALUE":
      return message.includes("does not take")
        ? `option '${flag ?? message}' takes no value; see --help`
        : `option '${flag?.split(" ")[0] ?? message}' needs a value; see --help`;
    case "ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL":
      return `unexpected argument '${flag ?? message}'; options start with --, valid options: ${OPTION_LIST}`;
    default:
      return message.split("\n")[0] ?? message;
  }
}
