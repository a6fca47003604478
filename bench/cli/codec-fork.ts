/**
 * One process of codec mode (see harness/codec-forks.ts): the bench starts
 * it with Bun, writes the job (the settings, with this process's share of
 * the passes) to its standard input as one JSON line, and reads JSON lines
 * from its stdout: {"type":"progress",...}, then {"type":"result",...} or
 * {"type":"error","message":...}. SIGINT stops it at the next round
 * boundary; it still reports what it finished.
 */

import { parseLine, stringifyLine } from "../../client/json-lines.ts";
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

function emit(value: unknown): void {
  process.stdout.write(stringifyLine(value) + "\n");
}

async function main(): Promise<void> {
  let text = "";
  for await (const chunk of process.stdin) text += String(chunk);
  const { settings, span } = parseLine(text) as CodecForkJob;
  await loadCodecModules(settings.codecModules);
  let stopRequested = false;
  process.on("SIGINT", () => {
    stopRequested = true;
  });
  const result = await runCodecMode(settings, {
    codecs: CODECS.filter((c) => settings.codecs.includes(c.name)),
    clock: performanceClock,
    calibration: calibrateClock(performanceClock),
    gc: fullGc(),
    libraryVersion,
    onProgress: (event) => emit({ type: "progress", event }),
    shouldStop: () => stopRequested,
    span,
  });
  emit({ type: "result", result });
}

main().catch((e: unknown) => {
  emit({ type: "error", message: e instanceof Error ? e.message : String(e) });
  process.exitCode = 1;
});
