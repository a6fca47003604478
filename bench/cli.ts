/**
 * `bun run bench`: parse options, run the modes, print the table, write
 * the files. Bad options: one line on stderr, exit code 2.
 */

import { runBench } from "./run.ts";
import { HELP, OptionError, parseBenchArgs } from "./options.ts";

try {
  const options = parseBenchArgs(process.argv.slice(2));
  if (options.help) {
    process.stdout.write(HELP);
  } else {
    process.exitCode = await runBench(options, { stdout: process.stdout, stderr: process.stderr });
  }
} catch (e) {
  if (!(e instanceof OptionError)) throw e;
  process.stderr.write(`bench: ${e.message}\n`);
  process.exitCode = 2;
}
