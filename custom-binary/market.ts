/**
 * Layout 6: a market-data update (docs/custom-binary.md, "market"): a
 * symbol, a 53-bit sequence number and microsecond timestamp, and four
 * float64s for the best bid and ask and their sizes.
 */

import { ASCII_FLAG, HEADER, maxString } from "./header.ts";
import type { BinaryReader } from "./reader.ts";
import type { BinaryWriter } from "./writer.ts";

/** Layout of message type 6. */
export interface MarketMessage {
  symbol: string;
  seq: number;
  /** Microseconds since the Unix epoch (above 2^32, below 2^53). */
  ts: number;
  bid: number;
  bidSize: number;
  ask: number;
  askSize: number;
}

export function writeMarket(w: BinaryWriter, m: MarketMessage): void {
  w.begin(1 + maxString(m.symbol) + 8 + 8 + 4 * 8);
  w.u8(HEADER.market);
  w.string("symbol", m.symbol);
  if (w.stringsAscii) w.orAt(0, ASCII_FLAG);
  w.varUint53("seq", m.seq);
  w.varUint53("ts", m.ts);
  w.float64("bid", m.bid);
  w.float64("bidSize", m.bidSize);
  w.float64("ask", m.ask);
  w.float64("askSize", m.askSize);
}

export function readMarket(r: BinaryReader, ascii: boolean): MarketMessage {
  const symbol = r.string(ascii);
  r.asciiFlagChecked(ascii);
  return {
    symbol,
    seq: r.varUint53(),
    ts: r.varUint53(),
    bid: r.float64(),
    bidSize: r.float64(),
    ask: r.float64(),
    askSize: r.float64(),
  };
}
