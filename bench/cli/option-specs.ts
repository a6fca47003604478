/**
 * Every option of `bun run bench`, described once, in the order --help lists them: its key (the
 * settings input's and compare()'s), its flag, what it takes, its heading in --help, and one text
 * saying what it does and its default, read from the tables the defaults live in. From this list
 * come the parser, --help, docs/options.md's table and docs/your-project.md's table of compare()'s
 * options (bench/tools/figures/); the server (server.ts) takes the entries of the flags it shares.
 */

import { PAGE_FORKS } from "../../client/page/query.ts";
import { CALIBRATION_CODEC_NAMES } from "../../protocols/calibration.ts";
import { CODEC_FAMILIES } from "../../protocols/codec.ts";
import { benchCodecNames, codecGroups, RAW_CODEC_NAME } from "../../protocols/contract.ts";
import { PAYLOAD_NAMES } from "../../protocols/messages.ts";
import type { CodecCatalog } from "../../protocols/registry.ts";
import { EQUAL_KINDS } from "../../client/harness/fidelity.ts";
import { LINK_NAMES, LINK_RUN_BUDGET_S, LINK_SWEEP_RATES } from "../../client/harness/link.ts";
import { DEFAULTS, MODE_NAMES, SWEEP_RATES, SWEEP_STEP_S, type Mode } from "../../client/harness/settings.ts";
import { K6_DEFAULTS } from "./k6-export.ts";
import { DEFAULT_FANOUT, MAX_FANOUT } from "../../client/harness/load.ts";
import { flagsOf, optionLines, type OptionSpec } from "./flags.ts";
import { usageOf } from "./command.ts";

/** Where results go without --out (compare() writes none without `out`). */
export const DEFAULT_OUT = "results";

/** Codec mode's processes without --forks: each compiles the codecs its own way, and the process is the unit of every interval (three the fewest that give one worth having). */
export const DEFAULT_FORKS = 3;
export const QUICK_FORKS = 3;
/** A browser client's codec-mode workers without --forks: the page's own default. */
export const BROWSER_FORKS = PAGE_FORKS;

const { default: full, quick, browser } = DEFAULTS;
const code = (names: readonly (string | number)[]): string => names.map((n) => `\`${n}\``).join(", ");

/** --codecs: the groups, each with what it holds in `catalog`, and the user's codecs that are in no family. */
function codecsText(catalog: CodecCatalog): string {
  const groups = codecGroups(catalog);
  const inFamily = (n: string): boolean => CODEC_FAMILIES.some((f) => groups[f]!.includes(n));
  const yours = benchCodecNames(catalog).filter((n) => !inFamily(n) && n !== RAW_CODEC_NAME);
  return [
    "comma-separated codecs or groups (default: `default`):",
    `\`default\`: ${groups.default!.join(", ")};`,
    ...CODEC_FAMILIES.map((f) => `\`${f}\`: ${groups[f]!.join(", ")};`),
    ...(yours.length > 0 ? [`yours, in no family: ${yours.join(", ")};`] : []),
    `\`all\`: every codec above, and ${RAW_CODEC_NAME}; \`${RAW_CODEC_NAME}\` (the transport baseline) runs in the WebSocket modes only`,
  ].join("\n");
}

