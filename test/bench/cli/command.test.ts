/**
 * `ws-serialization-bench`, the installed package's one command (bench/cli/command.ts, started
 * under Bun by bench/cli/bin.mjs under Node.js): which script each command runs, the help, one
 * line and exit 2 for a command that is not one; and what `npm pack` puts in the package.
 */
import { spawnSync } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { COMMANDS, commandHelp, resolveCommand } from "../../../bench/cli/command.ts";
import { chartJsSource } from "../../../bench/cli/output.ts";

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
    spawnSync("node", [path.join(ROOT, "bench/cli/bin.mjs"), ...args], {
      encoding: "utf8",
      timeout: 60_000,
      env: { ...process.env, NO_COLOR: "1" },
    });

  it("starts the command under the package's Bun: the help, each command's own help, and exit 2 with one line", () => {
    const help = run("--help");
    expect(help.status, help.stderr).toBe(0);
    expect(help.stdout).toBe(commandHelp());
    expect(run("report", "--help").stdout).toMatch(/^Usage: .*report FILE/);
    expect(run("server", "--help").stdout).toMatch(/the page at \//);
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
