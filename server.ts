/**
 * The benchmark's Bun WebSocket server.
 *
 *   bun run server [--host 127.0.0.1] [--port 0] [--deflate] [--idle-timeout 60]
 *                  [--allow-origin ORIGIN]... [--max-connections 256] [--messages FILE]...
 *                  [--csp off|strict] [--processes N] [--backplane redis://HOST:PORT]
 *
 * With --processes N, N processes share the port (server/cluster.ts);
 * with --backplane, fanout and route publish through Redis, so a subscriber on
 * any process hears every message (server/backplane-relay.ts).
 *
 * It serves the benchmark page at / (bench/page/, bundled at start-up) and
 * the WebSocket endpoint at /ws. Its flags are described once (SERVER_OPTIONS
 * below), those it shares with the bench by the bench's own entries
 * (bench/cli/option-specs.ts), and read and listed in --help as the bench's
 * are (bench/cli/flags.ts).
 *
 * The first line on stdout is one JSON object: {"event":"ready","url":...}.
 * SIGINT and SIGTERM close every connection (1001) and exit 0. The contract
 * clients rely on is in protocols/contract.ts; the request handling is
 * in server/ (requests.ts, handlers.ts).
 */

import type { Server } from "bun";
import path from "node:path";
import { calibrateClock, performanceClock } from "./client/harness/clock.ts";
import {
  parseInteger,
  type CodecModuleFile,
  type UserMessagesFile,
  type UserProtoFile,
} from "./client/harness/settings.ts";
import { libraryVersions } from "./client/harness/environment.ts";
import { importCodecModuleFiles, readProtoFile, readUserMessages } from "./client/harness/user-files.ts";
import { importCodecModules } from "./client/harness/codec-modules.ts";
import { catalogFor } from "./client/harness/plan.ts";
import { buildCodecModules, buildPage, codecModulePath } from "./server/page-bundle.ts";
import { PAYLOAD_NAMES } from "./protocols/messages.ts";
import { isLoopback } from "./server/access.ts";
import type { Connection } from "./server/socket-state.ts";
import { SOCKET_LIMITS, socketServer, type ClusterPeer } from "./server/context.ts";
import { CLOSE, MAX_PAYLOAD_BYTES, socketCodecNames, WS_PATH } from "./protocols/contract.ts";
import { BackplaneRelay, DEFAULT_CHANNEL_PREFIX } from "./server/backplane-relay.ts";
import { clusterProcess, reusePortRefusal, startCluster, type Cluster } from "./server/cluster.ts";
import { parseRedisUrl } from "./server/redis-backplane.ts";
import { BUILT_IN, type CodecCatalog } from "./protocols/registry.ts";
import { socketHandlers } from "./server/handlers.ts";
import { BACKPRESSURE_LIMIT_BYTES, type Publish } from "./server/server-send.ts";
import { answerRequest, CSP_POLICIES, type CspPolicy } from "./server/requests.ts";
import { SettingError } from "./client/harness/harness-errors.ts";
import { flagsOf, optionLines, readFlags, type OptionSpec } from "./bench/cli/flags.ts";
import { benchOption } from "./bench/cli/option-specs.ts";

