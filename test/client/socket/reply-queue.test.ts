/**
 * The reply side of a case: replies in order (one at a time, or to a
 * handler), failures on close, error and silence. A plain object stands in
 * for the socket (Replies only sets its handlers) and a fake clock for time.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import type { MessageData } from "../../../client/socket/client-codec.ts";
import { Replies, Watchdog } from "../../../client/socket/reply-queue.ts";

interface FakeClock {
  readonly name: string;
  now(): number;
  /** Current time, ms; tests move it. */
  t: number;
  /** How often now() was read: every watchdog tick reads it. */
  reads: number;
}

function fakeClock(): FakeClock {
  const c: FakeClock = {
    name: "fake",
    t: 1000,
    reads: 0,
    now: () => {
      c.reads++;
      return c.t;
    },
  };
  return c;
}

interface FakeSocket {
  onmessage: ((ev: { data: MessageData }) => void) | null;
  onclose: ((ev: { code: number; reason: string }) => void) | null;
  onerror: ((ev: unknown) => void) | null;
}

const fakeSocket = (): FakeSocket => ({ onmessage: null, onclose: null, onerror: null });
const asWebSocket = (s: FakeSocket): WebSocket => s as unknown as WebSocket;

/** Stopped after each test, so no interval outlives it. */
const live: { stop(): void; dispose?(): void }[] = [];
afterEach(() => {
  for (const x of live.splice(0)) (x.dispose ?? x.stop).call(x);
});

function watch(clock: FakeClock, timeoutMs: number, onStall: () => void): Watchdog {
  const w = new Watchdog(clock, timeoutMs, onStall);
  live.push(w);
  return w;
}

/** Resolves once a watchdog on `clock` has checked the time again (one tick of its interval). */
async function nextTick(clock: FakeClock): Promise<void> {
  const before = clock.reads;
  await vi.waitFor(() => expect(clock.reads).toBeGreaterThan(before), { timeout: 5000, interval: 5 });
}

describe("Watchdog", () => {
  it("calls onStall once the timeout has passed without a touch, and only once", async () => {
    const clock = fakeClock();
    const onStall = vi.fn();
    watch(clock, 200, onStall);
    await nextTick(clock);
    expect(onStall).not.toHaveBeenCalled(); // no time has passed yet
    clock.t += 201;
    await vi.waitFor(() => expect(onStall).toHaveBeenCalledTimes(1), { timeout: 5000, interval: 5 });
    // It stopped itself: a second watchdog of the same period fires, and the first has not read the clock since.
    const reads = clock.reads;
    clock.t += 10_000;
    const witness = fakeClock();
    const witnessStall = vi.fn();
    watch(witness, 200, witnessStall);
    witness.t += 10_000;
    await vi.waitFor(() => expect(witnessStall).toHaveBeenCalled(), { timeout: 5000, interval: 5 });
    expect(onStall).toHaveBeenCalledTimes(1);
    expect(clock.reads).toBe(reads);
  });

  it("does not fire at exactly the timeout, only past it", async () => {
    const clock = fakeClock();
    const onStall = vi.fn();
    watch(clock, 200, onStall);
    clock.t += 200;
    await nextTick(clock);
    await nextTick(clock);
    expect(onStall).not.toHaveBeenCalled();
  });

  it("does not fire while it is touched, however long that goes on", async () => {
    const clock = fakeClock();
    const onStall = vi.fn();
    const w = watch(clock, 200, onStall);
    for (let i = 0; i < 6; i++) {
      clock.t += 150; // 900 ms in all, each step within the timeout
      w.touch();
      await nextTick(clock);
    }
    expect(onStall).not.toHaveBeenCalled();
    // The control: once the touches stop, it fires.
    clock.t += 201;
    await vi.waitFor(() => expect(onStall).toHaveBeenCalledTimes(1), { timeout: 5000, interval: 5 });
  });

  it("never fires after stop()", async () => {
    const clock = fakeClock();
    const onStall = vi.fn();
    const w = watch(clock, 200, onStall);
    const witness = fakeClock();
    const witnessStall = vi.fn();
    watch(witness, 200, witnessStall);
    w.stop();
    clock.t += 10_000;
    witness.t += 10_000;
    // The witness was started after it with the same period: when the witness fires, the stopped one would have.
    await vi.waitFor(() => expect(witnessStall).toHaveBeenCalled(), { timeout: 5000, interval: 5 });
    expect(onStall).not.toHaveBeenCalled();
    expect(clock.reads).toBe(1); // the constructor's read only
  });
});

