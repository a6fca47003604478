import { describe, expect, it } from "vitest";
import { BUILT_IN } from "../../../protocols/registry.ts";
import { checkFidelity, fidelitySummary, KEY_ORDER_CHANGED, messageChanges } from "../../../client/harness/fidelity.ts";
import type { PayloadCodec } from "../../../protocols/codec.ts";
import type { Message } from "../../../protocols/messages.ts";

const changes = (a: unknown, b: unknown): string[] => [...messageChanges(a, b)].sort();

describe("messageChanges: every kind of change, named at its field path", () => {
  it("finds nothing when everything came back, nested values included", () => {
    const m = { a: 1, b: [{ c: "x", d: -0 }], e: { f: new Date(5), g: new Uint8Array([1, 2]), h: 2n ** 70n } };
    expect(changes(m, structuredClone(m))).toEqual([]);
  });

  it.each([
    ["x\t-0 became 0", { x: -0 }, { x: 0 }],
    ["x\tundefined dropped", { x: undefined, y: 1 }, { y: 1 }],
    ["x\tundefined became null", { x: undefined }, { x: null }],
    ["when\tDate became string", { when: new Date(0) }, { when: "1970-01-01T00:00:00.000Z" }],
    ["big\tinteger beyond 2^53 lost precision", { big: 2 ** 60 + 1 }, { big: 2 ** 60 + 256 }],
    ["big\tbigint became number, precision lost", { big: 2n ** 60n + 1n }, { big: Number(2n ** 60n + 1n) }],
    ["n\tnumber became bigint", { n: 2 ** 60 }, { n: 2n ** 60n }],
    ["bytes\tUint8Array became object", { bytes: new Uint8Array([1]) }, { bytes: { 0: 1 } }],
    ["bytes\tUint8Array became Buffer", { bytes: new Uint8Array([1]) }, { bytes: Buffer.from([1]) }],
    ["r\tNaN became null", { r: Number.NaN }, { r: null }],
    ["a.b\tarray of 2 became 1", { a: { b: [1, 2] } }, { a: { b: [1] } }],
    ["a[].p\t-0 became 0", { a: [{ p: 1 }, { p: -0 }] }, { a: [{ p: 1 }, { p: 0 }] }],
    ["s\tstring changed", { s: "é" }, { s: "e" }],
    ["extra\tfield added (number)", { x: 1 }, { x: 1, extra: 0 }],
    ["y\tfield dropped", { x: 1, y: 2 }, { x: 1 }],
    [`(message)\t${KEY_ORDER_CHANGED}`, { x: 1, y: 2 }, { y: 2, x: 1 }],
  ])("%s", (expected, a, b) => {
    expect(changes(a, b)).toEqual([expected]);
  });
});

describe("checkFidelity", () => {
  const messages: Message[] = [
    { id: 1, price: -0, tags: ["é"] },
    { id: 2, price: 3.5, tags: [] },
    { id: 3, price: -0, tags: ["x"] },
  ];

  it("counts the messages each change touched and calls a codec that changed a value lossy", () => {
    const json = BUILT_IN.get("json")!;
    const r = checkFidelity("json", "mine", json.forPayload("mine"), messages);
    expect(r).toMatchObject({
      messages: 3,
      changed: 2,
      lossy: true,
      changes: [{ path: "price", change: "-0 became 0", messages: 2, first: 1 }],
    });
    expect(fidelitySummary(r)).toBe("-0 became 0 at price (2 of 3, first message 1)");
  });

  it("names the first message each change touched, counted from 1", () => {
    const r = checkFidelity("json", "mine", BUILT_IN.get("json")!.forPayload("mine"), [
      { a: 1 },
      { a: 2, b: { c: -0 } },
      { a: 3, b: { c: -0 }, d: undefined },
    ]);
    expect(r.changes).toEqual([
      { path: "b.c", change: "-0 became 0", messages: 2, first: 2 },
      { path: "d", change: "undefined dropped", messages: 1, first: 3 },
    ]);
  });

  it("--equal: a change the user declared no loss is reported, marked equal, and not lossy; the others still are", () => {
    const json = BUILT_IN.get("json")!.forPayload("mine");
    const withZero = [{ a: -0 }, { a: 1, d: undefined }];
    expect(checkFidelity("json", "mine", json, withZero, ["negative-zero"])).toMatchObject({
      lossy: true,
      changes: [
        { path: "a", change: "-0 became 0", equal: true },
        { path: "d", change: "undefined dropped" },
      ],
    });
    const both = checkFidelity("json", "mine", json, withZero, ["negative-zero", "undefined"]);
    expect(both.lossy).toBe(false);
    expect(both.changes.every((c) => c.equal === true)).toBe(true);
    // A value that changed is never declared away.
    expect(
      checkFidelity("json", "mine", json, [{ n: Number.NaN }], ["negative-zero", "undefined", "key-order"]).lossy,
    ).toBe(true);
  });

  it("a changed key order alone is reported but is not a loss", () => {
    const reorder: PayloadCodec = {
      encode: (m) => JSON.stringify(m),
      decode: (d) => Object.fromEntries(Object.entries(JSON.parse(d as string) as object).reverse()),
    };
    const r = checkFidelity("reorder", "mine", reorder, [{ a: 1, b: 2 }]);
    expect(r.lossy).toBe(false);
    expect(r.changes).toEqual([{ path: "(message)", change: KEY_ORDER_CHANGED, messages: 1, first: 1 }]);
  });

  it("a codec that throws cannot carry the messages, and says which one", () => {
    const r = checkFidelity("json", "mine", BUILT_IN.get("json")!.forPayload("mine"), [{ a: 1 }, { big: 1n }]);
    expect(r.lossy).toBe(true);
    expect(r.error).toMatch(/^message 2: TypeError: .*BigInt/);
  });

  it("msgpack keeps what JSON cannot: NaN, infinities, nested arrays, key order; but writes -0 as the integer 0", () => {
    const m: Message[] = [{ a: Number.NaN, b: Number.POSITIVE_INFINITY, c: [[1, "é"]], z: 1, y: -0 }];
    const r = checkFidelity("msgpack", "mine", BUILT_IN.get("msgpack")!.forPayload("mine"), m);
    expect(r.changes).toEqual([{ path: "y", change: "-0 became 0", messages: 1, first: 1 }]);
  });
});