export interface ServerOptions {
  /** Interface to bind; loopback unless the user says otherwise. */
  host: string;
  /**
   * Origins (scheme://host:port) whose pages may open a socket, besides the
   * server's own page. Clients that send no Origin (non-browser) are let in.
   */
  allowOrigins: string[];
  /** Open WebSocket connections at most; more are refused with 503. */
  maxConnections: number;
  /** 0 picks a free port. */
  port: number;
  /** Offer permessage-deflate. Off by default so codecs are compared uncompressed. */
  deflate: boolean;
  /** Seconds a connection may stay silent before Bun closes it. */
  idleTimeoutS: number;
  /** Stop when standard input closes: a server the bench started never outlives the bench. */
  exitWithStdin: boolean;
  /** Bytes of messages one connection may have waiting while it does not read its replies. */
  maxQueuedBytes: number;
  /** The same, all connections together. */
  maxTotalQueuedBytes: number;
  /** Seconds replies may wait for a client to read before it is closed with 1008. */
  sendTimeoutS: number;
  /** A user's own messages (--messages FILE): payloads the server accepts, and the page offers. */
  userMessages: UserMessagesFile[];
  /** Their Protobuf message type (--proto FILE --proto-type NAME). */
  userProto?: UserProtoFile;
  /** Codecs of the user's own (--codec-module FILE): module files, imported as the server starts; the page gets them bundled. */
  codecModules?: string[];
  /**
   * The page's Content-Security-Policy (--csp): "strict" forbids eval and
   * `new Function` (no 'unsafe-eval'), as many production sites do, so
   * codecs that generate code at run time fall back or fail as they would
   * there; "off" sends none.
   */
  csp: CspPolicy;
  /** Server processes sharing the port (--processes): Linux spreads connections over them. */
  processes: number;
  /** A Redis the processes' fanout and route publish through (--backplane redis://HOST:PORT). */
  backplane?: string;
  /** The backplane's channel prefix (--backplane-channel): clusters sharing one Redis are kept apart by it. */
  backplaneChannel: string;
}

export const SERVER_DEFAULTS: ServerOptions = {
  host: "127.0.0.1",
  port: 0,
  deflate: false,
  idleTimeoutS: 60,
  exitWithStdin: false,
  allowOrigins: [],
  maxConnections: 256,
  maxQueuedBytes: SOCKET_LIMITS.maxQueuedBytes,
  maxTotalQueuedBytes: SOCKET_LIMITS.maxTotalQueuedBytes,
  sendTimeoutS: SOCKET_LIMITS.sendTimeoutMs / 1000,
  userMessages: [],
  codecModules: [],
  csp: "off",
  processes: 1,
  backplaneChannel: DEFAULT_CHANNEL_PREFIX,
};

export interface BenchServer {
  url: string;
  /** In a cluster: this process's own URL, which reaches it alone. */
  direct?: string;
  port: number;
  server: Server<Connection>;
  /** In a cluster: every process's own URL, as the supervisor tells this one. */
  setPeers(peers: ClusterPeer[]): void;
  stop(): Promise<void>;
}

/**
 * Bun's publish on each server the process listens with (a cluster's process has two: the
 * shared port and its own), answered as one: 0 if any with subscribers dropped it, -1 if any
 * had to queue it past its limit, else the bytes.
 */
function publishOnAll(servers: readonly Server<Connection>[]): Publish {
  if (servers.length === 1) return (topic, data, compress) => servers[0]!.publish(topic, data, compress);
  return (topic, data, compress) => {
    let bytes = 0;
    let blocked = false;
    for (const srv of servers) {
      if (srv.subscriberCount(topic) === 0) continue;
      const r = srv.publish(topic, data, compress);
      if (r === 0) return 0;
      if (r === -1) blocked = true;
      else bytes += r;
    }
    return blocked ? -1 : bytes;
  };
}

/** The /info body: what runs the server side of every result, and the user's messages for the page. */
function serverInfo(o: ServerOptions, catalog: CodecCatalog, modules: readonly CodecModuleFile[]): string {
  return JSON.stringify({
    runtime: "bun",
    runtimeVersion: Bun.version,
    libraries: libraryVersions(catalog),
    codecs: socketCodecNames(catalog),
    payloads: [...PAYLOAD_NAMES, ...o.userMessages.map((f) => f.name)],
    userMessages: o.userMessages,
    ...(o.userProto ? { userProto: o.userProto } : {}),
    codecModules: modules.map((m, i) => ({ ...m, url: codecModulePath(i) })),
  });
}

