/** The text of `bun run bench --help`, every default read from the table it lives in. */

import { CALIBRATION_CODEC_NAMES } from "../../protocols/calibration.ts";
import { usageOf } from "./command.ts";
import { PAYLOAD_NAMES } from "../../protocols/messages.ts";
import { BUILT_IN, type CodecCatalog } from "../../protocols/registry.ts";
import { CODEC_FAMILIES } from "../../protocols/codec.ts";
import { benchCodecNames, codecGroups, RAW_CODEC_NAME } from "../../protocols/contract.ts";
import {
  CLIENT_CHOICES,
  DEFAULTS,
  MODE_NAMES,
  SWEEP_RATES,
  SWEEP_STEP_S,
  type Mode,
} from "../../client/harness/settings.ts";
import { DEFAULT_FORKS, DEFAULT_OUT, QUICK_FORKS } from "./options.ts";
import { LINK_NAMES, LINK_RUN_BUDGET_S, LINK_SWEEP_RATES } from "../../client/harness/link.ts";

/** `name: a, b, c` wrapped within 100 columns, continuation lines indented under the first value. */
function listLine(name: string, values: readonly string[]): string {
  const indent = " ".repeat(23);
  const lines: string[] = [];
  let line = `${indent}${name}: `;
  const hang = " ".repeat(line.length);
  values.forEach((v, i) => {
    const item = v + (i < values.length - 1 ? "," : "");
    if (line.trim() !== `${name}:` && line.length + 1 + item.length > 100) {
      lines.push(line.trimEnd());
      line = hang;
    }
    line += (line.endsWith(" ") ? "" : " ") + item;
  });
  lines.push(line);
  return lines.join("\n");
}

/** The --codecs groups and what each holds: default, the families, all. */
function codecLines(catalog: CodecCatalog): string {
  const groups = codecGroups(catalog);
  const user = benchCodecNames(catalog).filter(
    (n) =>
      !Object.entries(groups).some(([g, names]) => g !== "all" && g !== "default" && names.includes(n)) &&
      n !== RAW_CODEC_NAME,
  );
  return [
    listLine("default", groups.default!),
    ...CODEC_FAMILIES.map((f) => listLine(f, groups[f]!)),
    ...(user.length > 0 ? [listLine("yours (no family)", user)] : []),
    `${" ".repeat(23)}all: every codec above, and raw`,
  ].join("\n");
}

/** Messages per run, runs and warm-up per mode, one row per profile: every per-mode default, once. */
function perModeTable(): string {
  const width = Math.max(...MODE_NAMES.map((m) => m.length), 7) + 2;
  const cell = (v: string | number): string => String(v).padStart(width);
  const row = (label: string, r: Record<Mode, number>): string =>
    `  ${label.padEnd(22)}${MODE_NAMES.map((m) => cell(r[m])).join("")}`;
  return [
    `  ${"".padEnd(22)}${MODE_NAMES.map(cell).join("")}`,
    row("--iterations", DEFAULTS.default.iterations),
    row("  --quick", DEFAULTS.quick.iterations),
    row("  in a browser", DEFAULTS.browser.iterations),
    row("--runs", DEFAULTS.default.runs),
    row("  --quick", DEFAULTS.quick.runs),
    row("  in a browser", DEFAULTS.browser.runs),
    row("--warmup", DEFAULTS.default.warmup),
    row("  --quick", DEFAULTS.quick.warmup),
    row("  in a browser", DEFAULTS.browser.warmup),
  ].join("\n");
}

/** `text` wrapped within 100 columns, every line after the first indented to the description column. */
function described(text: string): string {
  const indent = " ".repeat(23);
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(" ")) {
    if (line !== "" && indent.length + line.length + 1 + word.length > 100) {
      lines.push(line);
      line = word;
    } else line = line === "" ? word : `${line} ${word}`;
  }
  lines.push(line);
  return lines.join(`\n${indent}`);
}

