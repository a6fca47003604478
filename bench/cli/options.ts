/**
 * Command-line options of `bun run bench`, resolved once, at the edge: parsed
 * with util.parseArgs, filled with documented defaults, validated with one
 * clear message per mistake. Library code never reads process.argv.
 */

import { parseArgs } from "node:util";
import { SOCKET_CODEC_NAMES } from "../../protocols/socket/contract.ts";
import { PAYLOAD_NAMES, type PayloadName } from "../../protocols/messages.ts";
import type { Mode } from "../harness/results.ts";

export const MODE_NAMES: readonly Mode[] = ["codec", "roundtrip", "stream", "fanout"];
/** What runs without --modes: fanout only when asked for. */
export const DEFAULT_MODES: readonly Mode[] = ["codec", "roundtrip", "stream"];
/** Clients `--client` can pick. */
export const CLIENT_NAMES = ["bun", "node", "browser"] as const;
export type ClientName = (typeof CLIENT_NAMES)[number];

export interface BenchOptions {
  /** Codec names; `raw` (the transport baseline) only runs in the WebSocket modes. */
  codecs: string[];
  payloads: PayloadName[];
  modes: Mode[];
  /** Messages per run, by mode. */
  iterations: Record<Mode, number>;
  runs: number;
  /** Untimed messages before a case's first run, by mode. */
  warmup: Record<Mode, number>;
  seed: number;
  fixed: boolean;
  quick: boolean;
  out: string;
  client: ClientName;
  /** A running server to use instead of spawning one (http(s):// or ws(s)://). */
  url: string | undefined;
  /** Messages in flight in stream mode (per connection). */
  window: number;
  /** Concurrent connections per WebSocket case. */
  clients: number;
  deflate: boolean;
  /** A WebSocket case with no reply for this long ends as stalled, ms. */
  stallTimeoutMs: number;
  help: boolean;
}

/**
 * Defaults per mode, chosen so that plain `bun run bench` (every mode, codec
 * and payload) finishes within about three minutes on a 2-core machine.
 * The article's loop is 100,000 messages; roundtrip runs fewer because each
 * message waits for its reply, and its percentiles need far fewer samples.
 */
export const DEFAULTS = {
  iterations: { codec: 100_000, roundtrip: 2_000, stream: 100_000, fanout: 10_000 } as Record<Mode, number>,
  runs: 3,
  warmup: { codec: 20_000, roundtrip: 500, stream: 10_000, fanout: 1_000 } as Record<Mode, number>,
  seed: 1,
  out: "results",
  client: "bun" as ClientName,
  window: 64,
  stallTimeoutS: 10,
} as const;

/**
 * `--client browser` without --iterations: a browser's WebSocket moves only
 * thousands of messages per second here (see the README), so the socket
 * modes run fewer messages to keep the run in minutes.
 */
export const BROWSER_DEFAULT_ITERATIONS = { codec: 100_000, roundtrip: 1_000, stream: 20_000, fanout: 0 } as Record<Mode, number>;

/** What `--quick` changes (a flag given explicitly still wins). */
export const QUICK = {
  iterations: { codec: 10_000, roundtrip: 500, stream: 5_000, fanout: 1_000 } as Record<Mode, number>,
  runs: 2,
  warmup: { codec: 2_000, roundtrip: 100, stream: 500, fanout: 100 } as Record<Mode, number>,
} as const;

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
  client: { type: "string" },
  url: { type: "string" },
  window: { type: "string" },
  clients: { type: "string" },
  deflate: { type: "boolean" },
  "stall-timeout": { type: "string" },
  help: { type: "boolean", short: "h" },
} as const;

const OPTION_LIST = Object.keys(OPTION_SPEC)
  .map((k) => `--${k}`)
  .join(", ");

const perMode = (r: Record<Mode, number>): string => MODE_NAMES.map((m) => `${m} ${r[m]}`).join(", ");