export async function startServer(
  options: Partial<ServerOptions> = {},
  cluster = clusterProcess(process.env),
): Promise<BenchServer> {
  const o: ServerOptions = { ...SERVER_DEFAULTS, ...options };
  // The server's own catalog: the built-in codecs, the user's modules, protobuf with the user's type.
  const files = o.codecModules ?? [];
  const moduleCodecs = await importCodecModules(files);
  const modules = files.map((file, i) => ({ file, name: moduleCodecs[i]!.name }));
  const catalog = catalogFor(o, moduleCodecs);
  const page = new Map([...(await buildPage()), ...(await buildCodecModules(files))]);
  const info = serverInfo(o, catalog, modules);
  const sockets = socketServer({
    now: performanceClock.now,
    timerOverheadNs: calibrateClock(performanceClock, 50, 5000, 5).overheadNs,
    page,
    info,
    payloads: [...PAYLOAD_NAMES, ...o.userMessages.map((f) => f.name)],
    codecs: catalog,
    allowOrigins: o.allowOrigins,
    maxConnections: o.maxConnections,
    loopbackOnly: isLoopback(o.host),
    publish: (topic, data, compress) => publish(topic, data, compress),
    subscriberCount: (topic) => servers.reduce((n, srv) => n + srv.subscriberCount(topic), 0),
    compress: o.deflate,
    csp: o.csp,
    limits: {
      maxQueuedBytes: o.maxQueuedBytes,
      maxTotalQueuedBytes: o.maxTotalQueuedBytes,
      sendTimeoutMs: o.sendTimeoutS * 1000,
    },
    ...(cluster ? { cluster } : {}),
    ...(o.backplane ? { backplane: () => relay!.stats() } : {}),
  });
  if (cluster && cluster.size > 1 && !o.backplane) {
    sockets.pubsubRefusal = {
      code: CLOSE.policy,
      reason: `fanout and route across ${cluster.size} processes need --backplane redis://HOST:PORT (Bun's publish reaches one process)`,
    };
  }
  const listen = (port: number, reusePort: boolean): Server<Connection> =>
    Bun.serve<Connection>({
      hostname: o.host,
      port,
      reusePort,
      fetch: (req, srv) => answerRequest(sockets, req, srv),
      // Never Bun's development error page (it shows paths and source): one plain line instead.
      development: false,
      error: () =>
        new Response("the server could not answer this request\n", {
          status: 500,
          headers: { "content-type": "text/plain; charset=utf-8" },
        }),
      websocket: {
        // Explicit, not Bun's defaults, so results say what they ran with.
        maxPayloadLength: MAX_PAYLOAD_BYTES,
        backpressureLimit: BACKPRESSURE_LIMIT_BYTES,
        closeOnBackpressureLimit: false,
        idleTimeout: o.idleTimeoutS,
        perMessageDeflate: o.deflate,
        sendPings: true,
        ...socketHandlers(sockets),
      },
    });
  // A cluster's process: the shared port (the kernel spreads connections), and one of its own.
  const server = listen(o.port, cluster !== undefined);
  const servers = cluster ? [server, listen(0, false)] : [server];
  let publish = publishOnAll(servers);
  let relay: BackplaneRelay | undefined;
  if (o.backplane) {
    try {
      relay = await BackplaneRelay.connect(o.backplane, o.backplaneChannel, publish, sockets);
    } catch (e) {
      for (const srv of servers) await srv.stop(true);
      throw e;
    }
    publish = relay.publish;
  }

  const host = o.host.includes(":") ? `[${o.host}]` : o.host;
  return {
    url: `http://${host}:${server.port!}`,
    ...(cluster ? { direct: `http://${host}:${servers[1]!.port!}` } : {}),
    port: server.port!,
    server,
    setPeers(peers) {
      sockets.peers = peers;
    },
    async stop() {
      for (const srv of servers) await srv.stop(true);
      relay?.close();
    },
  };
}

/** --processes at most: more than a machine has cores measures the scheduler. */
const MAX_PROCESSES = 64;

