/**
 * The package as a user gets it: `npm pack` in the clone, then `npm install` of the tarball
 * (and any packages of the user's own) into a fresh project folder outside the clone. npm, npx
 * and the package's command run under Node.js, as in a user's shell (real-node.ts).
 */
import { spawnSync, type SpawnSyncReturns } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

import { nodeEnv } from "./real-node.ts";

const ROOT = path.resolve(import.meta.dirname, "../..");

/** A user's project with the packed package installed. */
export interface InstalledProject {
  /** The project's folder (inside a temporary folder that also holds the tarball). */
  dir: string;
  /** Runs a command in the project (no colour), to its end. */
  run(command: string, args: readonly string[], timeoutMs?: number): SpawnSyncReturns<string>;
  /** Removes the project and the tarball. */
  remove(): void;
}

/** Packs the clone and installs the tarball, with `userPackages` (name@version), into a new project. */
export function installPackedProject(userPackages: readonly string[] = []): InstalledProject {
  const work = mkdtempSync(path.join(tmpdir(), "bench-installed-"));
  const run = (command: string, args: readonly string[], cwd: string, timeoutMs = 240_000) =>
    spawnSync(command, args, { cwd, encoding: "utf8", timeout: timeoutMs, env: nodeEnv() });
  try {
    const packed = run("npm", ["pack", "--pack-destination", work, "--ignore-scripts", "--json"], ROOT);
    if (packed.status !== 0) throw new Error(`npm pack failed: ${packed.stderr}`);
    const tarball = path.join(work, (JSON.parse(packed.stdout) as { filename: string }[])[0]!.filename);
    const dir = path.join(work, "my-project");
    mkdirSync(dir);
    writeFileSync(path.join(dir, "package.json"), '{ "name": "my-project", "private": true }\n');
    const installed = run("npm", ["install", "--no-audit", "--no-fund", tarball, ...userPackages], dir);
    if (installed.status !== 0) throw new Error(`npm install failed: ${installed.stderr}`);
    return {
      dir,
      run: (command, args, timeoutMs) => run(command, args, dir, timeoutMs),
      remove: () => rmSync(work, { recursive: true, force: true }),
    };
  } catch (e) {
    rmSync(work, { recursive: true, force: true });
    throw e;
  }
}
