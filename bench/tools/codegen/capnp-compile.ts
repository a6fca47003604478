/**
 * Cap'n Proto: capnp-es's compiler (`capnp-es -ots:OUT *.capnp`) turns
 * protocols/schemas/capnp/*.capnp (one schema per built-in payload, each
 * with its fixed file id) into protocols/generated/capnp/<payload>.ts, one
 * TypeScript module per schema that protocols/capnp.ts uses. capnp-es runs
 * `capnpc -o-` (Debian's capnp) to parse the schemas and prints the code
 * itself, formatted with the typescript package.
 *
 * It runs in the schemas' folder with relative file names, so nothing in
 * its output depends on where the checkout is.
 */

import { readdirSync } from "node:fs";
import path from "node:path";
import { markGenerated, SCHEMAS, type Generator } from "./code-generator.ts";
import { capnpEsPath, run } from "../../cli/programs.ts";

const DIR = path.join(SCHEMAS, "capnp");

export const capnpGenerator: Generator = {
  folder: "capnp",
  tool: "capnp-es (with capnpc)",
  install: "apt-get install capnproto, and npm install for capnp-es and typescript",
  locate: capnpEsPath,
  generate(out: string, program: string): void {
    const schemas = readdirSync(DIR)
      .filter((f) => f.endsWith(".capnp"))
      .sort();
    if (schemas.length === 0) throw new Error(`no .capnp schemas in ${DIR}`);
    run(program, [`-ots:${out}`, ...schemas], DIR);
    markGenerated(out, "protocols/schemas/capnp/*.capnp");
  },
};
