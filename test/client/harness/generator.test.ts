import { describe, expect, it } from "vitest";
import { makeMessages } from "../../../client/harness/generator.ts";
import { createRng, randomString } from "../../../client/harness/random.ts";
import {
  ARTICLE_MESSAGES,
  ARTICLE_PAYLOADS,
  EXAMPLE_MESSAGES,
  MESSAGE_SETS,
  PAYLOAD_NAMES,
} from "../../../protocols/messages.ts";
import type { ChatMessage, GameTickMessage, MarketMessage } from "../../../protocols/message-sets.ts";
import { shapeError } from "../../../server/shape.ts";
import { encodedBytes } from "../../../protocols/codec.ts";
import { BUILT_IN } from "../../../protocols/registry.ts";

const utf8 = (s: string): number => new TextEncoder().encode(s).length;

describe("payloads", () => {
  it("--fixed gives the article's exact messages or the set's example, as separate objects", () => {
    for (const p of PAYLOAD_NAMES) {
      const messages = makeMessages(p, { count: 3, seed: 1, fixed: true });
      for (const m of messages) expect(m).toEqual(EXAMPLE_MESSAGES[p]);
      expect(messages[0]).not.toBe(messages[1]);
    }
    const [a, b] = makeMessages("chat", { count: 2, seed: 1, fixed: true }) as ChatMessage[];
    expect(a!.reactions).not.toBe(b!.reactions);
  });

  it("the same seed gives the same messages, and so the same bytes", () => {
    for (const p of PAYLOAD_NAMES) {
      const a = makeMessages(p, { count: 200, seed: 42, fixed: false });
      const b = makeMessages(p, { count: 200, seed: 42, fixed: false });
      expect(a).toEqual(b);
      const codec = BUILT_IN.codecs.find((c) => c.name === "custom-binary")!.forPayload(p);
      expect(a.map((m) => Array.from(codec.encode(m) as Uint8Array))).toEqual(
        b.map((m) => Array.from(codec.encode(m) as Uint8Array)),
      );
    }
  });

  it("any part of a seed's sequence is made on its own, and is what the whole sequence holds there", () => {
    for (const p of PAYLOAD_NAMES) {
      const whole = makeMessages(p, { count: 10_000, seed: 9, fixed: false });
      // Across a block's edge (every 4,096 messages) and from the very start.
      for (const [start, count] of [
        [0, 5],
        [4_090, 12],
        [8_000, 2_000],
      ] as const) {
        expect(makeMessages(p, { count, seed: 9, fixed: false, start }), `${p} from ${start}`).toEqual(
          whole.slice(start, start + count),
        );
      }
    }
  });

  it("a different seed gives different messages, and every message in a loop differs", () => {
    const a = makeMessages("medium", { count: 1000, seed: 1, fixed: false });
    const b = makeMessages("medium", { count: 1000, seed: 2, fixed: false });
    expect(a).not.toEqual(b);
    expect(new Set(a.map((m) => JSON.stringify(m))).size).toBe(1000);
  });

  it("varied messages keep the article's shape, string byte lengths and every codec's size", () => {
    for (const p of ARTICLE_PAYLOADS) {
      const article = ARTICLE_MESSAGES[p] as unknown as Record<string, unknown>;
      const messages = makeMessages(p, { count: 500, seed: 9, fixed: false });
      for (const m of messages) {
        const r = m as unknown as Record<string, unknown>;
        expect(Object.keys(r)).toEqual(Object.keys(article));
        for (const [k, v] of Object.entries(article)) {
          if (typeof v === "string") expect(utf8(r[k] as string)).toBe(utf8(v));
          else expect(typeof r[k]).toBe("number");
        }
      }
      for (const codec of BUILT_IN.codecs) {
        const pc = codec.forPayload(p);
        const articleSize = encodedBytes(pc.encode(ARTICLE_MESSAGES[p]));
        for (const m of messages) expect(encodedBytes(pc.encode(m)), `${codec.name} ${p}`).toBe(articleSize);
      }
    }
  });

  it("varied messages include non-ASCII text, emoji included", () => {
    const text = makeMessages("large", { count: 100, seed: 3, fixed: false })
      .map((m) => ("text2" in m ? m.text2 : ""))
      .join("");
    expect(/[^\x00-\x7f]/.test(text)).toBe(true);
    expect(/[\u{1F300}-\u{1FAFF}]/u.test(text)).toBe(true);
  });

  it("randomString never needs JSON escaping and hits the byte length exactly", () => {
    const rng = createRng(5);
    for (let i = 0; i < 500; i++) {
      const bytes = 1 + Math.floor(rng() * 60);
      const s = randomString(rng, bytes, "mixed");
      expect(utf8(s)).toBe(bytes);
      expect(JSON.stringify(s)).toBe(`"${s}"`);
      expect(s.isWellFormed()).toBe(true);
    }
  });
});

