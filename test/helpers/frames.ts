/**
 * Bad frames for fuzzing the server and the decoders: random bytes,
 * truncations and bit flips of valid messages, huge length prefixes, wrong
 * type bytes, well-formed JSON / MessagePack of the wrong shape, and the
 * wrong frame type. Seeded, so a failure can be replayed.
 */
import { BUILT_IN } from "../../protocols/registry.ts";
import { encode as msgpackEncode } from "@msgpack/msgpack";
import { createRng } from "../../client/harness/random.ts";
import { ARTICLE_MESSAGES, EXAMPLE_MESSAGES, PAYLOAD_NAMES, type PayloadName } from "../../protocols/messages.ts";
import type { Encoded } from "../../protocols/codec.ts";
import { frameOf } from "../../protocols/contract.ts";

export interface BadFrame {
  codec: string;
  payload: PayloadName;
  kind: string;
  data: Encoded;
}

/** Every built-in codec: a new one is fuzzed as soon as it is in the catalog. */
const CODECS = BUILT_IN.names;

/** Near misses of the sets' shapes: a wrong type deep inside, a field too many, an integer out of range. */
const WRONG_SET_SHAPES = [
  { ...EXAMPLE_MESSAGES.chat, reactions: [{ emoji: 1, count: 1 }] },
  { ...EXAMPLE_MESSAGES.chat, replyTo: null },
  { match: 1, tick: 1, entities: [{ id: 1 }] },
  {
    match: 1,
    tick: 1,
    entities: [{ ...(EXAMPLE_MESSAGES["game-tick"] as { entities: object[] }).entities[0], state: 9 }],
  },
  { ...EXAMPLE_MESSAGES["game-tick"], match: 2 ** 32 },
  { ...EXAMPLE_MESSAGES.market, seq: -1 },
  { ...EXAMPLE_MESSAGES.market, ts: 2 ** 53 },
];

export function* badFrames(count: number, seed: number): Generator<BadFrame> {
  const rng = createRng(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rng() * xs.length)]!;
  const valid = new Map<string, Uint8Array>();
  for (const codec of CODECS) {
    for (const payload of PAYLOAD_NAMES) {
      const e = BUILT_IN.get(codec)!.forPayload(payload).encode(EXAMPLE_MESSAGES[payload]);
      valid.set(`${codec}|${payload}`, typeof e === "string" ? new TextEncoder().encode(e) : Uint8Array.from(e));
    }
  }
  const randomBytes = (n: number): Uint8Array => Uint8Array.from({ length: n }, () => Math.floor(rng() * 256));
  for (let i = 0; i < count; i++) {
    const codec = pick(CODECS);
    const payload = pick(PAYLOAD_NAMES);
    const bytes = valid.get(`${codec}|${payload}`)!;
    const frame = frameOf(codec, BUILT_IN);
    let kind: string;
    let data: Uint8Array | string;
    switch (Math.floor(rng() * 8)) {
      case 0:
        kind = "random";
        data = randomBytes(Math.floor(rng() * 64));
        break;
      case 1:
        kind = "truncated";
        data = bytes.slice(0, Math.floor(rng() * bytes.length));
        break;
      case 2: {
        kind = "bit-flip";
        data = bytes.slice();
        const at = Math.floor(rng() * data.length);
        data[at]! ^= 1 << Math.floor(rng() * 8);
        break;
      }
      case 3:
        kind = "huge-length";
        data = Uint8Array.from([
          bytes[0]!,
          0xff,
          0xff,
          0xff,
          0xff,
          0x0f,
          0xdb,
          0xff,
          0xff,
          0xff,
          0x7f,
          0xc6,
          0xff,
          0xff,
          0xff,
          0xff,
        ]);
        break;
      case 4:
        kind = "wrong-type-byte";
        data = bytes.slice();
        data[0] = Math.floor(rng() * 256);
        break;
      case 5:
        kind = "wrong-shape";
        data = pick([
          new TextEncoder().encode(
            JSON.stringify(
              pick([
                1,
                "x",
                null,
                [1, 2],
                { text: 5, num: 1 },
                { text: "a" },
                { ...ARTICLE_MESSAGES.small, extra: 1 },
                { text: "a", num: -1 },
                ...WRONG_SET_SHAPES,
              ]),
            ),
          ),
          msgpackEncode(pick([[1, 2, 3], "x", { text: "a", num: 1.5 }, { num: 1 }, ARTICLE_MESSAGES.large])),
        ]);
        if (kind === "wrong-shape" && payload === "large" && data.length > 200) data = randomBytes(3); // the large article message is valid for large
        break;
      case 6:
        kind = "wrong-frame-type";
        data = frame === "text" ? bytes.slice() : "hello";
        yield { codec, payload, kind, data };
        continue;
      default:
        kind = "empty";
        data = new Uint8Array(0);
    }
    yield { codec, payload, kind, data: frame === "text" ? new TextDecoder().decode(data) : data };
  }
}
