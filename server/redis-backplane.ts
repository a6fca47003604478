/**
 * A Redis pub/sub backplane that keeps every byte: the server processes of a
 * cluster publish a codec's frames to Redis and receive each other's, as the
 * codec made them. Bun's built-in RedisClient hands subscribed messages over
 * as strings (its buffer subscriptions are not implemented in Bun 1.4), so
 * this speaks RESP itself over a TCP socket: commands are arrays of bulk
 * strings, replies are parsed with their byte lengths, nothing is decoded as
 * text.
 *
 * Two connections, as Redis requires: one publishes (and takes every other
 * command), one only subscribes. Either closing, or Redis answering with an
 * error, ends the backplane: `closed` resolves with the reason, and every
 * publish still waiting for its reply is rejected with it.
 */

import type { Socket } from "bun";

/** A reply Redis gave: a simple string, an integer, a bulk string (bytes), null, an error, or an array of these. */
export type RespValue = string | number | Uint8Array | null | RespError | RespValue[];

class RespError extends Error {}

/** Thrown (and given to `closed`) when the backplane can no longer carry messages. */
export class BackplaneError extends Error {}

const CRLF = new Uint8Array([13, 10]);
const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** One command as RESP: an array of bulk strings, each argument's bytes unchanged. */
export function encodeCommand(args: readonly (string | Uint8Array)[]): Uint8Array {
  const parts: Uint8Array[] = [encoder.encode(`*${args.length}\r\n`)];
  for (const arg of args) {
    const bytes = typeof arg === "string" ? encoder.encode(arg) : arg;
    parts.push(encoder.encode(`$${bytes.length}\r\n`), bytes, CRLF);
  }
  let size = 0;
  for (const p of parts) size += p.length;
  const out = new Uint8Array(size);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** The index of the CR of the next CRLF at or after `from`, or -1. */
function lineEnd(buf: Uint8Array, from: number, end: number): number {
  for (let i = from; i + 1 < end; i++) if (buf[i] === 13 && buf[i + 1] === 10) return i;
  return -1;
}

/**
 * Reads RESP replies from a stream of chunks, each reply whole or not at all.
 * Bulk strings stay bytes (copied out of the stream's buffer).
 */
export class RespReader {
  private buf = new Uint8Array(0);
  private start = 0;
  private end = 0;

  push(chunk: Uint8Array): void {
    if (this.end + chunk.length > this.buf.length) {
      const kept = this.end - this.start;
      const next = new Uint8Array(Math.max(2 * (kept + chunk.length), 4096));
      next.set(this.buf.subarray(this.start, this.end));
      this.buf = next;
      this.start = 0;
      this.end = kept;
    }
    this.buf.set(chunk, this.end);
    this.end += chunk.length;
  }

  /** The next whole reply, or undefined until more bytes arrive. Throws RespError on bytes that are not RESP. */
  next(): { value: RespValue } | undefined {
    const r = this.parse(this.start);
    if (!r) return undefined;
    this.start = r.at;
    if (this.start === this.end) this.start = this.end = 0;
    return { value: r.value };
  }

  private parse(at: number): { value: RespValue; at: number } | undefined {
    const { buf, end } = this;
    if (at >= end) return undefined;
    const eol = lineEnd(buf, at + 1, end);
    if (eol < 0) return undefined;
    const type = buf[at];
    const line = decoder.decode(buf.subarray(at + 1, eol));
    const after = eol + 2;
    switch (type) {
      case 0x2b: // +
        return { value: line, at: after };
      case 0x2d: // -
        return { value: new RespError(line), at: after };
      case 0x3a: // :
        return { value: Number(line), at: after };
      case 0x24: {
        // $
        const n = Number(line);
        if (n < 0) return { value: null, at: after };
        if (after + n + 2 > end) return undefined;
        return { value: buf.slice(after, after + n), at: after + n + 2 };
      }
      case 0x2a: {
        // *
        const n = Number(line);
        if (n < 0) return { value: null, at: after };
        const items: RespValue[] = [];
        let p = after;
        for (let i = 0; i < n; i++) {
          const r = this.parse(p);
          if (!r) return undefined;
          items.push(r.value);
          p = r.at;
        }
        return { value: items, at: p };
      }
      default:
        throw new RespError(`not a RESP reply: byte 0x${(type ?? 0).toString(16)} at offset ${at}`);
    }
  }
}

/** host and port of a redis:// URL; a BackplaneError naming what is wrong with any other. */
export function parseRedisUrl(url: string): { host: string; port: number } {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new BackplaneError(`a backplane URL looks like redis://HOST:PORT, got '${url}'`);
  }
  if (u.protocol !== "redis:")
    throw new BackplaneError(`a backplane URL starts with redis:// (the only backplane supported), got '${url}'`);
  if (u.username || u.password || (u.pathname !== "" && u.pathname !== "/"))
    throw new BackplaneError(`a backplane URL is redis://HOST:PORT, without credentials or a database, got '${url}'`);
  return { host: u.hostname.replace(/^\[|\]$/g, "") || "127.0.0.1", port: Number(u.port || 6379) };
}

