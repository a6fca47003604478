import { describe, expect, it } from "vitest";
import { createCustomBinary, DecodeError, EncodeError, type GameTickMessage } from "../../custom-binary/index.ts";

const cb = createCustomBinary("copy", "game-tick");
const entity = { id: 7, state: 2, x: 1.25, y: -2.5, z: 3.75, vx: 0.5, vy: -0.5, vz: 4 };

describe("custom-binary game-tick layout", () => {
  it("leaves out each +0 double (8 bytes saved per zero) and writes -0 in full, so both come back exactly", () => {
    const full = cb.encode({ match: 1, tick: 1, entities: [entity] }).length;
    for (const key of ["x", "y", "z", "vx", "vy", "vz"] as const) {
      const zero: GameTickMessage = { match: 1, tick: 1, entities: [{ ...entity, [key]: 0 }] };
      expect(cb.encode(zero).length, key).toBe(full - 8);
      expect(cb.decode(cb.encode(zero))).toEqual(zero);
      const minusZero: GameTickMessage = { match: 1, tick: 1, entities: [{ ...entity, [key]: -0 }] };
      expect(cb.encode(minusZero).length, key).toBe(full);
      expect(Object.is((cb.decode(cb.encode(minusZero)) as GameTickMessage).entities[0]![key], -0), key).toBe(true);
    }
    const still = { id: 1, state: 0, x: 0, y: 0, z: 0, vx: 0, vy: 0, vz: 0 };
    expect(Array.from(cb.encode({ match: 0, tick: 0, entities: [still] }))).toEqual([
      0x2d, 0x00, 0x00, 0x01, 0x01, 0xfc,
    ]);
  });

  it("writes match as a varuint32 right after the header, before tick, and reads it back first", () => {
    const m: GameTickMessage = { match: 300, tick: 5, entities: [] };
    // header (version 2, ASCII, type 5), match 300 (ac 02), tick 5, no entities
    expect(Array.from(cb.encode(m))).toEqual([0x2d, 0xac, 0x02, 0x05, 0x00]);
    const decoded = cb.decode(cb.encode(m));
    expect(decoded).toEqual(m);
    expect(Object.keys(decoded)).toEqual(["match", "tick", "entities"]);
    for (const match of [0, 1, 32, 127, 128, 2 ** 28, 4294967295]) {
      expect(
        (cb.decode(cb.encode({ match, tick: 9, entities: [entity] })) as GameTickMessage).match,
        String(match),
      ).toBe(match);
      expect(cb.readKey(cb.encode({ match, tick: 9, entities: [entity] })), String(match)).toBe(match);
    }
  });

  it("match is read by the decoder's varint rules: an overlong or oversized one is refused at its offset", () => {
    const e = (bytes: number[]): DecodeError => {
      try {
        cb.decode(Uint8Array.from(bytes));
      } catch (err) {
        if (err instanceof DecodeError) return err;
      }
      throw new Error("expected DecodeError");
    };
    expect([e([0x2d, 0x80, 0x00, 0x00, 0x00]).code, e([0x2d, 0x80, 0x00, 0x00, 0x00]).offset]).toEqual([
      "VARINT_OVERLONG",
      2,
    ]);
    expect([
      e([0x2d, 0xff, 0xff, 0xff, 0xff, 0x1f, 0x00, 0x00]).code,
      e([0x2d, 0xff, 0xff, 0xff, 0xff, 0x1f, 0x00, 0x00]).offset,
    ]).toEqual(["VARINT_TOO_BIG", 5]);
    // Cut off after match: tick and the entity count are missing.
    expect(() => cb.decode(Uint8Array.from([0x2d, 0x0c]))).toThrow(RangeError);
    expect(cb.readKey(Uint8Array.from([0x2d, 0x0c]))).toBe(12);
  });

  it("refuses what the layout cannot carry, naming the field", () => {
    expect(() => cb.encode({ match: 1, tick: 1, entities: [{ ...entity, state: 4 }] })).toThrow(
      /'entities\.state'.*0\.\.3/,
    );
    expect(() => cb.encode({ match: 1, tick: 1, entities: [{ ...entity, state: 1.5 }] })).toThrow(EncodeError);
    expect(() => cb.encode({ match: 1, tick: 1, entities: [{ ...entity, vz: "1" as unknown as number }] })).toThrow(
      /'entities\.vz'.*number/,
    );
    expect(() => cb.encode({ match: 1, tick: -1, entities: [] })).toThrow(/'tick'/);
    expect(() => cb.encode({ match: -1, tick: 1, entities: [] })).toThrow(/'match'/);
    expect(() => cb.encode({ match: 2 ** 32, tick: 1, entities: [] })).toThrow(/'match'.*0\.\.4294967295/);
    expect(() => cb.encode({ match: 1.5, tick: 1, entities: [] })).toThrow(/'match'/);
    expect(() => cb.encode({ tick: 1, entities: [] } as unknown as GameTickMessage)).toThrow(/'match'/);
    expect(() => cb.encode({ match: 1, tick: 1, entities: "x" as unknown as [] })).toThrow(/'entities'.*array/);
  });

  it("a varied tick of 48 entities decodes into plain objects equal to what was sent", () => {
    const m: GameTickMessage = {
      match: 17,
      tick: 99,
      entities: Array.from({ length: 48 }, (_, i) => ({ ...entity, id: i, vx: i % 2 === 0 ? 0 : i / 3 })),
    };
    const decoded = cb.decode(cb.encode(m)) as GameTickMessage;
    expect(decoded).toEqual(m);
    expect(Object.getPrototypeOf(decoded.entities[0])).toBe(Object.prototype);
  });
});
