/** The measuring plan's shared pieces: the shortest batch worth timing, batch sizes, and the seeded shuffle. */
import { describe, expect, it } from "vitest";
import { createRng } from "../../../client/harness/random.ts";
import {
  codecMessages,
  jsonBytesPerMessage,
  LATENCY_SLICE_MIN,
  latencySliceSize,
  minBatchNs,
  SHARED_LIST_BYTES,
  sharedListLength,
  shuffled,
  SLICE_TARGET_NS,
  sliceOverLink,
  sliceSize,
  socketSliceSize,
} from "../../../client/harness/schedule.ts";
import { parseLink } from "../../../client/harness/link.ts";
import { LINK_SLICE_RTTS, latencyStep, parseRates } from "../../../client/harness/settings.ts";
import { testSettings } from "../../helpers/settings.ts";

describe("minBatchNs", () => {
  it("is 100x the resolution when the clock ticks coarsely", () => {
    expect(minBatchNs({ resolutionNs: 1000, overheadNs: 20 })).toBe(100_000);
  });

  it("is 100x the read cost when reading the clock is the larger cost", () => {
    expect(minBatchNs({ resolutionNs: 20, overheadNs: 25 })).toBe(2_500);
  });
});

describe("sliceSize", () => {
  const cal = { resolutionNs: 100, overheadNs: 30 }; // minimum batch: 30,000 ns

  it("makes the fastest codec's slice last the target", () => {
    const size = sliceSize(
      [
        { encodeNs: 100, decodeNs: 150 },
        { encodeNs: 400, decodeNs: 900 },
      ],
      cal,
      10_000_000,
    );
    expect(size).toBe(Math.ceil(SLICE_TARGET_NS / 250));
  });

  it("lets every codec's quicker phase clear 1.1x the clock's minimum batch", () => {
    const coarse = { resolutionNs: 100_000, overheadNs: 30 }; // minimum batch: 10 ms
    const size = sliceSize([{ encodeNs: 50, decodeNs: 400 }], coarse, 10_000_000);
    expect(size * 50).toBeGreaterThanOrEqual(1.1 * minBatchNs(coarse));
    expect((size - 1) * 50).toBeLessThan(1.1 * minBatchNs(coarse));
  });

  it("stays within 1..iterations, whatever the estimates", () => {
    expect(sliceSize([{ encodeNs: 1, decodeNs: 1 }], cal, 500)).toBe(500);
    expect(sliceSize([{ encodeNs: 1e12, decodeNs: 1e12 }], cal, 1000)).toBe(1);
    expect(sliceSize([{ encodeNs: 0, decodeNs: -5 }], cal, 77)).toBe(77);
    expect(sliceSize([], cal, 123)).toBe(123);
  });
});

describe("shuffled", () => {
  const items = ["json", "json-bytes", "custom-binary", "protobuf", "msgpack", "msgpackr", "msgpackr-records", "raw"];

  it("returns a permutation of its input", () => {
    const out = shuffled(items, createRng(42));
    expect(out).toHaveLength(items.length);
    expect([...out].sort()).toEqual([...items].sort());
  });

  it("gives the same order for the same seed, and a different one for another seed", () => {
    const a = shuffled(items, createRng(7));
    const b = shuffled(items, createRng(7));
    expect(a).toEqual(b);
    // With 8! orders, a handful of other seeds cannot all land on the same one.
    const others = [8, 9, 10, 11].map((seed) => shuffled(items, createRng(seed)).join());
    expect(others.some((o) => o !== a.join())).toBe(true);
  });

  it("leaves its input untouched and returns a new array", () => {
    const input = [1, 2, 3, 4, 5, 6];
    const frozen = Object.freeze([...input]);
    const out = shuffled(frozen, createRng(3));
    expect(frozen).toEqual(input);
    expect(out).not.toBe(frozen);
  });

  it("moves items: over many seeds, the first item does not always stay first", () => {
    const firsts = new Set<string>();
    for (let seed = 0; seed < 50; seed++) firsts.add(shuffled(items, createRng(seed))[0]!);
    expect(firsts.size).toBeGreaterThan(3);
  });

  it("handles an empty list and a single item", () => {
    expect(shuffled([], createRng(1))).toEqual([]);
    expect(shuffled(["only"], createRng(1))).toEqual(["only"]);
  });
});

