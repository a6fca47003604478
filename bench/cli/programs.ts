/**
 * Finding and running the programs the bench and its tools call: the
 * schema compilers (flatc, capnpc, bebopc, buf) that make the schema
 * codecs' committed code (bench/tools/codegen/) and evolve mode's versions
 * (schema-compilers.ts). Each is found where a user installs it: on PATH
 * (Debian's packages) or under node_modules (npm's); nothing is downloaded.
 */

import { spawn, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { ROOT } from "./paths.ts";

/** A program found on PATH, or undefined. */
export function onPath(program: string): string | undefined {
  for (const dir of (process.env.PATH ?? "").split(path.delimiter)) {
    const candidate = path.join(dir, program);
    if (dir !== "" && existsSync(candidate)) return candidate;
  }
  return undefined;
}

/** A program an npm package brings (node_modules/...), or undefined when it is not installed. */
export function inNodeModules(relative: string): string | undefined {
  const file = path.join(ROOT, "node_modules", relative);
  return existsSync(file) ? file : undefined;
}

/** bebopc's binary for this machine, where the bebop-tools package keeps it (what its own launcher picks). */
export function bebopcPath(): string | undefined {
  const os = process.platform === "win32" ? "windows" : process.platform === "darwin" ? "macos" : process.platform;
  return inNodeModules(`bebop-tools/tools/${os}/${process.arch}/bebopc${os === "windows" ? ".exe" : ""}`);
}

/** capnp-es's CLI, where it can run: it runs `capnpc` (Debian's capnproto) from PATH and needs the typescript package. */
export function capnpEsPath(): string | undefined {
  return onPath("capnpc") !== undefined && inNodeModules("typescript/package.json") !== undefined
    ? inNodeModules(".bin/capnp-es")
    : undefined;
}

const TIMEOUT_MS = 120_000;

/** Runs a program to its end; throws with the command and its whole output when it fails (the codegen tool's errors). */
export function run(program: string, args: readonly string[], cwd: string): void {
  const r = spawnSync(program, args, { cwd, encoding: "utf8", timeout: TIMEOUT_MS });
  if (r.error) throw new Error(`${path.basename(program)}: ${r.error.message}`);
  if (r.status !== 0)
    throw new Error(
      `${path.basename(program)} ${args.join(" ")} exited ${r.status ?? r.signal}:\n${(r.stderr || r.stdout).trim()}`,
    );
}

/** A program's output as one line: its words, without the terminal's colours, at most 400 characters. */
function oneLine(output: string): string {
  return (
    output
      // biome-ignore lint/suspicious/noControlCharactersInRegex: the terminal's colour codes, dropped
      .replace(/\x1b\[[0-9;]*m/g, "")
      .split("\n")
      .map((l) => l.trim())
      .filter((l) => l !== "")
      .join(" ")
      .slice(0, 400) || "(no output)"
  );
}

/**
 * Runs a program without holding up this process (a Ctrl-C is heard while it runs); rejects with
 * its own words on one line when it fails, or with the signal that ended it.
 */
export function runAsync(program: string, args: readonly string[], cwd: string): Promise<void> {
  const name = path.basename(program);
  return new Promise((resolve, reject) => {
    const child = spawn(program, args, {
      cwd,
      env: { ...process.env, NO_COLOR: "1" },
      stdio: ["ignore", "pipe", "pipe"],
      timeout: TIMEOUT_MS,
    });
    let out = "";
    let err = "";
    child.stdout.on("data", (d: Buffer) => {
      out += d;
    });
    child.stderr.on("data", (d: Buffer) => {
      err += d;
    });
    child.on("error", (e) => reject(new Error(`${name}: ${e.message}`)));
    child.on("close", (code, signal) => {
      if (code === 0) resolve();
      // The program's own words first: a schema it refused, and where.
      else if (code !== null) reject(new Error(`${name} exited ${code}: ${oneLine(err || out)}`));
      else reject(new Error(`${name} was stopped (${signal})`));
    });
  });
}