/** Every option of the bench, under the heading --help lists it under ("": after the others, under none). */
const BENCH_GROUPS = {
  "What to run": [
    {
      key: "modes",
      arg: "LIST",
      text: [
        `comma-separated, or \`all\` (default: ${full.modes.join(",")}; {quick}: ${quick.modes.join(",")}): ${code(MODE_NAMES)};`,
        "`codec`: in process (encode and decode, and for the built-in payloads an echo, read-one and validated: docs/access-patterns.md);",
        "`roundtrip`: one message in flight, its round-trip time;",
        "`stream`: a window of messages in flight, throughput;",
        "`fanout`: one publisher, {clients} subscribers, through Bun's pub/sub;",
        "`latency`: an open loop at {rate}, latency from each message's scheduled send, so late sends count against the codec (docs/latency.md#latency-at-a-rate);",
        "`route`: the server as a router, each message to its routing key's room, forwarding the bytes and, side by side, decoding and encoding again; {clients} members (docs/access-patterns.md#route-mode);",
        "`cold`: each codec's import, set-up and first messages (1, 10, 100, 1,000) in fresh Bun processes (a browser client: fresh page loads), {runs} of them per case, never warmed up (docs/cold-start.md);",
        "`evolve`: no timing: each codec's reader of one version of each payload's messages against a writer of another, across six changes to the messages, both ways ({iterations} messages each; docs/schema-evolution.md)",
      ].join("\n"),
    },
    { key: "codecs", arg: "LIST", text: codecsText },
    {
      key: "payloads",
      arg: "LIST",
      text: `comma-separated, or \`all\` (default: ${full.payloads.join(",")}; with {messages}, those files): ${code(PAYLOAD_NAMES.slice(0, 3))} (the article's messages), ${code(PAYLOAD_NAMES.slice(3))} (messages of real-time applications: docs/message-sets.md), or a {messages} file's name`,
    },
    {
      key: "client",
      arg: "NAME",
      text: "`bun` (Bun's WebSocket, the default), `node` (the npm ws package under Node.js), `chromium` or `firefox` (the page, every mode and codec mode too, in that headless browser: docs/page.md)",
    },
    {
      key: "calibrate",
      text: `also run the calibration codecs ${code(CALIBRATION_CODEC_NAMES)} (JSON under another name, and JSON plus a loop of known cost in every decode) with \`json\` and \`raw\`, and show how closely each way of measuring inside the server recovers that cost (docs/lab-and-field.md)`,
    },
    {
      key: "validate",
      text: "route mode: the server decodes and checks every message before routing it (the validated pattern), and refuses a malformed one with 1007",
    },
    {
      key: "messages",
      arg: "FILE",
      repeats: true,
      text: "your own messages, a JSON array of objects or JSON Lines: a payload named after the file (`NAME=FILE` to name it yourself), run in every mode by the codecs that carry them; repeatable (docs/your-messages-and-codecs.md)",
    },
    {
      key: "proto",
      arg: "FILE",
      text: "a `.proto` file holding the Protobuf message type of your messages, so `protobuf` runs on them too (with {protoType})",
    },
    {
      key: "protoType",
      arg: "NAME",
      text: "that message type's name in the {proto} file, like `shop.Order`",
    },
    {
      key: "codecModules",
      flag: "--codec-module",
      arg: "FILE",
      repeats: true,
      text: "a codec of your own: a module whose default export implements the codec interface (docs/codecs.md); it joins every mode, the server and the page; repeatable",
    },
    {
      key: "emitCodec",
      arg: "DIR",
      cliOnly: true,
      text: "write custom-binary's layout of each of your payloads ({messages}) to DIR as a codec module, `PAYLOAD-binary.ts`, with the custom-binary/ files it imports: the code timed on that payload, to read, edit and ship ({codecModules} runs it), and beside it `PAYLOAD.proto` and `PAYLOAD.avsc`, the schemas protobuf and avro ran in; then the run goes on as asked",
    },
    {
      key: "allowLossy",
      text: "also time codecs that change your messages (flagged `!` and lossy); without it they are only reported, in the fidelity table",
    },
    {
      key: "equal",
      arg: "LIST",
      text: `changes to your messages that do not matter to you, comma-separated: ${code(EQUAL_KINDS)} (-0 read back as 0; the order of an object's keys; a field holding undefined left out); a codec making only these is not lossy, is timed, and is checked against its own round trip; the fidelity table still names each change, marked "equal"`,
    },
  ],
  "How much": [
    {
      key: "quick",
      text: `a first look: ${quick.modes.join(" and ")} modes, fewer messages (the table of defaults), ${QUICK_FORKS} codec-mode processes and one server, rounds for ±${quick.precision}% within ${quick.maxTimeMs! / 1000} s; options given as well win`,
    },
    {
      key: "iterations",
      arg: "N",
      text: "messages per run, for every mode (with {clients}, shared by the clients; in fanout, published; in cold mode, timed in each fresh process; default per mode: the table of defaults)",
    },
    {
      key: "warmup",
      arg: "N",
      text: "untimed messages before a case's first run, for every mode but cold (default per mode: the table of defaults): in codec mode every process runs each codec's serialize and deserialize loops over at least N messages (its verifying pass, then its messages over again), and its echo and validated loops over the first N of the pass, at most 5,000; on kept connections the server first runs N decodes and encodes in its own process, then up to 1,000 messages go over the socket, never more than a codec sends in the run's longest socket mode, and a server an earlier mode warmed up as much is not warmed up again (docs/performance-notes.md#the-socket-modes-warm-up)",
    },
    {
      key: "runs",
      arg: "N",
      text: "timed runs (times through the messages) per case, for every mode (default per mode: the table of defaults), each cut into slices timed in rounds; codec mode's first run is the article's loop, each codec timing 100,000 messages per payload over {forks} processes; cold mode's runs are its fresh processes",
    },
    {
      key: "precision",
      arg: "PCT",
      text: `codec mode: after its runs, more rounds (in more processes) for each payload until every ratio to JSON has its 95% interval within ±PCT; \`off\`: the runs only (default: ${full.precision}; {quick}: ${quick.precision}); a ratio still wider when {maxTime} runs out is marked †`,
    },
    {
      key: "maxTime",
      arg: "DURATION",
      text: `codec mode's time, within which the rounds for {precision} must be expected to end: \`90s\`, \`2m\`, \`500ms\` or seconds (default: ${full.maxTimeMs! / 1000}s; {quick}: ${quick.maxTimeMs! / 1000}s); a run whose planned rounds alone take longer still gets a tenth of their time more`,
    },
    {
      key: "forks",
      arg: "N",
      text: `processes, each compiling the codecs its own way: codec mode's rounds run in N fresh processes (a browser client: N fresh workers), one after the other, each the unit of every interval (each gives one estimate), and the socket modes' rounds take turns with N server processes (default: ${DEFAULT_FORKS}; a browser client: ${PAGE_FORKS} workers; {quick}: ${QUICK_FORKS} for codec mode, one server; 1: codec mode in the bench's own process or the page, its rounds pooled as if independent, against one server)`,
    },
    {
      key: "window",
      arg: "N",
      text: `messages in flight in stream and fanout mode, per connection, and at most in latency mode (default: ${full.window})`,
    },
    {
      key: "rate",
      arg: "N[,N...]|sweep",
      text: `latency mode: messages per second each connection sends on schedule, one case per rate (default: ${full.rates.join(",")}; in a browser: ${browser.rates.join(",")}); \`sweep\`: ${SWEEP_RATES.join(", ")} (over a {link}, from ${LINK_SWEEP_RATES[0]}), each codec climbing until it misses one (its knee), ${SWEEP_STEP_S} s of messages per step and run (docs/latency.md)`,
    },
    {
      key: "load",
      arg: "PAYLOAD=RATE[,...]",
      text: "your traffic: messages a second arriving at the server, per payload (`cursors=9000,strokes=600`); after the socket modes every codec carries it, the payloads at once, each message to {fanout} sockets through Bun's pub/sub, and the results say what each costs the server in cores (predicted from the field figures, and measured beside it), the bytes a second each way, plain and deflated, and what switching from JSON saves a day (docs/your-load.md); needs stream, roundtrip or latency in {modes}, {client} bun and the one server process the bench starts",
    },
    {
      key: "fanout",
      arg: "N",
      text: `with {load}: deliveries per message, the sockets each message goes to, its sender one of them, 1 to ${MAX_FANOUT.toLocaleString("en-US")} (default: ${DEFAULT_FANOUT})`,
    },
    {
      key: "clients",
      arg: "N",
      text: `concurrent connections per WebSocket case, spread over worker threads (one per core) and sharing its messages; in fanout mode, the subscribers (default: ${full.clients}; above 1 needs {client} bun); in route mode the members, with any client (default: ${full.members})`,
    },
    {
      key: "seed",
      arg: "N",
      text: `seed of the message generator, 0..4294967295 (default: ${full.seed})`,
    },
    {
      key: "fixed",
      text: "send the article's exact messages instead of varied ones",
    },
    {
      key: "stallTimeout",
      arg: "S",
      text: `seconds without a reply before a WebSocket case ends as stalled (default: ${full.stallTimeoutMs / 1000})`,
    },
  ],
  "Where from (the server)": [
    {
      key: "url",
      arg: "URL",
      text: "use a running server, `ws://host:port` or `http://host:port`, instead of starting one",
    },
    {
      key: "processes",
      arg: "N",
      text: "server processes sharing the port of the server the bench starts (Linux: `reusePort`; default: 1); fanout puts its publisher on the first and spreads its subscribers, route its routers and members, over every process's own port; above 1, fanout and route need {backplane} (docs/server.md#a-cluster-of-servers)",
    },
    {
      key: "backplane",
      arg: "redis|redis://HOST:PORT",
      text: "what fanout and route publish through across those processes: `redis` starts a local `redis-server` for the run (Debian's package) and stops it after; a URL names yours; not with {url}",
    },
    {
      key: "link",
      arg: "PROFILE",
      text: `the clients reach the server through an emulated network link (Toxiproxy, started for the run): ${code(LINK_NAMES.slice(1))}, or \`latency=40ms,jitter=10ms,down=10mbit,up=5mbit\` (latency: the round trip it adds), also after a profile's name to change some of its figures; without {iterations}, runs fit about ${LINK_RUN_BUDGET_S} s of the link's time (default: \`loopback\`, no link; docs/links.md)`,
    },
    {
      key: "linkSweep",
      cliOnly: true,
      text: "stream mode on loopback, then the fastest and the smallest codec of each payload over links of falling bandwidth: the speed below which the smaller wins (link-sweep.json and .csv in {out})",
    },
    {
      key: "deflate",
      text: "offer permessage-deflate, to measure its effect (off by default)",
    },
    {
      key: "csp",
      arg: "POLICY",
      text: "in a browser ({client} chromium or firefox): the page's Content-Security-Policy, `off` or `strict` (no eval or `new Function`, as many production sites; docs/your-messages-and-codecs.md#where-each-codec-runs; default: off)",
    },
    {
      key: "noPin",
      text: "leave the bench and the server it starts wherever the scheduler puts them; by default, on Linux with two cores or more, the bench (its clients) runs on the first core and the server on the last while the sockets run, which makes roundtrip figures repeat (docs/lab-and-field.md)",
    },
  ],
  Output: [
    {
      key: "out",
      arg: "DIR",
      cliOnly: true,
      text: `where the result files go, checked before anything is measured (default: ${DEFAULT_OUT})`,
    },
    {
      key: "wide",
      text: "every column in the tables; by default they fit a 100-column terminal (every figure is in the CSV and JSON either way)",
    },
  ],
  "Load export": [
    {
      key: "exportK6",
      arg: "DIR",
      cliOnly: true,
      text: "write a k6 test of the selected codecs and payloads to DIR and run nothing; the options below set its load (docs/k6.md#load-from-many-machines-k6)",
    },
    {
      key: "k6Server",
      arg: "URL",
      cliOnly: true,
      text: `the server the test loads (default: ${K6_DEFAULTS.server})`,
    },
    {
      key: "k6Connections",
      arg: "N",
      cliOnly: true,
      text: `WebSocket connections per codec and payload (default: ${K6_DEFAULTS.connections})`,
    },
    {
      key: "k6Rate",
      arg: "N",
      cliOnly: true,
      text: `messages per second each connection sends (default: ${K6_DEFAULTS.rate})`,
    },
    {
      key: "k6Messages",
      arg: "N",
      cliOnly: true,
      text: `messages each connection sends per codec and payload (default: ${K6_DEFAULTS.messages})`,
    },
    {
      key: "k6Ramp",
      arg: "S",
      cliOnly: true,
      text: `seconds over which a case's connections start (default: ${K6_DEFAULTS.rampS})`,
    },
    {
      key: "k6Stall",
      arg: "S",
      cliOnly: true,
      text: `seconds a connection waits for its last echoes before counting the rest lost (default: ${K6_DEFAULTS.stallS})`,
    },
  ],
  "": [
    {
      key: "help",
      short: "h",
      cliOnly: true,
      text: "prints the options and their defaults",
    },
  ],
} as const satisfies Readonly<Record<string, readonly OptionSpec[]>>;

