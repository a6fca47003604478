/**
 * Reads what a user brings (`--messages FILE`, `--proto FILE`, `--codec-module FILE`, and the
 * messages compare() takes inline), for the bench and the server alike: each messages file
 * becomes a payload named after the file; everything is checked in full before anything runs,
 * with one line naming the option (as the caller spells it: `spell`), the file and the fault.
 */

import { readFileSync } from "node:fs";
import path from "node:path";
import type { Codec } from "../../protocols/codec.ts";
import { catalogFor } from "./plan.ts";
import { importCodecModule } from "./codec-modules.ts";
import { type UserMessagesFile, type UserProtoFile } from "./settings.ts";
import { SettingError } from "./harness-errors.ts";
import { checkPayloadName, isPayloadName, payloadNameOf, userMessagesOf } from "./user-messages.ts";
import { checkUserProto } from "./user-proto.ts";

/** How the caller names the options of the user's files: `--codec-module` on the command line, `codecModules` in compare(). */
export type SpellUserFiles = (key: "messages" | "proto" | "protoType" | "codecModules") => string;

/** Messages given in the call rather than in a file: a payload name and its message objects. */
export interface InlineMessages {
  /** The payload's name in every output: 1-40 letters, digits, '.', '_' or '-', not a built-in payload's. */
  name: string;
  /** Plain objects that JSON carries unchanged (they travel to the server and the other processes as JSON text). */
  messages: readonly object[];
}

/** A file's text, or a SettingError naming the option, the file and why it cannot be read. */
function readUserFile(option: string, file: string): string {
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
    throw new SettingError(`${option} ${file}: cannot read it (${why})`);
  }
}

/**
 * `--messages FILE` or `--messages NAME=FILE`: the payload's name (the file's, without its
 * extension, unless given) and the file. A `=` counts as a name's end only when what precedes it
 * could be a payload's name (no slash), so a path with `=` in it still reads as a path.
 */
function messagesArgument(given: string): { name: string; file: string; named: boolean } {
  const m = /^([^=\\/]+)=(.+)$/.exec(given);
  if (m) return { name: m[1]!, file: m[2]!, named: true };
  return { name: payloadNameOf(given), file: given, named: false };
}

/**
 * Where a value stops being what JSON text carries back unchanged: `-0`, `undefined`, NaN, a Date,
 * a Map, a typed array, a bigint. The path of the first such value and what JSON makes of it.
 */
function jsonChange(v: unknown, at: string): string | undefined {
  if (v === null || typeof v === "string" || typeof v === "boolean") return undefined;
  if (typeof v === "number") {
    if (Object.is(v, -0)) return `${at} is -0, which JSON writes as 0`;
    return Number.isFinite(v) ? undefined : `${at} is ${v}, which JSON writes as null`;
  }
  if (typeof v !== "object")
    return `${at} is ${typeof v === "undefined" ? "undefined" : `a ${typeof v}`}, which JSON leaves out or refuses`;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      const change = jsonChange(v[i], `${at}[${i}]`);
      if (change) return change;
    }
    return undefined;
  }
  const proto = Object.getPrototypeOf(v);
  if (proto !== Object.prototype && proto !== null)
    return `${at} is a ${(v as object).constructor?.name ?? "class instance"}, which JSON does not carry as it is; give plain objects`;
  for (const [k, x] of Object.entries(v)) {
    const change = jsonChange(x, `${at}.${k}`);
    if (change) return change;
  }
  return undefined;
}

/** Inline messages as a payload: their name checked, their text the JSON they travel as (no file). */
function inlinePayload(given: InlineMessages, option: string): UserMessagesFile {
  const { name, messages } = given;
  const label = `${option} '${String(name)}'`;
  if (typeof name !== "string" || !isPayloadName(name))
    throw new SettingError(
      `${label}: a payload name is 1-40 letters, digits, '.', '_' or '-', and not a built-in payload's (small, medium, large, ...)`,
    );
  if (!Array.isArray(messages)) throw new SettingError(`${label}: messages must be an array of objects`);
  const change = jsonChange(messages, "messages");
  if (change)
    throw new SettingError(
      `${label}: ${change}; inline messages travel as JSON text, so give this payload as a file to keep that value`,
    );
  return { name, text: JSON.stringify(messages) };
}

/**
 * The user's messages, each a file (`FILE` or `NAME=FILE`) or given inline, read and parsed once
 * to check them (the parse is kept for the run); two payloads of one name are refused.
 */
export function readUserMessages(
  given: readonly (string | InlineMessages)[],
  spell: SpellUserFiles,
): UserMessagesFile[] {
  const option = spell("messages");
  const out: UserMessagesFile[] = [];
  for (const item of given) {
    let f: UserMessagesFile;
    if (typeof item === "string") {
      const { name, file, named } = messagesArgument(item);
      checkPayloadName(name, file, named, option);
      if (out.some((o) => o.name === name))
        throw new SettingError(`${option} ${file}: another file is also named '${name}'; payload names must differ`);
      f = { name, file, text: readUserFile(option, file) };
    } else {
      f = inlinePayload(item, option);
      if (out.some((o) => o.name === f.name))
        throw new SettingError(`${option} '${f.name}': two payloads are named '${f.name}'; payload names must differ`);
    }
    userMessagesOf([f], f.name, `${option} ${f.file ?? `'${f.name}'`}`);
    out.push(f);
  }
  return out;
}

/** `--proto FILE --proto-type NAME`: both or neither, and only with messages of one's own. */
export function readProtoFile(
  file: string | undefined,
  type: string | undefined,
  messages: readonly UserMessagesFile[],
  spell: SpellUserFiles,
): UserProtoFile | undefined {
  if (file === undefined && type === undefined) return undefined;
  if (file === undefined || type === undefined)
    throw new SettingError(
      `${spell("proto")} FILE and ${spell("protoType")} NAME go together (got only ${spell(file === undefined ? "protoType" : "proto")})`,
    );
  if (messages.length === 0)
    throw new SettingError(
      `${spell("proto")} gives the Protobuf type of your own messages; add ${spell("messages")} FILE`,
    );
  const text = readUserFile(spell("proto"), file);
  checkUserProto(`${spell("proto")} ${file}`, text, type);
  return { file, text, type };
}

/** A codec module the user named, imported: its absolute path and its codec. */
export interface CodecModule {
  file: string;
  codec: Codec;
}

/** Imports the `--codec-module` files, in order; one line naming the file and the fault, as a SettingError. */
export async function importCodecModuleFiles(files: readonly string[], spell: SpellUserFiles): Promise<CodecModule[]> {
  const option = spell("codecModules");
  const modules: CodecModule[] = [];
  for (const given of files) {
    if (given === "") throw new SettingError(`${option} needs a file`);
    const file = path.resolve(given);
    const codec = await importCodecModule(file, option);
    // The catalog's own check of a name taken (built-in, raw, an earlier module), said with the file's name.
    try {
      catalogFor({ userMessages: [] }, [...modules.map((m) => m.codec), codec]);
    } catch (e) {
      throw new SettingError(`${option} ${given}: ${(e as Error).message}`);
    }
    modules.push({ file, codec });
  }
  return modules;
}
