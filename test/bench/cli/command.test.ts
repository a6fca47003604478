/**
 * `ws-serialization-bench`, the installed package's one command (bench/cli/command.ts, started
 * under Bun by bench/cli/bin.mjs under Node.js): which script each command runs, the help, one
 * line and exit 2 for a command that is not one; what `npm pack` puts in the package; and the
 * package installed into a folder outside the clone, run there on the user's own messages and
 * a codec module of theirs in TypeScript that imports their own dependency.
 */
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { COMMANDS, commandHelp, resolveCommand } from "../../../bench/cli/command.ts";
import { chartJsSource } from "../../../bench/cli/output.ts";
import { parseCsv } from "../../helpers/csv.ts";
import { installPackedProject } from "../../helpers/installed-package.ts";
import { nodeEnv, realNode } from "../../helpers/real-node.ts";

const ROOT = path.resolve(import.meta.dirname, "../../..");

describe("resolveCommand", () => {
  it("runs bench when no command is named, with every argument", () => {
    expect(resolveCommand([])).toEqual({ file: path.join(ROOT, "bench/cli/bench.ts"), args: [] });
    expect(resolveCommand(["--quick", "--modes", "codec"])).toEqual({
      file: path.join(ROOT, "bench/cli/bench.ts"),
      args: ["--quick", "--modes", "codec"],
    });
    expect(resolveCommand(["bench", "--help"])).toEqual({
      file: path.join(ROOT, "bench/cli/bench.ts"),
      args: ["--help"],
    });
  });

  it("runs each command's script; serve is the server on 8080 unless the user names a port", () => {
    expect(resolveCommand(["server", "--port", "0"])).toEqual({
      file: path.join(ROOT, "server.ts"),
      args: ["--port", "0"],
    });
    expect(resolveCommand(["serve", "--port", "9000"])).toEqual({
      file: path.join(ROOT, "server.ts"),
      args: ["--port", "8080", "--port", "9000"],
    });
    expect(resolveCommand(["report", "a.csv"])).toEqual({
      file: path.join(ROOT, "bench/cli/report.ts"),
      args: ["a.csv"],
    });
  });

  it("--help alone, or help, lists the commands; a command that is not one is one line naming the valid ones", () => {
    expect(resolveCommand(["--help"])).toEqual({ help: commandHelp() });
    expect(resolveCommand(["help"])).toEqual({ help: commandHelp() });
    for (const name of Object.keys(COMMANDS)) expect(commandHelp()).toMatch(new RegExp(`^  ${name} +\\S`, "m"));
    expect(resolveCommand(["benhc"])).toEqual({
      error: "ws-serialization-bench: unknown command 'benhc'; valid commands: bench, server, serve, report",
    });
  });
});

