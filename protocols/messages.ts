/**
 * The benchmark's messages: the three shapes of the original article
 * (small, medium, large) with the article's exact values, the three message
 * sets of real-time applications (chat, game-tick, market: message-sets.ts),
 * and their names. A run may also bring messages of its own, named after
 * their file. Codecs, the server's shape check and the message generator
 * all read them from here.
 */

import type { LargeMessage, MediumMessage, SmallMessage } from "../custom-binary/index.ts";
import { SET_EXAMPLES, type ChatMessage, type GameTickMessage, type MarketMessage } from "./message-sets.ts";

export type ArticlePayload = "small" | "medium" | "large";
export const ARTICLE_PAYLOADS: readonly ArticlePayload[] = ["small", "medium", "large"];
export type SetPayload = "chat" | "game-tick" | "market";
export const MESSAGE_SETS: readonly SetPayload[] = ["chat", "game-tick", "market"];
/** The payloads the project ships. */
export type BuiltInPayload = ArticlePayload | SetPayload;
/** Every built-in payload, in the order tables list them. */
export const PAYLOAD_NAMES: readonly BuiltInPayload[] = [...ARTICLE_PAYLOADS, ...MESSAGE_SETS];
/**
 * The field each built-in payload is routed and filtered by, the one a
 * codec's read-one path reads (PayloadCodec.readKey): market's symbol,
 * chat's room, game-tick's match, and the article's messages' num.
 */
export const ROUTING_KEYS: Readonly<Record<BuiltInPayload, string>> = {
  small: "num",
  medium: "num",
  large: "num",
  chat: "room",
  "game-tick": "match",
  market: "symbol",
};

/** A built-in payload's name, or the name of a user's messages file. */
export type PayloadName = string;

export function isBuiltIn(name: string): name is BuiltInPayload {
  return (PAYLOAD_NAMES as readonly string[]).includes(name);
}

/** Payload names in table order: the built-ins in their order, then the rest as given. */
export function orderPayloads(names: Iterable<string>): string[] {
  const given = [...new Set(names)];
  return [...PAYLOAD_NAMES.filter((p) => given.includes(p)), ...given.filter((p) => !isBuiltIn(p))];
}

// The article's message types are the custom-binary layouts' (types 1-3), which carry exactly their fields.
export type { SmallMessage, MediumMessage, LargeMessage } from "../custom-binary/index.ts";
/** A message of a user's own file: any JSON object. */
interface UserMessage {
  readonly [key: string]: unknown;
}
/** A message of a built-in payload. */
export type BuiltInMessage =
  | SmallMessage
  | MediumMessage
  | LargeMessage
  | ChatMessage
  | GameTickMessage
  | MarketMessage;
export type Message = BuiltInMessage | UserMessage;

/**
 * The article's messages, field for field. The article's code shows small
 * `num: "123"`, but its size table (33 bytes of JSON) is the number 123.
 */
export const ARTICLE_MESSAGES = {
  small: { text: "Hello World!", num: 123 } satisfies SmallMessage,
  medium: {
    text: "Hello World!",
    text2: "Lorem ipsum dolor sit amet, consectetur adipiscing.",
    num: 12345,
    decimal: 3.1415926,
  } satisfies MediumMessage,
  large: {
    text: "Hello World!",
    text2:
      "Lorem ipsum dolor sit amet, consectetur adipiscing elit. Maecenas rutrum odio dolor, a egestas dui bibendum at.",
    text3: "ABCDEFGHIJKLMNOPQRSTUVWXYZ",
    text4: "The quick brown fox jumps over the lazy dog.",
    num: 123456789,
    decimal: 3.141592653589793,
    num2: -123456789,
    decimal2: -3.141592653589793,
  } satisfies LargeMessage,
} as const;

/** One message of each built-in payload: the article's, and an example of each set. */
export const EXAMPLE_MESSAGES: Readonly<Record<BuiltInPayload, BuiltInMessage>> = {
  ...ARTICLE_MESSAGES,
  ...SET_EXAMPLES,
};
