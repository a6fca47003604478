/**
 * `bun run bench`: parse options, run the modes, print the table, write
 * the files. Bad options: one line on stderr, exit code 2.
 */

import { EXIT_INTERRUPTED, runBenchmark, type StopControl } from "./run-benchmark.ts";
import { SettingError } from "../../client/harness/harness-errors.ts";
import { helpText } from "./help.ts";
import { benchOptions, readBenchFlags } from "./options.ts";
import { importCodecModuleFiles } from "../../client/harness/user-files.ts";
import { catalogFor } from "../../client/harness/plan.ts";

/** Two SIGINTs closer than this are one Ctrl-C delivered twice (by the terminal and by `bun run`). */
const SAME_KEYPRESS_MS = 500;
/** Exit code after SIGTERM (128 + 15), once what finished is written. */
const EXIT_TERMINATED = 143;

try {
  // The flags' form first, then the codec modules they name, then every value against the codecs those make.
  const flags = readBenchFlags(process.argv.slice(2));
  const modules = await importCodecModuleFiles(flags["codec-module"] ?? []);
  if (flags.help) {
    process.stdout.write(
      helpText(
        catalogFor(
          { userMessages: [] },
          modules.map((m) => m.codec),
        ),
      ),
    );
  } else {
    const options = benchOptions(flags, modules);
    // Ctrl-C: finish the current round (codec mode) or case, write what finished, print the summary, exit 130.
    // Twice: write what finished so far and exit now. `bun run` passes the terminal's Ctrl-C on to this process,
    // which has it from the terminal too: a second SIGINT within half a second is the same keypress.
    const control: StopControl = { stopRequested: false };
    let firstAt = 0;
    const quit = (code: number, why: string): void => {
      control.quit?.(why);
      process.exit(code);
    };
    process.on("SIGINT", () => {
      if (control.stopRequested && performance.now() - firstAt < SAME_KEYPRESS_MS) return;
      if (control.stopRequested) quit(EXIT_INTERRUPTED, "a second Ctrl-C");
      control.stopRequested = true;
      firstAt = performance.now();
      process.stderr.write("\nbench: stopping after the current round or case (Ctrl-C again to quit at once)\n");
    });
    process.on("SIGTERM", () => quit(EXIT_TERMINATED, "SIGTERM"));
    const outcome = await runBenchmark(options, { stdout: process.stdout, stderr: process.stderr }, control, 0);
    process.exitCode = outcome.exitCode;
  }
} catch (e) {
  if (!(e instanceof SettingError)) throw e;
  process.stderr.write(`bench: ${e.message}\n`);
  process.exitCode = 2;
}
