/**
 * A layout inferred from a sample of a user's messages (custom-binary/infer.ts) and the
 * code written for it (layout-source.ts, inferred-codec.ts): what each place of a
 * whiteboard's messages becomes, every message of the sample back as it was (key order
 * too), a message outside the sample the layout cannot carry refused with its place, and
 * the decoder's rules those of every custom-binary layout.
 */
import { describe, expect, it } from "vitest";
import { DecodeError } from "../../custom-binary/errors.ts";
import { inferLayout, LayoutError, type ObjectShape, type UnionShape } from "../../custom-binary/infer.ts";
import { compiled, inferredCodec } from "../../custom-binary/inferred-codec.ts";
import { layoutSource } from "../../custom-binary/layout-source.ts";
import { whiteboard } from "../helpers/whiteboard.ts";

const roundTrip = (layout: ObjectShape | UnionShape, messages: readonly unknown[]): void => {
  for (const mode of ["copy", "views"] as const) {
    const codec = inferredCodec(layout, "board", mode);
    for (const m of messages) {
      const back = codec.decode(codec.encode(m));
      expect(JSON.stringify(back)).toBe(JSON.stringify(m));
      expect(back).toEqual(m);
    }
  }
};

describe("an inferred custom-binary layout", () => {
  it("tells a whiteboard's messages apart by t, and holds each place as narrowly as the sample allows", () => {
    const layout = inferLayout(whiteboard());
    expect(layout.kind).toBe("union");
    const union = layout as UnionShape;
    expect(union.tag).toBe("t");
    expect(union.arms.map((a) => a.tag)).toEqual(["cur", "stroke", "chat"]);
    const field = (arm: number, name: string) => union.arms[arm]!.shape.fields.find((f) => f.name === name)!;
    expect(field(0, "t").shape).toEqual({ kind: "const", value: "cur" });
    expect(field(0, "x").shape).toEqual({ kind: "float32" });
    expect(field(0, "u").shape).toEqual({ kind: "enum", values: expect.any(Array) });
    expect(field(1, "id").shape).toEqual({ kind: "uint" });
    expect(field(1, "color").shape).toEqual({ kind: "enum", values: ["#ff0000", "#00aa00", "#0000ff"] });
    expect(field(1, "pts").shape).toEqual({
      kind: "array",
      items: { kind: "tuple", items: [{ kind: "float32" }, { kind: "float32" }] },
    });
    expect(field(2, "text").shape).toEqual({ kind: "string" });
    expect(field(2, "reply")).toMatchObject({ optional: true, nullable: false });
  });

  it("compiles a layout's code once: every pair made of it (a server's connections) runs the same warm code, each with its own buffers", () => {
    const messages = whiteboard();
    const layout = inferLayout(messages);
    expect(compiled(layout, "board")).toBe(compiled(layout, "board"));
    // Another payload's name writes other code.
    expect(compiled(layout, "other")).not.toBe(compiled(layout, "board"));
    const [a, b] = [inferredCodec(layout, "board"), inferredCodec(layout, "board")];
    const stroke = messages.find((m) => m.t === "stroke")!;
    const cursor = messages.find((m) => m.t === "cur")!;
    const fromA = a.encode(stroke);
    const fromB = b.encode(cursor);
    expect(a.decode(fromA)).toEqual(stroke);
    expect(b.decode(fromB)).toEqual(cursor);
  });

  it("gives every message of the sample back as it was, key order too, and smaller than JSON", () => {
    const messages = whiteboard();
    const layout = inferLayout(messages);
    roundTrip(layout, messages);
    const codec = inferredCodec(layout, "board");
    const stroke = messages.find((m) => m.t === "stroke")!;
    expect(codec.encode(stroke).length).toBeLessThan(0.6 * JSON.stringify(stroke).length);
    const cursor = messages[0]!;
    // Header, arm, the user as an enum index, two float32s.
    expect(codec.encode(cursor).length).toBe(1 + 1 + 1 + 4 + 4);
  });

  it("carries optional, nullable, signed, float64, boolean, map and odd field names", () => {
    const scores = (i: number) => Object.fromEntries(Array.from({ length: 70 }, (_, k) => [`p${k}`, k * i]));
    const messages = [
      { "a-b": 1, "*/x": 'q"uote', n: -5, f: 0.1, ok: true, gone: null, maybe: null, scores: scores(0) },
      { "a-b": 2, "*/x": "z", n: 2 ** 40, f: -0, ok: false, gone: null, maybe: 3, scores: scores(1), extra: [1, 2, 3] },
      { "a-b": 3, "*/x": "", n: 0, f: 1e300, ok: true, gone: null, maybe: 4, scores: scores(2), extra: [] },
    ];
    const layout = inferLayout(messages) as ObjectShape;
    const shape = (name: string) => layout.fields.find((f) => f.name === name)!;
    expect(shape("n").shape).toEqual({ kind: "int" });
    expect(shape("f").shape).toEqual({ kind: "float64" });
    expect(shape("gone")).toMatchObject({ nullable: true, shape: { kind: "unseen" } });
    expect(shape("maybe")).toMatchObject({ nullable: true, shape: { kind: "uint" } });
    expect(shape("extra")).toMatchObject({ optional: true });
    expect(shape("scores").shape).toEqual({ kind: "map", values: { kind: "uint" } });
    roundTrip(layout, messages);
  });

  it("refuses, naming the place, a message outside the sample the layout cannot carry", () => {
    const layout = inferLayout(whiteboard());
    const codec = inferredCodec(layout, "board");
    const refuse = (m: unknown, place: RegExp): void => {
      expect(() => codec.encode(m)).toThrow(place);
    };
    refuse({ t: "cur", u: "user-1", x: 0.1, y: 1 }, /'\{t="cur"\}\.x': 0\.1 is not exactly a float32/);
    refuse({ t: "cur", u: "user-1", x: 1, y: 1, z: 3 }, /"z", a field the layout does not hold/);
    refuse({ t: "cur", u: "user-1", x: 1 }, /'\{t="cur"\}\.y': missing/);
    refuse({ t: "erase", u: "user-1" }, /'t': holds "erase", not one of the layout's 3 kinds: cur, stroke, chat/);
    refuse({ t: "stroke", id: 1.5, u: "a", color: "#fff", width: 1, pts: [] }, /'\{t="stroke"\}\.id'.*got 1\.5/);
    refuse({ t: "stroke", id: -0, u: "a", color: "#fff", width: 1, pts: [] }, /'\{t="stroke"\}\.id'.*got -0/);
    refuse({ t: "stroke", id: 1, u: "a", color: "#fff", width: 1, pts: [[1, 2, 3]] }, /pts\[\]'.*an array of 2/);
    // A string the sample never held where it held an enum is carried, written out.
    roundTrip(layout, [{ t: "cur", u: "someone new", x: 1, y: 2 }]);
  });

  it("decodes by custom-binary's rules: every cut-off prefix a RangeError, trailing bytes, another type, a bad index", () => {
    const layout = inferLayout(whiteboard());
    const codec = inferredCodec(layout, "board");
    const bytes = codec.encode(whiteboard().find((m) => m.t === "chat")!);
    for (let n = 0; n < bytes.length; n++) expect(() => codec.decode(bytes.subarray(0, n))).toThrow(RangeError);
    const code = (b: Uint8Array): string | undefined => {
      try {
        codec.decode(b);
      } catch (e) {
        return e instanceof DecodeError ? e.code : String(e);
      }
      return undefined;
    };
    expect(code(Uint8Array.of(...bytes, 0))).toBe("TRAILING_BYTES");
    expect(code(Uint8Array.of(0x2c, ...bytes.subarray(1)))).toBe("UNKNOWN_TYPE");
    expect(code(Uint8Array.of(bytes[0]!, 9, ...bytes.subarray(2)))).toBe("OUT_OF_RANGE");
    expect(code(Uint8Array.of(bytes[0]! ^ 0x08, ...bytes.subarray(1)))).toMatch(/ASCII_FLAG_MISSING|NOT_ASCII/);
  });

  it("takes a field for a union's tag only where it is one: a name that comes with an optional field is not", () => {
    const customers = [
      { id: 1, customer: { name: "Zoë", tier: "gold" } },
      { id: 2, customer: { name: "Li" } },
      { id: 3, customer: { name: "Ana", tier: "silver" } },
    ];
    const layout = inferLayout(customers) as ObjectShape;
    expect(layout.fields[1]!.shape).toEqual({
      kind: "object",
      fields: [
        { name: "name", shape: { kind: "string" }, optional: false, nullable: false },
        { name: "tier", shape: { kind: "string" }, optional: true, nullable: false },
      ],
    });
    roundTrip(layout, [...customers, { id: 4, customer: { name: "someone new" } }]);
    // Unnamed, but recurring with the same fields each time: a tag.
    const events = Array.from({ length: 6 }, (_, i) => (i % 2 ? { ev: "join", who: "a" } : { ev: "move", to: i }));
    expect(inferLayout(events)).toMatchObject({ kind: "union", tag: "ev" });
  });

  it("refuses a sample no layout carries, naming the place and what it holds", () => {
    expect(() => inferLayout([{ a: 1 }, { a: "x" }])).toThrow(LayoutError);
    expect(() => inferLayout([{ a: 1 }, { a: "x" }])).toThrow(/^a: holds a number in 1 of 2 and a string in 1 of 2/);
    expect(() => inferLayout([{ p: [1, "x"] }, { p: [2] }])).toThrow(/^p\[\]: holds a number/);
    expect(() => inferLayout([])).toThrow(/no messages/);
  });

  it("writes the same code typed, for a module a user keeps, with nothing a field name can break out of", () => {
    const layout = inferLayout([
      { "*/ evil(); /*": 1, 'q"': "x" },
      { "*/ evil(); /*": 2, 'q"': "y" },
    ]);
    const typed = layoutSource(layout, "odd", { typed: true });
    expect(typed).toContain("function encode(w: BinaryWriter, message: unknown): Uint8Array {");
    // In the comments the name cannot end one; in the code it is a string literal.
    expect(typed).toContain("*\\/ evil(); /*");
    expect(typed).toContain('m["*/ evil(); /*"]');
    roundTrip(layout, [{ "*/ evil(); /*": 7, 'q"': "z" }]);
  });
});
