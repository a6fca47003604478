/**
 * Reads the files a user brings (`--messages FILE`, `--proto FILE`,
 * `--codec-module FILE`), for
 * the bench and the server alike: each messages file becomes a payload
 * named after the file; everything is checked in full before anything runs,
 * with one line naming the file and the fault.
 */

import { readFileSync } from "node:fs";
import path from "node:path";
import type { Codec } from "../../protocols/codec.ts";
import { catalogFor } from "./plan.ts";
import { importCodecModule } from "./codec-modules.ts";
import { type UserMessagesFile, type UserProtoFile } from "./settings.ts";
import { SettingError } from "./harness-errors.ts";
import { checkPayloadName, payloadNameOf, userMessagesOf } from "./user-messages.ts";
import { checkUserProto } from "./user-proto.ts";

/** A file's text, or a SettingError naming the flag, the file and why it cannot be read. */
function readUserFile(flag: string, file: string): string {
  try {
    return readFileSync(file, "utf8");
  } catch (e) {
    const code = (e as { code?: string }).code;
    const why =
      code === "ENOENT"
        ? "no such file"
        : code === "EISDIR"
          ? "is a directory"
          : code === "EACCES"
            ? "permission denied"
            : (e as Error).message;
    throw new SettingError(`${flag} ${file}: cannot read it (${why})`);
  }
}

/**
 * `--messages FILE` or `--messages NAME=FILE`: the payload's name (the file's, without its
 * extension, unless given) and the file. A `=` counts as a name's end only when what precedes it
 * could be a payload's name (no slash), so a path with `=` in it still reads as a path.
 */
export function messagesArgument(given: string): { name: string; file: string; named: boolean } {
  const m = /^([^=\\/]+)=(.+)$/.exec(given);
  if (m) return { name: m[1]!, file: m[2]!, named: true };
  return { name: payloadNameOf(given), file: given, named: false };
}

/** Every `--messages` file, read, and parsed once to check it (the parse is kept for the run). */
export function readMessagesFiles(files: readonly string[]): UserMessagesFile[] {
  const out: UserMessagesFile[] = [];
  for (const given of files) {
    const { name, file, named } = messagesArgument(given);
    checkPayloadName(name, file, named);
    if (out.some((f) => f.name === name))
      throw new SettingError(`--messages ${file}: another file is also named '${name}'; payload names must differ`);
    const f = { name, file, text: readUserFile("--messages", file) };
    userMessagesOf([f], name);
    out.push(f);
  }
  return out;
}

/** `--proto FILE --proto-type NAME`: both or neither, and only with messages of one's own. */
export function readProtoFile(
  file: string | undefined,
  type: string | undefined,
  messages: readonly UserMessagesFile[],
): UserProtoFile | undefined {
  if (file === undefined && type === undefined) return undefined;
  if (file === undefined || type === undefined)
    throw new SettingError(
      `--proto FILE and --proto-type NAME go together (got only ${file === undefined ? "--proto-type" : "--proto"})`,
    );
  if (messages.length === 0)
    throw new SettingError("--proto gives the Protobuf type of your own messages; add --messages FILE");
  const text = readUserFile("--proto", file);
  checkUserProto(file, text, type);
  return { file, text, type };
}

/** A codec module the user named, imported: its absolute path and its codec. */
export interface CodecModule {
  file: string;
  codec: Codec;
}

/** Imports the `--codec-module` files, in order; one line naming the file and the fault, as a SettingError. */
export async function importCodecModuleFiles(files: readonly string[]): Promise<CodecModule[]> {
  const modules: CodecModule[] = [];
  for (const given of files) {
    if (given === "") throw new SettingError("--codec-module needs a file");
    const file = path.resolve(given);
    const codec = await importCodecModule(file);
    // The catalog's own check of a name taken (built-in, raw, an earlier module), said with the file's name.
    try {
      catalogFor({ userMessages: [] }, [...modules.map((m) => m.codec), codec]);
    } catch (e) {
      throw new SettingError(`--codec-module ${given}: ${(e as Error).message}`);
    }
    modules.push({ file, codec });
  }
  return modules;
}
