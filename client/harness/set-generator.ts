/**
 * Seeded generators of the message sets (protocols/message-sets.ts). Unlike
 * the article's messages, these vary in size as real ones do: chat text
 * from a word to a paragraph, a game tick from 1 to 48 entities, and
 * market prices printed to each instrument's tick size. docs/message-sets.md
 * says why each is representative.
 *
 * Each maker draws from its payload's stream (`rng`); a field added to a
 * set after its first release draws from a second stream (`later`, see
 * generator.ts), so that adding it left every other field of every message
 * of a seed as it was.
 */

import type { ChatMessage, Entity, GameTickMessage, MarketMessage, Reaction } from "../../protocols/message-sets.ts";
import { pick, randomInt, type Rng } from "./random.ts";

const USERS = [
  "ana",
  "bjørn",
  "chen_wei",
  "dmitri",
  "émilie",
  "fatima",
  "giulia",
  "hiro",
  "ivan",
  "jürgen",
  "김민준",
  "李娜",
  "olga",
  "pedro",
  "sara_k",
  "tom",
];

/** Words of several scripts, emoji with modifiers and variation selectors, and characters JSON escapes. */
const WORDS = [
  "the",
  "meeting",
  "is",
  "at",
  "3pm",
  "see",
  "you",
  "tomorrow",
  "deploy",
  "done",
  "lol",
  "ok",
  "thanks",
  "can",
  "someone",
  "review",
  "my",
  "PR",
  "?",
  "!",
  "ça",
  "marche",
  "très",
  "bien",
  "größer",
  "mañana",
  "привет",
  "спасибо",
  "你好",
  "谢谢",
  "こんにちは",
  "안녕하세요",
  "مرحبا",
  "שלום",
  "👍",
  "😂",
  "🔥",
  "❤️",
  "🎉",
  "👋🏽",
  "🚀",
  '"quoted"',
  "line\nbreak",
  "https://example.com/a?b=1&c=2",
];
const EMOJI = ["👍", "❤️", "😂", "🎉", "🔥", "👀", "✅", "🙏"];

/** Milliseconds since the epoch at the start of the day the sets are drawn in (2025-11-23). */
const DAY_START_MS = 1_763_856_000_000;
const DAY_MS = 86_400_000;

/** Chat text: mostly a line, sometimes a paragraph, now and then a long message. */
function chatText(rng: Rng): string {
  const r = rng();
  const target = r < 0.7 ? randomInt(rng, 2, 60) : r < 0.95 ? randomInt(rng, 60, 200) : randomInt(rng, 200, 1000);
  const words: string[] = [];
  let length = 0;
  while (length < target) {
    const w = pick(rng, WORDS);
    words.push(w);
    length += w.length + 1;
  }
  return words.join(" ");
}

function reactions(rng: Rng): Reaction[] {
  if (rng() < 0.6) return [];
  const n = randomInt(rng, 1, 4);
  const first = randomInt(rng, 0, EMOJI.length - 1);
  const out: Reaction[] = [];
  for (let i = 0; i < n; i++)
    out.push({ emoji: EMOJI[(first + i) % EMOJI.length]!, count: 1 + Math.floor(rng() * rng() * 50) });
  return out;
}

export function makeChat(rng: Rng): ChatMessage {
  const id = randomInt(rng, 1_000_000, 9_999_999);
  const sentAt = DAY_START_MS + Math.floor(rng() * DAY_MS);
  const m: ChatMessage = {
    id,
    room: randomInt(rng, 1, 500),
    user: pick(rng, USERS),
    text: chatText(rng),
    sentAt,
    reactions: reactions(rng),
  };
  if (rng() < 0.2) m.replyTo = id - randomInt(rng, 1, 1000);
  if (rng() < 0.1) m.editedAt = sentAt + randomInt(rng, 1_000, 600_000);
  return m;
}

/** A full-precision double in [-range, range), or 0 with probability `zero` (standing still, on the ground). */
function coordinate(rng: Rng, range: number, zero: number): number {
  return rng() < zero ? 0 : (rng() * 2 - 1) * range;
}

function entity(rng: Rng): Entity {
  const r = rng();
  return {
    id: randomInt(rng, 1, 100_000),
    state: r < 0.4 ? 0 : r < 0.85 ? 1 : r < 0.97 ? 2 : 3,
    x: coordinate(rng, 1000, 0),
    y: coordinate(rng, 1000, 0),
    z: coordinate(rng, 50, 0.5),
    vx: coordinate(rng, 20, 0.3),
    vy: coordinate(rng, 20, 0.3),
    vz: coordinate(rng, 5, 0.7),
  };
}

/** Matches running at once on one game server: a tick's match is one of 1..MATCHES. */
const MATCHES = 32;

/** A tick of one of the server's matches, uniformly: match, added later, comes from the `later` stream. */
export function makeGameTick(rng: Rng, later: Rng): GameTickMessage {
  const n = randomInt(rng, 1, 48);
  const entities = new Array<Entity>(n);
  for (let i = 0; i < n; i++) entities[i] = entity(rng);
  return { match: randomInt(later, 1, MATCHES), tick: randomInt(rng, 1, 10_000_000), entities };
}

/** Instruments: a stock, crypto pairs, currency pairs; price, decimals of its tick, and what a size is. */
const INSTRUMENTS: readonly {
  symbol: string;
  price: number;
  decimals: number;
  size: "shares" | "coins" | "notional";
}[] = [
  { symbol: "AAPL", price: 189.5, decimals: 2, size: "shares" },
  { symbol: "MSFT", price: 415.2, decimals: 2, size: "shares" },
  { symbol: "NVDA", price: 875.3, decimals: 2, size: "shares" },
  { symbol: "BTC-USD", price: 43_125.5, decimals: 2, size: "coins" },
  { symbol: "ETH-USD", price: 2_310.25, decimals: 2, size: "coins" },
  { symbol: "SOL-USD", price: 98.765, decimals: 3, size: "coins" },
  { symbol: "EUR/USD", price: 1.08453, decimals: 5, size: "notional" },
  { symbol: "USD/JPY", price: 149.512, decimals: 3, size: "notional" },
];

/** A double printed to `decimals` places, as a feed's decimal text parses. */
const toTick = (x: number, decimals: number): number => Number(x.toFixed(decimals));

function size(rng: Rng, kind: "shares" | "coins" | "notional"): number {
  if (kind === "shares") return randomInt(rng, 1, 50) * 100;
  if (kind === "notional") return randomInt(rng, 1, 100) * 100_000;
  return toTick(rng() * rng() * 20, 8) || 0.00000001;
}

export function makeMarket(rng: Rng): MarketMessage {
  const ins = pick(rng, INSTRUMENTS);
  const tick = 10 ** -ins.decimals;
  const bid = toTick(ins.price * (0.99 + rng() * 0.02), ins.decimals);
  return {
    symbol: ins.symbol,
    seq: 5_000_000_000 + Math.floor(rng() * 1_000_000_000),
    ts: DAY_START_MS * 1000 + Math.floor(rng() * DAY_MS * 1000),
    bid,
    bidSize: size(rng, ins.size),
    ask: toTick(bid + randomInt(rng, 1, 5) * tick, ins.decimals),
    askSize: size(rng, ins.size),
  };
}
