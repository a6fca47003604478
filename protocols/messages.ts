/**
 * The benchmark's messages: the three shapes of the original article
 * (small, medium, large), their names, the article's exact values and the
 * kind of every field. Codecs, the server's shape check and the message
 * generator all read them from here. Imports nothing.
 */

export type PayloadName = "small" | "medium" | "large";
export const PAYLOAD_NAMES: readonly PayloadName[] = ["small", "medium", "large"];

export interface SmallMessage {
  text: string;
  num: number;
}
export interface MediumMessage {
  text: string;
  text2: string;
  num: number;
  decimal: number;
}
export interface LargeMessage {
  text: string;
  text2: string;
  text3: string;
  text4: string;
  num: number;
  decimal: number;
  num2: number;
  decimal2: number;
}
export type Message = SmallMessage | MediumMessage | LargeMessage;

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

/** What a field holds: its type in messages.proto, and what the shape check accepts. */
export type FieldKind = "string" | "uint32" | "int32" | "double";

export const FIELD_KINDS: Readonly<Record<string, FieldKind>> = {
  text: "string",
  text2: "string",
  text3: "string",
  text4: "string",
  num: "uint32",
  num2: "int32",
  decimal: "double",
  decimal2: "double",
};

/** Each payload's fields, in wire order (the order of the article's objects). */
export const PAYLOAD_FIELDS: Readonly<Record<PayloadName, readonly string[]>> = {
  small: Object.keys(ARTICLE_MESSAGES.small),
  medium: Object.keys(ARTICLE_MESSAGES.medium),
  large: Object.keys(ARTICLE_MESSAGES.large),
};
