/**
 * Node.js as a user's shell finds it. Under `bun --bun vitest`, Bun puts a folder on PATH whose
 * `node` is Bun itself (so `node`, and `npm` and `npx` through their `#!/usr/bin/env node`, would
 * run under Bun); a test of what a user runs under Node.js takes that folder off PATH.
 */
import { existsSync } from "node:fs";
import path from "node:path";

/** PATH without Bun's stand-in for node. */
const NODE_PATH = (process.env.PATH ?? "")
  .split(path.delimiter)
  .filter((dir) => !/[\\/]bun-node-[^\\/]*$/.test(dir))
  .join(path.delimiter);

/** The environment for a command that must run under Node.js: its PATH's node is Node.js. */
export const nodeEnv = (extra: Record<string, string> = {}): NodeJS.ProcessEnv => ({
  ...process.env,
  PATH: NODE_PATH,
  NO_COLOR: "1",
  ...extra,
});

/** The Node.js binary on that PATH. */
export function realNode(): string {
  for (const dir of NODE_PATH.split(path.delimiter)) {
    const file = path.join(dir, process.platform === "win32" ? "node.exe" : "node");
    if (dir !== "" && existsSync(file)) return file;
  }
  throw new Error("no Node.js on PATH");
}
