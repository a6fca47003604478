/**
 * The Bebop, FlatBuffers and Cap'n Proto schemas evolve mode writes for a version: a changed
 * version keeps what its base said, as each format's author would edit the schema, and what a
 * format cannot say is refused with the place.
 */

import { describe, expect, it } from "vitest";
import { inferLayout } from "../../custom-binary/infer.ts";
import { bebopSchemaOf, capnpSchemaOf, flatbuffersSchemaOf } from "../../protocols/evolution-schemas.ts";
import type { Message } from "../../protocols/messages.ts";

const layoutOf = (messages: readonly unknown[]) => inferLayout(messages as Message[]);
const old = {
  layout: layoutOf([
    { id: 7, item: "tea", note: "hot" },
    { id: 8, item: "cake", note: "cold" },
  ]),
  numbers: new Map([
    ["id", 1],
    ["item", 2],
    ["note", 3],
  ]),
};
const removed = {
  layout: layoutOf([
    { id: 7, note: "hot" },
    { id: 8, note: "cold" },
  ]),
  numbers: new Map([
    ["id", 1],
    ["note", 3],
  ]),
};
const optional = {
  layout: layoutOf([
    { id: 7, item: "tea", note: "hot" },
    { id: 8, item: "cake" },
  ]),
  numbers: old.numbers,
};

describe("a field removed stays in the schema, unused", () => {
  it("FlatBuffers: deprecated, with its id", () => {
    expect(flatbuffersSchemaOf(removed, "E1", "e1", old).text).toMatch(
      /item:string \(id: 1, deprecated\);\n {2}note:string \(id: 2\);/,
    );
  });

  it("Bebop: deprecated, with its index", () => {
    expect(bebopSchemaOf(removed, "E1", old).text).toMatch(
      /@deprecated\("[^"]+"\)\n {2}2 -> string item;\n {2}3 -> string note;/,
    );
  });

  it("Cap'n Proto: kept with its ordinal, so the fields after it keep theirs", () => {
    expect(capnpSchemaOf(removed, "E1", "e1", old).text).toMatch(/item @1 :Text;\n {2}note @2 :Text;/);
  });
});

describe("a field some messages leave out", () => {
  it("FlatBuffers: an optional scalar, = null; a string: absent", () => {
    const v = { layout: layoutOf([{ id: 7, n: 1 }, { id: 8 }]) };
    expect(flatbuffersSchemaOf(v, "E0", "e0").text).toContain("n:ulong = null (id: 1);");
  });

  it("Cap'n Proto: a union of none (the default, first) and value; one that becomes optional keeps its ordinal as value, none after the base's last", () => {
    expect(capnpSchemaOf(optional, "E0", "e0").text).toMatch(/note :union \{\n {4}none @2 :Void;\n {4}value @3 :Text;/);
    expect(capnpSchemaOf(optional, "E1", "e1", old).text).toMatch(
      /note :union \{\n {4}value @2 :Text;\n {4}none @3 :Void;/,
    );
  });
});

describe("what these schemas cannot say is refused, with the place", () => {
  it("a union of message kinds, a name the generated code would rewrite, null", () => {
    const union = {
      layout: layoutOf([
        { type: "a", x: 1 },
        { type: "b", y: "z" },
      ]),
    };
    expect(() => capnpSchemaOf(union, "E0", "e0")).toThrow(/union of message kinds/);
    expect(() => bebopSchemaOf({ layout: layoutOf([{ user_id: 1 }]) }, "E0")).toThrow(/user_id: a name/);
    expect(() => flatbuffersSchemaOf({ layout: layoutOf([{ a: null }, { a: 1 }]) }, "E0", "e0")).toThrow(/^a: null/);
  });
});
