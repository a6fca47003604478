/**
 * Bun.serve's `fetch`: the Host check, then /ws (upgrade.ts), /stats/ID,
 * /gc, /known-cost, /warm-up (warm-up.ts), /health, /info, the page's
 * files, and 404 for anything else.
 */

import type { Server } from "bun";
import { hostAllowed, hostName, originAllowed } from "./access.ts";
import type { Connection } from "./socket-state.ts";
import type { SocketServer } from "./context.ts";
import { KNOWN_COSTS, KNOWN_COST_CODEC_NAMES, timeKnownCost } from "../protocols/calibration.ts";
import {
  GC_PATH,
  HEALTH_PATH,
  INFO_PATH,
  KNOWN_COST_PATH,
  STATS_PATH,
  WARM_UP_PATH,
  WS_PATH,
} from "../protocols/contract.ts";
import { refuse, text } from "./http.ts";
import { upgradeSocket } from "./upgrade.ts";
import { warmUp } from "./warm-up.ts";

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

/** The page's Content-Security-Policy choices (bun run server --csp). */
export const CSP_POLICIES = ["off", "strict"] as const;
export type CspPolicy = (typeof CSP_POLICIES)[number];

/**
 * --csp strict: everything from the server's own origin, and no
 * 'unsafe-eval', so eval and `new Function` throw as on a production site
 * with a strict policy. Codecs that generate code at run time (protobufjs,
 * avsc, msgpackr's records) fall back or fail as they would there.
 */
const STRICT_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'";

/** The headers of the page's files: isolation, and the policy when one is asked for. */
function pageHeaders(s: SocketServer): Record<string, string> {
  return s.ctx.csp === "strict" ? { ...ISOLATION_HEADERS, "content-security-policy": STRICT_CSP } : ISOLATION_HEADERS;
}

/** POST /gc collects at most this often; sooner gets 429 (a collection has just run). */
export const GC_MIN_INTERVAL_MS = 100;

/** The answer to one HTTP request (undefined once it is upgraded to a WebSocket). */
export function answerRequest(
  s: SocketServer,
  req: Request,
  srv: Server<Connection>,
): Response | Promise<Response> | undefined {
  const host = req.headers.get("host");
  if (host !== null && hostName(host) === undefined) return refuse(s, "badRequest", 400, "malformed Host header");
  if (!hostAllowed(req, s.ctx.loopbackOnly))
    return refuse(s, "foreignHost", 403, `this server answers requests to its loopback address only, not to ${host}`);
  let url: URL;
  try {
    url = new URL(req.url);
  } catch {
    return refuse(s, "badRequest", 400, host === null ? "a request needs a Host header" : "malformed request target");
  }
  if (url.pathname === WS_PATH) return upgradeSocket(s, req, url, srv);
  if (url.pathname.startsWith(STATS_PATH) && req.method === "GET") {
    let id: string;
    try {
      id = decodeURIComponent(url.pathname.slice(STATS_PATH.length));
    } catch {
      return refuse(s, "badRequest", 400, "malformed percent-escape in the connection id");
    }
    const stats = s.stats.get(id);
    if (stats) return Response.json(stats);
    // In a cluster the connection may be another process's: asked of each in turn (not again by them).
    if (s.peers.length > 1 && req.headers.get(PEER_HEADER) === null) return statsFromPeers(s, url.pathname);
    return text(404, "no connection with that id");
  }
  if (url.pathname === GC_PATH && req.method === "POST") return collect(s, req);
  if (url.pathname === KNOWN_COST_PATH && req.method === "POST") return knownCost(s, req, url);
  if (url.pathname === WARM_UP_PATH && req.method === "POST") return warmUp(s, req, url);
  if (url.pathname === HEALTH_PATH && req.method === "GET") return Response.json(health(s));
  if (url.pathname === INFO_PATH && req.method === "GET") {
    return new Response(s.ctx.info, { headers: { "content-type": "application/json", ...ISOLATION_HEADERS } });
  }
  return pageFile(s, req, url);
}

/** Marks a request one process of a cluster makes of another: answered from that process alone. */
const PEER_HEADER = "x-wsbench-peer";

