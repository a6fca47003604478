/**
 * `--emit-codec DIR`: custom-binary's layout of each of the user's payloads, written as a codec
 * module the user keeps (protocols/emitted-codec.ts), with the custom-binary/ files it imports
 * copied beside it, and the same layout as a .proto and an .avsc (protocols/inferred-schemas.ts):
 * the schemas protobuf and avro ran in. A payload no layout carries gets a line saying why, not a
 * file; a schema its format cannot write, a line saying why.
 */

import { copyFileSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { Plan } from "../../client/harness/plan.ts";
import { userLayoutOf, userMessagesOf } from "../../client/harness/user-messages.ts";
import { emittedCodecName, emittedModule, RUNTIME_FILES } from "../../protocols/emitted-codec.ts";
import { avroSchemaOf, protoSchemaOf, SchemaError } from "../../protocols/inferred-schemas.ts";
import { ROOT } from "./paths.ts";

/** Writes the modules into `dir` (checked writable as the options were resolved); the lines that say what was written. */
export function emitCodecs(plan: Plan, dir: string): string[] {
  const files = plan.settings.userMessages;
  const lines: string[] = [];
  let wrote = false;
  for (const f of files) {
    const user = userLayoutOf(files, f.name);
    if ("reason" in user) {
      lines.push(
        `custom-binary layout of ${f.name}: no module written; no layout carries these messages: ${user.reason}`,
      );
      continue;
    }
    const name = `${emittedCodecName(f.name)}.ts`;
    const text = emittedModule(user.layout, {
      payload: f.name,
      ...(f.file !== undefined ? { file: path.basename(f.file) } : {}),
      messages: userMessagesOf(files, f.name).messages.length,
    });
    writeFileSync(path.join(dir, name), text);
    wrote = true;
    lines.push(
      `custom-binary layout of ${f.name}: ${path.join(dir, name)} (run it: --codec-module ${path.join(dir, name)})`,
    );
    // The schemas protobuf and avro ran in, for a user who would rather keep a standard format.
    const schemas: [string, string, () => string][] = [
      ["proto", "protobuf", () => protoSchemaOf(user.layout, f.name).text],
      ["avsc", "avro", () => `${JSON.stringify(avroSchemaOf(user.layout, f.name).schema, null, 2)}\n`],
    ];
    for (const [ext, codec, write] of schemas) {
      const file = path.join(dir, `${f.name}.${ext}`);
      try {
        writeFileSync(file, write());
        lines.push(`.${ext} of ${f.name}: ${file} (what ${codec} runs these messages in)`);
      } catch (e) {
        if (!(e instanceof SchemaError)) throw e;
        lines.push(`.${ext} of ${f.name}: none written; ${e.message}`);
      }
    }
  }
  if (wrote) {
    const runtime = path.join(dir, "custom-binary");
    mkdirSync(runtime, { recursive: true });
    for (const file of RUNTIME_FILES) copyFileSync(path.join(ROOT, "custom-binary", file), path.join(runtime, file));
  }
  return lines;
}
