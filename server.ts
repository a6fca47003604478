/**
 * The benchmark's Bun WebSocket server.
 *
 *   bun run server [--host 127.0.0.1] [--port 0] [--deflate] [--idle-timeout 60]
 *                  [--allow-origin ORIGIN]... [--max-connections 256]
 *
 * It serves the benchmark page at / (client/page/, bundled at start-up) and
 * the WebSocket endpoint at /ws.
 *
 * The first line on stdout is one JSON object: {"event":"ready","url":...}.
 * SIGINT and SIGTERM close every connection (1001) and exit 0. The contract
 * clients rely on is in protocols/socket.ts.
 */

import type { Server, ServerWebSocket } from "bun";
import { parseArgs } from "node:util";
import { calibrateClock, performanceClock } from "./bench/harness/clock.ts";
import { PAYLOAD_NAMES, type PayloadName } from "./protocols/messages.ts";
import type { Encoded, Frame, PayloadCodec } from "./protocols/codec.ts";
import { getCodec } from "./protocols/registry.ts";
import { buildPage, type PageAsset } from "./client/page/build.ts";
import { shapeError } from "./protocols/socket/shape.ts";
import { LIBRARIES, libraryVersion } from "./bench/cli/environment.ts";
import {
  CLOSE,
  GC_PATH,
  MAX_PAYLOAD_BYTES,
  RAW_CODEC_NAME,
  SOCKET_CODEC_NAMES,
  HEALTH_PATH,
  INFO_PATH,
  STATS_PATH,
  WS_PATH,
  frameOf,
  type ServerConnectionStats,
} from "./protocols/socket/contract.ts";

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
}

export const SERVER_DEFAULTS: ServerOptions = {
  host: "127.0.0.1",
  port: 0,
  deflate: false,
  idleTimeoutS: 60,
  allowOrigins: [],
  maxConnections: 256,
};

/** Bun's per-socket send buffer limit; above it `send()` returns -1 and we wait for drain. */
const BACKPRESSURE_LIMIT_BYTES = 1024 * 1024;
/** How many finished connections' stats are kept for /stats. */
const STATS_KEPT = 1000;

/** echo: answer each message; publisher: publish each message to its topic; subscriber: receive only. */
type Role = "echo" | "publisher" | "subscriber";
const ROLES: readonly Role[] = ["echo", "publisher", "subscriber"];
const TOPIC = /^[A-Za-z0-9_.-]{1,128}$/;

interface Connection {
  role: Role;
  topic: string;
  stats: ServerConnectionStats;
  pc: PayloadCodec | undefined;
  frame: Frame;
  /** Replies waiting for drain after a send() returned -1. */
  pending: Encoded[];
  blocked: boolean;
  cpuStart: NodeJS.CpuUsage;
  openedAt: number;
}

export interface BenchServer {
  url: string;
  port: number;
  server: Server<Connection>;
  stop(): Promise<void>;
}

function text(status: number, body: string, headers: Record<string, string> = {}): Response {
  return new Response(body + "\n", { status, headers: { "content-type": "text/plain; charset=utf-8", ...headers } });
}

/** A close reason must fit 123 bytes of UTF-8. */
function closeReason(s: string): string {
  let out = s;
  while (new TextEncoder().encode(out).length > 123) out = out.slice(0, -2) + "…";
  return out;
}

function errorText(e: unknown): string {
  return e instanceof Error ? `${e.name}: ${e.message}` : String(e);
}

/**
 * Headers that make the page cross-origin isolated, so its clock ticks every
 * 5 µs instead of 100 µs (Chromium), and keep every asset same-origin only.
 */
const ISOLATION_HEADERS = {
  "cross-origin-opener-policy": "same-origin",
  "cross-origin-embedder-policy": "require-corp",
  "cross-origin-resource-policy": "same-origin",
  "x-content-type-options": "nosniff",
};