/** Every option of the bench, in the order --help lists them. */
export const BENCH_OPTIONS = Object.values(BENCH_GROUPS).flat();

/** An option of the bench, by its key. */
export type BenchKey = (typeof BENCH_OPTIONS)[number]["key"];
/** The options compare() takes (beside its own: out, print, signal). */
export type ApiKey = Exclude<(typeof BENCH_OPTIONS)[number], { cliOnly: true }>["key"];

/** The bench's entry for `key`, for the server's list of the flags it shares. */
export function benchOption(key: BenchKey): OptionSpec {
  return BENCH_OPTIONS.find((s) => s.key === key)!;
}

/** The command line's name for each option: its flag. */
export const benchFlag = flagsOf(BENCH_OPTIONS);

/** Each profile's messages per run, runs and warm-up per mode: every per-mode default, once. */
export const PER_MODE_DEFAULTS: readonly (readonly [string, Readonly<Record<Mode, number>>])[] = [
  ["--iterations", full.iterations],
  ["  --quick", quick.iterations],
  ["  in a browser", browser.iterations],
  ["--runs", full.runs],
  ["  --quick", quick.runs],
  ["  in a browser", browser.runs],
  ["--warmup", full.warmup],
  ["  --quick", quick.warmup],
  ["  in a browser", browser.warmup],
];

