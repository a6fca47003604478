/**
 * A user's own Protobuf message type (`--proto FILE --proto-type NAME`) for
 * their messages: checked once where it is given; the plan's catalog
 * (client/harness/plan.ts) then carries a protobuf codec made for it.
 */

import { userProtoType } from "../../protocols/protobuf.ts";
import { SettingError } from "./harness-errors.ts";

/** Checks a .proto and its type name: one line opening with `label` (`--proto FILE`) and saying what is wrong, as a SettingError. */
export function checkUserProto(label: string, text: string, typeName: string): void {
  try {
    userProtoType(text, typeName);
  } catch (e) {
    throw new SettingError(`${label}: ${(e as Error).message}`);
  }
}
