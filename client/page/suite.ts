/**
 * A whole benchmark run inside the browser: the plan carried out by the
 * same orchestrator as the CLI's (client/benchmark.ts), codec mode with
 * batches sized from the page's own clock, the WebSocket modes with the
 * same runner, against the server that served the page. Returns the same
 * results object the CLI builds, with client = "browser".
 */

import type { CodecModuleFile, UserMessagesFile, UserProtoFile } from "../harness/settings.ts";
import { calibrateClock, performanceClock, type ClockCalibration } from "../harness/clock.ts";
import { CAN_COMPILE } from "../harness/loops.ts";
import type { Plan } from "../harness/plan.ts";
import type { BenchmarkHooks, Progress } from "../harness/progress.ts";
import type { BenchResults, CaseResult, Environment } from "../harness/results.ts";
import { TimeLedger } from "../harness/time-account.ts";
import { INFO_PATH } from "../../protocols/contract.ts";
import { Benchmark } from "../benchmark.ts";
import type { WebSocketClass } from "../socket/client-connection.ts";
import { socketModeContext } from "../socket/mode-context.ts";
import { runSocketModes } from "../socket/modes.ts";
import { CAN_USE_WORKERS, CodecModeWorkers } from "./codec-workers.ts";
import { browserVersion } from "../harness/browser-version.ts";

interface ServerInfo {
  runtime: string;
  runtimeVersion: string;
  libraries: Record<string, string>;
  /** The user's own messages the server was started with (--messages), for the page to offer and send. */
  userMessages?: UserMessagesFile[];
  /** Their Protobuf message type (--proto), if the server was given one. */
  userProto?: UserProtoFile;
  /** Codecs of the user's own (--codec-module), each bundled for the page at `url`. */
  codecModules?: (CodecModuleFile & { url: string })[];
}

export async function fetchInfo(): Promise<ServerInfo> {
  const res = await fetch(INFO_PATH);
  return (await res.json()) as ServerInfo;
}

function browserEnvironment(calibration: ClockCalibration, info: ServerInfo): Environment {
  const nav = navigator as Navigator & { deviceMemory?: number };
  return {
    runtime: "browser",
    runtimeVersion: browserVersion(nav.userAgent),
    os: nav.platform || "unknown",
    arch: "",
    cpu: "unknown (not exposed to pages)",
    cores: nav.hardwareConcurrency || 0,
    memoryGiB: nav.deviceMemory ?? NaN,
    libraries: info.libraries,
    clock: "performance.now",
    timerResolutionNs: calibration.resolutionNs,
    timerOverheadNs: calibration.overheadNs,
    gcBetweenCases: false,
    msgpackrNative: false,
    crossOriginIsolated: globalThis.crossOriginIsolated === true,
    evalAllowed: CAN_COMPILE,
    userAgent: nav.userAgent,
  };
}

/** What a run in the page gave: its results, and one line for each step that failed (their finished cases are in the results). */
export interface SuiteOutcome {
  results: BenchResults;
  failures: string[];
}

/**
 * Carries out a plan in the page (client/benchmark.ts): codec mode in the page's engine, the socket
 * modes with its WebSocket, against the server that served it. `onCaseDone` hears each case as it
 * finishes, so a driver that must stop early keeps what finished. `linkVia`: the address of a
 * link in front of that server (bun run bench --client chromium --link), where the WebSockets open.
 */
export async function runSuite(
  plan: Plan,
  onProgress: (p: Progress) => void,
  shouldStop: () => boolean = () => false,
  onCaseDone?: (c: CaseResult) => void,
  linkVia?: string,
): Promise<SuiteOutcome> {
  const timestamp = new Date().toISOString();
  const calibration = calibrateClock(performanceClock);
  const info = await fetchInfo();
  const hooks = {
    libraryVersion: (name: string): string => info.libraries[name] ?? "",
    onProgress,
    shouldStop,
    ...(onCaseDone ? { onCaseDone } : {}),
    ledger: new TimeLedger(),
  };
  const failures: string[] = [];
  const run = new Benchmark(plan, {
    client: "browser",
    clientLibrary: navigator.userAgent,
    timestamp,
    environment: browserEnvironment(calibration, info),
    clock: performanceClock,
    calibration,
    hooks,
    socketModes: async (p, h, warmedInProcess) => {
      const client = {
        kind: "browser" as const,
        library: navigator.userAgent,
        WebSocket: WebSocket as unknown as WebSocketClass,
      };
      const context = socketModeContext(
        client,
        { server: location.origin, ...(linkVia ? { linkVia: { [location.origin]: linkVia } } : {}) },
        { catalog: p.catalog, calibration, hooks: h, warmedInProcess },
      );
      return { result: await runSocketModes(p.settings, context), server: location.origin };
    },
    // Codec mode in fresh workers, one per span: each the unit of every interval (codec-workers.ts).
    ...(plan.forks > 1 && CAN_USE_WORKERS
      ? {
          codecMode: (p: Plan, h: BenchmarkHooks) =>
            new CodecModeWorkers(p, h, {
              modules: (info.codecModules ?? []).map((m) => ({ file: m.file, specifier: m.url })),
              libraries: info.libraries,
            }).run(),
        }
      : {}),
    onFailure: (line) => failures.push(line),
  });
  const results = await run.run();
  return { results: { ...results, settings: { ...results.settings, server: location.origin } }, failures };
}
