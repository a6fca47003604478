/**
 * Each codec's writer and reader across a change, held to what the format's own documentation
 * promises (docs/schema-evolution.md quotes both):
 * - Protobuf, "Updating A Message Type" (https://protobuf.dev/programming-guides/proto3/#updating):
 *   old code ignores a field it does not know; new code reads a field the old did not write as its
 *   default; names are not on the wire, so a field renamed with its number kept reads the same.
 * - Avro, "Schema Resolution" (https://avro.apache.org/docs/1.11.1/specification/#schema-resolution):
 *   a writer's field the reader lacks is ignored; a reader's field the writer lacks takes its
 *   default; a reader's alias matches the writer's old name; int and long promote to float and
 *   double, but a double is never read as a long.
 */

import { describe, expect, it } from "vitest";
import { inferLayout } from "../../custom-binary/infer.ts";
import { evolvingPair, type EvolvingPair, type PayloadVersion } from "../../protocols/evolution.ts";
import type { Message } from "../../protocols/messages.ts";
import { BUILT_IN } from "../../protocols/registry.ts";

const codec = (name: string) => BUILT_IN.codecs.find((c) => c.name === name)!;

/** A version named `name` of these messages, its field numbers (for protobuf) as given. */
const version = (name: string, messages: Message[], numbers?: [string, number][]): PayloadVersion => ({
  name,
  messages,
  layout: { layout: inferLayout(messages), ...(numbers ? { fieldNumbers: new Map(numbers) } : {}) },
});

const pairOf = (
  name: string,
  w: PayloadVersion,
  r: PayloadVersion,
  renamed?: { writer: string; reader: string },
): EvolvingPair => {
  const made = evolvingPair(codec(name), "orders", w, r, renamed);
  if (!("pair" in made)) throw new Error(JSON.stringify(made));
  return made.pair;
};
const across = (pair: EvolvingPair, m: Message): unknown => pair.decode(pair.encode(m));

const v1 = [
  { id: 7, item: "tea" },
  { id: 8, item: "cake" },
] as Message[];
const v2 = [
  { id: 7, item: "tea", qty: 3 },
  { id: 8, item: "cake", qty: 1 },
] as Message[];
const old = version("orders@old", v1, [
  ["id", 1],
  ["item", 2],
]);
const added = version("orders@new", v2, [
  ["id", 1],
  ["item", 2],
  ["qty", 3],
]);

describe("protobuf keeps Protobuf's promises (field numbers kept)", () => {
  it("an old reader ignores the new field; a new reader reads the field the old writer did not write as its default", () => {
    expect(across(pairOf("protobuf", added, old), v2[0]!)).toEqual({ id: 7, item: "tea" });
    expect(across(pairOf("protobuf", old, added), v1[0]!)).toEqual({ id: 7, item: "tea", qty: 0 });
  });

  it("a renamed field with its number kept reads the same: names are not on the wire", () => {
    const renamed = version("orders@new", [{ id: 7, product: "tea" }] as Message[], [
      ["id", 1],
      ["product", 2],
    ]);
    expect(across(pairOf("protobuf", old, renamed), v1[0]!)).toEqual({ id: 7, product: "tea" });
  });
});

describe("avro keeps Avro's schema resolution", () => {
  it("ignores a writer's field the reader lacks, and gives a reader's field the writer lacks its default", () => {
    expect(across(pairOf("avro", added, old), v2[0]!)).toEqual({ id: 7, item: "tea" });
    expect(across(pairOf("avro", old, added), v1[0]!)).toEqual({ id: 7, item: "tea", qty: 0 });
  });

  it("matches a reader's alias to the writer's old name; without one, the reader's field takes its default", () => {
    const renamed = version("orders@new", [{ id: 7, product: "tea" }] as Message[]);
    expect(across(pairOf("avro", old, renamed, { writer: "item", reader: "product" }), v1[0]!)).toEqual({
      id: 7,
      product: "tea",
    });
    expect(across(pairOf("avro", old, renamed), v1[0]!)).toEqual({ id: 7, product: "" });
  });

  it("promotes a long to a double, and refuses to read a double as a long, before any message", () => {
    const doubles = version("orders@new", [{ id: 7.1, item: "tea" }] as Message[]);
    expect(across(pairOf("avro", old, doubles), v1[0]!)).toEqual({ id: 7, item: "tea" });
    const refused = evolvingPair(codec("avro"), "orders", doubles, old);
    expect(refused).toMatchObject({ refused: expect.stringMatching(/double/) });
  });
});

describe("the other codecs", () => {
  it("a schemaless codec's reader gets what the writer wrote, whatever the version", () => {
    for (const name of ["json", "msgpack", "cbor"]) expect(across(pairOf(name, added, old), v2[0]!)).toEqual(v2[0]);
  });

  it("custom-binary's reader of another layout refuses the frame (its layouts are fixed: docs/custom-binary.md)", () => {
    const pair = pairOf("custom-binary", added, old);
    expect(() => across(pair, v2[0]!)).toThrow(/custom-binary/);
  });

  it("a codec whose code a compiler makes runs on each version's compiled code, and without it is not run", () => {
    const made = { codec: { encode: () => new Uint8Array([1]), decode: () => ({ id: 7 }) } };
    for (const name of ["pbf", "protobuf-es", "bebop", "flatbuffers", "capnp"]) {
      const pair = evolvingPair(codec(name), "orders", added, old, undefined, () => made);
      expect("pair" in pair && pair.pair.decode(pair.pair.encode(v2[0]!))).toEqual({ id: 7 });
      expect(evolvingPair(codec(name), "orders", added, old)).toMatchObject({
        notRun: expect.stringContaining("code"),
      });
      expect(
        evolvingPair(codec(name), "orders", added, old, undefined, (v) => (v === old ? { notRun: "no flatc" } : made)),
      ).toEqual({ notRun: "no flatc" });
    }
  });

  it("a codec that does not carry the payload is not run, with its own reason", () => {
    expect(evolvingPair(codec("msgpackr-records"), "orders", added, old)).toMatchObject({
      notRun: expect.stringContaining("record structures"),
    });
  });
});
