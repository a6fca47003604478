/**
 * Bebop: bebopc (the bebop-tools npm package's compiler) turns each schema
 * of protocols/schemas/bebop/ into protocols/generated/bebop/<payload>.ts,
 * TypeScript that the `bebop` runtime package runs. One bebopc run per
 * schema, so each payload's code stands alone; no binary schema blob
 * (emitBinarySchema=false: the codec does not use it).
 */

import { mkdtempSync, readdirSync, renameSync, rmSync } from "node:fs";
import path from "node:path";
import { markGenerated, SCHEMAS, type Generator } from "./code-generator.ts";
import { bebopcPath, run } from "../../cli/programs.ts";

const BEBOP_SCHEMAS = path.join(SCHEMAS, "bebop");

export const bebopGenerator: Generator = {
  folder: "bebop",
  tool: "bebopc",
  install: "npm install (the bebop-tools package)",
  locate: bebopcPath,
  generate(out: string, program: string): void {
    const schemas = readdirSync(BEBOP_SCHEMAS)
      .filter((f) => f.endsWith(".bop"))
      .sort();
    for (const schema of schemas) {
      // Each schema's code in a folder of its own first, so its do-not-edit line names its own schema.
      const scratch = mkdtempSync(path.join(out, ".bebopc-"));
      const name = schema.replace(/\.bop$/, ".ts");
      const file = path.join(scratch, name);
      // --no-warn=200: the enum's 0 is Idle (as in messages.proto), not the "Unknown" bebopc recommends.
      run(program, ["-i", schema, "build", "--no-warn=200", "-g", `ts:${file},emitBinarySchema=false`], BEBOP_SCHEMAS);
      markGenerated(scratch, `protocols/schemas/bebop/${schema}`);
      renameSync(file, path.join(out, name));
      rmSync(scratch, { recursive: true });
    }
  },
};
