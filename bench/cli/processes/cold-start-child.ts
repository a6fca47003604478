/**
 * One fresh process of cold mode (client/harness/cold-start.ts): the bench
 * starts it with Bun, gives it its job in the child protocol
 * (client/child-protocol.ts), and it reports what it measured. It imports
 * no codec before the one it times: nothing here reaches the registry.
 */

import { serveAsChild } from "../../../client/child-protocol.ts";
import { performanceClock } from "../../../client/harness/clock.ts";
import { codecLoader } from "../../../client/harness/codec-loaders.ts";
import { measureColdStart, type ColdJob } from "../../../client/harness/cold-start.ts";

await serveAsChild<ColdJob>("cold-start process", async (job, side) => {
  const loader = codecLoader(job.codec, job.moduleFile);
  if (!loader) throw new Error(`cold mode cannot load codec '${job.codec}' on its own`);
  return measureColdStart(job, performanceClock, loader, side.ledger);
});
