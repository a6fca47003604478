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

/**
 * Why a module could not be imported, in the user's terms: the file missing, an import of theirs
 * that does not resolve (named with the file that imports it), or the first syntax error with its
 * line and column; never the importing file of the benchmark's own.
 */
function importFault(file: string, e: unknown): string {
  // No node:path here: the page imports this file too.
  const base = (f: string): string => f.split(/[\\/]/).pop() ?? f;
  type Place = { file?: string; line?: number; column?: number };
  const err = e as {
    specifier?: string;
    referrer?: string;
    message?: string;
    // Bun's build errors (message, position); esbuild's, under other loaders (text, location).
    errors?: { message?: string; text?: string; position?: Place; location?: Place }[];
  };
  // Without the terminal's colours some loaders put in their messages.
  const message = (err.message ?? String(e)).replace(/\u001b\[[0-9;]*m/g, "");
  // Bun sets specifier and referrer; other loaders say the same in their message.
  const notFound = /^Cannot find (?:module|package) '([^']+)' (?:imported )?from '?([^'\n]+?)'?$/m.exec(message);
  const specifier = err.specifier ?? notFound?.[1];
  const referrer = err.referrer ?? notFound?.[2];
  if (specifier !== undefined) {
    if (specifier === file || base(referrer ?? "") === "codec-modules.ts") return "no such file";
    const bare = !/^(\.|\/|file:)/.test(specifier);
    const pkg = specifier
      .split("/")
      .slice(0, specifier.startsWith("@") ? 2 : 1)
      .join("/");
    return `its import '${specifier}' (in ${base(referrer ?? file)}) cannot be found${bare ? `; install it in your project (npm install ${pkg})` : ""}`;
  }
  const first = err.errors?.[0];
  const text = first?.message ?? first?.text;
  const place = first?.position ?? first?.location;
  if (text) {
    const where = place?.line !== undefined ? ` at ${base(place.file ?? file)}:${place.line}:${place.column ?? 0}` : "";
    return `it does not compile${where}: ${text}`;
  }
  // A transform's report: "[PARSE_ERROR] Unexpected token ... file.ts:1:17".
  const parse = /\[[A-Z_]+\]\s*([^\n]+)[\s\S]*?([^\s[\]]+):(\d+):(\d+)/.exec(message);
  if (parse) return `it does not compile at ${base(parse[2]!)}:${parse[3]}:${parse[4]}: ${parse[1]!.trim()}`;
  return message.split("\n")[0]!;
}

/**
 * Imports one module: its codec, or one line naming the file and the fault, as a SettingError
 * (`name`: what the line calls the module, the option as the caller spells it where one named it).
 */
export async function importCodecModule(file: string, name = "codec module", specifier: string = file): Promise<Codec> {
  let mod: { default?: unknown };
  try {
    mod = (await import(specifier)) as { default?: unknown };
  } catch (e) {
    throw new SettingError(`${name} ${file}: cannot import it (${importFault(file, e)})`);
  }
  const wrong = codecShapeError(mod.default);
  if (wrong !== undefined) throw new SettingError(`${name} ${file}: ${wrong} (docs/codecs.md has the interface)`);
  return mod.default as Codec;
}

/** Imports codec modules a front end checked already (one line naming the file and the fault, as a SettingError), in order. */
export async function importCodecModules(
  files: readonly string[],
  specifierOf: (file: string, i: number) => string = (file) => file,
): Promise<Codec[]> {
  const codecs: Codec[] = [];
  for (const [i, file] of files.entries())
    codecs.push(await importCodecModule(file, "codec module", specifierOf(file, i)));
  return codecs;
}
