/**
 * The connection around a case: opening a socket with a clear error,
 * sending a frame, closing, and the server's endpoints a client calls
 * (its per-connection figures, a garbage collection between runs).
 */

import { utf8Length, type Encoded } from "../../protocols/codec.ts";
import {
  GC_PATH,
  KNOWN_COST_PATH,
  packFrames,
  STATS_PATH,
  WARM_UP_PATH,
  type ServerConnectionStats,
} from "../../protocols/contract.ts";
import type { MessageData } from "./client-codec.ts";
import { ClientError } from "../client-errors.ts";

/** The standard WebSocket constructor (globalThis.WebSocket, or npm `ws`). */
export type WebSocketClass = new (url: string) => WebSocket;

/** A string goes as a text frame, bytes as a binary frame. */
export function sendFrame(ws: WebSocket, data: Encoded): void {
  ws.send(data as string | ArrayBufferView<ArrayBuffer>);
}

/** Payload bytes of a frame sent or received (UTF-8 length for text). */
export function byteLength(data: MessageData | Encoded): number {
  return typeof data === "string" ? utf8Length(data) : data.byteLength;
}

/** Opens a socket; rejects with a clear message when the server cannot be reached. */
export function openSocket(WebSocketImpl: WebSocketClass, url: string, timeoutMs: number): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    let ws: WebSocket;
    try {
      ws = new WebSocketImpl(url);
    } catch (e) {
      reject(new ClientError("CONNECT", `cannot connect to ${url}: ${(e as Error).message}`));
      return;
    }
    ws.binaryType = "arraybuffer";
    const timer = setTimeout(() => {
      ws.close();
      reject(new ClientError("CONNECT", `cannot connect to ${url}: no answer within ${timeoutMs} ms`));
    }, timeoutMs);
    ws.onopen = () => {
      clearTimeout(timer);
      resolve(ws);
    };
    ws.onerror = (ev) => {
      clearTimeout(timer);
      const detail =
        (ev as { message?: string; error?: { message?: string } }).message ??
        (ev as { error?: { message?: string } }).error?.message;
      reject(
        new ClientError(
          "CONNECT",
          `cannot connect to ${url}${detail ? `: ${detail}` : " (connection refused or closed)"}`,
        ),
      );
    };
    ws.onclose = (ev) => {
      clearTimeout(timer);
      reject(
        new ClientError(
          "CONNECT",
          `cannot connect to ${url}: closed with ${ev.code}${ev.reason ? ` (${ev.reason})` : ""}`,
        ),
      );
    };
  });
}

/**
 * How a connection that ended under a case closed, as its error line says it: `closedBy` (the
 * server closed the connection, subscriber k closed...) with a code and reason; or, with 1006 (no
 * close frame came), `cutOff` was cut off: a reset, a link gone down (docs/links.md, Faults) or a
 * server process gone, which no peer chose.
 */
export function closedLine(ev: { code: number; reason: string }, closedBy: string, cutOff: string): string {
  if (ev.code === 1006)
    return `${cutOff} was cut off without a close frame (1006: a connection reset, a link gone down or a server gone)`;
  return `${closedBy} with ${ev.code}${ev.reason ? ` (${ev.reason})` : ""}`;
}

/** Resolves when the socket has closed (or at once if it already has). */
export function closed(ws: WebSocket, code: number): Promise<void> {
  if (ws.readyState === 3) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, 2000);
    ws.onclose = () => {
      clearTimeout(timer);
      resolve();
    };
    if (ws.readyState !== 2) ws.close(code);
  });
}

/** The server's figures for a connection (fetched after it closed). */
export async function fetchServerStats(server: string, id: string): Promise<ServerConnectionStats | undefined> {
  try {
    const res = await fetch(new URL(STATS_PATH + encodeURIComponent(id), server));
    return res.ok ? ((await res.json()) as ServerConnectionStats) : undefined;
  } catch {
    return undefined;
  }
}

/** Asks the server to collect its garbage (between runs); a failure only costs the collection. */
export async function requestServerGc(server: string): Promise<void> {
  await fetch(new URL(GC_PATH, server), { method: "POST" }).catch(() => undefined);
}

/** A calibration codec's known work (cal-spin's loop) timed hot in the server's process, ns per call; undefined when the server did not say. */
export async function fetchKnownCost(server: string, codec: string): Promise<number | undefined> {
  try {
    const url = new URL(KNOWN_COST_PATH, server);
    url.searchParams.set("codec", codec);
    const res = await fetch(url, { method: "POST" });
    const ns = res.ok ? ((await res.json()) as { ns?: unknown }).ns : undefined;
    return typeof ns === "number" && Number.isFinite(ns) ? ns : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Has the server run `messages` decodes and encodes of `codec` over `frames` in its own process
 * (server/warm-up.ts); throws a ClientError saying why when it did not.
 */
export async function warmUpServer(
  server: string,
  codec: string,
  payload: string,
  frames: readonly Encoded[],
  messages: number,
): Promise<void> {
  const url = new URL(WARM_UP_PATH, server);
  url.searchParams.set("codec", codec);
  url.searchParams.set("payload", payload);
  url.searchParams.set("messages", String(messages));
  let res: Response;
  try {
    res = await fetch(url, { method: "POST", body: packFrames(frames) });
  } catch (e) {
    throw new ClientError("CONNECT", `cannot connect to ${server}: ${(e as Error).message}`);
  }
  if (!res.ok)
    throw new ClientError("PROTOCOL", `the server refused the warm-up (${res.status}): ${(await res.text()).trim()}`);
  await res.text();
}

/** CPU time (user + system) of this process so far, ms. */
export function processCpuMs(): number {
  const c = process.cpuUsage();
  return (c.user + c.system) / 1000;
}
