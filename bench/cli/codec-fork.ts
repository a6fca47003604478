/**
 * One process of codec mode (see harness/codec-forks.ts): the bench starts
 * it with Bun and gives it the job (the settings, with this process's share
 * of the passes) in the child protocol (client/child-protocol.ts); it
 * streams progress and each case as soon as the case's rounds in its share
 * are done, then the result. SIGINT stops it at the next round boundary; it
 * still reports what it finished.
 */

import { serveAsChild } from "../../client/child-protocol.ts";
import { CODECS } from "../../protocols/registry.ts";
import { calibrateClock, performanceClock } from "../harness/clock.ts";
import type { ForkSpan } from "../harness/codec-forks.ts";
import { runCodecMode } from "../harness/codec-mode.ts";
import { loadCodecModules } from "../harness/codec-modules.ts";
import type { Settings } from "../harness/settings.ts";
import { libraryVersion } from "./environment.ts";
import { fullGc } from "./run-support.ts";

export interface CodecForkJob {
  settings: Settings;
  /** This process's share of the passes. */
  span: ForkSpan;
}

await serveAsChild<CodecForkJob>(async ({ settings, span }, side) => {
  await loadCodecModules(settings.codecModules);
  return runCodecMode(settings, {
    codecs: CODECS.filter((c) => settings.codecs.includes(c.name)),
    clock: performanceClock,
    calibration: calibrateClock(performanceClock),
    gc: fullGc(),
    libraryVersion,
    onProgress: side.progress,
    onCaseDone: side.caseDone,
    shouldStop: side.shouldStop,
    span,
  });
});
