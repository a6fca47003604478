/**
 * pbf's code generator: pbf's own compiler (`pbf` CLI of the pbf package,
 * node_modules/pbf/bin/pbf, which parses the schema with
 * resolve-protobuf-schema and calls compileRaw) turns
 * protocols/messages.proto into one ES module of read/write functions per
 * message type, written as protocols/generated/pbf/messages.ts.
 *
 * The pbf compiler has no per-type selection (only --no-read/--no-write,
 * and the codec uses both), so every message type is generated. Its output
 * is plain JavaScript, which TypeScript accepts; markGenerated adds
 * `@ts-nocheck` (its parameters are untyped).
 */

import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { markGenerated, PROTO_FILE, type Generator } from "./code-generator.ts";
import { inNodeModules } from "../../cli/programs.ts";

export const pbfGenerator: Generator = {
  folder: "pbf",
  tool: "pbf",
  install: "npm package pbf (npm install)",
  locate: () => inNodeModules("pbf/bin/pbf"),
  generate(out: string, program: string): void {
    // The CLI prints the module to stdout; run it with this process's runtime (bun or node).
    const r = spawnSync(process.execPath, [program, path.basename(PROTO_FILE)], {
      cwd: path.dirname(PROTO_FILE),
      encoding: "utf8",
      timeout: 120_000,
    });
    if (r.error) throw new Error(`pbf: ${r.error.message}`);
    if (r.status !== 0 || r.stdout === "")
      throw new Error(`pbf ${path.basename(PROTO_FILE)} exited ${r.status}:\n${(r.stderr || r.stdout).trim()}`);
    writeFileSync(path.join(out, "messages.ts"), r.stdout);
    markGenerated(out, "protocols/messages.proto");
  },
};
