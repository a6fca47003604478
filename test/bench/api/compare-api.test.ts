/**
 * compare(), the programmatic API (bench/api/compare-api.ts): the command line's options under
 * their camelCase keys, each payload's answer, the verdict and the rows the CSV holds, no files or
 * output unless asked for, refusals naming the option as the call does, a stop by AbortSignal;
 * and, from the packed package installed in a project of the user's, the test and the CI job
 * docs/your-project.md shows, run as written.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, expectTypeOf, it } from "vitest";
import { compare, SettingError, type CompareOptions } from "../../../bench/api/compare-api.ts";
import type { ApiKey } from "../../../bench/cli/option-specs.ts";
import { installPackedProject, type InstalledProject } from "../../helpers/installed-package.ts";

const ROOT = path.resolve(import.meta.dirname, "../../..");
const DOC = readFileSync(path.join(ROOT, "docs/your-project.md"), "utf8");

/** Position updates with no value JSON would change. */
const positions = (n: number) =>
  Array.from({ length: n }, (_, i) => ({ id: i + 1, x: i * 1.25 + 0.5, y: -(i + 1) / 3, t: 1_700_000_000_000 + i }));

const temp: string[] = [];
afterAll(() => {
  for (const dir of temp) rmSync(dir, { recursive: true, force: true });
});