export async function startServer(options: Partial<ServerOptions> = {}): Promise<BenchServer> {
  const o: ServerOptions = { ...SERVER_DEFAULTS, ...options };
  const page: Map<string, PageAsset> = await buildPage();
  const info = JSON.stringify({
    runtime: "bun",
    runtimeVersion: Bun.version,
    libraries: Object.fromEntries(LIBRARIES.map((name) => [name, libraryVersion(name)])),
    codecs: SOCKET_CODEC_NAMES,
    payloads: PAYLOAD_NAMES,
  });
  const overheadNs = calibrateClock(performanceClock, 50, 5000, 5).overheadNs;
  const now = performanceClock.now;
  const stats = new Map<string, ServerConnectionStats>();
  let nextId = 1;
  let open = 0;

  /**
   * A browser always sends Origin. Only the page this server serves (same
   * host and port as the request) and --allow-origin entries may connect;
   * anything else could be a page on another site using the visitor's
   * browser to reach a server on their loopback.
   */
  function originAllowed(req: Request): boolean {
    const origin = req.headers.get("origin");
    if (origin === null) return true;
    const host = req.headers.get("host");
    if (host !== null && (origin === `http://${host}` || origin === `https://${host}`)) return true;
    return o.allowOrigins.includes(origin);
  }

  /**
   * Bound to loopback, the server answers only requests addressed to a
   * loopback name: a page on another site whose name was made to resolve to
   * 127.0.0.1 (DNS rebinding) would otherwise count as "same origin".
   */
  const loopbackOnly = isLoopback(o.host);
  function hostAllowed(req: Request): boolean {
    if (!loopbackOnly) return true;
    const host = req.headers.get("host");
    if (host === null) return true;
    const name = host.startsWith("[") ? host.slice(0, host.indexOf("]") + 1) : host.split(":")[0]!;
    return isLoopback(name);
  }

  function keep(s: ServerConnectionStats): void {
    stats.set(s.id, s);
    if (stats.size > STATS_KEPT) stats.delete(stats.keys().next().value!);
  }

  function refreshCpu(c: Connection): void {
    const cpu = process.cpuUsage(c.cpuStart);
    c.stats.cpuMs = (cpu.user + cpu.system) / 1000;
    c.stats.openMs = now() - c.openedAt;
  }

  /** Sends one reply; false when it had to be queued (backpressure) or was dropped. */
  function send(ws: ServerWebSocket<Connection>, data: Encoded): boolean {
    const c = ws.data;
    const result = ws.send(data);
    if (result > 0) {
      c.stats.bytesOut += typeof data === "string" ? result : data.byteLength;
      return true;
    }
    if (result === -1) {
      // Queued by Bun beyond its limit: it will go out, but nothing more until drain.
      c.stats.backpressure++;
      c.stats.bytesOut += typeof data === "string" ? Buffer.byteLength(data) : data.byteLength;
      c.blocked = true;
      return false;
    }
    c.stats.dropped++;
    return false;
  }

  function reply(ws: ServerWebSocket<Connection>, data: Encoded): void {
    const c = ws.data;
    if (c.blocked) c.pending.push(data);
    else send(ws, data);
  }

  /** Publishes to every subscriber of the topic; every result is checked. */
  function publish(c: Connection, data: Encoded): void {
    // compress=false: server.publish compresses by default, unlike send().
    const result = server.publish(c.topic, data, false);
    c.stats.published++;
    if (result === -1) c.stats.publishBackpressure++;
    else if (result === 0) c.stats.publishDropped++;
    else c.stats.bytesOut += result;
  }

  function reject(ws: ServerWebSocket<Connection>, code: number, reason: string): void {
    ws.data.stats.error = reason;
    ws.close(code, closeReason(reason));
  }

  const server = Bun.serve<Connection>({
    hostname: o.host,
    port: o.port,
    fetch(req, srv) {
      if (!hostAllowed(req)) return text(403, `this server answers requests to its loopback address only, not to ${req.headers.get("host")}`);
      const url = new URL(req.url);
      if (url.pathname === WS_PATH) {
        const codec = url.searchParams.get("codec") ?? "";
        const payload = url.searchParams.get("payload") ?? "";
        if (!SOCKET_CODEC_NAMES.includes(codec)) {
          return text(400, `unknown codec '${codec}'; valid codecs: ${SOCKET_CODEC_NAMES.join(", ")}`);
        }
        if (!(PAYLOAD_NAMES as readonly string[]).includes(payload)) {
          return text(400, `unknown payload '${payload}'; valid payloads: ${PAYLOAD_NAMES.join(", ")}`);
        }
        const role = (url.searchParams.get("role") ?? "echo") as Role;
        const topic = url.searchParams.get("topic") ?? "";
        if (!ROLES.includes(role)) return text(400, `unknown role '${role}'; valid roles: ${ROLES.join(", ")}`);
        if (role !== "echo" && !TOPIC.test(topic)) return text(400, `role ${role} needs a topic of 1 to 128 letters, digits, '.', '_' or '-'`);
        if (req.headers.get("upgrade")?.toLowerCase() !== "websocket") {
          return text(426, "this endpoint speaks WebSocket only", { upgrade: "websocket", connection: "Upgrade" });
        }
        if (!originAllowed(req)) {
          return text(403, `origin ${req.headers.get("origin")} may not open a socket here; start the server with --allow-origin ORIGIN to allow it`);
        }
        if (open >= o.maxConnections) {
          return text(503, `too many connections: this server accepts ${o.maxConnections} at once (--max-connections)`, { "retry-after": "1" });
        }
        const id = url.searchParams.get("id") || `c${nextId++}`;
        const data: Connection = {
          role,
          topic,
          stats: {
            id,
            codec,
            payload: payload as PayloadName,
            messages: 0,
            bytesIn: 0,
            bytesOut: 0,
            decodeNs: 0,
            encodeNs: 0,
            timerOverheadNs: overheadNs,
            backpressure: 0,
            dropped: 0,
            published: 0,
            publishBackpressure: 0,
            publishDropped: 0,
            cpuMs: 0,
            openMs: 0,
            closeCode: null,
            closeReason: "",
            error: "",
          },
          pc: codec === RAW_CODEC_NAME ? undefined : getCodec(codec)!.forPayload(payload as PayloadName),
          frame: frameOf(codec),
          pending: [],
          blocked: false,
          cpuStart: process.cpuUsage(),
          openedAt: now(),
        };
        if (srv.upgrade(req, { data })) return undefined;
        return text(400, "WebSocket upgrade failed");
      }
      if (url.pathname.startsWith(STATS_PATH) && req.method === "GET") {
        const s = stats.get(decodeURIComponent(url.pathname.slice(STATS_PATH.length)));
        if (!s) return text(404, "no connection with that id");
        return Response.json(s);
      }
      if (url.pathname === GC_PATH && req.method === "POST") {
        Bun.gc(true);
        return new Response(null, { status: 204 });
      }
      if (url.pathname === HEALTH_PATH && req.method === "GET") {
        const mem = process.memoryUsage();
        return Response.json({ ok: true, connections: open, rssBytes: mem.rss, heapUsedBytes: mem.heapUsed });
      }
      if (url.pathname === INFO_PATH && req.method === "GET") {
        return new Response(info, { headers: { "content-type": "application/json", ...ISOLATION_HEADERS } });
      }
      if (url.pathname === "/favicon.ico") return new Response(null, { status: 204, headers: ISOLATION_HEADERS });
      const asset = req.method === "GET" || req.method === "HEAD" ? page.get(url.pathname) : undefined;
      if (asset) {
        return new Response(asset.body, { headers: { "content-type": asset.type, "cache-control": "no-cache", ...ISOLATION_HEADERS } });
      }
      return text(404, "not found");
    },
    websocket: {
      // Explicit, not Bun's defaults, so results say what they ran with.
      maxPayloadLength: MAX_PAYLOAD_BYTES,
      backpressureLimit: BACKPRESSURE_LIMIT_BYTES,
      closeOnBackpressureLimit: false,
      idleTimeout: o.idleTimeoutS,
      perMessageDeflate: o.deflate,
      sendPings: true,
      open(ws) {
        open++;
        // A publisher hears its own messages too: that is its flow control.
        if (ws.data.role !== "echo") ws.subscribe(ws.data.topic);
        keep(ws.data.stats);
      },
      message(ws, message) {
        const c = ws.data;
        const s = c.stats;
        if (c.role === "subscriber") {
          reject(ws, CLOSE.policy, "subscribers receive only; publish with role=publisher");
          return;
        }
        const isText = typeof message === "string";
        if ((c.frame === "text") !== isText) {
          reject(ws, CLOSE.invalidPayload, `${s.codec} expects ${c.frame} frames, got a ${isText ? "text" : "binary"} frame`);
          return;
        }
        s.bytesIn += isText ? Buffer.byteLength(message) : message.byteLength;
        if (c.pc === undefined) {
          // raw: the transport alone.
          s.messages++;
          if (c.role === "publisher") publish(c, message);
          else reply(ws, message);
          return;
        }
        let encoded: Encoded;
        try {
          const t0 = now();
          const decoded = c.pc.decode(message);
          const t1 = now();
          // Outside the timings: well-formed data of the wrong shape is refused, never echoed.
          const wrong = shapeError(s.payload, decoded);
          if (wrong !== undefined) {
            reject(ws, CLOSE.invalidPayload, `${s.codec}: not a ${s.payload} message: ${wrong}`);
            return;
          }
          const t2 = now();
          encoded = c.pc.encode(decoded);
          const t3 = now();
          s.decodeNs += (t1 - t0) * 1e6 - overheadNs;
          s.encodeNs += (t3 - t2) * 1e6 - overheadNs;
        } catch (e) {
          reject(ws, CLOSE.invalidPayload, `${s.codec}: ${errorText(e)}`);
          return;
        }
        s.messages++;
        if (c.role === "publisher") publish(c, encoded);
        else reply(ws, encoded);
      },
      drain(ws) {
        const c = ws.data;
        c.blocked = false;
        while (c.pending.length > 0 && !c.blocked) send(ws, c.pending.shift()!);
      },
      close(ws, code, reason) {
        open--;
        const c = ws.data;
        c.stats.closeCode = code;
        c.stats.closeReason = reason;
        refreshCpu(c);
      },
    },
  });

  const port = server.port!;
  const host = o.host.includes(":") ? `[${o.host}]` : o.host;
  return {
    url: `http://${host}:${port}`,
    port,
    server,
    async stop() {
      await server.stop(true);
    },
  };
}

