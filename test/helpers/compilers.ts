/**
 * Shared by the tests of evolve mode's compiled codecs: whether a codec's schema compiler is
 * installed here, or a visible reason to skip what needs it (never under CI=true, where a
 * missing compiler is a failure: CI installs flatbuffers-compiler and capnproto).
 */
import { schemaCompilers } from "../../bench/cli/schema-compilers.ts";
import type { CompiledCodec } from "../../protocols/compiled-versions.ts";

/** Why `codec`'s compiler cannot run here, or undefined when it can. */
function compilerMissing(codec: CompiledCodec): string | undefined {
  const c = schemaCompilers()[codec];
  return typeof c === "function" ? undefined : (c?.missing ?? "no compiler");
}

/** True when `file`'s tests of `codec` must be skipped; says so on stderr. */
export function skipWithoutCompiler(file: string, codec: CompiledCodec): boolean {
  const missing = compilerMissing(codec);
  if (missing === undefined || process.env.CI === "true") return false;
  process.stderr.write(`\n[${file}] SKIPPED for ${codec}: ${missing}\n\n`);
  return true;
}