/** One TCP connection to Redis: writes queued under backpressure, replies parsed as they arrive. */
class RespConnection {
  private readonly reader = new RespReader();
  private readonly queue: Uint8Array[] = [];
  private socket!: Socket<undefined>;
  private ended: BackplaneError | undefined;
  /** Bytes written to Redis and read from it on this connection, RESP framing included. */
  bytesOut = 0;
  bytesIn = 0;

  private constructor(
    private readonly onValue: (v: RespValue) => void,
    private readonly onEnd: (why: BackplaneError) => void,
  ) {}

  static async open(
    host: string,
    port: number,
    onValue: (v: RespValue) => void,
    onEnd: (why: BackplaneError) => void,
  ): Promise<RespConnection> {
    const c = new RespConnection(onValue, onEnd);
    try {
      c.socket = await Bun.connect({
        hostname: host,
        port,
        socket: {
          data: (_s, chunk) => c.received(chunk),
          drain: () => c.flush(),
          close: () => c.end(new BackplaneError(`the connection to Redis at ${host}:${port} closed`)),
          error: (_s, e) =>
            c.end(new BackplaneError(`the connection to Redis at ${host}:${port} failed: ${e.message}`)),
        },
      });
    } catch (e) {
      throw new BackplaneError(`cannot reach Redis at ${host}:${port}: ${(e as Error).message}`);
    }
    return c;
  }

  send(bytes: Uint8Array): void {
    if (this.ended) throw this.ended;
    this.bytesOut += bytes.length;
    this.queue.push(bytes);
    if (this.queue.length === 1) this.flush();
  }

  private flush(): void {
    while (this.queue.length > 0) {
      const head = this.queue[0]!;
      const wrote = this.socket.write(head);
      if (wrote < head.length) {
        this.queue[0] = head.subarray(Math.max(wrote, 0));
        return; // the rest when the socket drains
      }
      this.queue.shift();
    }
  }

  private received(chunk: Uint8Array): void {
    this.bytesIn += chunk.length;
    this.reader.push(chunk);
    try {
      for (let r = this.reader.next(); r; r = this.reader.next()) this.onValue(r.value);
    } catch (e) {
      this.end(new BackplaneError(`Redis sent something that is not RESP: ${(e as Error).message}`));
      this.socket.end();
    }
  }

  private end(why: BackplaneError): void {
    if (this.ended) return;
    this.ended = why;
    this.onEnd(why);
  }

  close(): void {
    this.ended ??= new BackplaneError("the backplane was closed");
    this.socket.end();
  }
}

/**
 * Publish bytes to channels and receive every message of the channels
 * subscribed to, byte for byte. `closed` resolves once, with why the
 * backplane stopped (a connection closing, Redis refusing a command, or
 * `close()`).
 */
export class RedisBackplane {
  /** Replies the publishing connection still owes, in order. */
  private readonly waiting: { resolve: (v: RespValue) => void; reject: (e: Error) => void }[] = [];
  private readonly subscribed = new Map<string, () => void>();
  private pub!: RespConnection;
  private sub!: RespConnection;
  private stopped: BackplaneError | undefined;
  private resolveClosed!: (why: BackplaneError) => void;
  readonly closed: Promise<BackplaneError> = new Promise((resolve) => (this.resolveClosed = resolve));

