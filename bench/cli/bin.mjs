#!/usr/bin/env node
// `ws-serialization-bench`, as npm installs it: Node.js starts the command (bench/cli/command.ts)
// under the Bun that arrived with the package (its `bun` dependency), in the user's folder, and
// exits as it does. Plain JavaScript: Node runs this file itself.
import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);
let bun;
try {
  bun = path.join(path.dirname(require.resolve("bun/package.json")), "bin", "bun.exe");
} catch {
  process.stderr.write(
    "ws-serialization-bench: Bun is missing: npm install it beside this package (npm install bun)\n",
  );
  process.exit(2);
}
const child = spawn(bun, [path.join(here, "command.ts"), ...process.argv.slice(2)], { stdio: "inherit" });
// The terminal's Ctrl-C reaches Bun too (one process group); a signal sent to this process alone is passed on.
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => child.kill(signal));
child.on("exit", (code, signal) => process.exit(code ?? (signal === "SIGINT" ? 130 : signal === "SIGTERM" ? 143 : 1)));
child.on("error", (e) => {
  process.stderr.write(`ws-serialization-bench: cannot start Bun (${bun}): ${e.message}\n`);
  process.exit(2);
});
