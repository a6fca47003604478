import { describe, expect, it } from "vitest";
import { makeMessages, randomString, createRng } from "../../../bench/harness/generator.ts";
import { ARTICLE_MESSAGES, PAYLOAD_NAMES } from "../../../protocols/messages.ts";
import { encodedBytes } from "../../../protocols/codec.ts";
import { CODECS } from "../../../protocols/registry.ts";

const utf8 = (s: string): number => new TextEncoder().encode(s).length;

describe("payloads", () => {
  it("--fixed gives the article's exact messages, as separate objects", () => {
    for (const p of PAYLOAD_NAMES) {
      const messages = makeMessages(p, { count: 3, seed: 1, fixed: true });
      for (const m of messages) expect(m).toEqual(ARTICLE_MESSAGES[p]);
      expect(messages[0]).not.toBe(messages[1]);
    }
  });

  it("the same seed gives the same messages, and so the same bytes", () => {
    for (const p of PAYLOAD_NAMES) {
      const a = makeMessages(p, { count: 200, seed: 42, fixed: false });
      const b = makeMessages(p, { count: 200, seed: 42, fixed: false });
      expect(a).toEqual(b);
      const codec = CODECS.find((c) => c.name === "custom-binary")!.forPayload(p);
      expect(a.map((m) => Array.from(codec.encode(m) as Uint8Array))).toEqual(b.map((m) => Array.from(codec.encode(m) as Uint8Array)));
    }
  });

  it("a different seed gives different messages, and every message in a loop differs", () => {
    const a = makeMessages("medium", { count: 1000, seed: 1, fixed: false });
    const b = makeMessages("medium", { count: 1000, seed: 2, fixed: false });
    expect(a).not.toEqual(b);
    expect(new Set(a.map((m) => JSON.stringify(m))).size).toBe(1000);
  });

  it("varied messages keep the article's shape, string byte lengths and every codec's size", () => {
    for (const p of PAYLOAD_NAMES) {
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
      for (const codec of CODECS) {
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
