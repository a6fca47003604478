import { describe, expect, it } from "vitest";
import { createCustomBinary, type ChatMessage } from "../../custom-binary/index.ts";

const cb = createCustomBinary("copy", "chat");
const base: ChatMessage = { id: 5, room: 2, user: "bjørn", text: "hei 👋🏽", sentAt: 1763900000000, reactions: [] };

describe("custom-binary chat layout", () => {
  it("carries each combination of the optional fields, and an absent one stays absent", () => {
    for (const extra of [{}, { replyTo: 4 }, { editedAt: 1763900000500 }, { replyTo: 0, editedAt: 0 }]) {
      const m = { ...base, ...extra };
      const decoded = cb.decode(cb.encode(m));
      expect(decoded).toEqual(m);
      expect(Object.keys(decoded).sort()).toEqual(Object.keys(m).sort());
    }
    expect(cb.encode({ ...base, replyTo: 4 })[1]).toBe(0x01);
    expect(cb.encode({ ...base, editedAt: 1 })[1]).toBe(0x02);
  });

  it("sets the ASCII flag from every string, reactions' emoji included", () => {
    const ascii = { ...base, user: "ana", text: "ok" };
    expect(cb.encode(ascii)[0]).toBe(0x2c);
    expect(cb.encode({ ...ascii, reactions: [{ emoji: "🎉", count: 1 }] })[0]).toBe(0x24);
    expect(cb.encode({ ...ascii, reactions: [{ emoji: ":tada:", count: 1 }] })[0]).toBe(0x2c);
  });

  it("refuses what the layout cannot carry, naming the field", () => {
    expect(() => cb.encode({ ...base, sentAt: 2 ** 53 })).toThrow(/'sentAt'.*0\.\.9007199254740991/);
    expect(() => cb.encode({ ...base, replyTo: -1 })).toThrow(/'replyTo'/);
    expect(() => cb.encode({ ...base, reactions: [{ emoji: "x", count: 2 ** 32 }] })).toThrow(/'reactions\.count'/);
    expect(() => cb.encode({ ...base, reactions: null as unknown as [] })).toThrow(/'reactions'.*array/);
  });
});
