import { describe, expect, it } from "vitest";
import { createCustomBinary, type MarketMessage } from "../../custom-binary/index.ts";

const cb = createCustomBinary("copy", "market");
const quote: MarketMessage = {
  symbol: "ETH-USD",
  seq: 5_000_000_000,
  ts: 1_763_900_000_123_456,
  bid: 2310.25,
  bidSize: 0.5,
  ask: 2310.27,
  askSize: 3,
};

describe("custom-binary market layout", () => {
  it("carries sequence numbers and microsecond timestamps up to 2^53 - 1 in 1 to 8 varint bytes", () => {
    for (const [value, bytes] of [
      [0, 1],
      [127, 1],
      [128, 2],
      [2 ** 31, 5],
      [2 ** 35 - 1, 5],
      [2 ** 49, 8],
      [2 ** 53 - 1, 8],
    ] as const) {
      const m = { ...quote, symbol: "", seq: value, ts: 0 };
      const encoded = cb.encode(m);
      expect(encoded.length, String(value)).toBe(1 + 1 + bytes + 1 + 32);
      expect(cb.decode(encoded)).toEqual(m);
    }
  });

  it("refuses a sequence number or timestamp a JavaScript number cannot hold exactly", () => {
    expect(() => cb.encode({ ...quote, seq: 2 ** 53 })).toThrow(/'seq'/);
    expect(() => cb.encode({ ...quote, ts: 1.5 })).toThrow(/'ts'/);
    expect(() => cb.encode({ ...quote, ts: -1 })).toThrow(/'ts'/);
  });

  it("round-trips every double, and the example quote to its spec size", () => {
    const m = { ...quote, bid: -0, bidSize: Number.MIN_VALUE, ask: Number.POSITIVE_INFINITY, askSize: 1e308 };
    const decoded = cb.decode(cb.encode(m)) as MarketMessage;
    expect(Object.is(decoded.bid, -0)).toBe(true);
    expect(decoded).toEqual(m);
    expect(cb.encode(quote).length).toBe(1 + 8 + 5 + 8 + 32);
  });
});
