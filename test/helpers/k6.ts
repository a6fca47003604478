/**
 * Shared by the k6 tests: the k6 binary (on PATH, or where `go install`
 * puts it), or a visible reason to skip (never under CI=true, where a
 * missing k6 is a failure: .ci/run builds it).
 */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";

function findK6(): string | undefined {
  const onPath = spawnSync("sh", ["-c", "command -v k6"], { encoding: "utf8" }).stdout.trim();
  if (onPath) return onPath;
  const gopath = spawnSync("go", ["env", "GOPATH"], { encoding: "utf8" }).stdout?.trim();
  const built = gopath ? path.join(gopath, "bin", "k6") : "";
  return built && existsSync(built) ? built : undefined;
}

export const k6Path = findK6();

/** True when the k6 tests must be skipped; says so on stderr. */
export function skipK6Tests(file: string): boolean {
  if (k6Path) return false;
  if (process.env.CI === "true") return false; // the tests run and fail: CI must have k6
  process.stderr.write(
    `\n[${file}] SKIPPED: no k6 found (go install go.k6.io/k6@v1.8.1, or the release binary from github.com/grafana/k6)\n\n`,
  );
  return true;
}
