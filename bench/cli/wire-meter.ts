/**
 * Bytes on the wire with compression on (`--deflate`). Neither Bun's server nor a WebSocket client
 * says how large a compressed frame was (`ServerWebSocket.send()` returns the uncompressed
 * length), so after the timed runs the same client sends a short untimed roundtrip run of every codec
 * and payload through this relay: a TCP hop on loopback that forwards every byte unchanged and
 * reads the WebSocket frames going by (RFC 6455 5.2). Per connection it counts the data frames'
 * bytes, header and mask included, in each direction, and the messages they carry; the HTTP
 * upgrade and control frames (close, ping, pong) are left out. The upgrade request names the
 * codec and payload (protocols/contract.ts, socketUrl), so counts are kept per case.
 *
 * The relay is never in the timed path: the timed runs talk to the server directly.
 */

import type { Socket, TCPSocketListener } from "bun";
import type { CaseResult } from "../../client/harness/results.ts";
import type { PlanSpec } from "../../client/harness/plan.ts";

/** Messages per codec and payload in the run through the relay (fewer when the run's roundtrip has fewer). */
const WIRE_RUN_MESSAGES = 1000;

/** The run through the relay: roundtrip, one run, one client, no warm-up, the run's codecs, payloads and messages. */
export function wireRunPlan(spec: PlanSpec): PlanSpec {
  const { settings } = spec;
  return {
    ...spec,
    settings: {
      ...settings,
      modes: ["roundtrip"],
      iterations: { ...settings.iterations, roundtrip: Math.min(settings.iterations.roundtrip, WIRE_RUN_MESSAGES) },
      warmup: { ...settings.warmup, roundtrip: 0 },
      runs: { ...settings.runs, roundtrip: 1 },
      clients: 1,
    },
  };
}

/** Data frames seen in one direction: their bytes on the wire, the messages they carry, and how many were compressed (RSV1). */
export interface DirectionCount {
  bytes: number;
  messages: number;
  compressed: number;
}

/** What went by on the connections of one codec x payload. */
export interface WireCount {
  up: DirectionCount;
  down: DirectionCount;
}

/** Reads a byte stream as WebSocket frames after the HTTP upgrade's blank line; counts data frames. */
export class FrameCounter {
  readonly count: DirectionCount = { bytes: 0, messages: 0, compressed: 0 };
  /** The HTTP head before the frames (request or response), while it is still arriving. */
  head = "";
  private inHead = true;
  private header: number[] = [];
  /** Payload bytes of the current frame still to come, and whether that frame is counted. */
  private left = 0;
  private counting = false;

  feed(chunk: Uint8Array): void {
    let i = 0;
    if (this.inHead) {
      // The head is ASCII; a frame's bytes after it are read below.
      const text = this.head + String.fromCharCode(...chunk.subarray(0, Math.min(chunk.length, 8192)));
      const end = text.indexOf("\r\n\r\n");
      if (end < 0) {
        this.head = text;
        return;
      }
      i = end + 4 - this.head.length;
      this.head = text.slice(0, end);
      this.inHead = false;
    }
    while (i < chunk.length) {
      if (this.left > 0) {
        const k = Math.min(this.left, chunk.length - i);
        if (this.counting) this.count.bytes += k;
        this.left -= k;
        i += k;
        continue;
      }
      this.header.push(chunk[i++]!);
      if (this.header.length >= 2 && this.header.length === headerLength(this.header)) this.frameHeader();
    }
  }

  private frameHeader(): void {
    const h = this.header;
    const opcode = h[0]! & 0x0f;
    const len7 = h[1]! & 0x7f;
    let length = len7;
    if (len7 === 126) length = (h[2]! << 8) | h[3]!;
    else if (len7 === 127) length = h.slice(2, 10).reduce((v, b) => v * 256 + b, 0);
    // Opcodes 0 (continuation), 1 (text) and 2 (binary) carry data; 8, 9 and 10 are control frames.
    this.counting = opcode <= 2;
    if (this.counting) {
      this.count.bytes += h.length;
      if (opcode !== 0) this.count.messages++;
      if (opcode !== 0 && (h[0]! & 0x40) !== 0) this.count.compressed++;
    }
    this.left = length;
    this.header = [];
  }
}

/** Header bytes of a frame whose first two bytes are known: 2, the extended length, and the mask. */
function headerLength(h: readonly number[]): number {
  const len7 = h[1]! & 0x7f;
  return 2 + (len7 === 126 ? 2 : len7 === 127 ? 8 : 0) + ((h[1]! & 0x80) !== 0 ? 4 : 0);
}