/** The help text; `catalog` names the codecs (with --codec-module, the user's too). */
export function helpText(catalog: CodecCatalog): string {
  return `Usage: ${usageOf("bench")} [options]

Measures serialize and deserialize time per message, and bytes per message,
for each codec and payload: in process (codec mode) and over a WebSocket to
a Bun server (roundtrip, stream, fanout, latency and route modes). Writes
results/<timestamp>.csv and .json, copies them to results/latest.csv and
latest.json, and writes results/report.html (charts that open offline).

What to run:
  --modes LIST         ${described(`comma-separated, or "all" (default: ${DEFAULTS.default.modes.join(",")}): ${MODE_NAMES.join(", ")}`)}
                       codec: in process (encode, decode, and for the built-in payloads
                       read-one and validated: docs/access-patterns.md);
                       roundtrip: one message in flight, latency;
                       stream: a window of messages in flight, throughput;
                       fanout: one publisher, --clients subscribers, Bun pub/sub;
                       latency: an open loop at --rate, latency from each message's
                       scheduled send (late sends count against the codec);
                       route: the server routes each message to its routing key's room,
                       forwarding the bytes and, side by side, decoding and encoding
                       again; --clients members (docs/access-patterns.md)
  --codecs LIST        comma-separated codecs or groups (default: default)
${codecLines(catalog)}
                       (raw, the transport baseline, runs in the WebSocket modes only)
  --payloads LIST      ${described(`comma-separated, or "all" (default: ${DEFAULTS.default.payloads.join(",")}; with --messages, those files): ${PAYLOAD_NAMES.join(", ")}, or a --messages file's name`)}
                       small, medium, large: the article's messages; chat, game-tick,
                       market: messages of real-time applications (docs/message-sets.md)
  --client NAME        ${described(`${CLIENT_CHOICES.join(", ")} (default: ${CLIENT_CHOICES[0]}); node runs the npm ws package under Node.js; chromium and firefox run the page (every mode, codec mode included) in that headless browser (browser: another name for chromium)`)}
  --calibrate          also run the calibration codecs (${CALIBRATION_CODEC_NAMES.join(", ")}: JSON, and JSON
                       plus a known cost) with json and raw, and show how closely each way
                       of measuring inside the server recovers it (docs/lab-and-field.md)
  --validate           route mode: the server decodes and checks every message before
                       routing it (the validated pattern), and refuses a malformed one
  --messages FILE      your own messages: a JSON array of objects, or JSON Lines, run
                       as a payload named after the file, in every mode, by the codecs
                       that carry them; repeatable (docs/your-messages-and-codecs.md)
  --proto FILE --proto-type NAME
                       the Protobuf message type of your messages, so protobuf runs too
  --codec-module FILE  a codec of your own: a module whose default export implements the
                       codec interface (docs/codecs.md); joins every mode; repeatable
  --allow-lossy        also time codecs that change your messages (flagged lossy);
                       without it they are only reported in the fidelity table
  --equal LIST         changes to your messages that do not matter to you, so a codec making
                       only these is not lossy: negative-zero (-0 read as 0), key-order,
                       undefined (a field holding undefined left out); comma-separated

How much:
  --quick              a first look: ${DEFAULTS.quick.modes.join(" and ")} modes, fewer messages (below), ${QUICK_FORKS} fork, ±${DEFAULTS.quick.precision}%
  --iterations N       messages per run, every mode (defaults per mode: the table below)
  --warmup N           untimed messages before a case's first run, every mode (below)
  --runs N             timed runs per case, every mode (below); codec mode's first run is
                       the seed article's loop: each codec times its 100,000 messages
  --precision PCT      codec mode: after its runs, more rounds for each payload until
                       every ratio's 95% interval is within ±PCT (default: ${DEFAULTS.default.precision}; off: none)
  --max-time DURATION  codec mode's time, within which those rounds must be expected to
                       end: 90s, 2m, 500ms (default: ${DEFAULTS.default.maxTimeMs! / 1000}s; --quick ${DEFAULTS.quick.maxTimeMs! / 1000}s); a run whose
                       planned rounds take longer still gets a tenth of their time more
  --forks N            processes a ratio is pooled over, each compiling the codecs its own
                       way: codec mode's rounds run in N fresh processes, one after the
                       other; the socket modes' rounds take turns with N server processes
                       (default: ${DEFAULT_FORKS}; 1: codec mode in the bench's process, one server)
  --window N           messages in flight in stream and fanout mode, per connection, and
                       at most in latency mode (default: ${DEFAULTS.default.window})
  --rate N[,N...]|sweep
                       ${described(`latency mode: messages per second per connection, one case per rate (default: ${DEFAULTS.default.rates.join(",")}); sweep: ${SWEEP_RATES.join(", ")} (over a --link from ${LINK_SWEEP_RATES[0]}), each codec climbing until it misses one (its knee), ${SWEEP_STEP_S} s of messages per step and run`)}
  --clients N          concurrent connections per WebSocket case, spread over worker
                       threads and sharing its messages; in fanout mode the
                       subscribers (default: 1; above 1 needs --client bun); in
                       route mode the members, with any client (default: ${DEFAULTS.default.members})
  --seed N             seed of the message generator, 0..4294967295 (default: ${DEFAULTS.default.seed})
  --fixed              send the article's exact messages instead of varied ones
  --stall-timeout S    seconds without a reply before a case ends as stalled (default: ${DEFAULTS.default.stallTimeoutMs / 1000})

${perModeTable()}

Where from (the server):
  --url URL            use a running server (ws://host:port or http://host:port)
                       instead of starting one
  --processes N        server processes sharing the port of the server the bench starts
                       (Linux; default: 1); fanout puts its publisher on the first and
                       spreads the subscribers, route its routers and members
  --backplane redis|redis://HOST:PORT
                       what fanout and route publish through across those processes:
                       redis starts a local redis-server for the run (Debian's package)
  --link PROFILE       the clients reach the server through an emulated network link
                       (Toxiproxy, started for the run; docs/links.md):
                       ${LINK_NAMES.join(", ")},
                       or latency=40ms,jitter=10ms,down=10mbit,up=5mbit (latency: the
                       round trip it adds; after a profile's name, to change some of its
                       figures); without --iterations, runs fit ${LINK_RUN_BUDGET_S} s of the link's time
                       (default: loopback, no link)
  --link-sweep         stream mode on loopback, then the fastest and the smallest codec
                       of each payload over links of falling bandwidth: the speed below
                       which the smaller wins (link-sweep.json and .csv in --out)
  --deflate            offer permessage-deflate (off by default)
  --csp POLICY         in a browser: the page's Content-Security-Policy, off or strict
                       (no eval or new Function, as many production sites; default: off)
  --no-pin             leave the bench and the server it starts wherever the scheduler puts
                       them (by default, on Linux with two cores or more, the bench runs
                       on the first core and the server on the last while the sockets run)

Output:
  --out DIR            where results go (default: ${DEFAULT_OUT})
  --wide               every column in the tables (the default fits 100 columns;
                       every figure is in the CSV and JSON either way)

Load export:
  --export-k6 DIR      write a k6 test of the selected codecs and payloads to DIR and run
                       nothing (docs/k6.md); its load model:
  --k6-server URL --k6-connections N (10) --k6-rate N (100/s per connection)
  --k6-messages N (1000 per connection) --k6-ramp S --k6-stall S

  -h, --help           this text
`;
}

/** The help text with the built-in codecs. */
export const HELP = helpText(BUILT_IN);
