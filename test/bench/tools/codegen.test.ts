/**
 * The committed generated code (protocols/generated/) is what the schemas
 * give: `npm run codegen -- --check` regenerates it with the real
 * generators and compares. Where a generator is not installed the check
 * skips it with a line; under CI=true (which installs them all) that fails.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { differences, GENERATORS } from "../../../bench/tools/codegen.ts";

const ROOT = path.resolve(import.meta.dirname, "../../..");
const codegen = (...args: string[]) =>
  spawnSync(process.execPath, ["bench/tools/codegen.ts", ...args], { cwd: ROOT, encoding: "utf8", timeout: 300_000 });

describe("generated code", () => {
  it("matches the schemas, for every generator installed here (all of them in CI)", () => {
    const r = codegen("--check");
    expect(r.stderr).toBe(
      GENERATORS.filter((g) => g.locate() === undefined)
        .map((g) => `codegen: ${g.folder}: ${g.tool} is not installed (${g.install}); not checked\n`)
        .join(""),
    );
    expect(r.status).toBe(0);
    for (const g of GENERATORS.filter((x) => x.locate() !== undefined))
      expect(r.stdout).toContain(`codegen: ${g.folder}: current\n`);
    if (process.env.CI === "true") expect(GENERATORS.every((g) => g.locate() !== undefined)).toBe(true);
  }, 300_000);

  it("a file edited, removed or added by hand is named", () => {
    const root = mkdtempSync(path.join(tmpdir(), "codegen-test-"));
    try {
      const committed = path.join(root, "committed");
      const fresh = path.join(root, "fresh");
      for (const dir of [committed, fresh]) mkdirSync(path.join(dir, "sub"), { recursive: true });
      writeFileSync(path.join(committed, "same.ts"), "a");
      writeFileSync(path.join(fresh, "same.ts"), "a");
      writeFileSync(path.join(committed, "sub/edited.ts"), "by hand");
      writeFileSync(path.join(fresh, "sub/edited.ts"), "generated");
      writeFileSync(path.join(fresh, "removed.ts"), "x");
      writeFileSync(path.join(committed, "added.ts"), "x");
      expect(differences(committed, fresh)).toEqual([
        "missing: removed.ts",
        "not generated from the schemas: added.ts",
        `differs: ${path.join("sub", "edited.ts")}`,
      ]);
      expect(differences(fresh, fresh)).toEqual([]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it("an unknown argument is one line naming the valid ones, exit 2", () => {
    const r = codegen("--fix");
    expect(r.stderr).toBe(
      `codegen: unknown argument '--fix'; valid: --check, ${GENERATORS.map((g) => g.folder).join(", ")}\n`,
    );
    expect(r.status).toBe(2);
  });
});
