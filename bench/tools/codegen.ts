/**
 * `npm run codegen [-- --check] [FOLDER...]`: regenerates the code the
 * schema codecs use (protocols/generated/) from their schemas
 * (protocols/messages.proto and protocols/schemas/, docs/schemas.md).
 *
 * Without --check it replaces each folder with freshly generated code. With
 * --check it generates into a temporary folder and compares: exit 1 naming
 * every file that differs, is missing or is extra, so a schema changed
 * without its code (or code edited by hand) is caught. A generator whose
 * program is not installed gets one line naming what to install: without
 * --check that is an error (its code cannot be made); with --check it is
 * skipped, except under CI=true, as CI installs every generator.
 */

import { mkdtempSync, readFileSync, rmSync, cpSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { ROOT } from "../cli/paths.ts";
import { filesUnder, type Generator } from "./codegen/code-generator.ts";
import { pbfGenerator } from "./codegen/pbf-compile.ts";
import { protobufEsGenerator } from "./codegen/protoc-gen-es.ts";
import { flatbuffersGenerator } from "./codegen/flatc.ts";
import { capnpGenerator } from "./codegen/capnp-compile.ts";
import { bebopGenerator } from "./codegen/bebopc.ts";

export const GENERATORS: readonly Generator[] = [
  pbfGenerator,
  protobufEsGenerator,
  flatbuffersGenerator,
  capnpGenerator,
  bebopGenerator,
];
const GENERATED = path.join(ROOT, "protocols/generated");

/** What differs between the committed folder and a fresh one: one line per file. */
export function differences(committed: string, fresh: string): string[] {
  const a = filesUnder(committed);
  const b = filesUnder(fresh);
  const out: string[] = [];
  for (const f of b) if (!a.includes(f)) out.push(`missing: ${f}`);
  for (const f of a) if (!b.includes(f)) out.push(`not generated from the schemas: ${f}`);
  for (const f of a.filter((x) => b.includes(x))) {
    if (readFileSync(path.join(committed, f), "utf8") !== readFileSync(path.join(fresh, f), "utf8"))
      out.push(`differs: ${f}`);
  }
  return out;
}

function main(argv: string[]): number {
  const check = argv.includes("--check");
  const names = argv.filter((a) => a !== "--check");
  const valid = GENERATORS.map((g) => g.folder);
  const unknown = names.find((n) => !valid.includes(n));
  if (unknown !== undefined) {
    process.stderr.write(`codegen: unknown argument '${unknown}'; valid: --check, ${valid.join(", ")}\n`);
    return 2;
  }
  const ci = process.env.CI === "true";
  let failed = false;
  for (const g of GENERATORS.filter((x) => names.length === 0 || names.includes(x.folder))) {
    const program = g.locate();
    if (program === undefined) {
      process.stderr.write(
        `codegen: ${g.folder}: ${g.tool} is not installed (${g.install}); ${check ? "not checked" : "not generated"}\n`,
      );
      if (ci || !check) failed = true;
      continue;
    }
    const scratch = mkdtempSync(path.join(tmpdir(), `codegen-${g.folder}-`));
    try {
      const out = path.join(scratch, g.folder);
      mkdirSync(out);
      g.generate(out, program);
      const target = path.join(GENERATED, g.folder);
      if (check) {
        const diff = differences(target, out);
        if (diff.length > 0) {
          failed = true;
          process.stderr.write(
            `codegen: protocols/generated/${g.folder} disagrees with its schemas (run npm run codegen):\n${diff.map((d) => `  ${d}\n`).join("")}`,
          );
        } else process.stdout.write(`codegen: ${g.folder}: current\n`);
      } else {
        rmSync(target, { recursive: true, force: true });
        cpSync(out, target, { recursive: true });
        process.stdout.write(`codegen: ${g.folder}: ${filesUnder(target).length} files written\n`);
      }
    } catch (e) {
      failed = true;
      process.stderr.write(`codegen: ${g.folder}: ${(e as Error).message}\n`);
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  }
  return failed ? 1 : 0;
}

if (import.meta.main) process.exit(main(process.argv.slice(2)));
