/**
 * Codecs of the user's own (`--codec-module FILE`, docs/codecs.md): a
 * module whose default export implements the Codec interface. A front end
 * imports them while it resolves its plan (client/harness/plan.ts), and
 * every process that measures imports them again as it loads the plan;
 * their codecs join the catalog beside the built-in ones: the same
 * verification, every mode.
 */

import type { Codec } from "../../protocols/codec.ts";
import { codecShapeError } from "../../protocols/registry.ts";
import { SettingError } from "./harness-errors.ts";

/** Imports one module: its codec, or one line naming the file and the fault, as a SettingError. */
export async function importCodecModule(file: string, specifier: string = file): Promise<Codec> {
  let mod: { default?: unknown };
  try {
    mod = (await import(specifier)) as { default?: unknown };
  } catch (e) {
    throw new SettingError(`--codec-module ${file}: cannot import it (${(e as Error).message.split("\n")[0]})`);
  }
  const wrong = codecShapeError(mod.default);
  if (wrong !== undefined)
    throw new SettingError(`--codec-module ${file}: ${wrong} (docs/codecs.md has the interface)`);
  return mod.default as Codec;
}

/** Imports codec modules (one line naming the file and the fault, as a SettingError), in order. */
export async function importCodecModules(
  files: readonly string[],
  specifierOf: (file: string, i: number) => string = (file) => file,
): Promise<Codec[]> {
  const codecs: Codec[] = [];
  for (const [i, file] of files.entries()) codecs.push(await importCodecModule(file, specifierOf(file, i)));
  return codecs;
}
