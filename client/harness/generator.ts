/**
 * A seeded generator for every built-in payload: the article's messages
 * (protocols/messages.ts), varied here, and the message sets
 * (set-generator.ts).
 *
 * Why vary: 100,000 copies of one object flatter every cache (JSON fast paths,
 * MessagePack key caches, record structures). A varied message keeps the
 * article's shape exactly: the same fields in the same order, every string the
 * same UTF-8 byte length, every number the same decimal length and the same
 * encoded width in every codec. So the byte sizes of a varied run equal the
 * article's, and only the contents (and therefore the caches) change.
 */

import { HarnessError } from "./harness-errors.ts";
import {
  EXAMPLE_MESSAGES,
  isBuiltIn,
  PAYLOAD_NAMES,
  type BuiltInMessage,
  type BuiltInPayload,
  type LargeMessage,
  type MediumMessage,
  type Message,
  type PayloadName,
  type SmallMessage,
} from "../../protocols/messages.ts";
import { createRng, randomDecimal, randomInt, randomString, type Rng } from "./random.ts";
import { makeChat, makeGameTick, makeMarket } from "./set-generator.ts";
import type { Settings } from "./settings.ts";
import { cycleUserMessages } from "./user-messages.ts";

/**
 * Integer ranges that keep each codec's encoded width equal to the article's
 * value: small num 100..127 (3 JSON digits, one-byte varint, MessagePack
 * positive fixint, two-byte zigzag varint as Avro writes it); medium
 * 10000..16383 (two-byte varint, uint16, three-byte zigzag varint); large
 * num 100000000..134217727 (four-byte varint and four-byte zigzag varint,
 * uint32); num2 -134217728..-100000000 (four-byte zigzag varint, int32).
 */
function makeSmall(rng: Rng): SmallMessage {
  return { text: randomString(rng, 12, "ascii"), num: randomInt(rng, 100, 127) };
}
function makeMedium(rng: Rng): MediumMessage {
  return {
    text: randomString(rng, 12, "ascii"),
    text2: randomString(rng, 51, "mixed"),
    num: randomInt(rng, 10000, 16383),
    decimal: randomDecimal(rng, 7, false),
  };
}
function makeLarge(rng: Rng): LargeMessage {
  return {
    text: randomString(rng, 12, "ascii"),
    text2: randomString(rng, 111, "mixed"),
    text3: randomString(rng, 26, "ascii"),
    text4: randomString(rng, 44, "mixed"),
    num: randomInt(rng, 100000000, 134217727),
    decimal: randomDecimal(rng, 15, false),
    num2: randomInt(rng, -134217728, -100000000),
    decimal2: randomDecimal(rng, 15, true),
  };
}
/** A payload's maker: its fields from `rng`, and any field added to it later from `later` (set-generator.ts). */
const MAKERS: Record<BuiltInPayload, (rng: Rng, later: Rng) => BuiltInMessage> = {
  small: makeSmall,
  medium: makeMedium,
  large: makeLarge,
  chat: makeChat,
  "game-tick": makeGameTick,
  market: makeMarket,
};

export interface MessageSetOptions {
  /** How many messages. */
  count: number;
  /** The index of the first: messages [start, start + count) of the seed's sequence (default 0). */
  start?: number;
  /** Seed of the generator; the same seed gives the same messages. */
  seed: number;
  /** true: every message is the article's exact message, or the set's example (a fresh copy each). */
  fixed: boolean;
}

/** Mixed into a payload's stream seed for its second stream, the one fields added later draw from. */
const LATER_STREAM = 0x85ebca6b;

/**
 * Messages per block of a seed's sequence. Each block draws from streams of its own, so any
 * part of the sequence is made without the messages before it (codec mode's processes each
 * make only the messages they time); the first block's streams are the payload's own, so a seed's
 * first messages are what they were before blocks existed.
 */
const MESSAGE_BLOCK = 4096;

/**
 * `count` messages of one payload kind, from index `start` of the seed's
 * sequence. Each payload kind draws from its own stream (seed mixed with the
 * payload's index), so selecting fewer payloads does not change the messages
 * of the others; and a field added to a payload later (game-tick's match)
 * draws from a second stream of its own, so adding it did not change the
 * other fields a seed gives.
 */
export function makeMessages(payload: PayloadName, options: MessageSetOptions): BuiltInMessage[] {
  if (!isBuiltIn(payload))
    throw new HarnessError("NO_MESSAGES", `no generator for '${payload}': a user's messages come from their file`);
  const out = new Array<BuiltInMessage>(options.count);
  if (options.fixed) {
    const example = EXAMPLE_MESSAGES[payload];
    const flat = Object.values(example).every((v) => typeof v !== "object");
    for (let i = 0; i < options.count; i++) out[i] = flat ? { ...example } : structuredClone(example);
    return out;
  }
  const start = options.start ?? 0;
  const stream = options.seed ^ Math.imul(PAYLOAD_NAMES.indexOf(payload) + 1, 0x9e3779b1);
  const make = MAKERS[payload];
  let i = 0;
  for (let block = Math.floor(start / MESSAGE_BLOCK); i < options.count; block++) {
    const blockStream = block === 0 ? stream : stream ^ Math.imul(block, 0xc2b2ae35);
    const rng = createRng(blockStream);
    const later = createRng(blockStream ^ LATER_STREAM);
    // Within the block, the messages before `start` are drawn and dropped.
    for (let k = block * MESSAGE_BLOCK; k < (block + 1) * MESSAGE_BLOCK && i < options.count; k++) {
      const m = make(rng, later);
      if (k >= start) out[i++] = m;
    }
  }
  return out;
}

/**
 * `count` messages of any payload a run has, from index `start`: a
 * built-in's from its generator (`seed`: the run's unless a client draws its
 * own), a user's from their file (cycled).
 */
export function messagesFor(
  settings: Pick<Settings, "seed" | "fixed" | "userMessages">,
  payload: PayloadName,
  count: number,
  seed = settings.seed,
  start = 0,
): Message[] {
  if (!isBuiltIn(payload)) return cycleUserMessages(settings.userMessages, payload, count, start);
  return makeMessages(payload, { count, seed, fixed: settings.fixed, start });
}
