/**
 * `bun run bench`: the flags read into the options compare() takes, resolved by the same function
 * (resolve-options.ts), then the benchmark run, its table printed and its files written. A bad
 * option: one line on stderr, exit code 2.
 */

import { EXIT_INTERRUPTED, runBenchmark, type StopControl } from "./run-benchmark.ts";
import { SettingError } from "../../client/harness/harness-errors.ts";
import { importCodecModuleFiles } from "../../client/harness/user-files.ts";
import { catalogFor } from "../../client/harness/plan.ts";
import { readFlags } from "./flags.ts";
import { BENCH_OPTIONS, DEFAULT_OUT, benchFlag, helpText } from "./option-specs.ts";
import { resolveBenchOptions } from "./resolve-options.ts";

/** Two SIGINTs closer than this are one Ctrl-C delivered twice (by the terminal and by `bun run`). */
const SAME_KEYPRESS_MS = 500;
/** Exit code after SIGTERM (128 + 15), once what finished is written. */
const EXIT_TERMINATED = 143;

try {
  const flags = readFlags(process.argv.slice(2), BENCH_OPTIONS);
  if (flags.help) {
    // The help lists the codecs of the modules named beside it.
    const modules = await importCodecModuleFiles((flags.codecModules as string[] | undefined) ?? [], benchFlag);
    process.stdout.write(
      helpText(
        catalogFor(
          { userMessages: [] },
          modules.map((m) => m.codec),
        ),
      ),
    );
  } else {
    const options = await resolveBenchOptions({ ...flags, out: flags.out ?? DEFAULT_OUT }, benchFlag);
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
