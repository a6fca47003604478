/**
 * Bun.serve's `fetch`: the Host check, then /ws (upgrade.ts), /stats/ID,
 * /gc, /health, /info, the page's files, and 404 for anything else.
 */

import type { Server } from "bun";
import { hostAllowed } from "./access.ts";
import type { Connection } from "./connection.ts";
import type { SocketServer } from "./context.ts";
import { GC_PATH, HEALTH_PATH, INFO_PATH, STATS_PATH, WS_PATH } from "./contract.ts";
import { text } from "./http.ts";
import { upgradeSocket } from "./upgrade.ts";

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

export function route(s: SocketServer, req: Request, srv: Server<Connection>): Response | undefined {
  if (!hostAllowed(req, s.ctx.loopbackOnly)) return text(403, `this server answers requests to its loopback address only, not to ${req.headers.get("host")}`);
  const url = new URL(req.url);
  if (url.pathname === WS_PATH) return upgradeSocket(s, req, url, srv);
  if (url.pathname.startsWith(STATS_PATH) && req.method === "GET") {
    const stats = s.stats.get(decodeURIComponent(url.pathname.slice(STATS_PATH.length)));
    if (!stats) return text(404, "no connection with that id");
    return Response.json(stats);
  }
  if (url.pathname === GC_PATH && req.method === "POST") {
    s.cpu.unowned(() => Bun.gc(true));
    return new Response(null, { status: 204 });
  }
  if (url.pathname === HEALTH_PATH && req.method === "GET") {
    const mem = process.memoryUsage();
    return Response.json({ ok: true, connections: s.open, rssBytes: mem.rss, heapUsedBytes: mem.heapUsed });
  }
  if (url.pathname === INFO_PATH && req.method === "GET") {
    return new Response(s.ctx.info, { headers: { "content-type": "application/json", ...ISOLATION_HEADERS } });
  }
  return pageFile(s, req, url);
}

/** The page's files, GET and HEAD only; nothing else is served. */
function pageFile(s: SocketServer, req: Request, url: URL): Response {
  if (url.pathname === "/favicon.ico") return new Response(null, { status: 204, headers: ISOLATION_HEADERS });
  const asset = req.method === "GET" || req.method === "HEAD" ? s.ctx.page.get(url.pathname) : undefined;
  if (asset) {
    return new Response(asset.body, { headers: { "content-type": asset.type, "cache-control": "no-cache", ...ISOLATION_HEADERS } });
  }
  return text(404, "not found");
}
