/**
 * The message sets of real-time applications, beside the article's toy
 * shapes (docs/message-sets.md says why each is representative):
 *
 * - chat: ids, a user name, UTF-8 text of varied length, a millisecond
 *   timestamp, two optional fields and a small array of reactions;
 * - game-tick: the match it belongs to (its routing key), a tick number and
 *   a varied-length array of entities, each six doubles, an id and a state
 *   enum;
 * - market: a symbol, best bid and ask with sizes, a sequence number and a
 *   microsecond timestamp (both above 2^32, as a real feed's are).
 *
 * The message types are the custom-binary layouts' (custom-binary/), which
 * carry exactly these fields; only types are imported from there, so
 * loading the messages never loads a codec.
 */

import type { ChatMessage, GameTickMessage, MarketMessage } from "../custom-binary/index.ts";

export type { ChatMessage, Entity, GameTickMessage, MarketMessage, Reaction } from "../custom-binary/index.ts";

/** An entity's state, by its number: what messages.proto's EntityState names. */
export const ENTITY_STATES = ["idle", "moving", "attacking", "dead"] as const;

/** One message of each set, as the spec's test vectors and `--fixed` show it. */
export const SET_EXAMPLES: {
  readonly chat: ChatMessage;
  readonly "game-tick": GameTickMessage;
  readonly market: MarketMessage;
} = {
  chat: {
    id: 1001,
    room: 7,
    user: "ana",
    text: "Ça marche 👍",
    sentAt: 1763900000000,
    reactions: [{ emoji: "🎉", count: 2 }],
    replyTo: 1000,
  },
  "game-tick": {
    match: 12,
    tick: 600,
    entities: [{ id: 1, state: 1, x: 10.5, y: 0, z: -3.25, vx: 1.5, vy: 0, vz: -0.5 }],
  },
  market: {
    symbol: "BTC-USD",
    seq: 5000000001,
    ts: 1763900000123456,
    bid: 43125.5,
    bidSize: 0.25,
    ask: 43126,
    askSize: 1.5,
  },
};
