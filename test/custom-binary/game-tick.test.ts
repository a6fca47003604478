import { describe, expect, it } from "vitest";
import { createCustomBinary, EncodeError, type GameTickMessage } from "../../custom-binary/index.ts";

const cb = createCustomBinary("copy", "game-tick");
const entity = { id: 7, state: 2, x: 1.25, y: -2.5, z: 3.75, vx: 0.5, vy: -0.5, vz: 4 };

describe("custom-binary game-tick layout", () => {
  it("leaves out each +0 double (8 bytes saved per zero) and writes -0 in full, so both come back exactly", () => {
    const full = cb.encode({ tick: 1, entities: [entity] }).length;
    for (const key of ["x", "y", "z", "vx", "vy", "vz"] as const) {
      const zero: GameTickMessage = { tick: 1, entities: [{ ...entity, [key]: 0 }] };
      expect(cb.encode(zero).length, key).toBe(full - 8);
      expect(cb.decode(cb.encode(zero))).toEqual(zero);
      const minusZero: GameTickMessage = { tick: 1, entities: [{ ...entity, [key]: -0 }] };
      expect(cb.encode(minusZero).length, key).toBe(full);
      expect(Object.is((cb.decode(cb.encode(minusZero)) as GameTickMessage).entities[0]![key], -0), key).toBe(true);
    }
    const still = { id: 1, state: 0, x: 0, y: 0, z: 0, vx: 0, vy: 0, vz: 0 };
    expect(Array.from(cb.encode({ tick: 0, entities: [still] }))).toEqual([0x1d, 0x00, 0x01, 0x01, 0xfc]);
  });

  it("refuses what the layout cannot carry, naming the field", () => {
    expect(() => cb.encode({ tick: 1, entities: [{ ...entity, state: 4 }] })).toThrow(/'entities\.state'.*0\.\.3/);
    expect(() => cb.encode({ tick: 1, entities: [{ ...entity, state: 1.5 }] })).toThrow(EncodeError);
    expect(() => cb.encode({ tick: 1, entities: [{ ...entity, vz: "1" as unknown as number }] })).toThrow(/'entities\.vz'.*number/);
    expect(() => cb.encode({ tick: -1, entities: [] })).toThrow(/'tick'/);
    expect(() => cb.encode({ tick: 1, entities: "x" as unknown as [] })).toThrow(/'entities'.*array/);
  });

  it("a varied tick of 48 entities decodes into plain objects equal to what was sent", () => {
    const m: GameTickMessage = { tick: 99, entities: Array.from({ length: 48 }, (_, i) => ({ ...entity, id: i, vx: i % 2 === 0 ? 0 : i / 3 })) };
    const decoded = cb.decode(cb.encode(m)) as GameTickMessage;
    expect(decoded).toEqual(m);
    expect(Object.getPrototypeOf(decoded.entities[0])).toBe(Object.prototype);
  });
});
