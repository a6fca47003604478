/**
 * The bebop codec (protocols/bebop.ts). The checks every codec gets
 * (test/helpers/codec-checks.ts): every built-in payload's messages
 * round-trip exactly into plain objects, encoded bytes outlive later
 * encodes (the runtime writes into one shared buffer), chat's optional
 * fields stay absent, and a frame cut short or too long throws. Here: the
 * small message's bytes are the ones Bebop's wire format gives, only
 * present optional fields are written, game-tick's enum is one byte, and
 * every special double survives.
 */
import { describe, expect, it } from "vitest";
import { describeMismatch } from "../../client/harness/verify.ts";
import { bebop } from "../../protocols/bebop.ts";
import type { ChatMessage } from "../../protocols/message-sets.ts";
import { checkCodecBasics, hex } from "../helpers/codec-checks.ts";

describe("bebop", () => {
  checkCodecBasics(bebop, {
    truncated: { byteTooMany: Error },
    userMessages: { reason: /schema/, error: /no schema/ },
  });

  it("writes the article's small message as Bebop's struct layout gives it", () => {
    const bytes = bebop.forPayload("small").encode({ text: "Hello World!", num: 123 }) as Uint8Array;
    // struct Small: the fields back to back, no tags, no length in front.
    //   0c000000                  text: byte length 12, uint32 little-endian
    //   48656c6c6f20576f726c6421  "Hello World!" in UTF-8
    //   7b000000                  num: 123, uint32 little-endian
    expect(hex(bytes)).toBe("0c000000" + "48656c6c6f20576f726c6421" + "7b000000");
  });

  it("chat (a Bebop message): only present optional fields are written", () => {
    const pc = bebop.forPayload("chat");
    const base: ChatMessage = { id: 1, room: 2, user: "u", text: "t", sentAt: 2 ** 40, reactions: [] };
    const full: ChatMessage = { ...base, replyTo: 4294967295, editedAt: 2 ** 53 - 1 };
    // A present field costs its index byte and its value: replyTo 1 + 4, editedAt 1 + 8.
    const size = (m: ChatMessage): number => (pc.encode(m) as Uint8Array).length;
    expect(size(full) - size(base)).toBe(14);
  });

  it("game-tick's state enum is one byte, decoded as the message's number", () => {
    const pc = bebop.forPayload("game-tick");
    const one = { match: 1, tick: 1, entities: [{ id: 1, state: 2, x: 0, y: 0, z: 0, vx: 0, vy: 0, vz: 0 }] };
    // match 4 + tick 4 + entity count 4 + (id 4 + state 1 + six doubles 48).
    expect((pc.encode(one) as Uint8Array).length).toBe(65);
    expect(describeMismatch(one, pc.decode(pc.encode(one)))).toBeUndefined();
  });

  it("carries every special double exactly: -0, NaN and both infinities (float64 on the wire)", () => {
    const pc = bebop.forPayload("medium");
    for (const decimal of [-0, NaN, Infinity, -Infinity]) {
      const m = { text: "a", text2: "b", num: 1, decimal };
      expect(describeMismatch(m, pc.decode(pc.encode(m)))).toBeUndefined();
    }
  });
});