/** The per-mode defaults as --help shows them, a column per mode. */
function perModeTable(): string {
  const width = Math.max(...MODE_NAMES.map((m) => m.length), 7) + 1;
  const cell = (v: string | number): string => String(v).padStart(width);
  return [
    `  ${"defaults".padEnd(16)}${MODE_NAMES.map(cell).join("")}`,
    ...PER_MODE_DEFAULTS.map(([label, r]) => `  ${label.padEnd(16)}${MODE_NAMES.map((m) => cell(r[m])).join("")}`),
  ].join("\n");
}

/** The text of `bun run bench --help`; `catalog` names the codecs (with --codec-module, the user's too). */
export function helpText(catalog: CodecCatalog): string {
  const lines = Object.entries(BENCH_GROUPS).map(([group, options]) => {
    const listed = optionLines(options, catalog, benchFlag, 23);
    return `${group === "" ? "" : `${group}:\n`}${listed}${group === "How much" ? `\n\n${perModeTable()}` : ""}`;
  });
  return `Usage: ${usageOf("bench")} [options]

Measures serialize and deserialize time per message, and bytes per message,
for each codec and payload: in process (codec mode) and over a WebSocket to
a Bun server (roundtrip, stream, fanout, latency and route modes). Writes
results/<timestamp>.csv and .json, copies them to results/latest.csv and
latest.json, and writes results/report.html (charts that open offline).

${lines.join("\n\n")}
`;
}
