/** Evolve mode: the changes made to a payload's messages, what a reader got, and the rows of a run. */

import { beforeAll, describe, expect, it } from "vitest";
import {
  ADDED_FIELD,
  ADDED_MEMBER,
  changeOf,
  classify,
  evolvePayload,
  ownReadBack,
  fieldNumbers,
  runEvolveMode,
  type PayloadChange,
} from "../../../client/harness/evolve.ts";
import type { EvolveRow } from "../../../client/harness/results.ts";
import { messagesFor } from "../../../client/harness/generator.ts";
import type { Progress } from "../../../client/harness/progress.ts";
import { defaultSettings } from "../../../client/harness/settings.ts";
import { BUILT_IN } from "../../../protocols/registry.ts";
import { schemaCompilers } from "../../../bench/cli/schema-compilers.ts";
import { skipWithoutCompiler } from "../../helpers/compilers.ts";
import type { Message } from "../../../protocols/messages.ts";

const messages = Array.from(
  { length: 8 },
  (_, i) => ({ id: i + 1, side: ["buy", "sell"][i % 2]!, note: `n${i}`, qty: i * 10 }) as Message,
);
const made = (change: Parameters<typeof changeOf>[0]): PayloadChange => {
  const c = changeOf(change, messages);
  if ("reason" in c) throw new Error(c.reason);
  return c;
};
const codec = (name: string) => BUILT_IN.codecs.find((c) => c.name === name)!;
const keys = (m: Message): string[] => Object.keys(m as object);

describe("the changes", () => {
  it("adds a field last, removes the last field, renames the first in its place", () => {
    expect(keys(made("field-added").after[0]!)).toEqual(["id", "side", "note", "qty", ADDED_FIELD]);
    expect(made("field-removed").field).toBe("qty");
    expect(keys(made("field-removed").after[0]!)).toEqual(["id", "side", "note"]);
    const renamed = made("field-renamed");
    expect([renamed.field, renamed.renamedTo]).toEqual(["id", "idRenamed"]);
    expect(keys(renamed.after[0]!)).toEqual(["idRenamed", "side", "note", "qty"]);
    expect(renamed.before).toEqual(messages);
  });

  it("widens a field of integers to fractions, adds an enum member, leaves a scalar out of every other message", () => {
    const widened = made("number-widened");
    expect(widened.field).toBe("id");
    expect(widened.after.map((m) => (m as { id: number }).id)).toEqual(
      messages.map((m) => (m as { id: number }).id + 0.5),
    );
    const member = made("enum-member-added");
    expect(member.field).toBe("side");
    expect(member.after.map((m) => (m as { side: string }).side)).toEqual([
      "buy",
      "sell",
      "buy",
      ADDED_MEMBER,
      "buy",
      "sell",
      "buy",
      ADDED_MEMBER,
    ]);
    const optional = made("optional-left-out");
    expect(optional.field).toBe("qty");
    expect(optional.after.map((m) => "qty" in (m as object))).toEqual([
      true,
      false,
      true,
      false,
      true,
      false,
      true,
      false,
    ]);
  });

  it("says why a payload has nothing a change needs", () => {
    const strings = [{ a: "x1" }, { a: "x2" }] as Message[];
    expect(changeOf("number-widened", strings)).toEqual({ reason: "no field of integers every message holds" });
    expect(changeOf("enum-member-added", strings)).toEqual({
      reason: "no field of a few recurring strings (an enum) every message holds",
    });
  });

  it("keeps each field's number across the change: a renamed field its old one, a new field the next", () => {
    expect([...fieldNumbers(made("field-renamed")).after]).toEqual([
      ["idRenamed", 1],
      ["side", 2],
      ["note", 3],
      ["qty", 4],
    ]);
    expect(fieldNumbers(made("field-added")).after.get(ADDED_FIELD)).toBe(5);
    expect([...fieldNumbers(made("field-removed")).after.values()]).toEqual([1, 2, 3]);
  });
});

