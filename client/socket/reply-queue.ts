/**
 * The reply side of a case: replies delivered in order, and a watchdog that
 * fails the loop when the socket closes, errors, or stays silent too long.
 */

import type { Clock } from "../harness/clock.ts";
import type { MessageData } from "./client-codec.ts";
import { ClientError } from "../client-errors.ts";
import { closedLine } from "./client-connection.ts";

/**
 * Delivers replies in order, either one at a time (`next`, for roundtrip) or
 * to a handler (`onMessage`, for stream), and fails the loop when the socket
 * closes, errors, or stays silent for the stall timeout.
 */
export class Replies {
  private queue: MessageData[] = [];
  private waiting: ((data: MessageData) => void) | undefined;
  private handler: ((data: MessageData) => void) | undefined;
  private fail: ((e: Error) => void) | undefined;
  private failure: Error | undefined;
  private readonly watchdog: Watchdog;

  constructor(ws: WebSocket, clock: Clock, stallTimeoutMs: number, progress: () => string) {
    this.watchdog = new Watchdog(clock, stallTimeoutMs, () =>
      this.abort(new ClientError("STALLED", `stalled: no reply for ${stallTimeoutMs} ms after ${progress()}`)),
    );
    ws.onmessage = (ev: MessageEvent) => {
      this.watchdog.touch();
      const data = ev.data as MessageData;
      if (this.handler) this.handler(data);
      else if (this.waiting) {
        const w = this.waiting;
        this.waiting = undefined;
        w(data);
      } else this.queue.push(data);
    };
    ws.onclose = (ev: CloseEvent) =>
      this.abort(
        new ClientError(
          "CLOSED",
          `${closedLine(ev, "the server closed the connection", "the connection")} after ${progress()}`,
        ),
      );
    ws.onerror = () => this.abort(new ClientError("CLOSED", `connection error after ${progress()}`));
  }

  /** Stream mode: every reply goes to `handler`; `onFail` hears of a failure. */
  onMessage(handler: (data: MessageData) => void, onFail: (e: Error) => void): void {
    this.fail = onFail;
    this.handler = handler;
    for (const data of this.queue.splice(0)) handler(data);
  }

  /** Roundtrip mode: the next reply. */
  next(): Promise<MessageData> {
    if (this.failure) return Promise.reject(this.failure);
    const queued = this.queue.shift();
    if (queued !== undefined) return Promise.resolve(queued);
    return new Promise((resolve, reject) => {
      this.waiting = resolve;
      this.fail = reject;
    });
  }

  private abort(e: Error): void {
    if (this.failure) return;
    this.failure = e;
    this.handler = undefined;
    this.waiting = undefined;
    this.watchdog.stop();
    this.fail?.(e);
  }

  /** The loop is done: later events (the closing handshake) are not failures. */
  dispose(): void {
    this.watchdog.stop();
    this.failure ??= new ClientError("FINISHED", "finished");
    this.handler = undefined;
    this.waiting = undefined;
  }
}

/** Calls `onStall` once when `touch` has not been called for `timeoutMs`. */
export class Watchdog {
  private last: number;
  private readonly timer: ReturnType<typeof setInterval>;

  constructor(
    private readonly clock: Clock,
    timeoutMs: number,
    onStall: () => void,
  ) {
    this.last = clock.now();
    this.timer = setInterval(
      () => {
        if (this.clock.now() - this.last > timeoutMs) {
          this.stop();
          onStall();
        }
      },
      Math.max(50, Math.min(1000, timeoutMs / 4)),
    );
  }

  /** Something happened: the stall clock starts again. */
  touch(): void {
    this.last = this.clock.now();
  }

  stop(): void {
    clearInterval(this.timer);
  }
}
