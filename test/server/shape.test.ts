import { describe, expect, it } from "vitest";
import { ARTICLE_MESSAGES } from "../../protocols/messages.ts";
import { shapeError } from "../../server/shape.ts";
import { SET_EXAMPLES } from "../../protocols/message-sets.ts";

describe("shape check", () => {
  it("the shape check refuses what a decoder may accept", () => {
    expect(shapeError("small", ARTICLE_MESSAGES.small)).toBeUndefined();
    expect(shapeError("small", 1)).toBe("expected a small message object, got number");
    expect(shapeError("small", [1])).toBe("expected a small message object, got an array");
    expect(shapeError("small", { text: "a" })).toBe("field 'num' is missing");
    expect(shapeError("small", { text: "a", num: -1 })).toBe("field 'num' is not an integer 0..4294967295");
    expect(shapeError("small", { text: "a", num: 1, x: 2 })).toBe("unexpected field 'x'");
    expect(shapeError("large", { ...ARTICLE_MESSAGES.large, num2: 2 ** 31 })).toBe(
      "field 'num2' is not an integer -2147483648..2147483647",
    );
    expect(shapeError("medium", ARTICLE_MESSAGES.small)).toBe("field 'text2' is missing");
  });

  it("checks the sets' nested objects and arrays, optional fields and 53-bit integers, naming the path", () => {
    const chat = SET_EXAMPLES.chat;
    const tick = SET_EXAMPLES["game-tick"];
    expect(shapeError("chat", chat)).toBeUndefined();
    const { replyTo: _r, ...noReply } = chat;
    expect(shapeError("chat", noReply)).toBeUndefined();
    expect(shapeError("chat", { ...chat, replyTo: undefined })).toBe("field 'replyTo' is not an integer 0..4294967295");
    expect(shapeError("chat", { ...chat, reactions: {} })).toBe("field 'reactions' is not an array");
    expect(
      shapeError("chat", {
        ...chat,
        reactions: [
          { emoji: "a", count: 1 },
          { emoji: 1, count: 1 },
        ],
      }),
    ).toBe("field 'reactions[1].emoji' is not a string");
    expect(shapeError("chat", { ...chat, reactions: [{ emoji: "a", count: 1, x: 1 }] })).toBe(
      "unexpected field 'reactions[0].x'",
    );
    expect(shapeError("chat", { ...chat, reactions: [null] })).toBe("expected an object in 'reactions', got null");
    expect(shapeError("chat", { ...chat, sentAt: 2 ** 53 })).toBe(
      "field 'sentAt' is not an integer 0..9007199254740991",
    );
    expect(shapeError("game-tick", { ...tick, entities: [{ ...tick.entities[0]!, state: 4 }] })).toBe(
      "field 'entities[0].state' is not an integer 0..3",
    );
    expect(shapeError("game-tick", { ...tick, match: 2 ** 32 })).toBe("field 'match' is not an integer 0..4294967295");
    const { match: _m, ...noMatch } = tick;
    expect(shapeError("game-tick", noMatch)).toBe("field 'match' is missing");
    expect(shapeError("market", { ...SET_EXAMPLES.market, bid: "1" })).toBe("field 'bid' is not a number");
  });

  it("a user's own messages need only be an object", () => {
    expect(shapeError("orders", { anything: [1, { deep: true }] })).toBeUndefined();
    expect(shapeError("orders", [1])).toBe("expected an object (a message of orders), got an array");
  });
});
