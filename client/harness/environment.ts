/**
 * What the numbers were measured on. Every results file carries it.
 */

import { existsSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { ClockCalibration } from "./clock.ts";
import type { Environment } from "./results.ts";
import { BUILT_IN, type CodecCatalog } from "../../protocols/registry.ts";

/** The npm packages a benchmark's results name with their versions: every codec's library in the catalog, the Node client's ws, the page's chart.js. */
function librariesOf(catalog: CodecCatalog = BUILT_IN): string[] {
  return [...new Set([...catalog.codecs.map((c) => c.library).filter((l) => l !== ""), "ws", "chart.js"])];
}

/** Each of the catalog's libraries with its installed version. */
export function libraryVersions(catalog: CodecCatalog = BUILT_IN): Record<string, string> {
  return Object.fromEntries(librariesOf(catalog).map((name) => [name, libraryVersion(name)]));
}

/** Installed version of an npm package: its package.json in the nearest node_modules above this file, as Node.js resolves a package (its exports may hide package.json from require.resolve). */
export function libraryVersion(name: string): string {
  if (name === "") return "";
  for (let dir = import.meta.dirname; ; dir = path.dirname(dir)) {
    const file = path.join(dir, "node_modules", name, "package.json");
    if (existsSync(file)) {
      try {
        return (JSON.parse(readFileSync(file, "utf8")) as { version: string }).version;
      } catch {
        return "unknown";
      }
    }
    if (path.dirname(dir) === dir) return "unknown";
  }
}

function runtime(): { runtime: string; runtimeVersion: string } {
  const bun = (globalThis as { Bun?: { version: string } }).Bun;
  if (bun) return { runtime: "bun", runtimeVersion: bun.version };
  return { runtime: "node", runtimeVersion: process.versions.node };
}

export function collectEnvironment(
  clockName: string,
  calibration: ClockCalibration,
  gcBetweenCases: boolean,
  msgpackrNative: boolean,
  catalog: CodecCatalog = BUILT_IN,
): Environment {
  const cpus = os.cpus();
  const libraries = libraryVersions(catalog);
  return {
    ...runtime(),
    os: `${os.type()} ${os.release()}`,
    arch: os.arch(),
    cpu: cpus[0]?.model.trim() ?? "unknown",
    cores: cpus.length,
    memoryGiB: Math.round((os.totalmem() / 2 ** 30) * 10) / 10,
    libraries,
    clock: clockName,
    timerResolutionNs: calibration.resolutionNs,
    timerOverheadNs: calibration.overheadNs,
    gcBetweenCases,
    msgpackrNative,
  };
}

/** Full collection between cases, so one codec's garbage is not collected on another's clock. */
export function fullGc(): (() => void) | undefined {
  const bun = (globalThis as { Bun?: { gc(force: boolean): void } }).Bun;
  return bun ? () => bun.gc(true) : undefined;
}