describe("bench/cli/bin.mjs under Node.js", () => {
  const run = (...args: string[]) =>
    spawnSync(realNode(), [path.join(ROOT, "bench/cli/bin.mjs"), ...args], {
      encoding: "utf8",
      timeout: 60_000,
      env: nodeEnv(),
    });

  it("starts the command under the package's Bun: the help, each command's own help, and exit 2 with one line", () => {
    // Node.js itself, not the Bun that runs this test under its name.
    expect(spawnSync(realNode(), ["-p", "typeof Bun"], { encoding: "utf8", env: nodeEnv() }).stdout.trim()).toBe(
      "undefined",
    );
    const help = run("--help");
    expect(help.status, help.stderr).toBe(0);
    expect(help.stdout).toBe(commandHelp());
    // Each command's help says what to type here: the installed command, not the clone's scripts.
    expect(run("report", "--help").stdout).toMatch(/^Usage: ws-serialization-bench report FILE/);
    expect(run("report", "--help").stdout).toContain("\n  ws-serialization-bench --quick --out pr\n");
    expect(run("bench", "--help").stdout).toMatch(/^Usage: ws-serialization-bench \[options\]/);
    expect(run("server", "--help").stdout).toMatch(/^Usage: ws-serialization-bench server\|serve \[options\]/);
    expect(run("server", "--help").stdout).toMatch(/the page at \//);
    expect(run("report").stderr).toMatch(/; usage: ws-serialization-bench report FILE/);
    const bad = run("benhc");
    expect(bad.status).toBe(2);
    expect(bad.stderr).toBe(
      "ws-serialization-bench: unknown command 'benhc'; valid commands: bench, server, serve, report\n",
    );
    // bench's own errors pass through, with its exit code.
    const flag = run("--modes", "nope");
    expect(flag.status).toBe(2);
    expect(flag.stderr).toMatch(/^bench: --modes: unknown value 'nope'/);
  });
});

describe("the package npm pack makes", () => {
  it("holds what a user runs, and no tests, samples or docs", () => {
    const r = spawnSync("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], {
      cwd: ROOT,
      encoding: "utf8",
      timeout: 60_000,
    });
    expect(r.status, r.stderr).toBe(0);
    const [pack] = JSON.parse(r.stdout) as { files: { path: string }[]; size: number }[];
    const files = pack!.files.map((f) => f.path);
    for (const needed of [
      "package.json",
      "bench/cli/bin.mjs",
      "bench/cli/command.ts",
      "bench/cli/bench.ts",
      "bench/api/compare-api.ts",
      "bench/api/compare-api.d.ts",
      "bench/api/needs-bun.mjs",
      "server.ts",
      "bench/page/index.html",
      "protocols/messages.proto",
      "bunfig.toml",
    ])
      expect(files).toContain(needed);
    for (const f of files) expect(f).not.toMatch(/^(test|results|docs|node_modules)\//);
    // A few hundred kilobytes, not the clone's megabytes of samples.
    expect(pack!.size).toBeLessThan(1_000_000);
  });

  it("the report's chart.js is found as Node.js finds the package, wherever it was installed", () => {
    expect(chartJsSource()).toMatch(/Chart/);
  });
});

describe("the package installed in a project of the user's, outside the clone", () => {
  it("npx ws-serialization-bench runs there on the user's messages and codec module, writes results/ there, prints the verdict; the page runs in Chromium and Firefox", () => {
    // The user's own dependency, which their codec imports.
    const project = installPackedProject(["fast-json-stable-stringify@2.1.0"]);
    try {
      writeFileSync(
        path.join(project.dir, "stable-json.ts"),
        [
          'import stringify from "fast-json-stable-stringify";',
          "const enc = new TextEncoder();",
          "const dec = new TextDecoder();",
          "export default {",
          '  name: "stable-json",',
          '  description: "JSON with its keys sorted (fast-json-stable-stringify), binary frame",',
          '  frame: "binary" as const,',
          "  standard: true,",
          '  library: "fast-json-stable-stringify",',
          "  forPayload: () => ({",
          "    encode: (m: object): Uint8Array => enc.encode(stringify(m)),",
          '    decode: (d: string | Uint8Array): object => JSON.parse(typeof d === "string" ? d : dec.decode(d)),',
          "  }),",
          "};",
          "",
        ].join("\n"),
      );
      writeFileSync(
        path.join(project.dir, "my-chat.json"),
        JSON.stringify([
          { id: 1, user: "ana", text: "hello there", tags: ["a", "b"] },
          { id: 2, user: "bo", text: "hi!", tags: [] },
          { id: 3, user: "cy", text: "a longer message to carry", tags: ["x"] },
        ]),
      );
      // The user's run: their messages and codec module, codec mode and roundtrip (the server the bench
      // starts, in the package's folder, reads the user's file too); its rows as "mode codec verified".
      const userRun = (...more: string[]) =>
        project.run("npx", [
          "ws-serialization-bench",
          "--quick",
          "--modes",
          "codec,roundtrip",
          "--messages",
          "my-chat.json",
          "--codec-module",
          "./stable-json.ts",
          "--codecs",
          "json,stable-json",
          ...more,
        ]);
      const rowsIn = (dir: string, check: (at: (col: string) => string) => void): string[] => {
        const [header, ...rows] = parseCsv(readFileSync(path.join(project.dir, dir, "latest.csv"), "utf8"));
        return rows
          .map((row) => {
            const at = (col: string): string => row[header!.indexOf(col)]!;
            check(at);
            return `${at("mode")} ${at("codec")} ${at("verified")}`;
          })
          .sort();
      };
      const expected = [
        "codec json true",
        "codec stable-json true",
        "roundtrip json true",
        "roundtrip stable-json true",
      ];
      const r = userRun("--no-pin");
      expect(r.status, r.stderr).toBe(0);
      expect(r.stdout).toMatch(/^Verdict from this run/m);
      expect(r.stdout).toMatch(/^my-chat +client: \S+ fastest /m);
      // The files are in the user's folder.
      expect(readdirSync(path.join(project.dir, "results"))).toContain("report.html");
      expect(
        rowsIn("results", (at) => {
          expect(at("payload")).toBe("my-chat");
          // An installed copy is no checkout of its own (the user's folder may be one): no commit, its version.
          expect([at("commit"), at("dirty"), at("bench_version")]).toEqual(["", "", "0.1.0"]);
        }),
      ).toEqual(expected);
      // The page, served by the installed command with the user's codec bundled into it (its
      // dependency found in the user's node_modules), in both browsers.
      for (const browser of ["chromium", "firefox"]) {
        const page = userRun("--client", browser, "--out", `in-${browser}`);
        expect(page.status, page.stderr).toBe(0);
        expect(rowsIn(`in-${browser}`, (at) => expect(at("client")).toBe("browser"))).toEqual(expected);
      }
    } finally {
      project.remove();
    }
  }, 300_000);
});
