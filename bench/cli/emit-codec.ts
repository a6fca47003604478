/**
 * `--emit-codec DIR`: custom-binary's layout of each of the user's payloads, written as a codec
 * module the user keeps (protocols/emitted-codec.ts), with the custom-binary/ files it imports
 * copied beside it. A payload no layout carries gets a line saying why, not a file.
 */

import { copyFileSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { Plan } from "../../client/harness/plan.ts";
import { userLayoutOf, userMessagesOf } from "../../client/harness/user-messages.ts";
import { emittedCodecName, emittedModule, RUNTIME_FILES } from "../../protocols/emitted-codec.ts";
import { ROOT } from "./paths.ts";

/** Writes the modules into `dir` (checked writable as the options were resolved); the lines that say what was written. */
export function emitCodecs(plan: Plan, dir: string): string[] {
  const files = plan.settings.userMessages;
  const lines: string[] = [];
  let wrote = false;
  for (const f of files) {
    const user = userLayoutOf(files, f.name);
    if ("reason" in user) {
      lines.push(`${f.name}: no module written; no layout carries these messages: ${user.reason}`);
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
    lines.push(`${f.name}: ${path.join(dir, name)} (run it: --codec-module ${path.join(dir, name)})`);
  }
  if (wrote) {
    const runtime = path.join(dir, "custom-binary");
    mkdirSync(runtime, { recursive: true });
    for (const file of RUNTIME_FILES) copyFileSync(path.join(ROOT, "custom-binary", file), path.join(runtime, file));
  }
  return lines;
}