describe("what the reader got", () => {
  const view = { id: 1, name: "a" };
  const all = new Set(["id", "name"]);
  it("exact, a field unknown to the reader dropped, a field not written absent or a default", () => {
    expect(classify(view, { id: 1, name: "a" }, new Set(["name"]), all)).toEqual({
      outcome: "exact",
      detail: "every field as written",
    });
    expect(classify(view, { id: 1 }, new Set(["name"]), new Set(["id"])).outcome).toBe("extra-ignored");
    expect(classify({ id: 1 }, { id: 1, name: "" }, new Set(["name"]), all)).toEqual({
      outcome: "missing-defaulted",
      detail: `'name' (not written) read as ""`,
    });
    expect(classify({ id: 1 }, { id: 1 }, new Set(["name"]), all).detail).toBe("'name' (not written) absent");
  });

  it("a value the writer did not write, in a touched field or any other, is silently wrong", () => {
    expect(classify(view, { id: 1, name: "b" }, new Set(["name"]), all)).toEqual({
      outcome: "silently-wrong",
      detail: `'name': wrote "a", read "b"`,
    });
    expect(classify(view, { id: 2, name: "a" }, new Set(["name"]), all).outcome).toBe("silently-wrong");
    expect(classify({ id: 1 }, { id: 1, name: "x" }, new Set(["name"]), all).outcome).toBe("silently-wrong");
    expect(classify(view, [1], new Set(["name"]), all).outcome).toBe("silently-wrong");
  });

  it("a renamed field the reader finds only under the writer's name is missing, not wrong", () => {
    const renamed = { writer: "nameRenamed", reader: "name" };
    expect(classify(view, { id: 1, nameRenamed: "a" }, new Set(["name"]), all, renamed)).toEqual({
      outcome: "missing-defaulted",
      detail: "'name' absent (written as 'nameRenamed')",
    });
  });
});

describe("evolvePayload", () => {
  const codecs = ["json", "protobuf", "custom-binary", "flatbuffers"].map(codec);
  const messages = messagesFor({ seed: 1, fixed: false, userMessages: [] }, "small", 40);
  let rows: EvolveRow[] = [];
  let withoutCompilers: EvolveRow[] = [];
  beforeAll(async () => {
    rows = await evolvePayload(codecs, "small", messages, false, schemaCompilers());
    withoutCompilers = await evolvePayload(codecs, "small", messages);
  });
  const of = (name: string, change: EvolveRow["change"], direction: EvolveRow["direction"], from = rows): EvolveRow =>
    from.find((r) => r.codec === name && r.change === change && r.direction === direction)!;

  it("runs each change both ways for real, with each codec's own mechanism", () => {
    expect(rows).toHaveLength(4 * 6 * 2);
    // JSON carries any field: an old reader gets the new one as written, a new reader lacks it.
    expect(of("json", "field-added", "old-reader").outcome).toBe("exact");
    expect(of("json", "field-added", "new-reader").outcome).toBe("missing-defaulted");
    expect(of("json", "field-renamed", "new-reader").detail).toContain("absent (written as 'text')");
    // custom-binary's layout is fixed: a reader of another layout refuses the frame.
    expect(of("custom-binary", "field-added", "old-reader").outcome).toBe("error");
    expect(of("custom-binary", "field-renamed", "old-reader").outcome).toBe("exact");
    // FlatBuffers, each version's code made by flatc: an old reader skips the field it does not know.
    if (!skipWithoutCompiler("evolve.test.ts", "flatbuffers")) {
      expect(of("flatbuffers", "field-added", "old-reader")).toMatchObject({ outcome: "extra-ignored", messages: 40 });
      expect(of("flatbuffers", "field-renamed", "new-reader").outcome).toBe("exact");
    } else expect(of("flatbuffers", "field-added", "old-reader").detail).toMatch(/^flatc is not installed here/);
    // small has no enum: a row that says so for every codec.
    expect(of("json", "enum-member-added", "old-reader")).toMatchObject({ outcome: "not-applicable" });
    expect(of("json", "field-added", "old-reader").messages).toBe(40);
  });

  it("where no compiler can run (the page), a codec made by one is not run, and says so; the rest are the same", () => {
    const flatc = of("flatbuffers", "field-added", "old-reader", withoutCompilers);
    expect(flatc).toMatchObject({ outcome: "not-run", messages: 0 });
    expect(flatc.detail).toMatch(/^flatc makes its code .* this client cannot run/);
    expect(withoutCompilers.filter((r) => r.codec !== "flatbuffers")).toEqual(
      rows.filter((r) => r.codec !== "flatbuffers"),
    );
  });
});