const SERVER_FLAGS = "--host, --port, --deflate, --idle-timeout, --allow-origin, --max-connections";

/** Command-line flags of `bun run server`; throws a one-line message for a bad one. */
export function parseServerArgs(argv: readonly string[]): ServerOptions {
  let values;
  try {
    values = parseArgs({
      args: [...argv],
      options: {
        host: { type: "string" },
        port: { type: "string" },
        deflate: { type: "boolean" },
        "idle-timeout": { type: "string" },
        "allow-origin": { type: "string", multiple: true },
        "max-connections": { type: "string" },
      },
      strict: true,
      allowPositionals: false,
    }).values;
  } catch (e) {
    throw new Error(`${(e as Error).message.split("\n")[0]}; valid options: ${SERVER_FLAGS}`);
  }
  const integer = (flag: string, raw: string | undefined, fallback: number, min: number, max: number, unit = ""): number => {
    if (raw === undefined) return fallback;
    const v = Number(raw);
    if (!/^\d+$/.test(raw) || v < min || v > max) throw new Error(`--${flag} must be an integer from ${min} to ${max}${unit}, got '${raw}'`);
    return v;
  };
  const allowOrigins = (values["allow-origin"] ?? []).map((origin) => {
    let url: URL;
    try {
      url = new URL(origin);
    } catch {
      throw new Error(`--allow-origin must be an origin like http://localhost:3000, got '${origin}'`);
    }
    if (url.origin !== origin.replace(/\/$/, "")) throw new Error(`--allow-origin must be an origin (scheme://host:port, no path), got '${origin}'`);
    return url.origin;
  });
  return {
    host: values.host ?? SERVER_DEFAULTS.host,
    port: integer("port", values.port, SERVER_DEFAULTS.port, 0, 65535),
    deflate: values.deflate === true,
    idleTimeoutS: integer("idle-timeout", values["idle-timeout"], SERVER_DEFAULTS.idleTimeoutS, 1, 960, " seconds"),
    allowOrigins,
    maxConnections: integer("max-connections", values["max-connections"], SERVER_DEFAULTS.maxConnections, 1, 100_000),
  };
}

/** Loopback addresses, where the server is reachable from this machine only. */
function isLoopback(host: string): boolean {
  return host === "localhost" || host === "::1" || host === "[::1]" || /^127\./.test(host);
}

if (import.meta.main) {
  let options: ServerOptions;
  try {
    options = parseServerArgs(process.argv.slice(2));
  } catch (e) {
    process.stderr.write(`server: ${(e as Error).message}\n`);
    process.exit(2);
  }
  if (!isLoopback(options.host)) {
    process.stderr.write(`server: warning: listening on ${options.host}, reachable from other machines; the benchmark server has no authentication\n`);
  }
  const bench = await startServer(options);
  process.stdout.write(
    JSON.stringify({ event: "ready", url: bench.url, ws: bench.url.replace(/^http/, "ws") + WS_PATH, pid: process.pid, runtime: `bun ${Bun.version}`, deflate: options.deflate }) + "\n",
  );
  const shutdown = async (): Promise<void> => {
    await bench.stop();
    process.stdout.write(JSON.stringify({ event: "stopped" }) + "\n");
    process.exit(0);
  };
  process.once("SIGINT", shutdown);
  process.once("SIGTERM", shutdown);
}
