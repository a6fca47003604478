/**
 * The .proto and .avsc written from a layout inferred from a user's messages
 * (protocols/inferred-schemas.ts), as protobuf and avro run them: every message
 * of the sample back as it was, through protobufjs and avsc themselves; what
 * a format cannot say named where the schema is written or the message encoded.
 */
import { isDeepStrictEqual } from "node:util";
import protobuf from "protobufjs";
import { describe, expect, it } from "vitest";
import { inferLayout } from "../../custom-binary/infer.ts";
import { avroCodecFor } from "../../protocols/avro.ts";
import type { Codec } from "../../protocols/codec.ts";
import { CodecError } from "../../protocols/codec-errors.ts";
import { avroSchemaOf, protoSchemaOf, SchemaError } from "../../protocols/inferred-schemas.ts";
import type { Message } from "../../protocols/messages.ts";
import { protobufCodecFor } from "../../protocols/protobuf.ts";
import { whiteboard } from "../helpers/whiteboard.ts";

/** Odd places: keys no schema language takes, signed and big integers, -0, maps, lists of lists, a list left out, a field always null. */
const scores = (i: number) => Object.fromEntries(Array.from({ length: 70 }, (_, k) => [`p${k}`, k * i]));
const ODD = [
  {
    "a-b": 1,
    "*/x": 'q"uote',
    n: -5,
    f: 0.1,
    ok: true,
    gone: null,
    maybe: null,
    scores: scores(0),
    grid: [[1, 2, 3], []],
  },
  {
    "a-b": 2,
    "*/x": "z",
    n: 2 ** 40,
    f: -0,
    ok: false,
    gone: null,
    maybe: 3,
    scores: scores(1),
    extra: [1, 2],
    grid: [],
  },
  { "a-b": 3, "*/x": "", n: 0, f: 1e300, ok: true, gone: null, maybe: 4, scores: scores(2), extra: [], grid: [[5]] },
];

const codecs = (name: string, messages: readonly unknown[]): Codec[] => {
  const layouts = new Map([[name, { layout: inferLayout(messages) }]]);
  return [protobufCodecFor(undefined, layouts), avroCodecFor(layouts)];
};

/** Each message encoded and decoded by the codec: the ones that came back changed. */
const changed = (codec: Codec, name: string, messages: readonly unknown[]): unknown[] => {
  const pair = codec.forPayload(name);
  return messages.filter((m) => !isDeepStrictEqual(pair.decode(pair.encode(m as Message)), m));
};

const jsonBytes = (messages: readonly unknown[]): number =>
  messages.reduce<number>((n, m) => n + Buffer.byteLength(JSON.stringify(m)), 0);

describe("schemas written from your messages", () => {
  it("a union by its tag: a oneof of one message per arm (Avro: a union of records), every message back as it was, smaller than JSON", () => {
    const messages = whiteboard();
    const proto = protoSchemaOf(inferLayout(messages), "board");
    expect(proto.typeName).toBe("Board");
    expect(proto.text).toMatch(/^syntax = "proto3";$/m);
    expect(proto.text).toMatch(/oneof t_arm \{\n\s+Board_Cur cur = 1; \/\/ t = "cur"/);
    expect(proto.text).toMatch(/repeated Board_Stroke_Pts_Item pts = \d+;/);
    expect(proto.text).toMatch(/message Board_Stroke_Pts_Item \{\n {2}float v0 = 1;\n {2}float v1 = 2;\n\}/);
    expect(proto.text).toMatch(/optional uint64 reply = 3;/);
    // protobufjs reads it as a user would give it with --proto.
    expect(protobuf.parse(proto.text, { keepCase: true }).root.lookupType("Board").oneofsArray).toHaveLength(1);
    const avro = avroSchemaOf(inferLayout(messages), "board").schema as { name: string }[];
    expect(avro.map((r) => r.name)).toEqual(["Board_Cur", "Board_Stroke", "Board_Chat"]);
    for (const codec of codecs("board", messages)) {
      expect(codec.notApplicable!("board"), codec.name).toBeUndefined();
      expect(changed(codec, "board", messages), codec.name).toEqual([]);
      const pair = codec.forPayload("board");
      const bytes = messages.reduce<number>((n, m) => n + pair.encode(m as Message).length, 0);
      expect(bytes, codec.name).toBeLessThan(0.8 * jsonBytes(messages));
    }
  });

  it("carries odd names, signed and big integers, -0, maps, lists of lists and a list left out; a field always null reads back null", () => {
    const proto = protoSchemaOf(inferLayout(ODD), "odd").text;
    expect(proto).toMatch(/uint64 f1_a_b = 1;/);
    expect(proto).toMatch(/sint64 n = 3;/);
    expect(proto).toMatch(/map<string, uint64> scores = \d+;/);
    // A list that can be missing sits in a message of its own, which can be.
    expect(proto).toMatch(/optional Odd_Extra extra = \d+;/);
    expect(proto).not.toMatch(/ gone = /);
    for (const codec of codecs("odd", ODD)) expect(changed(codec, "odd", ODD), codec.name).toEqual([]);
  });

  it("a field left out of some messages and null in others reads back left out, a change the fidelity check names", () => {
    const orders = [{ id: 1, coupon: "A" }, { id: 2 }, { id: 3, coupon: null }];
    for (const codec of codecs("orders", orders)) {
      const pair = codec.forPayload("orders");
      expect(pair.decode(pair.encode(orders[2] as Message)), codec.name).toEqual({ id: 3 });
      expect(changed(codec, "orders", orders), codec.name).toEqual([orders[2]]);
    }
  });

  it("refuses what a format cannot say where the schema is written, and a message outside the sample at encode", () => {
    const holes = [{ v: [1, null] }, { v: [2] }];
    expect(() => protoSchemaOf(inferLayout(holes), "holes")).toThrow(SchemaError);
    expect(() => protoSchemaOf(inferLayout(holes), "holes")).toThrow(/^v: null inside an array/);
    const [proto, avro] = codecs("holes", holes);
    expect(proto!.notApplicable!("holes")).toMatch(/^no \.proto written for your messages: v: null inside an array/);
    expect(avro!.notApplicable!("holes")).toBeUndefined();
    expect(changed(avro!, "holes", holes)).toEqual([]);
    for (const codec of codecs("board", whiteboard())) {
      const pair = codec.forPayload("board");
      const refusal = (m: unknown): CodecError | undefined => {
        try {
          pair.encode(m as Message);
        } catch (e) {
          return e as CodecError;
        }
        return undefined;
      };
      expect(refusal({ t: "erase", u: "a" })).toMatchObject({
        code: "OUT_OF_LAYOUT",
        message: 't: "erase", a tag no message of the sample had',
      });
    }
    const always = codecs("odd", ODD);
    for (const codec of always)
      expect(() => codec.forPayload("odd").encode({ ...ODD[0], gone: 1 } as Message)).toThrow(
        /^gone: a value where every message of the sample had none$/,
      );
  });

  it("a sample no layout carries: neither runs, and each says why", () => {
    const layouts = new Map([["mixed", { reason: "v: holds a number in 1 of 2 and a string in 1 of 2" }]]);
    expect(protobufCodecFor(undefined, layouts).notApplicable!("mixed")).toMatch(
      /^no \.proto written for your messages: v: holds a number .*; give one with --proto FILE --proto-type NAME$/,
    );
    expect(avroCodecFor(layouts).notApplicable!("mixed")).toBe(
      "no Avro schema written for your messages: v: holds a number in 1 of 2 and a string in 1 of 2",
    );
  });
});