/** A flag the server shares with the bench: the bench's entry (bench/cli/option-specs.ts), its text the server's own where given. */
const shared = (key: Parameters<typeof benchOption>[0], text?: string): OptionSpec => ({
  ...benchOption(key),
  ...(text !== undefined ? { text } : {}),
});

/** Every option of `bun run server`, in the order --help lists them. */
const SERVER_OPTIONS: readonly OptionSpec[] = [
  { key: "host", arg: "HOST", text: `interface to listen on (default: ${SERVER_DEFAULTS.host})` },
  { key: "port", arg: "N", text: `port, 0..65535; 0 picks a free one (default: ${SERVER_DEFAULTS.port})` },
  shared("deflate"),
  {
    key: "idleTimeout",
    arg: "S",
    text: `seconds a connection may stay silent, 1..960 (default: ${SERVER_DEFAULTS.idleTimeoutS})`,
  },
  { key: "allowOrigin", arg: "ORIGIN", repeats: true, text: "another origin whose pages may connect; repeatable" },
  {
    key: "maxConnections",
    arg: "N",
    text: `open WebSocket connections at most (default: ${SERVER_DEFAULTS.maxConnections})`,
  },
  {
    key: "maxQueuedBytes",
    arg: "N",
    text: `bytes one connection's messages may wait while it does not read its replies; past it, closed 1008 (default: ${SERVER_DEFAULTS.maxQueuedBytes})`,
  },
  {
    key: "maxTotalQueuedBytes",
    arg: "N",
    text: `the same, all connections together; past it, closed 1013 (default: ${SERVER_DEFAULTS.maxTotalQueuedBytes})`,
  },
  {
    key: "sendTimeout",
    arg: "S",
    text: `seconds replies may wait for a client to read, 1..600; past it, closed 1008 (default: ${SERVER_DEFAULTS.sendTimeoutS})`,
  },
  shared("messages"),
  shared("proto"),
  shared("protoType"),
  shared("codecModules"),
  shared(
    "csp",
    `the page's Content-Security-Policy, \`off\` or \`strict\` (no eval or \`new Function\`, as many production sites; default: ${SERVER_DEFAULTS.csp})`,
  ),
  shared(
    "processes",
    `server processes sharing the port, 1..${MAX_PROCESSES} (Linux: reusePort spreads connections; /health lists each one's own URL; default: 1)`,
  ),
  {
    ...shared(
      "backplane",
      "`redis://HOST:PORT`: fanout and route publish through this Redis, so subscribers on every process (and machine) hear every message",
    ),
    arg: "URL",
  },
  {
    key: "backplaneChannel",
    arg: "P",
    text: `the backplane's channel prefix; servers sharing one Redis hear each other only with the same one (default: ${SERVER_DEFAULTS.backplaneChannel})`,
  },
  { key: "exitWithStdin", text: "stop when standard input closes" },
  shared("help"),
];

/** How this command names its options in a refusal: by their flags. */
const spell = flagsOf(SERVER_OPTIONS);

/**
 * How the user typed this command: `ws-serialization-bench server` (or `serve`) when the installed
 * command started it (bench/cli/command.ts sets WS_SERIALIZATION_BENCH_INVOKED_AS), else the clone's script.
 */
const INVOKED_AS = process.env.WS_SERIALIZATION_BENCH_INVOKED_AS;

const SERVER_HELP = `Usage: ${INVOKED_AS ? `${INVOKED_AS} server|serve` : "bun run server"} [options]

The benchmark's Bun WebSocket server: the page at /, the WebSocket endpoint
at ${WS_PATH}. Prints one JSON line, {"event":"ready","url":...}, once it
listens; Ctrl-C closes every connection and exits.

Options:
${optionLines(SERVER_OPTIONS, BUILT_IN, spell, 25)}
`;

/** True when the arguments ask for the help text. */
function wantsServerHelp(argv: readonly string[]): boolean {
  return argv.includes("--help") || argv.includes("-h");
}

