/**
 * Latency mode's open loop against a test server that stalls once for 200 ms: every message
 * that was due during the stall shows it in its corrected latency (from when it was due), while
 * the service time (from when it went out) shows it only for the few already in flight, which is
 * what a closed loop would have reported (coordinated omission). Without a stall the two differ
 * by exactly how late each message went out.
 */
import { afterEach, describe, expect, it } from "vitest";
import { makeMessages } from "../../../client/harness/generator.ts";
import { fittedSpanMs } from "../../../client/socket/open-loop.ts";
import { runSocketCase } from "../../../client/socket/runner.ts";
import { socketCaseOptions } from "../../helpers/socket-case.ts";

let stop: (() => void) | undefined;
afterEach(() => {
  stop?.();
  stop = undefined;
});

/** An echo server (not the product's): after `stallAt` messages it holds every reply for `stallMs`, once. */
function stallingEcho(stallAt: number, stallMs: number): string {
  let seen = 0;
  let holdUntil = 0;
  const held: { ws: { send(d: string | Uint8Array): number }; data: string | Uint8Array }[] = [];
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch: (req, srv) => (srv.upgrade(req) ? undefined : new Response("no", { status: 400 })),
    websocket: {
      message(ws, data) {
        seen++;
        if (seen === stallAt) {
          holdUntil = performance.now() + stallMs;
          setTimeout(() => {
            for (const h of held.splice(0)) h.ws.send(h.data);
          }, stallMs);
        }
        if (performance.now() < holdUntil || held.length > 0)
          held.push({ ws, data: typeof data === "string" ? data : data.slice() });
        else ws.send(data);
      },
    },
  });
  stop = () => server.stop(true);
  return `http://127.0.0.1:${server.port}`;
}

async function openLoop(server: string, rate: number, count: number, window: number) {
  const f = await runSocketCase(
    socketCaseOptions({
      server,
      codec: "raw",
      payload: "small",
      mode: "latency",
      messages: makeMessages("small", { count, seed: 5, fixed: false }),
      window,
      rate,
      id: "open-loop",
    }),
  );
  expect(f.error).toBeUndefined();
  expect(f.received).toBe(count);
  expect(f.lost + f.corrupted + f.reordered).toBe(0);
  return { ...f, corrected: [...f.rttNs!], service: [...f.serviceNs!] };
}

const atLeast = (values: number[], ns: number): number => values.filter((v) => v >= ns).length;
const percentile = (values: number[], p: number): number =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((p / 100) * values.length))]!;

describe("latency mode's open loop", () => {
  it("a 200 ms stall shows in the corrected latency of every message due during it; the service time shows only the window in flight", {
    timeout: 30_000,
  }, async () => {
    // 1,000 messages/s for 1 s, at most 8 in flight; the server stalls at the 300th.
    const f = await openLoop(stallingEcho(300, 200), 1000, 1000, 8);
    // About 200 messages were due during the stall (plus those queued behind it): all show >= 100 ms corrected.
    expect(atLeast(f.corrected, 100e6)).toBeGreaterThanOrEqual(100);
    // Only the window in flight when it began waited that long after actually going out.
    expect(atLeast(f.service, 100e6)).toBeLessThanOrEqual(8);
    expect(percentile(f.corrected, 99.9)).toBeGreaterThan(150e6);
    expect(percentile(f.service, 99)).toBeLessThan(percentile(f.corrected, 99) / 5);
    // The window was full while the server stalled: those sends were late, and counted.
    expect(f.late).toBeGreaterThanOrEqual(100);
  });

  it("measures corrected latency from when each message was due: it differs from the service time by exactly the send's delay, late past 2 ms at 500/s", {
    timeout: 30_000,
  }, async () => {
    const f = await openLoop(stallingEcho(Number.POSITIVE_INFINITY, 0), 500, 500, 64);
    // corrected - service = sent - due: never negative, and past one interval (2 ms) only for the sends counted late.
    const delays = f.corrected.map((c, k) => c - f.service[k]!);
    expect(Math.min(...delays)).toBeGreaterThanOrEqual(-1e3);
    expect(delays.filter((d) => d > 2e6).length).toBe(f.late);
    // The schedule held the rate: the last of 500 messages at 500/s was due 998 ms in.
    expect(f.elapsedMs).toBeGreaterThanOrEqual(998);
  });
});

describe("fittedSpanMs: the pace the client kept", () => {
  const times = (n: number, at: (k: number) => number): Float64Array =>
    Float64Array.from({ length: n }, (_, k) => at(k));

  it("is n intervals on schedule, and barely moves for one send 10 ms late at the end", () => {
    expect(
      fittedSpanMs(
        times(500, (k) => 1000 + k * 0.5),
        0.5,
      ),
    ).toBeCloseTo(250, 6);
    const late = times(500, (k) => 1000 + k * 0.5 + (k === 499 ? 10 : 0));
    // The last send alone would give 259.5 ms (3.7% short of 2,000/s); the line gives under 0.1% more than on schedule.
    expect(fittedSpanMs(late, 0.5)).toBeGreaterThan(250);
    expect(fittedSpanMs(late, 0.5)).toBeLessThan(250.25);
  });

  it("stretches with a client that falls behind all along, as the rate it really kept", () => {
    // Sends 10% slower than asked: 1,000/s asked, ~909/s kept.
    expect(
      1000 /
        (fittedSpanMs(
          times(1000, (k) => k * 1.1),
          1,
        ) /
          1000) /
        1000,
    ).toBeCloseTo(909.09 / 1000, 4);
    expect(
      fittedSpanMs(
        times(1, () => 5),
        2,
      ),
    ).toBe(2);
  });
});
