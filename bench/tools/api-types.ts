/**
 * `npm run api-types [-- --check]`: writes bench/api/compare-api.d.ts, the
 * types a user's TypeScript sees for `import ... from "ws-serialization-bench"`:
 * compare(), its options and results, and the codec interface, in one file
 * that imports nothing. Without it a user's `tsc` would follow the API's
 * imports into the benchmark's own sources and check them under the user's
 * settings (their `lib`, `types`, strictness), which they were not written for.
 *
 * TypeScript writes every source file's declarations; dts-bundle-generator
 * joins those the API reaches into one file; biome formats it as the rest of
 * the project. With --check it compares a fresh file with the committed one
 * and exits 1 when they differ (the API changed without its types).
 */

import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { ROOT } from "../cli/paths.ts";

/** The committed declarations. */
export const API_TYPES = path.join(ROOT, "bench/api/compare-api.d.ts");

const HEADER = `/**
 * The types of ws-serialization-bench's API (bench/api/compare-api.ts), in one file that imports
 * nothing, for a user's TypeScript. Written by \`npm run api-types\`; do not edit.
 */

`;

/** Runs a Node.js program of a package with Bun; its output, or an error naming what failed. */
function run(what: string, args: readonly string[], input?: string): string {
  const r = spawnSync(process.execPath, args, { cwd: ROOT, encoding: "utf8", input, maxBuffer: 64 << 20 });
  if (r.status !== 0) throw new Error(`${what} failed (${r.status}): ${(r.stderr || r.stdout).trim()}`);
  return r.stdout;
}

/** The declarations as they should be committed. */
export function freshApiTypes(): string {
  // In the project (not node_modules, whose files the joiner leaves as a library's): the
  // declarations' imports of packages (protobufjs, ...) resolve from its node_modules.
  const dir = mkdtempSync(path.join(ROOT, ".api-types-"));
  try {
    const decl = path.join(dir, "decl");
    run("tsc", [
      "node_modules/typescript/bin/tsc",
      "-p",
      "tsconfig.json",
      "--noEmit",
      "false",
      "--declaration",
      "--emitDeclarationOnly",
      "--outDir",
      decl,
    ]);
    // The emitted declarations import each other with the sources' .ts names, which resolve to them.
    writeFileSync(
      path.join(decl, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: {
          target: "ES2024",
          module: "ESNext",
          moduleResolution: "bundler",
          allowImportingTsExtensions: true,
          strict: true,
          noEmit: true,
          types: [],
        },
      }),
    );
    const joined = path.join(dir, "compare-api.d.ts");
    run("dts-bundle-generator", [
      "node_modules/dts-bundle-generator/dist/bin/dts-bundle-generator.js",
      "--project",
      path.join(decl, "tsconfig.json"),
      "--no-banner",
      "--no-check",
      "--export-referenced-types=false",
      "-o",
      joined,
      path.join(decl, "bench/api/compare-api.d.ts"),
    ]);
    const text = HEADER + readFileSync(joined, "utf8");
    return run(
      "biome format",
      ["node_modules/@biomejs/biome/bin/biome", "format", `--stdin-file-path=${API_TYPES}`],
      text,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.main) {
  const fresh = freshApiTypes();
  if (process.argv.includes("--check")) {
    let committed = "";
    try {
      committed = readFileSync(API_TYPES, "utf8");
    } catch {}
    if (committed !== fresh) {
      process.stderr.write(
        `api-types: ${path.relative(ROOT, API_TYPES)} is not what the API declares; run npm run api-types\n`,
      );
      process.exit(1);
    }
    process.stdout.write(`api-types: ${path.relative(ROOT, API_TYPES)} is up to date\n`);
  } else {
    writeFileSync(API_TYPES, fresh);
    process.stdout.write(`api-types: wrote ${path.relative(ROOT, API_TYPES)}\n`);
  }
}
