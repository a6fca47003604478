/**
 * protobuf-es's code generator: `buf generate` (npm package @bufbuild/buf)
 * runs the protoc-gen-es plugin (npm package @bufbuild/protoc-gen-es,
 * node_modules/.bin/protoc-gen-es) with target=ts over
 * protocols/messages.proto, giving protocols/generated/protobuf-es/
 * messages_pb.ts: the schemas (SmallSchema, ...) and message types for
 * @bufbuild/protobuf v2's create/toBinary/fromBinary.
 *
 * The template is given inline (no buf.gen.yaml in the repository), and
 * buf reads a copy of messages.proto in a scratch folder, so it sees no
 * other .proto file and the generated code names only "messages.proto",
 * never the checkout's path. protoc-gen-es has no option to generate a
 * subset of the types; the file is about 8 KB.
 */

import { copyFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { markGenerated, PROTO_FILE, type Generator } from "./code-generator.ts";
import { inNodeModules, run } from "../../cli/programs.ts";

const PLUGIN = ".bin/protoc-gen-es";

export const protobufEsGenerator: Generator = {
  folder: "protobuf-es",
  tool: "buf with protoc-gen-es",
  install: "npm packages @bufbuild/buf and @bufbuild/protoc-gen-es (npm install)",
  locate: () => (inNodeModules(PLUGIN) === undefined ? undefined : inNodeModules(".bin/buf")),
  generate(out: string, program: string): void {
    const plugin = inNodeModules(PLUGIN);
    if (plugin === undefined) throw new Error(`protoc-gen-es is not installed (node_modules/${PLUGIN})`);
    const input = mkdtempSync(path.join(tmpdir(), "protoc-gen-es-"));
    try {
      copyFileSync(PROTO_FILE, path.join(input, "messages.proto"));
      const template = { version: "v2", plugins: [{ local: plugin, out, opt: ["target=ts"] }] };
      run(program, ["generate", "--template", JSON.stringify(template), "."], input);
    } finally {
      rmSync(input, { recursive: true, force: true });
    }
    markGenerated(out, "protocols/messages.proto");
  },
};