describe("compare()", () => {
  it("takes every option of the command line's but the command's own, under its key, and its own three", () => {
    expectTypeOf<keyof CompareOptions>().toEqualTypeOf<ApiKey | "out" | "print" | "signal">();
  });

  it("runs inline messages and returns each payload's answer, the verdict and the CSV's rows, writing nothing", async () => {
    const run = await compare({
      messages: [{ name: "moves", messages: positions(200) }],
      codecs: ["json", "msgpackr", "cbor"],
      modes: ["codec"],
      quick: true,
    });
    expect(run.failures).toEqual([]);
    expect(run.stopped).toBe(false);
    expect(run.files).toBeUndefined();
    expect(run.rows.map((r) => `${r.mode} ${r.payload} ${r.codec} ${r.verified}`).sort()).toEqual([
      "codec moves cbor true",
      "codec moves json true",
      "codec moves msgpackr true",
    ]);
    expect(run.verdict[0]).toMatch(/^Verdict from this run/);
    const [answer, ...others] = run.answers;
    expect(others).toEqual([]);
    expect(answer!.payload).toBe("moves");
    expect(answer!.mode).toBe("codec");
    expect([...answer!.order].sort()).toEqual(["cbor", "json", "msgpackr"]);
    // The answer is the verdict's line for the payload.
    expect(answer!.fastest[0]).toBe(answer!.order[0]);
    expect(run.verdict.join("\n")).toMatch(new RegExp(`^moves +client: ${answer!.fastest[0]} fastest`, "m"));
    const bytes = new Map(run.rows.map((r) => [r.codec, r.bytes as number]));
    const least = Math.min(...bytes.values());
    expect(answer!.smallest).toEqual([...bytes].filter(([, b]) => Math.round(b) === Math.round(least)).map(([c]) => c));
  }, 120_000);

  it("writes the command line's files into `out`, and prints its table to the streams given", async () => {
    const out = mkdtempSync(path.join(tmpdir(), "compare-out-"));
    temp.push(out);
    let stdout = "";
    const run = await compare({
      payloads: ["small"],
      codecs: ["json", "custom-binary"],
      modes: ["codec"],
      quick: true,
      out,
      print: { stdout: { write: (t: string) => (stdout += t) }, stderr: { write: () => true } },
    });
    expect(run.files?.csv).toBe(path.join(out, path.basename(run.files!.csv)));
    expect(readdirSync(out)).toEqual(expect.arrayContaining(["latest.csv", "latest.json", "report.html"]));
    expect(stdout).toMatch(/^Verdict from this run/m);
    expect(stdout).toContain(`Wrote ${run.files!.csv}`);
    expect(JSON.parse(readFileSync(path.join(out, "latest.json"), "utf8")).cases).toHaveLength(2);
  }, 120_000);

  it("carries inline messages to the server it starts, for the WebSocket modes", async () => {
    const run = await compare({
      messages: [{ name: "moves", messages: positions(50) }],
      codecs: ["json", "msgpackr"],
      modes: ["roundtrip"],
      quick: true,
      noPin: true,
    });
    expect(run.failures).toEqual([]);
    expect(run.rows.map((r) => `${r.mode} ${r.payload} ${r.codec} ${r.verified}`).sort()).toEqual([
      "roundtrip moves json true",
      "roundtrip moves msgpackr true",
    ]);
  }, 120_000);

  it("refuses a bad setting before measuring, in one line naming the option as the call names it", async () => {
    const refusal = async (options: Parameters<typeof compare>[0]): Promise<string> => {
      const e = await compare(options).then(
        () => undefined,
        (err: unknown) => err,
      );
      expect(e).toBeInstanceOf(SettingError);
      const message = (e as Error).message;
      expect(message).not.toContain("\n");
      return message;
    };
    expect(await refusal({ codecs: ["nope"] })).toMatch(/^codecs: unknown value 'nope'; valid values: json, /);
    expect(await refusal({ codecModules: ["no-such-codec.ts"] })).toMatch(
      /^codecModules \S*no-such-codec\.ts: cannot import it \(no such file\)$/,
    );
    expect(await refusal({ messages: ["no-such-file.json"] })).toBe(
      "messages no-such-file.json: cannot read it (no such file)",
    );
    expect(await refusal({ iterations: 0 })).toMatch(/^iterations /);
    expect(await refusal({ bogus: 1 } as never)).toMatch(
      /^unknown option 'bogus'; valid options: modes, codecs, .*, codecModules, .*, out, print, signal$/,
    );
    // Refusals made deeper down name the option as the call does too.
    expect(await refusal({ link: "5g" })).toMatch(/^link: unknown profile '5g'; valid forms: /);
    expect(await refusal({ proto: "x.proto" })).toBe("proto FILE and protoType NAME go together (got only proto)");
    expect(await refusal({ modes: ["codec"], rate: 100 })).toBe(
      "rate applies to latency mode only; add latency to modes (got modes codec)",
    );
    expect(await refusal({ messages: [{ name: "small", messages: [{ a: 1 }] }] })).toMatch(
      /^messages 'small': a payload name is .* not a built-in payload's/,
    );
    // A value JSON text would change is refused with its path, not sent changed.
    expect(await refusal({ messages: [{ name: "moves", messages: [{ a: 1 }, { p: { x: -0 } }] }] })).toBe(
      "messages 'moves': messages[1].p.x is -0, which JSON writes as 0; inline messages travel as JSON text, so give this payload as a file to keep that value",
    );
    expect(await refusal({ messages: [{ name: "moves", messages: [{ at: new Date(0) }] }] })).toMatch(
      /^messages 'moves': messages\[0\]\.at is a Date, /,
    );
    expect(await refusal({ messages: [{ name: "moves", messages: [1, 2] as never }] })).toBe(
      "messages 'moves': message 1 is a number, not an object",
    );
    expect(await refusal({ out: "  " })).toBe("out must name a folder, or be false for no files");
  });

  it("stops at its signal after the case in flight, and returns what finished", async () => {
    const stop = new AbortController();
    const running = compare({
      payloads: ["small", "medium", "large"],
      codecs: ["json", "msgpackr", "protobuf", "custom-binary"],
      modes: ["codec", "roundtrip"],
      quick: true,
      noPin: true,
      signal: stop.signal,
    });
    // Refused, not queued: one comparison at a time.
    await expect(compare({ payloads: ["small"], modes: ["codec"] })).rejects.toThrow(/already running/);
    stop.abort();
    const run = await running;
    expect(run.stopped).toBe(true);
    // Fewer than the 24 cases asked for, and every one that finished verified.
    expect(run.rows.length).toBeLessThan(24);
    for (const r of run.rows) expect(r.verified).toBe(true);
  }, 120_000);

  it("prints nothing and writes nothing by default, in the folder it runs in", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "compare-cwd-"));
    temp.push(dir);
    writeFileSync(
      path.join(dir, "script.ts"),
      `import { compare } from ${JSON.stringify(path.join(ROOT, "bench/api/compare-api.ts"))};\n` +
        `const run = await compare({ payloads: ["small"], codecs: ["json", "msgpackr"], modes: ["codec"], quick: true });\n` +
        `if (run.failures.length > 0 || run.rows.length !== 2) process.exit(1);\n`,
    );
    const r = spawnSync(process.execPath, ["script.ts"], { cwd: dir, encoding: "utf8", timeout: 120_000 });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toBe("");
    expect(r.stderr).toBe("");
    expect(readdirSync(dir)).toEqual(["script.ts"]);
  }, 120_000);
});

/** The code block of docs/your-project.md whose first line is `first`. */
function docBlock(first: string): string {
  const block = [...DOC.matchAll(/```\w+\n([\s\S]*?)```/g)].map((m) => m[1]!).find((b) => b.startsWith(first));
  if (block === undefined) throw new Error(`docs/your-project.md has no code block starting ${first}`);
  return block;
}

/** Position updates as JSON Lines, the page's fixture. */
const positionsJsonl = (n: number): string =>
  positions(n)
    .map((p) => JSON.stringify(p))
    .join("\n") + "\n";

