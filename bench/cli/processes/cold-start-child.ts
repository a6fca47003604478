/**
 * One fresh process of cold mode (client/harness/cold-start.ts): the bench
 * starts it with Bun, gives it its job in the child protocol
 * (client/child-protocol.ts) as a structured clone, and it reports what it
 * measured. It imports no codec before the one it times (nothing here
 * reaches the registry), and runs no JSON before the timed messages.
 */

import { deserialize } from "bun:jsc";
import { serveAsChild } from "../../../client/child-protocol.ts";
import { performanceClock } from "../../../client/harness/clock.ts";
import { codecLoader } from "../../../client/harness/codec-loaders.ts";
import { measureColdStart, type ColdJob } from "../../../client/harness/cold-start.ts";

// A stop ends this process at once: its messages so far make no figure, and a long run (--iterations) need not be waited for.
process.once("SIGINT", () => process.exit(130));

await serveAsChild<ColdJob>(
  "cold-start process",
  async (job, side) => {
    const loader = codecLoader(job.codec, job.moduleFile);
    if (!loader) throw new Error(`cold mode cannot load codec '${job.codec}' on its own`);
    return measureColdStart(job, performanceClock, loader, side.ledger);
  },
  // A structured clone, not JSON: parsing JSON here would warm json's code before it is timed.
  async () => deserialize(await Bun.stdin.bytes()) as ColdJob,
);
