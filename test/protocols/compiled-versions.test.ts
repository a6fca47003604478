/**
 * The codecs whose code a compiler generates from a schema, across a change: each version's schema
 * written from its layout, compiled by the codec's own compiler (the command line's:
 * bench/cli/schema-compilers.ts), and held to what the format's documentation promises
 * (docs/schema-evolution.md links each):
 * - Protobuf (pbf, protobuf-es), "Updating A Message Type": old code ignores a field it does not
 *   know; new code reads one the old did not write as its default; a renamed field with its number
 *   kept reads the same.
 * - FlatBuffers, "Schema Evolution": a field added with a new id is ignored by old code and read
 *   as its default by new; a field is deprecated, never deleted; names are not in the binary.
 * - Cap'n Proto, "Evolving your protocol": new fields take new ordinals, old code ignores them and
 *   new code reads their default; a field is never removed; names are not on the wire.
 * - Bebop, messages: each field written with its index, only when set, so a field not written is
 *   absent, and one whose index a reader does not know is not read (the reader stops there: a
 *   new field goes last); a removed field is `deprecated`.
 */

import { describe, expect, it } from "vitest";
import { inferLayout } from "../../custom-binary/infer.ts";
import {
  COMPILED_CODECS,
  type CompiledCodec,
  compileVersions,
  type VersionRequest,
} from "../../protocols/compiled-versions.ts";
import type { VersionCodec } from "../../protocols/evolution-schemas.ts";
import type { Message } from "../../protocols/messages.ts";
import { schemaCompilers } from "../../bench/cli/schema-compilers.ts";
import { skipWithoutCompiler } from "../helpers/compilers.ts";

type Order = { id: number; item: string; note: string };
const v1: Order[] = [
  { id: 7, item: "tea", note: "hot" },
  { id: 8, item: "cake", note: "" },
];
const request = (messages: readonly unknown[], numbers: [string, number][], base?: VersionRequest): VersionRequest => ({
  layout: inferLayout(messages as Message[]),
  numbers: new Map(numbers),
  ...(base ? { base } : {}),
});
const old = request(v1, [
  ["id", 1],
  ["item", 2],
  ["note", 3],
]);
const added = request(
  v1.map((m) => ({ ...m, qty: 3 })),
  [
    ["id", 1],
    ["item", 2],
    ["note", 3],
    ["qty", 4],
  ],
  old,
);
// The middle field gone: kept in the schema where the format says so.
const removed = request(
  v1.map(({ id, note }) => ({ id, note })),
  [
    ["id", 1],
    ["note", 3],
  ],
  old,
);
const renamed = request(
  v1.map(({ id, item, note }) => ({ id, product: item, note })),
  [
    ["id", 1],
    ["product", 2],
    ["note", 3],
  ],
  old,
);

// The last field left out of some messages: it becomes optional (Cap'n Proto: wrapped in a union that keeps its ordinal).
const optional = request(
  [
    { id: 7, item: "tea", note: "hot" },
    { id: 8, item: "cake" },
  ],
  [
    ["id", 1],
    ["item", 2],
    ["note", 3],
  ],
  old,
);

const compilers = schemaCompilers();
// The codecs whose compiler is here (all of them under CI=true, which fails rather than skips).
const codecs = (Object.keys(COMPILED_CODECS) as CompiledCodec[]).filter(
  (c) => !skipWithoutCompiler("compiled-versions.test.ts", c),
);

const compiledOnce = new Map<CompiledCodec, Promise<Map<VersionRequest, VersionCodec>>>();

/** Each version's codec, made by `codec`'s compiler (once for all the tests of a codec). */
function versions(codec: CompiledCodec): Promise<Map<VersionRequest, VersionCodec>> {
  let made = compiledOnce.get(codec);
  if (made === undefined) {
    made = compileVersions(codec, [old, added, removed, renamed, optional], compilers[codec]).then((all) => {
      const out = new Map<VersionRequest, VersionCodec>();
      for (const [v, m] of all) {
        if ("notRun" in m) throw new Error(`${codec}: ${m.notRun}`);
        out.set(v, m.codec);
      }
      return out;
    });
    compiledOnce.set(codec, made);
  }
  return made;
}

const across = (w: VersionCodec, r: VersionCodec, m: unknown): unknown => r.decode(w.encode(m));

describe.each(codecs)("%s across a change, by its own compiler", (name) => {
  it("an old reader ignores a field added; a new reader reads it, not written, as absent or its default", async () => {
    const v = await versions(name);
    expect(across(v.get(added)!, v.get(old)!, { id: 7, item: "tea", note: "hot", qty: 3 })).toEqual({
      id: 7,
      item: "tea",
      note: "hot",
    });
    const got = across(v.get(old)!, v.get(added)!, { id: 7, item: "tea", note: "hot" }) as Record<string, unknown>;
    expect({ ...got, qty: got.qty ?? 0 }).toEqual({ id: 7, item: "tea", note: "hot", qty: 0 });
  });

  it("a field removed from the middle leaves the fields after it read as written, both ways", async () => {
    const v = await versions(name);
    expect(across(v.get(removed)!, v.get(old)!, { id: 7, note: "hot" })).toMatchObject({ id: 7, note: "hot" });
    expect(across(v.get(old)!, v.get(removed)!, { id: 7, item: "tea", note: "hot" })).toEqual({ id: 7, note: "hot" });
  });

  it("a field renamed with its number kept reads the same: names are not on the wire", async () => {
    const v = await versions(name);
    expect(across(v.get(old)!, v.get(renamed)!, { id: 7, item: "tea", note: "hot" })).toEqual({
      id: 7,
      product: "tea",
      note: "hot",
    });
  });
});

