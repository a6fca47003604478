/**
 * GET /ws: refuses a bad query, a plain GET, a foreign Origin or one
 * connection too many with a plain-text status, else upgrades.
 */

import type { Server } from "bun";
import { isBuiltIn, PAYLOAD_NAMES, type PayloadName } from "../protocols/messages.ts";
import { originAllowed } from "./access.ts";
import { newConnection, ROLES, TOPIC, type Connection, type ConnectionRequest, type Role } from "./socket-state.ts";
import type { SocketServer } from "./context.ts";
import { RAW_CODEC_NAME, ROUTE_WAYS, socketCodecNames, type RouteWay } from "../protocols/contract.ts";
import { refuse, text } from "./http.ts";

/** The codec and payload a request names (raw among the codecs), or the 400 that says which is wrong. */
export function codecAndPayload(s: SocketServer, url: URL): { codec: string; payload: PayloadName } | Response {
  const codec = url.searchParams.get("codec") ?? "";
  const payload = url.searchParams.get("payload") ?? "";
  const codecs = socketCodecNames(s.ctx.codecs);
  if (!codecs.includes(codec)) {
    return text(400, `unknown codec '${codec}'; valid codecs: ${codecs.join(", ")}`);
  }
  const payloads = s.ctx.payloads ?? PAYLOAD_NAMES;
  if (!payloads.includes(payload)) {
    return text(
      400,
      `unknown payload '${payload}'; valid payloads: ${payloads.join(", ")}${isBuiltIn(payload) ? "" : " (start the server with --messages FILE for your own)"}`,
    );
  }
  return { codec, payload: payload as PayloadName };
}

export function upgradeSocket(s: SocketServer, req: Request, url: URL, srv: Server<Connection>): Response | undefined {
  const named = codecAndPayload(s, url);
  if (named instanceof Response) return named;
  const { codec, payload } = named;
  const role = (url.searchParams.get("role") ?? "echo") as Role;
  const topic = url.searchParams.get("topic") ?? "";
  if (!ROLES.includes(role)) return text(400, `unknown role '${role}'; valid roles: ${ROLES.join(", ")}`);
  if (role !== "echo" && !TOPIC.test(topic))
    return text(400, `role ${role} needs a topic of 1 to 128 letters, digits, '.', '_' or '-'`);
  let route: ConnectionRequest["route"];
  if (role === "router" || role === "member") {
    if (!isBuiltIn(payload))
      return text(
        400,
        `role ${role} routes by a payload's routing key; ${payload} has none (built-in payloads: ${PAYLOAD_NAMES.join(", ")})`,
      );
    if (codec === RAW_CODEC_NAME)
      return text(400, `role ${role} needs a codec that reads a routing key; ${RAW_CODEC_NAME} decodes nothing`);
  }
  if (role === "router") {
    const way = url.searchParams.get("way") ?? "";
    const validate = url.searchParams.get("validate") ?? "0";
    if (!ROUTE_WAYS.includes(way as RouteWay))
      return text(400, `unknown way '${way}'; a router takes way=${ROUTE_WAYS.join(" or way=")}`);
    if (validate !== "0" && validate !== "1") return text(400, `validate takes 0 or 1, got '${validate}'`);
    route = { way: way as RouteWay, validate: validate === "1" };
  }
  if (req.headers.get("upgrade")?.toLowerCase() !== "websocket") {
    return text(426, "this endpoint speaks WebSocket only", { upgrade: "websocket", connection: "Upgrade" });
  }
  if (!originAllowed(req, s.ctx.allowOrigins, srv.url.origin)) {
    return refuse(
      s,
      "foreignOrigin",
      403,
      `origin ${req.headers.get("origin")} may not open a socket here; start the server with --allow-origin ORIGIN to allow it`,
    );
  }
  if (s.open >= s.ctx.maxConnections) {
    return refuse(
      s,
      "tooManyConnections",
      503,
      `too many connections: this server accepts ${s.ctx.maxConnections} at once (--max-connections)`,
      { "retry-after": "1" },
    );
  }
  const id = url.searchParams.get("id") || `c${s.nextId++}`;
  const data = newConnection(
    { id, codec, payload, role, topic, ...(route ? { route } : {}) },
    s.ctx.codecs,
    s.ctx.timerOverheadNs,
    s.ctx.now,
    s.ctx.compress === true,
    s.stolen,
  );
  if (srv.upgrade(req, { data })) return undefined;
  return text(400, "WebSocket upgrade failed");
}
