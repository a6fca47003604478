/**
 * Codecs of the user's own (`--codec-module FILE`, docs/codecs.md): a
 * module whose default export implements the Codec interface. Each process
 * that runs codecs imports the modules first (the bench, codec-mode forks,
 * worker threads, the server; the page from the server), and the codec
 * joins the built-in ones: the same verification, every mode.
 */

import { codecShapeError, getCodec } from "../../protocols/registry.ts";
import { registerCodec } from "../../protocols/socket/contract.ts";
import type { Codec } from "../../protocols/codec.ts";
import { SettingError, type CodecModuleFile } from "./settings.ts";

/** Modules this process has imported, by file. */
const loaded = new Map<string, CodecModuleFile>();

/** The codec a module imported in this process registered, if it was. */
export function loadedCodecModule(file: string): CodecModuleFile | undefined {
  return loaded.get(file);
}

/** Imports one module and registers its codec; one line naming the file and the fault, as a SettingError. */
export async function importCodecModule(file: string, specifier: string = file): Promise<CodecModuleFile> {
  let mod: { default?: unknown };
  try {
    mod = (await import(specifier)) as { default?: unknown };
  } catch (e) {
    throw new SettingError(`--codec-module ${file}: cannot import it (${(e as Error).message.split("\n")[0]})`);
  }
  const wrong = codecShapeError(mod.default);
  if (wrong !== undefined) throw new SettingError(`--codec-module ${file}: ${wrong} (docs/codecs.md has the interface)`);
  const codec = mod.default as Codec;
  if (getCodec(codec.name) !== codec) {
    try {
      registerCodec(codec);
    } catch (e) {
      throw new SettingError(`--codec-module ${file}: ${(e as Error).message}`);
    }
  }
  const m = { file, name: codec.name };
  loaded.set(file, m);
  return m;
}

/** Imports every module the settings name that this process has not yet (`specifierOf`: where this process finds module i). */
export async function loadCodecModules<M extends CodecModuleFile>(modules: readonly M[] = [], specifierOf: (m: M, i: number) => string = (m) => m.file): Promise<void> {
  for (const [i, m] of modules.entries()) {
    if (getCodec(m.name) === undefined) await importCodecModule(m.file, specifierOf(m, i));
  }
}
