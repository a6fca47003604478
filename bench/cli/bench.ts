/**
 * `bun run bench`: parse options, run the modes, print the table, write
 * the files. Bad options: one line on stderr, exit code 2.
 */

import { runBench } from "./run.ts";
import { EXIT_INTERRUPTED, type RunControl } from "./run-support.ts";
import { SettingError } from "../harness/settings.ts";
import { HELP } from "./help.ts";
import { parseBenchArgs } from "./options.ts";
import { importArgvCodecModules } from "./user-files.ts";

try {
  await importArgvCodecModules(process.argv.slice(2));
  const options = parseBenchArgs(process.argv.slice(2));
  if (options.help) {
    process.stdout.write(HELP);
  } else {
    // Ctrl-C: finish the current round (codec mode) or case, write what finished, print the summary, exit 130. Twice: now.
    const control: RunControl = { stopRequested: false };
    process.on("SIGINT", () => {
      if (control.stopRequested) process.exit(EXIT_INTERRUPTED);
      control.stopRequested = true;
      process.stderr.write("\nbench: stopping after the current round or case (Ctrl-C again to quit at once)\n");
    });
    process.exitCode = await runBench(options, { stdout: process.stdout, stderr: process.stderr }, control);
  }
} catch (e) {
  if (!(e instanceof SettingError)) throw e;
  process.stderr.write(`bench: ${e.message}\n`);
  process.exitCode = 2;
}