function replies(
  ws: FakeSocket,
  clock = fakeClock(),
  stallTimeoutMs = 60_000,
  progress = () => "2 of 5 replies",
): Replies {
  const r = new Replies(asWebSocket(ws), clock, stallTimeoutMs, progress);
  live.push({ stop: () => r.dispose() });
  return r;
}

describe("Replies", () => {
  it("next() hands out queued replies in arrival order, then waits for the next one", async () => {
    const ws = fakeSocket();
    const r = replies(ws);
    ws.onmessage!({ data: "first" });
    ws.onmessage!({ data: "second" });
    expect(await r.next()).toBe("first");
    expect(await r.next()).toBe("second");
    const pending = r.next();
    const bytes = new Uint8Array([1, 2, 3]).buffer;
    ws.onmessage!({ data: bytes });
    expect(await pending).toBe(bytes);
  });

  it("onMessage gets the queued replies first, in order, then every later one", () => {
    const ws = fakeSocket();
    const r = replies(ws);
    ws.onmessage!({ data: "a" });
    ws.onmessage!({ data: "b" });
    const got: MessageData[] = [];
    const onFail = vi.fn();
    r.onMessage((d) => got.push(d), onFail);
    expect(got).toEqual(["a", "b"]);
    ws.onmessage!({ data: "c" });
    ws.onmessage!({ data: "d" });
    expect(got).toEqual(["a", "b", "c", "d"]);
    expect(onFail).not.toHaveBeenCalled();
  });

  it("rejects a waiting next() with the close code, the reason and the progress when the socket closes", async () => {
    const ws = fakeSocket();
    const r = replies(ws);
    const pending = r.next();
    ws.onclose!({ code: 1007, reason: "json: not a small message" });
    await expect(pending).rejects.toThrow(
      "the server closed the connection with 1007 (json: not a small message) after 2 of 5 replies",
    );
    // Every later next() fails the same way.
    await expect(r.next()).rejects.toThrow("with 1007");
  });

  it("says a close with no close frame (1006) cut the connection off, and fails a next() asked for after it", async () => {
    const ws = fakeSocket();
    const r = replies(ws);
    ws.onclose!({ code: 1006, reason: "" });
    await expect(r.next()).rejects.toThrow(
      /^the connection was cut off without a close frame \(1006: a connection reset, a link gone down or a server gone\) after 2 of 5 replies$/,
    );
  });

  it("leaves out an empty reason", async () => {
    const ws = fakeSocket();
    const r = replies(ws);
    ws.onclose!({ code: 1011, reason: "" });
    await expect(r.next()).rejects.toThrow(/^the server closed the connection with 1011 after 2 of 5 replies$/);
  });

  it("tells the stream handler's onFail about a close, and delivers nothing after it", () => {
    const ws = fakeSocket();
    const r = replies(ws);
    const got: MessageData[] = [];
    const onFail = vi.fn();
    r.onMessage((d) => got.push(d), onFail);
    ws.onclose!({ code: 1011, reason: "dropped" });
    ws.onmessage!({ data: "late" });
    ws.onerror!({});
    expect(onFail).toHaveBeenCalledTimes(1);
    expect((onFail.mock.calls[0]![0] as Error).message).toBe(
      "the server closed the connection with 1011 (dropped) after 2 of 5 replies",
    );
    expect(got).toEqual([]);
  });

  it("fails on a socket error", async () => {
    const ws = fakeSocket();
    const r = replies(ws);
    const pending = r.next();
    ws.onerror!({});
    await expect(pending).rejects.toThrow("connection error after 2 of 5 replies");
  });

  it("fails when no reply comes within the stall timeout", async () => {
    const ws = fakeSocket();
    const clock = fakeClock();
    const r = replies(ws, clock, 200, () => "3 of 10 replies");
    const pending = r.next();
    pending.catch(() => undefined);
    clock.t += 201;
    await expect(pending).rejects.toThrow("stalled: no reply for 200 ms after 3 of 10 replies");
  });

  it("a reply restarts the stall clock", async () => {
    const ws = fakeSocket();
    const clock = fakeClock();
    const r = replies(ws, clock, 200);
    const pending = r.next();
    clock.t += 150;
    ws.onmessage!({ data: "x" });
    expect(await pending).toBe("x");
    clock.t += 150; // 300 ms since the start, 150 since the reply
    await nextTick(clock);
    ws.onmessage!({ data: "y" });
    expect(await r.next()).toBe("y");
  });

  it("after dispose(), the closing handshake is not a failure", () => {
    const ws = fakeSocket();
    const r = replies(ws);
    const onFail = vi.fn();
    r.onMessage(() => undefined, onFail);
    r.dispose();
    ws.onclose!({ code: 1000, reason: "" });
    expect(onFail).not.toHaveBeenCalled();
  });
});
