/**
 * Keeps the README true: its quick start, options and codec list must match
 * the code.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { HELP } from "../bench/cli/options.ts";
import { CSV_COLUMNS } from "../bench/report/csv.ts";
import { CODEC_NAMES } from "../protocols/registry.ts";

const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");
const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { scripts: Record<string, string> };

describe("README", () => {
  it("quick start is exactly two commands a machine with only Node.js and npm can run", () => {
    const quick = readme.slice(readme.indexOf("## Quick start"), readme.indexOf("## Results"));
    const block = /```sh\n([\s\S]*?)```/.exec(quick)![1]!.trim().split("\n");
    expect(block).toEqual(["npm install && npm run bench", "npm install && npm test"]);
    expect(pkg.scripts.bench).toMatch(/^bun /);
    expect(pkg.scripts.test).toMatch(/^bun --bun vitest run/);
  });

  it("CI runs the README's test command", () => {
    const ci = readFileSync(new URL("../.ci/run", import.meta.url), "utf8");
    expect(ci).toContain("npm test");
  });

  it("documents every option of the CLI", () => {
    const flags = [...HELP.matchAll(/^\s+(?:-h, )?(--[a-z]+)/gm)].map((m) => m[1]!);
    expect(flags.length).toBeGreaterThan(8);
    for (const flag of flags) expect(readme, flag).toContain(`\`${flag}`);
  });

  it("names every codec", () => {
    for (const name of CODEC_NAMES) expect(readme, name).toContain(`\`${name}\``);
  });

  it("the cross-check figures it quotes are the committed cross-check's", () => {
    const output = readFileSync(new URL("../results/sample/crosscheck-epyc-default-1.txt", import.meta.url), "utf8");
    const section = readme.slice(readme.indexOf("### Cross-check"), readme.indexOf("The codecs (`protocols/`"));
    expect(section).toContain("1.78 and 2.18 in codec mode, 3.28 and 3.07 in the\n  plain loop");
    expect(output).toMatch(/^medium +protobuf +1\.78 \[.*\] +3\.28 /m);
    expect(output).toMatch(/^medium +msgpack +2\.18 \[.*\] +3\.07 /m);
    const agreeing = output.split("\n").filter((l) => /^(small|medium|large) /.test(l) && !l.includes(" !")).length;
    expect(section).toContain(`${agreeing} of 18 ratios agreed within 10%`);
  });

  it("the CSV columns it names exist", () => {
    for (const col of ["timestamp", "total_vs_json", "serialize_batch_msgs", "loop_floor_ns", "timer_overhead_ns", "bytes_min"]) {
      expect(readme).toContain(col);
      expect(CSV_COLUMNS).toContain(col);
    }
  });
});