describe("runEvolveMode", () => {
  it("runs the run's codecs but raw and the calibration codecs, says which pairs it left out and why, and reports progress", async () => {
    const settings = {
      ...defaultSettings("default", ["json", "msgpack", "raw"]),
      payloads: ["small", "market"],
      excluded: [{ codec: "msgpack", payload: "market", why: "changes your messages" }],
    };
    settings.iterations.evolve = 20;
    const progress: Progress[] = [];
    const rows = await runEvolveMode(settings, BUILT_IN.codecs, { onProgress: (p) => progress.push(p) }, () => 0);
    expect([...new Set(rows.map((r) => `${r.payload} ${r.codec}`))]).toEqual([
      "small json",
      "small msgpack",
      "market json",
      "market msgpack",
    ]);
    expect(
      rows.filter((r) => r.payload === "market" && r.codec === "msgpack").every((r) => r.outcome === "not-run"),
    ).toBe(true);
    expect(rows.find((r) => r.payload === "market" && r.codec === "msgpack")!.detail).toBe("changes your messages");
    expect(progress.map((p) => `${p.payload} ${p.codec} ${p.done}/${p.total}`)).toEqual([
      "small json 1/4",
      "small msgpack 2/4",
      "market json 3/4",
      "market msgpack 4/4",
    ]);
  });

  it("stops after the codec in hand when asked, keeping the rows of those done", async () => {
    const settings = { ...defaultSettings("default", ["json", "msgpack"]), payloads: ["small", "market"] };
    settings.iterations.evolve = 20;
    let codecsDone = 0;
    const rows = await runEvolveMode(
      settings,
      BUILT_IN.codecs,
      { onProgress: () => codecsDone++, shouldStop: () => codecsDone >= 1 },
      () => 0,
    );
    expect([...new Set(rows.map((r) => `${r.payload} ${r.codec}`))]).toEqual(["small json"]);
    expect(rows).toHaveLength(12);
  });
});

describe("a payload whose messages are a union (a tag picks each kind's fields)", () => {
  // "op" is no name custom-binary reads as a tag; it is the tag all the same: each value, its own fields.
  const union = Array.from({ length: 12 }, (_, i) =>
    i % 2 === 0 ? { op: "move", seq: i, x: i * 2, y: 1 } : { op: "chat", seq: i, text: `hi ${i}`, room: 3 },
  ) as Message[];

  it("never changes the tag", () => {
    for (const change of ["field-removed", "field-renamed", "optional-left-out"] as const) {
      const c = changeOf(change, union);
      expect("reason" in c ? c.reason : c.field, change).not.toBe("op");
    }
  });

  it("protobuf and avro keep each kind's fields apart: a renamed field reads the same, an added one is dropped or defaulted", async () => {
    const rows = await evolvePayload(["protobuf", "avro"].map(codec), "ops", union);
    const of = (name: string, change: EvolveRow["change"], direction: EvolveRow["direction"]): string =>
      rows.find((r) => r.codec === name && r.change === change && r.direction === direction)!.outcome;
    expect(of("protobuf", "field-renamed", "old-reader")).toBe("exact");
    expect(of("protobuf", "field-renamed", "new-reader")).toBe("exact");
    expect(of("avro", "field-renamed", "new-reader")).toBe("exact");
    expect(of("protobuf", "field-added", "old-reader")).toBe("extra-ignored");
    expect(of("avro", "field-added", "new-reader")).toBe("missing-defaulted");
    expect(of("protobuf", "field-removed", "new-reader")).toBe("extra-ignored");
    expect(of("avro", "field-removed", "old-reader")).toBe("missing-defaulted");
  });
});

describe("ownReadBack", () => {
  const codecOf = (read: (m: Record<string, unknown>) => unknown) => ({
    encode: (m: unknown) => new TextEncoder().encode(JSON.stringify(m)),
    decode: (d: Uint8Array) => read(JSON.parse(new TextDecoder().decode(d))),
  });
  const messages = [{ id: 1, note: "a" }, { id: 2 }] as unknown as Message[];

  it("passes a version that reads back every field written, and a field left out as absent or its default", () => {
    expect(
      ownReadBack(
        codecOf((m) => m),
        messages,
      ),
    ).toBeUndefined();
    expect(
      ownReadBack(
        codecOf((m) => ({ note: "", ...m })),
        messages,
      ),
    ).toBeUndefined();
  });

  it("names the first message its own reader gets wrong, or fails on", () => {
    expect(
      ownReadBack(
        codecOf(({ note, ...m }) => m),
        messages,
      ),
    ).toBe("message 1: 'note': wrote \"a\", read absent");
    expect(
      ownReadBack(
        codecOf((m) => (m.id === 2 ? { ...m, note: "x" } : m)),
        messages,
      ),
    ).toBe("message 2: 'note': wrote nothing, read \"x\"");
    expect(
      ownReadBack(
        codecOf(() => {
          throw new Error("bad frame");
        }),
        messages,
      ),
    ).toBe("message 1: bad frame");
  });
});