describe("each codec's own messages in the socket modes", () => {
  it("are disjoint parts of the shared list when it is long enough, and spread evenly when it is not", () => {
    const codecs = 4;
    const list = Array.from({ length: sharedListLength(100, codecs) }, (_, i) => i);
    expect(list).toHaveLength(400);
    const parts = Array.from({ length: codecs }, (_, i) => codecMessages(list, i, codecs, 100));
    expect(new Set(parts.flat()).size).toBe(400);
    // Capped: 100,000 messages each cannot be disjoint; they start a quarter of the list apart.
    const long = Array.from({ length: sharedListLength(100_000, codecs) }, (_, i) => i);
    expect(long).toHaveLength(100_000);
    expect(codecMessages(long, 1, codecs, 100_000)[0]).toBe(25_000);
    expect(codecMessages(long, 3, codecs, 100_000)[80_000]).toBe((75_000 + 80_000) % 100_000);
  });

  it("hold at most SHARED_LIST_BYTES of JSON: large messages are shared sooner, and a list is never under 1,000 messages", () => {
    // The article's large message (about 300 bytes of JSON) keeps its 100,000; the game tick (3.3 KB) does not.
    expect(sharedListLength(100_000, 8, 300)).toBe(100_000);
    expect(sharedListLength(100_000, 17, 3_300)).toBe(Math.floor(SHARED_LIST_BYTES / 3_300));
    expect(sharedListLength(100_000, 17, 10_000_000)).toBe(1_000);
    // A short run's codecs still get messages of their own where that fits.
    expect(sharedListLength(12_000, 8, 300)).toBe(96_000);
    expect(sharedListLength(100, 4, 10_000_000)).toBe(400);
    const cycled = codecMessages(
      Array.from({ length: 1_000 }, (_, i) => i),
      2,
      4,
      3_000,
    );
    expect(cycled[0]).toBe(500);
    expect(cycled[1_000]).toBe(500);
  });

  it("weigh a payload by its messages' JSON", () => {
    expect(jsonBytesPerMessage([{ a: 1 }, { a: 12 }])).toBe(7.5);
    expect(jsonBytesPerMessage([])).toBe(0);
  });
});

describe("socket slices", () => {
  it("windowed modes: a run's share of 200 slices, at least four windows, at most the run", () => {
    expect(socketSliceSize(100_000, 64)).toBe(500);
    expect(socketSliceSize(6_000, 1)).toBe(30);
    expect(socketSliceSize(1_000, 64)).toBe(256);
    expect(socketSliceSize(100, 64)).toBe(100);
  });

  it("latency mode: short slices at low rates, so a pause of the machine lands in few of them", () => {
    // A sweep's step at 1,000/s sends 250 messages per run: ten slices of 25 ms, not one of 250 ms.
    expect(latencySliceSize(250)).toBe(LATENCY_SLICE_MIN);
    expect(Math.ceil(250 / latencySliceSize(250))).toBe(10);
    expect(latencySliceSize(25_000)).toBe(500);
    expect(latencySliceSize(10)).toBe(10);
  });
});

describe("slices over a link", () => {
  const link = parseLink("4g");

  it("a stream slice spans 20 round trips of windows, or of messages at the link's rate; a latency slice 20 round trips at its rate", () => {
    const at = (rate: number) => ({ link, window: 64, rates: [rate] });
    // 40-byte messages: the window, 64 each 60 ms round trip, is the pace.
    expect(sliceOverLink(256, 2000, "stream", at(1000), 40)).toBe(LINK_SLICE_RTTS * 64);
    expect(sliceOverLink(256, 1000, "stream", at(1000), 40)).toBe(1000);
    // 1,000-byte messages: 8000 bits at 1.35 Mbit/s up, 5.93 ms each; 20 round trips hold 203.
    expect(sliceOverLink(100, 5000, "stream", at(1000), 1000)).toBe(Math.ceil((20 * 60) / (8000 / 1350)));
    // 20 round trips of 60 ms at 500 messages a second: 600 messages.
    expect(sliceOverLink(40, 5000, "latency", at(500), 40)).toBe(600);
    // At least a second of them, however short the round trip.
    expect(sliceOverLink(40, 5000, "latency", { ...at(500), link: parseLink("up=1mbit") }, 40)).toBe(500);
    // A round trip has no drain; over loopback, or a link with no round trip, nothing changes.
    expect(sliceOverLink(30, 5000, "roundtrip", at(500), 40)).toBe(30);
    expect(sliceOverLink(256, 2000, "stream", { window: 64, rates: [1000] }, 40)).toBe(256);
    expect(sliceOverLink(256, 2000, "stream", { link: parseLink("down=1mbit"), window: 64, rates: [1000] }, 40)).toBe(
      256,
    );
  });

  it("a latency sweep's step over a link sends at least one such slice per run", () => {
    const s = testSettings({ ...parseRates("--rate", "sweep"), link });
    expect(latencyStep(s, 1000).iterations.latency).toBe(1200);
    expect(latencyStep(s, 100).iterations.latency).toBe(200);
    expect(latencyStep({ ...s, link: undefined }, 1000).iterations.latency).toBe(250);
  });
});
