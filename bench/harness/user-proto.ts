/**
 * A user's own Protobuf message type (`--proto FILE --proto-type NAME`) for
 * their messages: checked once where it is given, then handed to the
 * protobuf codec in every process that runs codecs on those messages.
 */

import { userProtoType, useUserProto } from "../../protocols/protobuf.ts";
import { SettingError, type Settings } from "./settings.ts";

/** Checks a .proto and its type name: one line saying what is wrong, as a SettingError. */
export function checkUserProto(file: string, text: string, typeName: string): void {
  const type = userProtoType(text, typeName);
  if (typeof type === "string") throw new SettingError(`--proto ${file}: ${type}`);
}

/**
 * Gives the protobuf codec the user's message type for their payloads.
 * Every process that runs codecs on them calls it first: the bench,
 * codec-mode forks, the clients, worker threads, the page, the server.
 */
export function applyUserProto(settings: Pick<Settings, "userProto" | "userMessages">): void {
  const proto = settings.userProto;
  if (proto) useUserProto(settings.userMessages.map((f) => f.name), proto.text, proto.type);
}
