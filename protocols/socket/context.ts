/**
 * What the routes and the handlers share. protocols/ may not import the
 * clock, the page or the library versions (they live above it), so
 * server.ts passes them in as plain values.
 */

import { CpuMeter } from "./cpu.ts";
import type { Publish } from "./replies.ts";
import { StatsStore } from "./stats.ts";

/** One file of the page, as server.ts built it. */
interface PageFile {
  body: Uint8Array<ArrayBuffer>;
  type: string;
}

export interface SocketServerContext {
  /** The clock the timings read, ms. */
  now: () => number;
  /** What one clock read costs, subtracted from every timing, ns. */
  timerOverheadNs: number;
  /** URL path ("/", "/chunk-abc.js", ...) -> file, for every file of the page. */
  page: ReadonlyMap<string, PageFile>;
  /** The /info body (JSON). */
  info: string;
  /** Origins allowed besides the server's own page (--allow-origin). */
  allowOrigins: readonly string[];
  /** Open sockets at most (--max-connections). */
  maxConnections: number;
  /** Bound to loopback: answer only requests addressed to a loopback name. */
  loopbackOnly: boolean;
  publish: Publish;
  /**
   * Ask Bun to compress every reply and publish (--deflate). Bun's send() compresses only when
   * asked, even on a connection that negotiated permessage-deflate; a client that did not gets
   * the frame uncompressed.
   */
  compress?: boolean;
}

export interface SocketServer {
  readonly ctx: SocketServerContext;
  /** Open sockets, for --max-connections and /health. */
  open: number;
  /** Numbers connections that bring no id. */
  nextId: number;
  readonly stats: StatsStore;
  /** Charges the process's CPU to the busy connection. */
  readonly cpu: CpuMeter;
}

export function socketServer(ctx: SocketServerContext): SocketServer {
  return { ctx, open: 0, nextId: 1, stats: new StatsStore(), cpu: new CpuMeter(ctx.now) };
}
