import { spawnSync } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../../..");
const run = (args: string[]) =>
  spawnSync(process.execPath, ["bench/tools/plain-loop.ts", ...args], { cwd: ROOT, encoding: "utf8", timeout: 60_000 });

describe("plain loop", () => {
  it("times one codec's encode + decode per message, every pass reported, the median as the figure", () => {
    const r = run(["protobuf", "medium", "3000", "3", "5"]);
    expect(r.status, r.stderr).toBe(0);
    const line = JSON.parse(r.stdout) as { codec: string; payload: string; nsPerMessage: number; passes: number[] };
    expect([line.codec, line.payload]).toEqual(["protobuf", "medium"]);
    expect(line.passes).toHaveLength(3);
    expect(line.passes.every((ns) => ns > 0)).toBe(true);
    expect(line.nsPerMessage).toBe([...line.passes].sort((a, b) => a - b)[1]);
  });

  it("refuses an unknown codec", () => {
    const r = run(["nope", "small"]);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain("unknown codec 'nope'");
  });
});
