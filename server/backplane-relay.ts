/**
 * Fanout and route mode across server processes. Bun's `publish` reaches
 * only the sockets of the process it runs in, so with a backplane every
 * publish goes to Redis instead, and each process (this one too) hands what
 * Redis brings to its own subscribers. A message crosses the backplane as
 * the codec's bytes, unchanged; the channel says which topic it is for and
 * whether it goes out as a text or a binary frame:
 *
 *   PREFIX + "t:" + topic   a text frame (JSON): its UTF-8 bytes
 *   PREFIX + "b:" + topic   a binary frame: its bytes
 *
 * Every process subscribes to PREFIX + "*" once, before it says it is
 * ready, so no subscriber misses a message for want of a subscription made
 * too late. The cost of that: every process receives every message, its
 * subscribers or not (a deployment with many topics would subscribe per
 * topic instead). Several clusters share one Redis apart by their prefixes
 * (--backplane-channel).
 *
 * When the backplane goes away, the server closes every pub/sub connection
 * with CLOSE.backplaneLost and its reason, and refuses new ones the same
 * way; echo connections carry on.
 */

import type { ServerWebSocket } from "bun";
import type { Encoded } from "../protocols/codec.ts";
import type { BackplaneStats, SocketServer } from "./context.ts";
import { CLOSE } from "../protocols/contract.ts";
import { closeLagging } from "./flow.ts";
import { RedisBackplane } from "./redis-backplane.ts";
import { reject, type Publish } from "./server-send.ts";
import type { Connection } from "./socket-state.ts";

/** The channel prefix without --backplane-channel: every cluster on a Redis that leaves it alone shares it. */
export const DEFAULT_CHANNEL_PREFIX = "wsbench:";

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** A channel's topic and frame type, or undefined for a channel not of this prefix. */
function topicOf(prefix: string, channel: string): { topic: string; text: boolean } | undefined {
  if (!channel.startsWith(prefix)) return undefined;
  const kind = channel.slice(prefix.length, prefix.length + 2);
  if (kind !== "t:" && kind !== "b:") return undefined;
  return { topic: channel.slice(prefix.length + 2), text: kind === "t:" };
}

export class BackplaneRelay {
  private backplane!: RedisBackplane;
  private published = 0;
  private received = 0;
  private publishFailed = 0;
  private deliveryDropped = 0;
  private deliveryBackpressure = 0;
  private lost: string | undefined;

  private constructor(
    private readonly url: string,
    private readonly prefix: string,
    /** This process's own publish: its sockets only. */
    private readonly deliver: Publish,
    private readonly compress: boolean,
    private readonly s: SocketServer,
  ) {}

  /**
   * Connects to Redis at `url` and subscribes to the prefix's channels; resolves once Redis has
   * confirmed, so every message published after it reaches this process.
   */
  static async connect(url: string, prefix: string, deliver: Publish, s: SocketServer): Promise<BackplaneRelay> {
    const relay = new BackplaneRelay(url, prefix, deliver, s.ctx.compress === true, s);
    relay.backplane = await RedisBackplane.connect(url, (channel, payload) => relay.receive(channel, payload));
    try {
      await relay.backplane.psubscribe([`${prefix}*`]);
    } catch (e) {
      relay.backplane.close();
      throw e;
    }
    void relay.backplane.closed.then((why) => relay.lose(why.message));
    return relay;
  }

  /**
   * The server's publish, through the backplane: the bytes go to Redis and come back to every
   * process, this one included. Answers the bytes handed to the backplane (never 0 or -1: how
   * each subscriber's process delivered them is counted there).
   */
  readonly publish: Publish = (topic: string, data: Encoded) => {
    const text = typeof data === "string";
    const bytes = text ? encoder.encode(data) : data;
    this.published++;
    this.backplane.publish(`${this.prefix}${text ? "t" : "b"}:${topic}`, bytes).catch(() => this.publishFailed++);
    return bytes.byteLength;
  };

  /** A message from the backplane: delivered to this process's subscribers of its topic. */
  private receive(channel: string, payload: Uint8Array): void {
    const to = topicOf(this.prefix, channel);
    if (!to) return;
    this.received++;
    const result = this.deliver(to.topic, to.text ? decoder.decode(payload) : payload, this.compress);
    if (result === -1) this.deliveryBackpressure++;
    else if (result === 0 && (this.s.topics.get(to.topic)?.size ?? 0) > 0) this.deliveryDropped++;
    if (result === -1 || this.received % 64 === 0) closeLagging(this.s, to.topic);
  }

  /** The backplane is gone: every pub/sub connection closed with why, new ones refused. */
  private lose(why: string): void {
    if (this.lost !== undefined) return;
    this.lost = why;
    const reason = `the backplane is gone (${this.url}): ${why}`;
    this.s.pubsubRefusal = { code: CLOSE.backplaneLost, reason };
    for (const ws of this.s.connections) closePubSub(ws, CLOSE.backplaneLost, reason);
  }

  stats(): BackplaneStats {
    const traffic = this.backplane.traffic();
    return {
      url: this.url,
      channelPrefix: this.prefix,
      state: this.lost === undefined ? "up" : "lost",
      ...(this.lost !== undefined ? { error: this.lost } : {}),
      published: this.published,
      received: this.received,
      ...traffic,
      publishFailed: this.publishFailed,
      deliveryDropped: this.deliveryDropped,
      deliveryBackpressure: this.deliveryBackpressure,
    };
  }

  close(): void {
    this.lost ??= "the server stopped";
    this.backplane.close();
  }
}

/** Closes a pub/sub connection (publisher, subscriber, router, member) with `code` and `reason`; echo connections are left alone. */
export function closePubSub(ws: ServerWebSocket<Connection>, code: number, reason: string): boolean {
  if (ws.data.role === "echo") return false;
  reject(ws, code, reason);
  return true;
}
