/**
 * FlatBuffers: `flatc --ts` turns protocols/schemas/flatbuffers/*.fbs (one
 * schema per built-in payload, namespace wsbench) into
 * protocols/generated/flatbuffers/: a wsbench/ folder with one class per
 * table, struct and enum, and one `<payload>_generated.ts` re-exporting a
 * payload's types. protocols/flatbuffers.ts uses the tables' static
 * builder functions and accessors; the object API (--gen-object-api) is
 * left out, the codec builds its plain objects itself.
 *
 * flatc runs in the schemas' folder with relative file names, so nothing
 * in its output depends on where the checkout is.
 */

import { readdirSync } from "node:fs";
import path from "node:path";
import { markGenerated, SCHEMAS, type Generator } from "./code-generator.ts";
import { onPath, run } from "../../cli/programs.ts";

const DIR = path.join(SCHEMAS, "flatbuffers");

export const flatbuffersGenerator: Generator = {
  folder: "flatbuffers",
  tool: "flatc",
  install: "apt-get install flatbuffers-compiler",
  locate: () => onPath("flatc"),
  generate(out: string, program: string): void {
    const schemas = readdirSync(DIR)
      .filter((f) => f.endsWith(".fbs"))
      .sort();
    if (schemas.length === 0) throw new Error(`no .fbs schemas in ${path.relative(process.cwd(), DIR) || DIR}`);
    run(program, ["--ts", "-o", out, ...schemas], DIR);
    markGenerated(out, "protocols/schemas/flatbuffers/*.fbs");
  },
};