  private constructor(private readonly onMessage: (channel: string, payload: Uint8Array) => void) {}

  static async connect(
    url: string,
    onMessage: (channel: string, payload: Uint8Array) => void,
  ): Promise<RedisBackplane> {
    const { host, port } = parseRedisUrl(url);
    const b = new RedisBackplane(onMessage);
    b.pub = await RespConnection.open(
      host,
      port,
      (v) => b.reply(v),
      (why) => b.stop(why),
    );
    try {
      b.sub = await RespConnection.open(
        host,
        port,
        (v) => b.pushed(v),
        (why) => b.stop(why),
      );
    } catch (e) {
      b.pub.close();
      throw e;
    }
    return b;
  }

  /** Sends one command on the publishing connection; its reply, or a RespError thrown. */
  command(args: readonly (string | Uint8Array)[]): Promise<RespValue> {
    if (this.stopped) return Promise.reject(this.stopped);
    return new Promise((resolve, reject) => {
      this.waiting.push({ resolve, reject });
      this.pub.send(encodeCommand(args));
    });
  }

  /** Publishes `payload` unchanged; resolves with how many subscribers Redis handed it to. */
  async publish(channel: string, payload: Uint8Array): Promise<number> {
    return (await this.command(["PUBLISH", channel, payload])) as number;
  }

  /** Subscribes to `channels`; resolves when Redis has confirmed every one. */
  subscribe(channels: readonly string[]): Promise<void> {
    return this.listen("SUBSCRIBE", channels);
  }

  /**
   * Subscribes to every channel matching each of `patterns` (Redis glob: `prefix*`), so channels
   * that do not exist yet are heard from their first message; resolves when Redis has confirmed.
   */
  psubscribe(patterns: readonly string[]): Promise<void> {
    return this.listen("PSUBSCRIBE", patterns);
  }

  /** Wire bytes so far, RESP framing included: written by publishing (and other commands), and read by subscribing. */
  traffic(): { publishedBytes: number; receivedBytes: number } {
    return { publishedBytes: this.pub.bytesOut, receivedBytes: this.sub.bytesIn };
  }

  private listen(command: "SUBSCRIBE" | "PSUBSCRIBE", names: readonly string[]): Promise<void> {
    if (this.stopped) return Promise.reject(this.stopped);
    const kind = command.toLowerCase();
    const confirmed = names.map(
      (name) => new Promise<void>((resolve) => this.subscribed.set(`${kind} ${name}`, resolve)),
    );
    this.sub.send(encodeCommand([command, ...names]));
    return Promise.race([Promise.all(confirmed).then(() => undefined), this.closed.then((why) => Promise.reject(why))]);
  }

  close(): void {
    this.stop(new BackplaneError("the backplane was closed"));
    this.pub.close();
    this.sub.close();
  }

  private reply(v: RespValue): void {
    const w = this.waiting.shift();
    if (!w) return this.stop(new BackplaneError("Redis sent a reply nothing was waiting for"));
    if (v instanceof RespError) w.reject(v);
    else w.resolve(v);
  }

  private pushed(v: RespValue): void {
    if (v instanceof RespError) return this.stop(new BackplaneError(`Redis refused a subscription: ${v.message}`));
    if (!Array.isArray(v) || !(v[0] instanceof Uint8Array)) return;
    const kind = decoder.decode(v[0]);
    const name = v[1] instanceof Uint8Array ? decoder.decode(v[1]) : "";
    if (kind === "message" && v[2] instanceof Uint8Array) this.onMessage(name, v[2]);
    // A pattern's message: the pattern, then the channel it matched, then the bytes.
    else if (kind === "pmessage" && v[2] instanceof Uint8Array && v[3] instanceof Uint8Array)
      this.onMessage(decoder.decode(v[2]), v[3]);
    else if (kind === "subscribe" || kind === "psubscribe") this.subscribed.get(`${kind} ${name}`)?.();
  }

  private stop(why: BackplaneError): void {
    if (this.stopped) return;
    this.stopped = why;
    for (const w of this.waiting.splice(0)) w.reject(why);
    this.resolveClosed(why);
  }
}
