/**
 * Layout 4: a chat message (docs/custom-binary.md, "chat"). Two optional
 * fields behind a presence byte, millisecond timestamps as 53-bit varints,
 * and an array of reactions after the strings.
 */

import { DecodeError, EncodeError, hexByte } from "./errors.ts";
import { ASCII_FLAG, HEADER, maxString } from "./header.ts";
import type { BinaryReader } from "./reader.ts";
import type { BinaryWriter } from "./writer.ts";

export interface Reaction {
  emoji: string;
  count: number;
}

/** Layout of message type 4. Optional fields are absent, never `undefined`-valued, on decode. */
export interface ChatMessage {
  id: number;
  room: number;
  user: string;
  text: string;
  /** Milliseconds since the Unix epoch (above 2^32). */
  sentAt: number;
  reactions: Reaction[];
  replyTo?: number;
  editedAt?: number;
}

/** Presence byte: bit 0 replyTo, bit 1 editedAt; the other bits are reserved (0). */
const HAS_REPLY_TO = 1;
const HAS_EDITED_AT = 2;

export function writeChat(w: BinaryWriter, m: ChatMessage): void {
  const reactions = m.reactions;
  if (!Array.isArray(reactions)) throw new EncodeError("reactions", `expected an array, got ${typeof reactions}`);
  let max = 2 + 5 + 5 + 8 + 5 + 8 + maxString(m.user) + maxString(m.text) + 5;
  for (let i = 0; i < reactions.length; i++) max += maxString(reactions[i]!.emoji) + 5;
  w.begin(max);
  w.u8(HEADER.chat);
  const replyTo = m.replyTo;
  const editedAt = m.editedAt;
  w.u8((replyTo !== undefined ? HAS_REPLY_TO : 0) | (editedAt !== undefined ? HAS_EDITED_AT : 0));
  w.varUint32("id", m.id);
  w.varUint32("room", m.room);
  w.varUint53("sentAt", m.sentAt);
  if (replyTo !== undefined) w.varUint32("replyTo", replyTo);
  if (editedAt !== undefined) w.varUint53("editedAt", editedAt);
  w.string("user", m.user);
  w.string("text", m.text);
  w.varUint32("reactions", reactions.length);
  for (let i = 0; i < reactions.length; i++) {
    const r = reactions[i]!;
    w.string("reactions.emoji", r.emoji);
    w.varUint32("reactions.count", r.count);
  }
  if (w.stringsAscii) w.orAt(0, ASCII_FLAG);
}

export function readChat(r: BinaryReader, ascii: boolean): ChatMessage {
  const flags = r.u8();
  if (flags > (HAS_REPLY_TO | HAS_EDITED_AT))
    throw new DecodeError("RESERVED_BITS", 1, flags, `presence byte ${hexByte(flags)} has reserved bits set`);
  const id = r.varUint32();
  const room = r.varUint32();
  const sentAt = r.varUint53();
  const replyTo = (flags & HAS_REPLY_TO) !== 0 ? r.varUint32() : undefined;
  const editedAt = (flags & HAS_EDITED_AT) !== 0 ? r.varUint53() : undefined;
  const user = r.string(ascii);
  const text = r.string(ascii);
  const n = r.count(2); // an empty emoji string and a one-byte count
  // The flag is checked right after the last string (the spec): after text
  // when there are no reactions, else after the last reaction's emoji, before its count.
  if (n === 0) r.asciiFlagChecked(ascii);
  const reactions = new Array<Reaction>(n);
  for (let i = 0; i < n; i++) {
    const emoji = r.string(ascii);
    if (i === n - 1) r.asciiFlagChecked(ascii);
    reactions[i] = { emoji, count: r.varUint32() };
  }
  const m: ChatMessage = { id, room, user, text, sentAt, reactions };
  if (replyTo !== undefined) m.replyTo = replyTo;
  if (editedAt !== undefined) m.editedAt = editedAt;
  return m;
}
