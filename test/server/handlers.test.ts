/**
 * 100,000 bad frames across every codec at a real server process: it stays
 * up, closes each bad connection with 1007, never echoes a wrongly shaped
 * message, answers an empty frame (a slice mark) with an empty slice's
 * figures, and its memory does not grow.
 */
import { BUILT_IN } from "../../protocols/registry.ts";
import { describe, expect, it } from "vitest";
import { performanceClock } from "../../client/harness/clock.ts";
import { makeMessages } from "../../client/harness/generator.ts";
import type { WebSocketClass } from "../../client/socket/client-connection.ts";
import { runSocketCase } from "../../client/socket/runner.ts";
import { shapeError } from "../../server/shape.ts";
import { CLOSE, parseSlice, socketUrl } from "../../protocols/contract.ts";
import { badFrames, type BadFrame } from "../helpers/frames.ts";
import { serverForFile, type ServerHealth } from "../helpers/server.ts";

const server = serverForFile({ ownProcess: true });

interface Outcome {
  closedInvalid: number;
  echoedValid: number;
  /** Empty frames: slice marks, each answered with the figures of a slice of no messages. */
  emptySlices: number;
  unexpected: string[];
}

/** One connection, one bad frame: resolves with how the server answered. */
function sendBad(frame: BadFrame, id: number): Promise<{ code: number; reason: string } | { echo: unknown }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(socketUrl(server.url, frame.codec, frame.payload, `fuzz-${id}`));
    ws.binaryType = "arraybuffer";
    const timer = setTimeout(
      () => reject(new Error(`no answer to ${frame.kind} ${frame.codec} ${frame.payload}`)),
      10_000,
    );
    ws.onopen = () => ws.send(frame.data as string);
    ws.onmessage = (ev) => {
      clearTimeout(timer);
      ws.close(CLOSE.normal);
      resolve({ echo: ev.data });
    };
    ws.onclose = (ev) => {
      clearTimeout(timer);
      resolve({ code: ev.code, reason: ev.reason });
    };
  });
}

/** The server's /health, just after it collected garbage (POST /gc). */
async function health(): Promise<ServerHealth> {
  await fetch(`${server.url}/gc`, { method: "POST" });
  return server.health();
}

describe("server under 100,000 bad frames", () => {
  it("closes every bad connection with 1007, echoes only well-shaped messages, stays up, memory flat", async () => {
    const TOTAL = 100_000;
    const CONCURRENCY = 48;
    const outcome: Outcome = { closedInvalid: 0, echoedValid: 0, emptySlices: 0, unexpected: [] };
    const frames = badFrames(TOTAL, 20261122);
    let sent = 0;
    const worker = async (): Promise<void> => {
      for (let next = frames.next(); !next.done; next = frames.next()) {
        const frame = next.value;
        const id = sent++;
        const answer = await sendBad(frame, id);
        if ("code" in answer) {
          if (answer.code === CLOSE.invalidPayload && answer.reason.startsWith(frame.codec)) outcome.closedInvalid++;
          else outcome.unexpected.push(`${frame.kind} ${frame.codec}: closed ${answer.code} ${answer.reason}`);
        } else if (frame.data.length === 0) {
          const data = answer.echo as string | ArrayBuffer;
          const slice = parseSlice(typeof data === "string" ? data : new Uint8Array(data));
          if (slice?.messages === 0) outcome.emptySlices++;
          else
            outcome.unexpected.push(
              `${frame.kind} ${frame.codec}: an empty frame was answered with ${JSON.stringify(slice)}`,
            );
        } else {
          // A frame that happened to be a valid message: the echo must be one too.
          const data = answer.echo as string | ArrayBuffer;
          const decoded = BUILT_IN.get(frame.codec)!
            .forPayload(frame.payload)
            .decode(typeof data === "string" ? data : new Uint8Array(data));
          if (shapeError(frame.payload, decoded) === undefined) outcome.echoedValid++;
          else outcome.unexpected.push(`${frame.kind} ${frame.codec}: echoed a wrongly shaped message`);
        }
      }
    };
    // Warm the server up to a steady state before the memory baseline.
    const first = badFrames(20_000, 1);
    const warm = async (): Promise<void> => {
      for (let next = first.next(); !next.done; next = first.next()) await sendBad(next.value, -1);
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, warm));
    const heapAt20k = (await health()).heapUsedBytes;
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    const after = await health();

    expect(outcome.unexpected.slice(0, 5)).toEqual([]);
    expect(outcome.closedInvalid + outcome.echoedValid + outcome.emptySlices).toBe(TOTAL);
    expect(outcome.emptySlices).toBeGreaterThan(0);
    expect(outcome.closedInvalid).toBeGreaterThan(TOTAL * 0.7);
    expect(after.ok).toBe(true);
    expect(after.connections).toBe(0);
    // Heap after 100,000 more bad connections, next to the warmed-up baseline.
    expect(after.heapUsedBytes - heapAt20k).toBeLessThan(16 * 1024 * 1024);

    // And it still serves a real client correctly.
    const f = await runSocketCase({
      server: server.url,
      catalog: BUILT_IN,
      codec: "custom-binary",
      payload: "medium",
      mode: "roundtrip",
      messages: makeMessages("medium", { count: 100, seed: 2, fixed: false }),
      window: 1,
      stallTimeoutMs: 5000,
      clock: performanceClock,
      timerOverheadNs: 40,
      WebSocket: globalThis.WebSocket as unknown as WebSocketClass,
      id: "after-fuzz",
    });
    expect(f.error).toBeUndefined();
    expect(f.received).toBe(100);
  }, 300_000);
});
