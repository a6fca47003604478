/**
 * `ws-serialization-bench [COMMAND] [OPTIONS]`: the one command the installed package gives
 * (bench/cli/bin.mjs starts it under Bun). The command names what to run, `bench` when left out;
 * each runs as its own process in the user's folder, with the terminal's input and output, and
 * its exit code is this command's. A command that is not one: one line naming the valid ones,
 * exit 2.
 */

import path from "node:path";
import { ROOT } from "./paths.ts";

/** A subcommand: the script it runs, arguments it adds before the user's, and a line for the help. */
interface Command {
  file: string;
  args?: readonly string[];
  what: string;
}

export const COMMANDS: Readonly<Record<string, Command>> = {
  bench: {
    file: "bench/cli/bench.ts",
    what: "run the benchmark (the default): progress, a table, the verdict, CSV, JSON and report.html in ./results",
  },
  server: {
    file: "server.ts",
    what: "the WebSocket server alone, for clients of your own (k6, your application); prints its URL as a JSON line",
  },
  serve: {
    file: "server.ts",
    args: ["--port", "8080"],
    what: "the page on http://127.0.0.1:8080/ (--port to change): open it in a browser, press Run",
  },
  report: {
    file: "bench/cli/report.ts",
    what: "tables and report.html from result files; --fail-if-slower gates a CI job",
  },
};

const NAME = "ws-serialization-bench";

/**
 * Set in each command's environment: the name the user typed, so that command's help and usage
 * lines show what to type (`ws-serialization-bench report`) rather than the clone's `bun run report`.
 */
const INVOKED_AS = "WS_SERIALIZATION_BENCH_INVOKED_AS";

/** How a user types `command` where they are: the installed command, or the clone's script. */
export function usageOf(command: "bench" | "server" | "serve" | "report"): string {
  const name = process.env[INVOKED_AS];
  if (name) return command === "bench" ? name : `${name} ${command}`;
  return command === "serve" ? "bun run server --port 8080" : `bun run ${command}`;
}

export function commandHelp(): string {
  const width = Math.max(...Object.keys(COMMANDS).map((c) => c.length));
  return [
    `Usage: ${NAME} [COMMAND] [OPTIONS]`,
    "",
    "Commands:",
    ...Object.entries(COMMANDS).map(([name, c]) => `  ${name.padEnd(width)}  ${c.what}`),
    "",
    `${NAME} COMMAND --help: that command's options. Without a command, the options are bench's.`,
    "",
  ].join("\n");
}

/** What to run for `argv`: a script and its arguments, the help, or a line saying what is wrong. */
export function resolveCommand(
  argv: readonly string[],
): { file: string; args: string[] } | { help: string } | { error: string } {
  const [first, ...rest] = argv;
  if (first === "help" || (argv.length === 1 && (first === "--help" || first === "-h"))) return { help: commandHelp() };
  if (first === undefined || first.startsWith("-"))
    return { file: path.join(ROOT, COMMANDS.bench!.file), args: [...argv] };
  const command = COMMANDS[first];
  if (!command)
    return { error: `${NAME}: unknown command '${first}'; valid commands: ${Object.keys(COMMANDS).join(", ")}` };
  // A user's own --port wins over serve's (the last of a flag given twice counts).
  return { file: path.join(ROOT, command.file), args: [...(command.args ?? []), ...rest] };
}

if (import.meta.main) {
  const what = resolveCommand(process.argv.slice(2));
  if ("help" in what) process.stdout.write(what.help);
  else if ("error" in what) {
    process.stderr.write(`${what.error}\n`);
    process.exitCode = 2;
  } else {
    const child = Bun.spawn([process.execPath, what.file, ...what.args], {
      cwd: process.cwd(),
      env: { ...process.env, [INVOKED_AS]: NAME },
      stdio: ["inherit", "inherit", "inherit"],
    });
    // The terminal's Ctrl-C reaches the child too (one process group); a signal sent to this process alone is passed on.
    for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => child.kill(signal));
    process.exitCode = await child.exited;
  }
}
