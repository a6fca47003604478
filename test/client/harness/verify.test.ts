import { describe, expect, it } from "vitest";
import { describeMismatch, sameMessage } from "../../../client/harness/verify.ts";

describe("message equality", () => {
  const m = { text: "a", text2: "b", num: 1, decimal: 0.5 };
  it("agrees with describeMismatch on equal and unequal messages", () => {
    const cases: [unknown, boolean][] = [
      [{ ...m }, true],
      [{ ...m, decimal: 0.5000000000000001 }, false],
      [{ ...m, num: "1" }, false],
      [{ text: "a", text2: "b", num: 1 }, false],
      [{ ...m, extra: 1 }, false],
      [null, false],
      ["a", false],
    ];
    for (const [actual, same] of cases) {
      expect(sameMessage(m, actual)).toBe(same);
      expect(describeMismatch(m, actual) === undefined).toBe(same);
    }
  });
  it("is bit-exact: -0 is not 0, NaN equals NaN", () => {
    expect(sameMessage({ ...m, decimal: -0 }, { ...m, decimal: 0 })).toBe(false);
    expect(sameMessage({ ...m, decimal: 0 }, { ...m, decimal: -0 })).toBe(false);
    expect(sameMessage({ ...m, decimal: NaN }, { ...m, decimal: NaN })).toBe(true);
    expect(describeMismatch({ ...m, decimal: -0 }, { ...m, decimal: 0 })).toBe("field 'decimal': expected -0, got 0");
  });
});
