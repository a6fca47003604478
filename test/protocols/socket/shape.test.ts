import { describe, expect, it } from "vitest";
import { ARTICLE_MESSAGES } from "../../../protocols/messages.ts";
import { shapeError } from "../../../protocols/socket/shape.ts";

describe("shape check", () => {
  it("the shape check refuses what a decoder may accept", () => {
    expect(shapeError("small", ARTICLE_MESSAGES.small)).toBeUndefined();
    expect(shapeError("small", 1)).toBe("expected a small message object, got number");
    expect(shapeError("small", [1])).toBe("expected a small message object, got an array");
    expect(shapeError("small", { text: "a" })).toBe("field 'num' is missing");
    expect(shapeError("small", { text: "a", num: -1 })).toBe("field 'num' is not an integer 0..4294967295");
    expect(shapeError("small", { text: "a", num: 1, x: 2 })).toBe("unexpected field 'x'");
    expect(shapeError("large", { ...ARTICLE_MESSAGES.large, num2: 2 ** 31 })).toBe("field 'num2' is not an integer -2147483648..2147483647");
    expect(shapeError("medium", ARTICLE_MESSAGES.small)).toBe("field 'text2' is missing");
  });
});
