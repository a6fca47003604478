/**
 * Compressed sizes: each compressed message decodes back to itself; the kept-context figure comes
 * from one deflate stream flushed after every message, as permessage-deflate runs it.
 */
import zlib from "node:zlib";
import { describe, expect, it } from "vitest";
import { performanceClock } from "../../../client/harness/clock.ts";
import { addCompression, compressionFigures, deflateWithContext } from "../../../client/harness/compression.ts";
import { makeMessages } from "../../../client/harness/generator.ts";
import { makePlan } from "../../../client/harness/plan.ts";
import type { CaseResult } from "../../../client/harness/results.ts";
import { defaultSettings } from "../../../client/harness/settings.ts";
import { BUILT_IN } from "../../../protocols/registry.ts";

const frames = makeMessages("medium", { count: 300, seed: 7, fixed: false }).map((m) => Buffer.from(JSON.stringify(m)));

describe("compressed sizes", () => {
  it("in a stream: smaller than each message alone once there is context, and the first message the same as alone", async () => {
    const streamed = await deflateWithContext(frames);
    const alone = frames.map((f) => zlib.deflateRawSync(f, { finishFlush: zlib.constants.Z_SYNC_FLUSH }).length - 4);
    expect(streamed[0]).toBe(alone[0]);
    const sum = (a: number[]): number => a.reduce((x, y) => x + y, 0);
    expect(sum(streamed.slice(1))).toBeLessThan(sum(alone.slice(1)));
    // A preset dictionary of the messages before comes within two bytes of the stream, message by message, not exactly.
    let history = Buffer.alloc(0);
    frames.forEach((f, i) => {
      const primed =
        i === 0
          ? alone[0]!
          : zlib.deflateRawSync(f, { finishFlush: zlib.constants.Z_SYNC_FLUSH, dictionary: history }).length - 4;
      expect(Math.abs(primed - streamed[i]!)).toBeLessThanOrEqual(2);
      history = Buffer.concat([history, f]).subarray(-32768);
    });
  });

  it("alone, in a stream and with zstd: each smaller than the messages here, the stream smallest; zstd timed with its set-up beside it", async () => {
    const f = await compressionFigures(frames, performanceClock, 0);
    const raw = frames.reduce((n, x) => n + x.length, 0) / frames.length;
    expect(f.deflateBytes).toBeLessThan(raw);
    expect(f.deflateContextBytes).toBeLessThan(f.deflateBytes);
    expect(f.zstdBytes).toBeGreaterThan(0);
    expect(f.zstdNs).toBeGreaterThan(0);
    expect(f.zstdEmptyNs).toBeGreaterThan(0);
    expect(Number.isNaN((await compressionFigures([], performanceClock, 0)).deflateBytes)).toBe(true);
  });

  it("is added to verified codec-mode cases only", async () => {
    const settings = {
      ...defaultSettings("quick", BUILT_IN.names),
      iterations: { ...defaultSettings("quick", BUILT_IN.names).iterations, codec: 50 },
    };
    const cases = [
      { mode: "codec", codec: "custom-binary", payload: "small", verified: true },
      { mode: "codec", codec: "json", payload: "small", verified: false },
      { mode: "roundtrip", codec: "json", payload: "small", verified: true },
    ] as CaseResult[];
    expect(await addCompression(cases, makePlan(settings), performanceClock, 0)).toEqual([]);
    expect(cases.map((c) => c.compression !== undefined)).toEqual([true, false, false]);
  });
});