describe.each(codecs)("%s when a field becomes optional", (name) => {
  it("a new reader reads an old writer's field as written; an old reader reads it, left out, as absent or its default", async () => {
    const v = await versions(name);
    expect(across(v.get(old)!, v.get(optional)!, { id: 7, item: "tea", note: "hot" })).toEqual({
      id: 7,
      item: "tea",
      note: "hot",
    });
    // Bebop and FlatBuffers read nothing for a string not written; the others read their default.
    const left = ["bebop", "flatbuffers"].includes(name) ? {} : { note: "" };
    expect(across(v.get(optional)!, v.get(old)!, { id: 8, item: "cake" })).toEqual({ id: 8, item: "cake", ...left });
  });
});

describe("compileVersions without a compiler", () => {
  it("says what to install, or that this client cannot run the compiler, for every version", async () => {
    const missing = await compileVersions("flatbuffers", [old, added], { missing: "flatc is not installed (apt-get)" });
    expect([...missing.values()]).toEqual([
      { notRun: "flatc is not installed (apt-get)" },
      { notRun: "flatc is not installed (apt-get)" },
    ]);
    const none = await compileVersions("capnp", [old], undefined);
    expect(none.get(old)).toMatchObject({ notRun: expect.stringMatching(/this client cannot run/) });
  });

  it("gives the compiler's own words when it fails", async () => {
    const failing = await compileVersions("bebop", [old], async () => {
      throw new Error("bebopc exited 1: Error [BOP104] at line 2");
    });
    expect(failing.get(old)).toEqual({ notRun: "bebopc failed: bebopc exited 1: Error [BOP104] at line 2" });
  });

  it("a version no schema of the format can say is not run, with the place", async () => {
    const union = request(
      [
        { kind: "a", x: 1 },
        { kind: "b", y: "z" },
      ],
      [],
    );
    const made = await compileVersions("capnp", [union], async () => new Map());
    expect(made.get(union)).toMatchObject({ notRun: expect.stringMatching(/union of message kinds/) });
  });
});

describe.each(codecs)("%s on one version, by its own compiler", (name) => {
  it("reads back every shape it writes: nested objects, lists of them, tuples, booleans, negative and 64-bit integers, optional fields present and absent", async () => {
    const messages = [
      {
        at: [1, 2.5],
        ok: true,
        n: -3,
        big: 2 ** 53 - 1,
        tags: ["a", "b"],
        who: { name: "ada", rank: 1 },
        items: [{ k: "x", v: 1.5 }],
        maybe: 4,
      },
      { at: [0, -1.25], ok: false, n: 5, big: 0, tags: [], who: { name: "", rank: 0 }, items: [] },
    ];
    const v = request(messages, []);
    const made = (await compileVersions(name, [v], compilers[name])).get(v)!;
    if ("notRun" in made) throw new Error(made.notRun);
    // pbf's compiler has no proto3 `optional` (its .proto parser drops the word): an absent field reads as its default.
    const expected = (m: (typeof messages)[number]) => (name === "pbf" && !("maybe" in m) ? { ...m, maybe: 0 } : m);
    for (const m of messages) expect(made.codec.decode(made.codec.encode(m)), JSON.stringify(m)).toEqual(expected(m));
  });
});

describe("compileVersions across many versions", () => {
  const here = (c: CompiledCodec) => codecs.includes(c);
  it.skipIf(!here("flatbuffers"))(
    "a schema the compiler refuses costs only its own versions, and names them",
    async () => {
      const one = { ...old, label: "orders (its old version)" };
      const two = { ...added, label: "orders, field-added (its new version)" };
      const flatc = compilers.flatbuffers;
      if (typeof flatc !== "function") throw new Error(`flatbuffers: ${flatc?.missing}`);
      // A compiler that refuses any batch holding the new version's schema (its field qty), as flatc would refuse a bad one.
      const picky = async (files: ReadonlyMap<string, string>) => {
        if ([...files.values()].some((t) => t.includes("qty"))) throw new Error("flatc exited 1: error: qty refused");
        return flatc(files);
      };
      const made = await compileVersions("flatbuffers", [one, two], picky);
      expect(made.get(one)).toHaveProperty("codec");
      expect(made.get(two)).toEqual({
        notRun:
          "flatc failed on the schema of orders, field-added (its new version): flatc exited 1: error: qty refused",
      });
    },
  );

  it("gives each struct its own type name, where a nested one would take another's", async () => {
    const clash = request([{ aB: 1, a: { b: { c: 2 } }, xItem: { y: 1 }, x: [{ z: 1 }] }], []);
    for (const name of (["bebop", "flatbuffers", "capnp"] as const).filter(here)) {
      const made = (await compileVersions(name, [clash], compilers[name])).get(clash)!;
      if ("notRun" in made) throw new Error(`${name}: ${made.notRun}`);
      const m = { aB: 1, a: { b: { c: 2 } }, xItem: { y: 1 }, x: [{ z: 1 }] };
      expect(made.codec.decode(made.codec.encode(m)), name).toEqual(m);
    }
  });

  it.skipIf(!here("flatbuffers"))(
    "refuses a field named with a word of JavaScript's own, which the generated code would rename",
    async () => {
      const keyword = request([{ default: 1, id: 2 }], []);
      const made = await compileVersions("flatbuffers", [keyword], compilers.flatbuffers);
      expect(made.get(keyword)).toMatchObject({
        notRun: expect.stringMatching(/^no schema written for the messages: default: a name/),
      });
    },
  );
});