describe("docs/your-project.md, run in a project that installed the packed package", () => {
  let project: InstalledProject | undefined;
  afterAll(() => project?.remove());
  const codec = docBlock("// src/position-codec.ts");
  // The same codec made slower than JSON: its encoder also writes each message as JSON twenty times.
  const slowCodec = codec.replace(
    "const bytes = new Uint8Array(28);",
    "for (let i = 0; i < 20; i++) JSON.stringify(message);\n      const bytes = new Uint8Array(28);",
  );
  const useCodec = (text: string): void => writeFileSync(path.join(project!.dir, "src/position-codec.ts"), text);

  it("its test imports the API from the package: it passes, and fails once the codec is slower than JSON", () => {
    project = installPackedProject(["typescript@5.9.3", "@types/bun@1.4.4"]);
    const dir = project.dir;
    spawnSync("mkdir", ["-p", path.join(dir, "src"), path.join(dir, "fixtures")]);
    writeFileSync(path.join(dir, "fixtures/positions.jsonl"), positionsJsonl(300));
    expect(slowCodec).not.toBe(codec);
    useCodec(codec);
    writeFileSync(path.join(dir, "formats.test.ts"), docBlock("// formats.test.ts"));
    const passed = project.run("npx", ["bun", "test", "./formats.test.ts"]);
    expect(passed.status, passed.stdout + passed.stderr).toBe(0);
    expect(passed.stderr).toMatch(/1 pass/);
    useCodec(slowCodec);
    const failed = project.run("npx", ["bun", "test", "./formats.test.ts"]);
    expect(failed.status, failed.stdout + failed.stderr).toBe(1);
    expect(failed.stderr).toMatch(/1 fail/);
    expect(failed.stderr).toContain("position-view");
  }, 300_000);

  it("the user's TypeScript checks their test and codec against the package's types, and catches a wrong option", () => {
    expect(project).toBeDefined();
    const dir = project!.dir;
    // The tsconfig `bun init` writes.
    writeFileSync(
      path.join(dir, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: {
          lib: ["ESNext"],
          target: "ESNext",
          module: "Preserve",
          moduleDetection: "force",
          allowJs: true,
          moduleResolution: "bundler",
          allowImportingTsExtensions: true,
          verbatimModuleSyntax: true,
          noEmit: true,
          strict: true,
          skipLibCheck: true,
          noFallthroughCasesInSwitch: true,
          noUncheckedIndexedAccess: true,
          noImplicitOverride: true,
        },
      }),
    );
    useCodec(codec);
    const checked = project!.run("npx", ["tsc", "-p", "."]);
    expect(checked.status, checked.stdout + checked.stderr).toBe(0);
    writeFileSync(
      path.join(dir, "wrong.ts"),
      'import { compare } from "ws-serialization-bench";\nawait compare({ modes: ["codecs"] });\n',
    );
    const wrong = project!.run("npx", ["tsc", "-p", "."]);
    expect(wrong.status).not.toBe(0);
    expect(wrong.stdout).toMatch(/wrong\.ts\(2,\d+\): error TS\d+: Type '"codecs"' is not assignable to type 'Mode'/);
    rmSync(path.join(dir, "wrong.ts"));
  }, 120_000);

  it("under Node.js, importing the API throws one line saying it runs under Bun", () => {
    expect(project).toBeDefined();
    const r = project!.run("node", [
      "--input-type=module",
      "-e",
      'import("ws-serialization-bench").catch((e) => { console.error(e.message); process.exit(3); })',
    ]);
    expect(r.status).toBe(3);
    expect(r.stderr.trim()).toMatch(/^ws-serialization-bench: the API runs under Bun, .*npx bun test/);
    expect(r.stderr.trim()).not.toContain("\n");
    // A static import of a name, as the docs show it: the same line, not Node's "does not provide an export".
    const named = project!.run("node", [
      "--input-type=module",
      "-e",
      'import { compare } from "ws-serialization-bench";',
    ]);
    expect(named.status).not.toBe(0);
    expect(named.stderr).toMatch(/Error: ws-serialization-bench: the API runs under Bun/);
    expect(named.stderr).not.toMatch(/does not provide an export/);
  });

  it("its CI job's commands: the gate passes on an unchanged codec and fails, naming it, on a slower one", () => {
    expect(project).toBeDefined();
    const job = docBlock("# .github/workflows/formats.yml");
    const commands = [...job.matchAll(/- run: (npx ws-serialization-bench .*)$/gm)].map((m) => m[1]!);
    const [bench, gate] = commands;
    expect(commands).toHaveLength(2);
    expect(gate).toMatch(/ report .*--fail-if-slower /);
    const baseline = docBlock("mkdir -p bench && cp ").trim();
    const sh = (command: string) => project!.run("sh", ["-c", command]);
    useCodec(codec);
    expect(sh(bench!).status).toBe(0);
    expect(sh(baseline).status).toBe(0);
    expect(sh(bench!).status).toBe(0);
    const unchanged = sh(gate!);
    expect(unchanged.status, unchanged.stdout + unchanged.stderr).toBe(0);
    useCodec(slowCodec);
    expect(sh(bench!).status).toBe(0);
    const slower = sh(gate!);
    expect(slower.status, slower.stdout + slower.stderr).toBe(1);
    expect(slower.stdout + slower.stderr).toMatch(/position-view/);
  }, 300_000);
});