/** Command-line flags of `bun run server`; throws a one-line message for a bad one. */
export function parseServerArgs(argv: readonly string[]): ServerOptions {
  const values = readFlags(argv, SERVER_OPTIONS);
  const text = (key: string): string | undefined => values[key] as string | undefined;
  const list = (key: string): string[] => (values[key] as string[] | undefined) ?? [];
  const integer = (key: string, fallback: number, min: number, max: number, unit = ""): number => {
    const raw = text(key);
    return raw === undefined ? fallback : parseInteger(spell(key), raw, min, max, unit);
  };
  const allowOrigins = list("allowOrigin").map((origin) => {
    let url: URL;
    try {
      url = new URL(origin);
    } catch {
      throw new SettingError(`${spell("allowOrigin")} must be an origin like http://localhost:3000, got '${origin}'`);
    }
    if (url.origin !== origin.replace(/\/$/, ""))
      throw new SettingError(
        `${spell("allowOrigin")} must be an origin (scheme://host:port, no path), got '${origin}'`,
      );
    return url.origin;
  });
  const csp = text("csp") ?? SERVER_DEFAULTS.csp;
  if (!(CSP_POLICIES as readonly string[]).includes(csp))
    throw new SettingError(`${spell("csp")}: unknown value '${csp}'; valid values: ${CSP_POLICIES.join(", ")}`);
  const userMessages = readUserMessages(list("messages"), spell);
  const userProto = readProtoFile(text("proto"), text("protoType"), userMessages, spell);
  const backplane = text("backplane");
  if (backplane !== undefined) {
    try {
      parseRedisUrl(backplane);
    } catch (e) {
      throw new SettingError(`${spell("backplane")}: ${(e as Error).message}`);
    }
  }
  const channel = text("backplaneChannel") ?? SERVER_DEFAULTS.backplaneChannel;
  if (!/^[A-Za-z0-9:._-]{1,64}$/.test(channel))
    throw new SettingError(
      `${spell("backplaneChannel")} must be 1 to 64 letters, digits, ':', '.', '_' or '-', got '${channel}'`,
    );
  return {
    processes: integer("processes", SERVER_DEFAULTS.processes, 1, MAX_PROCESSES),
    ...(backplane !== undefined ? { backplane } : {}),
    backplaneChannel: channel,
    csp: csp as CspPolicy,
    host: text("host") ?? SERVER_DEFAULTS.host,
    port: integer("port", SERVER_DEFAULTS.port, 0, 65535),
    deflate: values.deflate === true,
    idleTimeoutS: integer("idleTimeout", SERVER_DEFAULTS.idleTimeoutS, 1, 960, " seconds"),
    allowOrigins,
    maxConnections: integer("maxConnections", SERVER_DEFAULTS.maxConnections, 1, 100_000),
    maxQueuedBytes: integer("maxQueuedBytes", SERVER_DEFAULTS.maxQueuedBytes, 1024, 2 ** 32, " bytes"),
    maxTotalQueuedBytes: integer("maxTotalQueuedBytes", SERVER_DEFAULTS.maxTotalQueuedBytes, 1024, 2 ** 40, " bytes"),
    sendTimeoutS: integer("sendTimeout", SERVER_DEFAULTS.sendTimeoutS, 1, 600, " seconds"),
    exitWithStdin: values.exitWithStdin === true,
    userMessages,
    ...(userProto ? { userProto } : {}),
    codecModules: list("codecModules").map((file) => path.resolve(file)),
  };
}