/**
 * GET /health: liveness, open connections, memory, the process's CPU so far; in a cluster, which
 * process answered and every process's own URL (each reaches that process alone); with a
 * backplane, its state and traffic.
 */
function health(s: SocketServer): Record<string, unknown> {
  const mem = process.memoryUsage();
  const cpu = process.cpuUsage();
  const { cluster, backplane } = s.ctx;
  return {
    ok: true,
    connections: s.open,
    rssBytes: mem.rss,
    heapUsedBytes: mem.heapUsed,
    cpuMs: (cpu.user + cpu.system) / 1000,
    refused: s.refused,
    ...(cluster ? { process: { index: cluster.index, pid: process.pid, of: cluster.size }, processes: s.peers } : {}),
    ...(backplane ? { backplane: backplane() } : {}),
    ...(s.pubsubRefusal ? { pubsub: s.pubsubRefusal.reason } : {}),
  };
}

/** GET /stats/ID of a connection another process of the cluster holds: the first that knows it answers. */
async function statsFromPeers(s: SocketServer, pathname: string): Promise<Response> {
  for (const peer of s.peers) {
    if (peer.pid === process.pid) continue;
    try {
      const r = await fetch(peer.url + pathname, {
        headers: { [PEER_HEADER]: "1" },
        signal: AbortSignal.timeout(5000),
      });
      if (r.ok) return Response.json(await r.json());
    } catch {
      // A process that does not answer is as good as one that does not know the connection.
    }
  }
  return text(404, "no process of the cluster has a connection with that id");
}

/**
 * POST /gc: a full collection, asked by the bench's clients before each timed run. A page from
 * another origin may not ask (403, as on /ws), and collections are at least GC_MIN_INTERVAL_MS
 * apart (429 sooner), so no client can keep the server collecting.
 */
function collect(s: SocketServer, req: Request): Response {
  if (!originAllowed(req, s.ctx.allowOrigins))
    return refuse(
      s,
      "foreignOrigin",
      403,
      `origin ${req.headers.get("origin")} may not ask this server to collect garbage`,
    );
  const now = s.ctx.now();
  if (now - s.lastGcMs < GC_MIN_INTERVAL_MS)
    return refuse(s, "gcTooSoon", 429, `a collection ran less than ${GC_MIN_INTERVAL_MS} ms ago`, {
      "retry-after": "1",
    });
  s.cpu.unowned(() => Bun.gc(true));
  s.lastGcMs = s.ctx.now();
  return new Response(null, { status: 204 });
}

/**
 * POST /known-cost[?codec=NAME]: a calibration codec's known work (cal-spin's by default) timed
 * hot, between the slices of a calibrated run, charged to no connection. About half a
 * millisecond of work; a page from another origin may not ask.
 */
function knownCost(s: SocketServer, req: Request, url: URL): Response {
  if (!originAllowed(req, s.ctx.allowOrigins))
    return refuse(
      s,
      "foreignOrigin",
      403,
      `origin ${req.headers.get("origin")} may not ask this server to time its calibration loop`,
    );
  const codec = url.searchParams.get("codec") ?? KNOWN_COST_CODEC_NAMES[0]!;
  if (!KNOWN_COST_CODEC_NAMES.includes(codec))
    return refuse(
      s,
      "badRequest",
      400,
      `no known cost for codec ${JSON.stringify(codec)}; known: ${KNOWN_COST_CODEC_NAMES.join(", ")}`,
    );
  let ns = Number.NaN;
  s.cpu.unowned(() => (ns = timeKnownCost(codec, s.ctx.now, s.ctx.timerOverheadNs)));
  return Response.json({ codec, calls: KNOWN_COSTS[codec]!.calls, ns });
}

/** The page's files, GET and HEAD only; nothing else is served. */
function pageFile(s: SocketServer, req: Request, url: URL): Response {
  if (url.pathname === "/favicon.ico") return new Response(null, { status: 204, headers: ISOLATION_HEADERS });
  const asset = req.method === "GET" || req.method === "HEAD" ? s.ctx.page.get(url.pathname) : undefined;
  if (asset) {
    return new Response(asset.body, {
      headers: { "content-type": asset.type, "cache-control": "no-cache", ...pageHeaders(s) },
    });
  }
  return text(404, "not found");
}
