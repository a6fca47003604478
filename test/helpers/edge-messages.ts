/**
 * Messages of every built-in payload at the edges of their fields' ranges
 * (empty strings, the largest integers, the smallest and largest doubles,
 * text outside ASCII): every codec must carry each of them exactly.
 */
import type { Message } from "../../protocols/messages.ts";

export const EDGE: Record<string, Message[]> = {
  small: [
    { text: "", num: 0 },
    { text: "ünïcödé 中文 🚀👩‍👩‍👧", num: 4294967295 },
    { text: '\u0000\u001f"\\/\u2028', num: 2147483648 },
  ],
  medium: [
    { text: "", text2: "", num: 0, decimal: 0 },
    { text: "é", text2: "x".repeat(300), num: 4294967295, decimal: Number.MAX_VALUE },
    { text: "a", text2: "b", num: 1, decimal: 5e-324 },
    { text: "a", text2: "b", num: 1, decimal: -1.7976931348623157e308 },
    { text: "a", text2: "b", num: 1, decimal: 0.1 + 0.2 },
    { text: "a", text2: "b", num: 1, decimal: 3 },
    { text: "a", text2: "b", num: 1, decimal: 2 ** 53 + 2 },
    { text: "a", text2: "b", num: 1, decimal: 1e21 },
  ],
  large: [
    { text: "", text2: "", text3: "", text4: "", num: 0, decimal: -1e-7, num2: -2147483648, decimal2: 2 ** -1074 },
    {
      text: "🎉",
      text2: "ß".repeat(100),
      text3: "€",
      text4: "𝄞",
      num: 4294967295,
      decimal: Math.PI,
      num2: 2147483647,
      decimal2: -Math.E,
    },
    {
      text: "a",
      text2: "b",
      text3: "c",
      text4: "d",
      num: 65536,
      decimal: Number.EPSILON,
      num2: -1,
      decimal2: 123456789.123456789,
    },
  ],
  chat: [
    { id: 0, room: 0, user: "", text: "", sentAt: 0, reactions: [] },
    {
      id: 4294967295,
      room: 1,
      user: "李娜",
      text: "x".repeat(2000) + '👋🏽\n"',
      sentAt: 2 ** 53 - 1,
      reactions: [{ emoji: "", count: 0 }],
      replyTo: 4294967295,
      editedAt: 2 ** 32,
    },
    {
      id: 1,
      room: 2,
      user: "a",
      text: "b",
      sentAt: 2 ** 32,
      reactions: [
        { emoji: "❤️", count: 4294967295 },
        { emoji: "🎉", count: 1 },
      ],
      editedAt: 1,
    },
  ],
  "game-tick": [
    { match: 0, tick: 0, entities: [] },
    // match above 2^31 - 1: an int32 read of it would come back negative
    { match: 2147483648, tick: 1, entities: [{ id: 1, state: 1, x: 0, y: 0, z: 0, vx: 0, vy: 0, vz: 0 }] },
    {
      match: 4294967295,
      tick: 4294967295,
      entities: [
        { id: 0, state: 3, x: Number.MAX_VALUE, y: 5e-324, z: 0, vx: -1e-300, vy: 0.1 + 0.2, vz: -Number.MAX_VALUE },
        { id: 4294967295, state: 0, x: 1, y: 2, z: 3, vx: 4, vy: 5, vz: 6 },
      ],
    },
  ],
  market: [
    { symbol: "", seq: 0, ts: 0, bid: 0, bidSize: 0, ask: 0, askSize: 0 },
    {
      symbol: "EUR/USD €",
      seq: 2 ** 53 - 1,
      ts: 2 ** 53 - 1,
      bid: 1.08453,
      bidSize: 1e-8,
      ask: 1e21,
      askSize: 123456789.123,
    },
  ],
};
