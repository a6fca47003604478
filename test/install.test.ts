/**
 * A quiet `npm install` on the Node.js the project names: every locked
 * package's `engines.node` admits it (npm warns EBADENGINE otherwise), and
 * every package with an install script is declared in `allowScripts` (npm 11
 * warns about the others, npm 12 skips them: Bun itself arrives by one).
 */
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

interface LockEntry {
  engines?: { node?: string } | string[];
  hasInstallScript?: boolean;
}
const read = (file: string) => JSON.parse(readFileSync(new URL(`../${file}`, import.meta.url), "utf8"));
const pkg = read("package.json") as { engines: { node: string }; allowScripts: Record<string, boolean> };
const lock = read("package-lock.json") as { packages: Record<string, LockEntry> };

type Version = [number, number, number];

function parseVersion(text: string): { v: Version; parts: number } {
  const m = /^v?(\d+)(?:\.(\d+|x|\*))?(?:\.(\d+|x|\*))?$/.exec(text.trim());
  if (!m) throw new Error(`cannot read version '${text}'`);
  const nums = [m[1], m[2], m[3]].filter((p) => p !== undefined && p !== "x" && p !== "*").map(Number);
  return { v: [nums[0] ?? 0, nums[1] ?? 0, nums[2] ?? 0], parts: nums.length };
}

const cmp = (a: Version, b: Version): number => a[0] - b[0] || a[1] - b[1] || a[2] - b[2];

/** One comparator of a range (`>=18`, `^20.19.0`, `~1.2`, `20`), against `v`. Unknown syntax throws. */
function satisfiesComparator(v: Version, comparator: string): boolean {
  const m = /^(>=|<=|>|<|\^|~|=)?\s*(.+)$/.exec(comparator)!;
  const op = m[1] ?? "";
  const { v: w, parts } = parseVersion(m[2]!);
  switch (op) {
    case ">=":
      return cmp(v, w) >= 0;
    case ">":
      return cmp(v, w) > 0;
    case "<=":
      return cmp(v, w) <= 0;
    case "<":
      return cmp(v, w) < 0;
    case "^":
      return (
        cmp(v, w) >= 0 &&
        (w[0] > 0 ? v[0] === w[0] : w[1] > 0 ? v[0] === 0 && v[1] === w[1] : cmp(v, w) === 0 || parts < 3)
      );
    case "~":
      return cmp(v, w) >= 0 && v[0] === w[0] && (parts < 2 || v[1] === w[1]);
    default:
      // A bare (partial) version: 20 is 20.x.x, 20.19 is 20.19.x.
      return v[0] === w[0] && (parts < 2 || v[1] === w[1]) && (parts < 3 || v[2] === w[2]);
  }
}

function satisfies(version: string, range: string): boolean {
  const v = parseVersion(version).v;
  return range.split("||").some((alt) => {
    const comparators = alt
      .trim()
      .replace(/(>=|<=|>|<|\^|~|=)\s+/g, "$1")
      .split(/\s+/)
      .filter((c) => c !== "" && c !== "*");
    return comparators.every((c) => satisfiesComparator(v, c));
  });
}

describe("npm install", () => {
  it("reads ranges the way npm does", () => {
    expect(satisfies("20.19.0", "^20.19.0 || >=22.12.0")).toBe(true);
    expect(satisfies("20.18.3", "^20.19.0 || >=22.12.0")).toBe(false);
    expect(satisfies("21.7.0", "^20.19.0 || >=22.12.0")).toBe(false);
    expect(satisfies("20.19.0", "^22.12.0 || ^24.0.0 || >=26.0.0")).toBe(false);
    expect(satisfies("20.19.0", ">= 18")).toBe(true);
    expect(satisfies("20.19.0", "20 || >=22")).toBe(true);
    expect(satisfies("20.19.0", "^20.12||^22||>=24")).toBe(true);
    expect(satisfies("20.19.0", "^8.16.0 || ^10.6.0 || >=11.0.0")).toBe(true);
    expect(satisfies("12.0.0", "^10 || ^12 || ^13.7 || ^14 || >=15.0.1")).toBe(true);
    expect(satisfies("13.6.0", "^10 || ^12 || ^13.7 || ^14 || >=15.0.1")).toBe(false);
  });

  it("every locked package supports the Node.js versions package.json names", () => {
    const named = ["20.19.0", "22.13.0", "24.0.0"];
    const installed = spawnSync("node", ["--version"], { encoding: "utf8" }).stdout?.trim();
    if (installed && satisfies(installed, pkg.engines.node)) named.push(installed);
    for (const version of named) expect(satisfies(version, pkg.engines.node), version).toBe(true);
    const refusing: string[] = [];
    for (const [name, entry] of Object.entries(lock.packages)) {
      const range = Array.isArray(entry.engines) ? undefined : entry.engines?.node;
      if (range === undefined) continue;
      for (const version of named)
        if (!satisfies(version, range)) refusing.push(`${name} (${range}) refuses Node.js ${version}`);
    }
    expect(refusing).toEqual([]);
  });

  it("every package with an install script is declared in allowScripts", () => {
    const withScripts = Object.entries(lock.packages)
      .filter(([, entry]) => entry.hasInstallScript === true)
      .map(([name]) => name.replace(/^.*node_modules\//, ""));
    expect(withScripts).toContain("bun");
    for (const name of withScripts) expect(typeof pkg.allowScripts[name], name).toBe("boolean");
    // Denied, each for a reason: wasi-js's preinstall runs `npx only-allow pnpm`, which fails under npm
    // (bebop-tools brings it, and needs it only for its WebAssembly build); bebop-tools' own install
    // script only checks for that build (bench/tools/codegen/bebopc.ts runs the native bebopc it
    // carries); @bufbuild/buf's postinstall only swaps its launcher for the platform's binary, which the
    // launcher finds without it.
    expect(
      Object.keys(pkg.allowScripts)
        .filter((name) => pkg.allowScripts[name] === false)
        .sort(),
    ).toEqual(["@bufbuild/buf", "bebop-tools", "wasi-js"]);
  });
});
