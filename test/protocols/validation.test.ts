/**
 * The validated pattern: a decode and the checks its codec's decoder leaves
 * out (Codec.decodeGuarantees). The same bad messages for every codec: each
 * is refused by its encoder, or by its validated decode, or arrives as a
 * well-formed message (an encoder that coerced it); never as a malformed one.
 * And every codec's claim about its decoder holds on corrupt frames: what a
 * validated decode returns is always a well-formed message.
 */
import { describe, expect, it } from "vitest";
import { makeMessages } from "../../client/harness/generator.ts";
import { errorText, type Encoded } from "../../protocols/codec.ts";
import { CodecError } from "../../protocols/codec-errors.ts";
import { EXAMPLE_MESSAGES, PAYLOAD_NAMES, type BuiltInPayload, type Message } from "../../protocols/messages.ts";
import { BUILT_IN } from "../../protocols/registry.ts";
import { shapeError } from "../../server/shape.ts";
import { checksFor, rangeChecker, shapeValidator } from "../../protocols/validation.ts";
import { EDGE } from "../helpers/edge-messages.ts";
import { badFrames } from "../helpers/frames.ts";

const CODECS = BUILT_IN.codecs.filter((c) => !c.name.startsWith("cal-"));

/** Malformed messages of each payload: a field of the wrong type, one missing, one too many, integers out of range, an optional field present as undefined. */
function badMessages(payload: BuiltInPayload): { what: string; message: Record<string, unknown> }[] {
  const good = EXAMPLE_MESSAGES[payload] as unknown as Record<string, unknown>;
  const keys = Object.keys(good);
  const first = keys[0]!;
  const out = [
    { what: `${first} of the wrong type`, message: { ...good, [first]: typeof good[first] === "string" ? 7 : "7" } },
    { what: `${keys[1]} missing`, message: Object.fromEntries(Object.entries(good).filter(([k]) => k !== keys[1])) },
    { what: "a field too many", message: { ...good, extra: 1 } },
  ];
  const integer = keys.find((k) => Number.isInteger(good[k]));
  if (integer) {
    out.push({ what: `${integer} negative`, message: { ...good, [integer]: -1 } });
    out.push({ what: `${integer} beyond 2^53`, message: { ...good, [integer]: 2 ** 53 } });
    out.push({ what: `${integer} fractional`, message: { ...good, [integer]: 1.5 } });
  }
  if (payload === "chat")
    out.push(
      { what: "replyTo present as undefined", message: { ...good, replyTo: undefined } },
      { what: "a reaction's count negative", message: { ...good, reactions: [{ emoji: "x", count: -2 }] } },
    );
  if (payload === "game-tick") {
    const entity = (good.entities as Record<string, unknown>[])[0]!;
    out.push(
      { what: "an entity's state 7", message: { ...good, entities: [{ ...entity, state: 7 }] } },
      { what: "an entity's x a string", message: { ...good, entities: [{ ...entity, x: "1" }] } },
    );
  }
  return out;
}

/** The codec's validated decode: its decode, then the checks it adds. */
function validatedDecode(codec: (typeof CODECS)[number], payload: BuiltInPayload): (frame: Encoded) => unknown {
  const pc = codec.forPayload(payload);
  const check = checksFor(codec, payload);
  return (frame) => {
    const m = pc.decode(frame);
    check?.(m);
    return m;
  };
}