describe("message sets", () => {
  const sample = <T>(p: string, count = 2000): T[] => makeMessages(p, { count, seed: 3, fixed: false }) as T[];

  it("every generated message has its set's shape", () => {
    for (const p of MESSAGE_SETS) for (const m of sample(p, 500)) expect(shapeError(p, m), p).toBeUndefined();
  });

  it("chat: text from a word to a paragraph, in several scripts and with emoji; optional fields and reactions vary", () => {
    const chats = sample<ChatMessage>("chat");
    const lengths = chats.map((m) => m.text.length);
    expect(Math.min(...lengths)).toBeLessThan(10);
    expect(Math.max(...lengths)).toBeGreaterThan(200);
    const text = chats.map((m) => m.text).join(" ");
    for (const script of [
      /\p{Script=Cyrillic}/u,
      /\p{Script=Han}/u,
      /\p{Script=Arabic}/u,
      /\p{Extended_Pictographic}/u,
    ])
      expect(text).toMatch(script);
    expect(text).toContain('"');
    const share = (f: (m: ChatMessage) => boolean): number => chats.filter(f).length / chats.length;
    expect(share((m) => m.replyTo !== undefined)).toBeGreaterThan(0.1);
    expect(share((m) => m.replyTo === undefined)).toBeGreaterThan(0.5);
    expect(share((m) => m.editedAt !== undefined)).toBeGreaterThan(0.05);
    expect(share((m) => m.reactions.length === 0)).toBeGreaterThan(0.4);
    expect(share((m) => m.reactions.length > 1)).toBeGreaterThan(0.1);
    for (const m of chats) expect(m.sentAt).toBeGreaterThan(2 ** 32);
    for (const m of chats) expect("replyTo" in m && m.replyTo === undefined).toBe(false);
  });

  it("game-tick: 1 to 48 entities of full-precision doubles, every state", () => {
    const ticks = sample<GameTickMessage>("game-tick");
    const counts = ticks.map((m) => m.entities.length);
    expect(Math.min(...counts)).toBe(1);
    expect(Math.max(...counts)).toBe(48);
    const entities = ticks.flatMap((m) => m.entities);
    expect(new Set(entities.map((e) => e.state))).toEqual(new Set([0, 1, 2, 3]));
    expect(entities.some((e) => String(e.x).length > 15)).toBe(true);
    expect(entities.some((e) => e.vx === 0)).toBe(true);
  });

  it("game-tick: match, the routing key, is one of 32 matches on the server, each about as often", () => {
    const ticks = sample<GameTickMessage>("game-tick", 3200);
    const counts = new Map<number, number>();
    for (const m of ticks) {
      expect(Number.isInteger(m.match) && m.match >= 1 && m.match <= 32, String(m.match)).toBe(true);
      expect(Object.keys(m)).toEqual(["match", "tick", "entities"]);
      counts.set(m.match, (counts.get(m.match) ?? 0) + 1);
    }
    expect([...counts.keys()].sort((a, b) => a - b)).toEqual(Array.from({ length: 32 }, (_, i) => i + 1));
    // 100 expected per match; a uniform draw stays well inside 50..150.
    for (const [match, n] of counts) expect(n, `match ${match}`).toBeGreaterThan(50);
    for (const [match, n] of counts) expect(n, `match ${match}`).toBeLessThan(150);
  });

  it("game-tick: match draws from a stream of its own, so a seed's ticks and entities are what they were before match existed", () => {
    const [a, b, c] = makeMessages("game-tick", { count: 3, seed: 1, fixed: false }) as GameTickMessage[];
    // The values seed 1 gave before match was added (tick, entity count, first entity's id).
    expect([a, b, c].map((m) => [m!.tick, m!.entities.length, m!.entities[0]!.id])).toEqual([
      [6116227, 25, 73489],
      [3044503, 26, 1647],
      [8320352, 9, 29706],
    ]);
    expect([a, b, c].map((m) => m!.match)).toEqual([22, 16, 28]);
  });

  it("market: prices on each instrument's tick, bid below ask, sequence numbers and microsecond timestamps above 2^32", () => {
    const quotes = sample<MarketMessage>("market");
    expect(new Set(quotes.map((m) => m.symbol)).size).toBeGreaterThan(5);
    for (const m of quotes) {
      expect(m.bid).toBeLessThan(m.ask);
      expect(m.seq).toBeGreaterThan(2 ** 32);
      expect(m.ts).toBeGreaterThan(2 ** 32);
      expect(Number.isSafeInteger(m.ts)).toBe(true);
      expect(String(m.bid).split(".")[1]?.length ?? 0).toBeLessThanOrEqual(5);
    }
  });

  it("the article's messages are unchanged by the sets (each payload draws from its own stream)", () => {
    const before = makeMessages("large", { count: 3, seed: 1, fixed: false });
    expect(before.map((m) => encodedBytes(BUILT_IN.codecs[0]!.forPayload("large").encode(m)))).toEqual([329, 329, 329]);
    expect(ARTICLE_MESSAGES.small).toEqual({ text: "Hello World!", num: 123 });
  });
});
