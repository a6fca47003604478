/**
 * The layout's rules, checked on every run of the suite: the one-way layers
 * of .dependency-cruiser.cjs, no unused file or export (knip), and the size
 * and naming and I/O habits docs/development.md's "Layout" section promises.
 */
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { findNode } from "../bench/cli/processes/node.ts";

const ROOT = path.resolve(import.meta.dirname, "..");
/** Node.js itself: under `bun --bun vitest`, the `node` first on PATH is Bun. */
const NODE = findNode() ?? "node";
const SOURCE_DIRS = ["server.ts", "server", "bench", "client", "protocols", "custom-binary"];

function depcruise(cwd: string): { status: number | null; out: string } {
  const r = spawnSync(
    NODE,
    [
      path.join(ROOT, "node_modules/dependency-cruiser/bin/dependency-cruise.mjs"),
      "--config",
      ".dependency-cruiser.cjs",
      ...SOURCE_DIRS,
    ],
    { cwd, encoding: "utf8", timeout: 60_000 },
  );
  return { status: r.status, out: r.stdout + r.stderr };
}

/** Every production source file written by hand, as paths relative to the root (protocols/generated/ is the code generators' output: `npm run codegen`). */
function sourceFiles(): string[] {
  const r = spawnSync("git", ["ls-files", "-co", "--exclude-standard", "--", ...SOURCE_DIRS], {
    cwd: ROOT,
    encoding: "utf8",
  });
  return r.stdout
    .split("\n")
    .filter((f) => f.endsWith(".ts") && !f.endsWith(".d.ts") && !f.startsWith("protocols/generated/"));
}

describe("layers", () => {
  it("every import runs down the layers (dependency-cruiser)", () => {
    const r = depcruise(ROOT);
    expect(r.out).toMatch(/no dependency violations found/);
    expect(r.status).toBe(0);
  });

  it("an import from protocols/ up into client/ fails, naming the rule", () => {
    const copy = mkdtempSync(path.join(tmpdir(), "layers-"));
    try {
      for (const entry of [...SOURCE_DIRS, ".dependency-cruiser.cjs", "tsconfig.json", "package.json"])
        cpSync(path.join(ROOT, entry), path.join(copy, entry), { recursive: true });
      writeFileSync(
        path.join(copy, "protocols/upward.ts"),
        'import { createRng } from "../client/harness/random.ts";\nexport const rng = createRng(1);\n',
      );
      const r = depcruise(copy);
      expect(r.status).not.toBe(0);
      expect(r.out).toMatch(/protocols-below-server-and-client: protocols\/upward\.ts → client\/harness\/random\.ts/);
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
  });

  it("the code is formatted: Biome, 120 columns (npm run format writes it)", () => {
    const r = spawnSync(NODE, [path.join(ROOT, "node_modules/@biomejs/biome/bin/biome"), "format", "."], {
      cwd: ROOT,
      encoding: "utf8",
      timeout: 60_000,
    });
    expect(r.status, r.stdout + r.stderr).toBe(0);
  });

  it("no unused file, export or dependency (knip)", () => {
    const r = spawnSync(NODE, [path.join(ROOT, "node_modules/knip/bin/knip.js"), "--no-progress"], {
      cwd: ROOT,
      encoding: "utf8",
      timeout: 120_000,
    });
    expect(r.stdout + r.stderr).toBe("");
    expect(r.status).toBe(0);
  });
});

describe("files hold one concept each", () => {
  it("every source file's name is used once, so a reader finds a piece from its name", () => {
    const byName = new Map<string, string[]>();
    for (const file of sourceFiles())
      byName.set(path.basename(file), [...(byName.get(path.basename(file)) ?? []), file]);
    expect([...byName.values()].filter((files) => files.length > 1)).toEqual([]);
  });
});

describe("tests mirror the source", () => {
  it("every test file is named after the file it tests (test/X/Y.test.ts for X/Y.ts)", () => {
    const r = spawnSync("git", ["ls-files", "-co", "--exclude-standard", "--", "test"], {
      cwd: ROOT,
      encoding: "utf8",
    });
    const tests = r.stdout.split("\n").filter((f) => f.endsWith(".test.ts"));
    // The four that test the project as a whole: the README's promises, these rules, one word per
    // concept, and what `npm install` brings (package.json and its lock file).
    const whole = new Set([
      "test/readme.test.ts",
      "test/layers.test.ts",
      "test/vocabulary.test.ts",
      "test/install.test.ts",
    ]);
    // test/docs/Y.test.ts holds the figures docs/Y.md quotes to the files they come from.
    const tested = (t: string) =>
      t.startsWith("test/docs/")
        ? t.replace(/^test\//, "").replace(/\.test\.ts$/, ".md")
        : t.replace(/^test\//, "").replace(/\.test\.ts$/, ".ts");
    const orphans = tests.filter((t) => !whole.has(t) && !existsSync(path.join(ROOT, tested(t))));
    expect(tests.length).toBeGreaterThan(20);
    expect(orphans).toEqual([]);
  });
});

describe("input and output stay at the edges", () => {
  const below = (f: string): boolean =>
    !f.startsWith("bench/cli/") && !f.startsWith("bench/tools/") && f !== "server.ts";

  it("only the entry points (bench/cli/, bench/tools/, server.ts) read process.argv or process.env", () => {
    const readers = sourceFiles().filter(
      (f) => below(f) && /process\.(argv|env)\b/.test(readFileSync(path.join(ROOT, f), "utf8")),
    );
    expect(readers).toEqual([]);
  });

  it("measuring and serving never print: no console or stdout in custom-binary/, protocols/, server/, client/harness/, client/socket/, client/page/", () => {
    const printers = sourceFiles().filter(
      (f) =>
        /^(custom-binary|protocols|server|client\/(harness|socket|page))\//.test(f) &&
        /\bconsole\.|process\.(stdout|stderr)/.test(readFileSync(path.join(ROOT, f), "utf8")),
    );
    expect(printers).toEqual([]);
  });
});