describe("the schema validator and the range checks", () => {
  for (const payload of PAYLOAD_NAMES) {
    it(`${payload}: take the example, the edge messages and 1,000 generated ones`, () => {
      const validate = shapeValidator(payload);
      const ranges = rangeChecker(payload);
      for (const m of [
        EXAMPLE_MESSAGES[payload],
        ...EDGE[payload]!,
        ...makeMessages(payload, { count: 1000, seed: 5, fixed: false }),
      ]) {
        expect(() => validate(m)).not.toThrow();
        expect(() => ranges(m)).not.toThrow();
      }
    });

    it(`${payload}: the validator refuses every bad message with INVALID_MESSAGE, as the server's shape check does`, () => {
      const validate = shapeValidator(payload);
      for (const { what, message } of badMessages(payload)) {
        expect(shapeError(payload, message), what).toBeDefined();
        let thrown: unknown;
        try {
          validate(message);
        } catch (e) {
          thrown = e;
        }
        expect(thrown, what).toBeInstanceOf(CodecError);
        expect((thrown as CodecError).code).toBe("INVALID_MESSAGE");
      }
    });
  }

  it("range errors name the field and its range", () => {
    const ranges = rangeChecker("game-tick");
    const entity = (EXAMPLE_MESSAGES["game-tick"] as { entities: object[] }).entities[0]!;
    expect(() => ranges({ match: 1, tick: 1, entities: [entity, { ...entity, state: 5 }] })).toThrow(
      "field 'entities[1].state' is 5, not an integer 0..3",
    );
    // match is a uint32: an Avro long or any schema's wider integer would carry these, the range check does not.
    expect(() => ranges({ ...EXAMPLE_MESSAGES["game-tick"], match: 2 ** 32 })).toThrow(
      "field 'match' is 4294967296, outside uint32's 0..4294967295",
    );
    expect(() => ranges({ ...EXAMPLE_MESSAGES["game-tick"], match: -1 })).toThrow(
      "field 'match' is -1, outside uint32's 0..4294967295",
    );
    expect(() => shapeValidator("game-tick")({ ...EXAMPLE_MESSAGES["game-tick"], match: 2 ** 32 })).toThrow(/match/);
    expect(() => shapeValidator("game-tick")({ ...EXAMPLE_MESSAGES["game-tick"], match: 1.5 })).toThrow(/match/);
    expect(() => ranges({ ...EXAMPLE_MESSAGES["game-tick"], match: 4294967295 })).not.toThrow();
    expect(() => rangeChecker("market")({ ...EXAMPLE_MESSAGES.market, seq: -3 })).toThrow(
      "field 'seq' is -3, outside uint53's 0..9007199254740991",
    );
  });
});

describe("every codec's validated decode", () => {
  for (const codec of CODECS) {
    for (const payload of PAYLOAD_NAMES) {
      it(`${codec.name} ${payload}: the bad messages are refused by the encoder or the validated decode, or arrive well-formed`, () => {
        const pc = codec.forPayload(payload);
        const validated = validatedDecode(codec, payload);
        for (const { what, message } of badMessages(payload)) {
          let frame: Encoded;
          try {
            frame = pc.encode(message as Message);
          } catch {
            continue; // the encoder refused it: it never reaches a server
          }
          let arrived: unknown;
          try {
            arrived = validated(frame);
          } catch (e) {
            expect(e, `${what}: ${errorText(e)}`).toBeInstanceOf(Error);
            continue;
          }
          // Only an encoder that changed the message on the way (a schema's default for a missing field, a coerced
          // integer, JSON leaving out an undefined field) lets it through, and then what arrives is well-formed.
          expect(shapeError(payload, arrived), `${what} arrived malformed`).toBeUndefined();
        }
      });
    }
  }

  it("what any validated decode returns from corrupt frames is a well-formed message: each codec's claim about its decoder holds", () => {
    const accepted = new Map<string, number>();
    for (const frame of badFrames(20_000, 91)) {
      if (!(PAYLOAD_NAMES as readonly string[]).includes(frame.payload)) continue;
      const codec = CODECS.find((c) => c.name === frame.codec);
      if (!codec || (codec.frame === "text") !== (typeof frame.data === "string")) continue;
      let arrived: unknown;
      try {
        arrived = validatedDecode(codec, frame.payload as BuiltInPayload)(frame.data);
      } catch {
        continue;
      }
      accepted.set(codec.name, (accepted.get(codec.name) ?? 0) + 1);
      expect(shapeError(frame.payload, arrived), `${frame.codec} ${frame.payload} ${frame.kind}`).toBeUndefined();
    }
    // The fuzz reached every codec's validated decode with frames it accepted.
    expect(accepted.size).toBeGreaterThan(8);
  });
});