if (import.meta.main) {
  if (wantsServerHelp(process.argv.slice(2))) {
    process.stdout.write(SERVER_HELP);
    process.exit(0);
  }
  let options: ServerOptions;
  try {
    options = parseServerArgs(process.argv.slice(2));
    // A module that cannot be imported, or is not a codec: one line, exit 2, before the server starts.
    const modules = await importCodecModuleFiles(options.codecModules ?? [], spell);
    catalogFor(
      options,
      modules.map((m) => m.codec),
    );
  } catch (e) {
    process.stderr.write(`server: ${(e as Error).message}\n`);
    process.exit(2);
  }
  if (!isLoopback(options.host) && clusterProcess(process.env) === undefined) {
    process.stderr.write(
      `server: warning: listening on ${options.host}, reachable from other machines; the benchmark server has no authentication\n`,
    );
  }
  if (options.processes > 1 && clusterProcess(process.env) === undefined) await superviseCluster(options);
  else await serveOne(options);
}

/** The first line on stdout, once the server (or the whole cluster) listens. */
function printReady(url: string, options: ServerOptions, more: Record<string, unknown>): void {
  const ready = {
    event: "ready",
    url,
    ws: url.replace(/^http/, "ws") + WS_PATH,
    pid: process.pid,
    runtime: `bun ${Bun.version}`,
    deflate: options.deflate,
    ...more,
  };
  process.stdout.write(JSON.stringify(ready) + "\n");
}

/** Stops on SIGINT, SIGTERM, and (--exit-with-stdin) when standard input closes. */
function stopOnSignals(options: ServerOptions, stop: () => Promise<void>): void {
  const shutdown = async (): Promise<void> => {
    await stop();
    process.stdout.write(JSON.stringify({ event: "stopped" }) + "\n");
    process.exit(0);
  };
  process.once("SIGINT", shutdown);
  process.once("SIGTERM", shutdown);
  if (options.exitWithStdin) {
    process.stdin.on("end", shutdown);
    process.stdin.resume();
  }
}

/** One server process: alone, or one of a cluster (which then takes its peers' URLs on stdin). */
async function serveOne(options: ServerOptions): Promise<void> {
  let bench: BenchServer;
  try {
    bench = await startServer(options);
  } catch (e) {
    process.stderr.write(`server: ${(e as Error).message}\n`);
    process.exit(1);
  }
  printReady(bench.url, options, {
    ...(bench.direct ? { direct: bench.direct } : {}),
    ...(options.backplane ? { backplane: options.backplane, backplaneChannel: options.backplaneChannel } : {}),
  });
  stopOnSignals(options, () => bench.stop());
  if (clusterProcess(process.env) !== undefined) {
    let buffered = "";
    process.stdin.on("data", (d: Buffer) => {
      buffered += d.toString();
      for (let nl = buffered.indexOf("\n"); nl !== -1; nl = buffered.indexOf("\n")) {
        const line = buffered.slice(0, nl);
        buffered = buffered.slice(nl + 1);
        const { peers } = JSON.parse(line) as { peers: ClusterPeer[] };
        bench.setPeers(peers);
        process.stdout.write(JSON.stringify({ event: "peers", count: peers.length }) + "\n");
      }
    });
  }
}

/** --processes N: this process starts N servers on one port, says where they are, and stops them. */
async function superviseCluster(options: ServerOptions): Promise<void> {
  const refusal = reusePortRefusal(spell("processes"));
  if (refusal) {
    process.stderr.write(`server: ${refusal}\n`);
    process.exit(2);
  }
  let cluster: Cluster;
  try {
    cluster = await startCluster(import.meta.path, process.argv.slice(2), options.processes, options.port, {
      env: process.env,
      stderr: (text) => process.stderr.write(text),
    });
  } catch (e) {
    process.stderr.write(`server: ${(e as Error).message}\n`);
    process.exit(1);
  }
  printReady(cluster.url, options, {
    processes: cluster.processes,
    ...(options.backplane ? { backplane: options.backplane, backplaneChannel: options.backplaneChannel } : {}),
  });
  stopOnSignals(options, () => cluster.stop());
  void cluster.lost.then((why) => {
    process.stderr.write(`server: ${why}; the cluster stopped\n`);
    process.exit(1);
  });
}