export const HELP = `Usage: bun run bench [options]

Measures serialize and deserialize time per message, and bytes per message,
for each codec and payload: in process (codec mode) and over a WebSocket to
a Bun server (roundtrip and stream modes). Writes results/<timestamp>.csv and
.json, plus results/latest.csv and latest.json.

Options:
  --codecs LIST        comma-separated, or "all" (default: all)
                       ${SOCKET_CODEC_NAMES.join(", ")}
                       (raw, the transport baseline, runs in the WebSocket modes only)
  --payloads LIST      comma-separated, or "all" (default: all): ${PAYLOAD_NAMES.join(", ")}
  --modes LIST         comma-separated, or "all" (default: ${DEFAULT_MODES.join(",")}): ${MODE_NAMES.join(", ")}
                       codec: in process; roundtrip: one message in flight, latency;
                       stream: a window of messages in flight, throughput;
                       fanout: one publisher, --clients subscribers, Bun pub/sub
  --iterations N       messages per run, every mode (default: ${perMode(DEFAULTS.iterations)};
                       with --client browser: ${perMode(BROWSER_DEFAULT_ITERATIONS)})
  --runs N             timed runs per case (default: ${DEFAULTS.runs})
  --warmup N           untimed messages before a case's first run, every mode
                       (default: ${perMode(DEFAULTS.warmup)})
  --seed N             seed of the message generator, 0..4294967295 (default: ${DEFAULTS.seed})
  --fixed              send the article's exact messages instead of varied ones
  --client NAME        client: ${CLIENT_NAMES.join(", ")} (default: ${DEFAULTS.client});
                       node runs the npm ws package under Node.js; browser runs the
                       page (every mode, codec mode included) in headless Chromium
  --url URL            use a running server (ws://host:port or http://host:port)
                       instead of starting one
  --window N           messages in flight in stream mode, per connection (default: ${DEFAULTS.window})
  --clients N          concurrent connections per WebSocket case, spread over worker
                       threads and sharing its messages; in fanout mode the
                       subscribers (default: 1; above 1 needs --client bun)
  --deflate            offer permessage-deflate (off by default)
  --stall-timeout S    seconds without a reply before a case ends as stalled (default: ${DEFAULTS.stallTimeoutS})
  --quick              a first look: ${perMode(QUICK.iterations)} iterations, ${QUICK.runs} runs
  --out DIR            where results go (default: ${DEFAULTS.out})
  -h, --help           this text
`;

function parseList<T extends string>(flag: string, raw: string | undefined, valid: readonly T[], fallback: readonly T[], allowAll = true): T[] {
  const choices = `${valid.join(", ")}${allowAll ? " or all" : ""}`;
  if (raw === undefined) return [...fallback];
  const names = raw
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s !== "");
  if (names.length === 0) throw new OptionError(`--${flag} is empty; valid values: ${choices}`);
  if (allowAll && names.includes("all")) return [...valid];
  const out: T[] = [];
  for (const name of names) {
    if (!(valid as readonly string[]).includes(name)) {
      throw new OptionError(`--${flag}: unknown value '${name}'; valid values: ${choices}`);
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
  const base = quick ? QUICK : DEFAULTS;
  const iterations = parseInteger("iterations", v.iterations, NaN, 1, 10_000_000);
  const warmup = parseInteger("warmup", v.warmup, NaN, 0, 10_000_000);
  const byMode = (given: number, fallback: Record<Mode, number>): Record<Mode, number> =>
    Number.isNaN(given) ? { ...fallback } : { codec: given, roundtrip: given, stream: given, fanout: given };
  const client = parseList("client", v.client, CLIENT_NAMES, [DEFAULTS.client], false);
  if (client.length !== 1) throw new OptionError(`--client takes one name; valid values: ${CLIENT_NAMES.join(", ")}`);
  if (v.clients !== undefined && v.clients !== "1" && client[0] !== "bun") {
    throw new OptionError(`--clients above 1 needs --client bun (got --client ${client[0]})`);
  }
  if (client[0] !== "bun" && v.modes !== undefined && /(^|,)(fanout|all)(,|$)/.test(v.modes)) {
    throw new OptionError(`--modes fanout needs --client bun (got --client ${client[0]})`);
  }
  return {
    codecs: parseList("codecs", v.codecs, SOCKET_CODEC_NAMES, SOCKET_CODEC_NAMES),
    payloads: parseList("payloads", v.payloads, PAYLOAD_NAMES, PAYLOAD_NAMES),
    modes: parseList("modes", v.modes, MODE_NAMES, DEFAULT_MODES),
    iterations: byMode(iterations, !quick && client[0] === "browser" ? BROWSER_DEFAULT_ITERATIONS : base.iterations),
    runs: parseInteger("runs", v.runs, base.runs, 1, 1000),
    warmup: byMode(warmup, base.warmup),
    seed: parseInteger("seed", v.seed, DEFAULTS.seed, 0, 0xffffffff),
    fixed: v.fixed === true,
    quick,
    out,
    client: client[0]!,
    url: parseUrl(v.url),
    window: parseInteger("window", v.window, DEFAULTS.window, 1, 65_536),
    clients: parseInteger("clients", v.clients, 1, 1, 1024),
    deflate: v.deflate === true,
    stallTimeoutMs: parseInteger("stall-timeout", v["stall-timeout"], DEFAULTS.stallTimeoutS, 1, 3600) * 1000,
    help: v.help === true,
  };
}

/** A server URL as an http(s) base; ws(s) is accepted and translated. */
function parseUrl(raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new OptionError(`--url must be a URL like ws://127.0.0.1:8080, got '${raw}'`);
  }
  if (!["ws:", "wss:", "http:", "https:"].includes(url.protocol)) {
    throw new OptionError(`--url must start with ws://, wss://, http:// or https://, got '${raw}'`);
  }
  return `${url.protocol.replace(/^ws/, "http")}//${url.host}`;
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