/** Writes to a socket, keeping what it could not take until it drains. */
class Outbox {
  private pending: Uint8Array[] = [];
  constructor(private socket: Socket<unknown> | undefined = undefined) {}

  attach(socket: Socket<unknown>): void {
    this.socket = socket;
    this.drain();
  }

  write(data: Uint8Array): void {
    if (this.pending.length > 0 || !this.socket) {
      this.pending.push(data.slice());
      return;
    }
    const n = this.socket.write(data);
    if (n < data.length) this.pending.push(data.slice(Math.max(0, n)));
  }

  drain(): void {
    while (this.socket && this.pending.length > 0) {
      const data = this.pending[0]!;
      const n = this.socket.write(data);
      if (n < data.length) {
        this.pending[0] = data.subarray(Math.max(0, n));
        return;
      }
      this.pending.shift();
    }
  }
}

interface Hop {
  up: FrameCounter;
  down: FrameCounter;
  toServer: Outbox;
  toClient: Outbox;
  server?: Socket<unknown>;
  closed: boolean;
}

/** A counting relay in front of the server at `target` (http://host:port). */
export class WireMeter {
  private readonly hops: Hop[] = [];

  private constructor(
    private readonly listener: TCPSocketListener<Hop>,
    readonly url: string,
  ) {}

  static start(target: string): WireMeter {
    const { hostname, port } = new URL(target);
    let meter: WireMeter | undefined;
    const listener = Bun.listen<Hop>({
      hostname: "127.0.0.1",
      port: 0,
      socket: {
        open(client) {
          const hop: Hop = {
            up: new FrameCounter(),
            down: new FrameCounter(),
            toServer: new Outbox(),
            toClient: new Outbox(client as Socket<unknown>),
            closed: false,
          };
          client.data = hop;
          meter?.hops.push(hop);
          Bun.connect<Hop>({
            hostname,
            port: Number(port),
            data: hop,
            socket: {
              open(server) {
                hop.server = server as Socket<unknown>;
                if (hop.closed) server.end();
                else hop.toServer.attach(server as Socket<unknown>);
              },
              data(_server, chunk) {
                hop.down.feed(chunk);
                hop.toClient.write(chunk);
              },
              drain() {
                hop.toServer.drain();
              },
              close() {
                client.end();
              },
              error() {
                client.end();
              },
            },
          }).catch(() => client.end());
        },
        data(client, chunk) {
          client.data.up.feed(chunk);
          client.data.toServer.write(chunk);
        },
        drain(client) {
          client.data.toClient.drain();
        },
        close(client) {
          client.data.closed = true;
          client.data.server?.end();
        },
        error(client) {
          client.data.closed = true;
          client.data.server?.end();
        },
      },
    });
    meter = new WireMeter(listener, `http://127.0.0.1:${listener.port}`);
    return meter;
  }

  /** Counts per "codec payload", summed over the upgraded connections that named them. */
  counts(): Map<string, WireCount> {
    const out = new Map<string, WireCount>();
    for (const hop of this.hops) {
      if (!/^HTTP\/1\.1 101/.test(hop.down.head)) continue;
      const target = /^GET (\S+)/.exec(hop.up.head)?.[1];
      const params = new URL(target ?? "/", "http://x").searchParams;
      const key = `${params.get("codec")} ${params.get("payload")}`;
      const sum = out.get(key) ?? {
        up: { bytes: 0, messages: 0, compressed: 0 },
        down: { bytes: 0, messages: 0, compressed: 0 },
      };
      for (const [to, from] of [
        [sum.up, hop.up.count],
        [sum.down, hop.down.count],
      ] as const) {
        to.bytes += from.bytes;
        to.messages += from.messages;
        to.compressed += from.compressed;
      }
      out.set(key, sum);
    }
    return out;
  }

  stop(): void {
    this.listener.stop(true);
  }
}

/** Writes the measured frame sizes into the socket cases of the client that made them. */
export function applyWireCounts(
  cases: CaseResult[],
  counts: ReadonlyMap<string, WireCount>,
  client: CaseResult["client"],
): void {
  for (const c of cases) {
    if (c.client !== client || !c.socket || c.mode === "fanout") continue;
    const count = counts.get(`${c.codec} ${c.payload}`);
    if (!count) continue;
    c.socket.wireBytes = count.up.messages > 0 ? count.up.bytes / count.up.messages : NaN;
    c.socket.replyWireBytes = count.down.messages > 0 ? count.down.bytes / count.down.messages : NaN;
    c.socket.compressedShare = count.up.messages > 0 ? count.up.compressed / count.up.messages : NaN;
  }
}
