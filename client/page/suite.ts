/**
 * A whole benchmark run inside the browser: the in-process codec mode with
 * the same harness as the CLI (batches sized from the page's own clock), and
 * the WebSocket modes with the same runner, against the server that served
 * the page. Returns the same results object the CLI builds, with
 * client = "browser".
 */

import { flagLossy, planUserPayloads } from "../../bench/harness/exclusions.ts";
import type { CodecModuleFile, UserMessagesFile, UserProtoFile } from "../../bench/harness/settings.ts";
import { calibrateClock, performanceClock, type ClockCalibration } from "../../bench/harness/clock.ts";
import { runCodecMode } from "../../bench/harness/codec-mode.ts";
import { kneeField } from "../../bench/harness/knee.ts";
import type { Progress } from "../../bench/harness/progress.ts";
import type { BenchResults, CaseResult, Environment } from "../../bench/harness/results.ts";
import type { Settings } from "../../bench/harness/settings.ts";
import { CODECS } from "../../protocols/registry.ts";
import { INFO_PATH } from "../../protocols/socket/contract.ts";
import { requestServerGc, type WebSocketClass } from "../socket/connection.ts";
import { runSocketModes, socketModesOf } from "../socket/modes.ts";

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

/** "Chrome/156.0.8078.73" -> "Chrome 156.0.8078.73" (Firefox, Safari alike). */
function browserVersion(userAgent: string): string {
  const m = /(Firefox|Edg|Chrome|Version)\/([\d.]+)/.exec(userAgent);
  if (!m) return "unknown";
  const name = m[1] === "Version" ? "Safari" : m[1] === "Edg" ? "Edge" : m[1];
  return `${name} ${m[2]}`;
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
    userAgent: nav.userAgent,
  };
}

export async function runSuite(asked: Settings, onProgress: (p: Progress) => void, shouldStop: () => boolean = () => false): Promise<BenchResults> {
  // A user's own messages: what each codec does to them, and which codecs run on them.
  const { fidelity, excluded } = planUserPayloads(asked, CODECS);
  const settings: Settings = { ...asked, excluded };
  const timestamp = new Date().toISOString();
  const started = performance.now();
  const calibration = calibrateClock(performanceClock);
  const info = await fetchInfo();
  const environment = browserEnvironment(calibration, info);
  const hooks = { client: "browser" as const, clientLibrary: navigator.userAgent, libraryVersion: (name: string): string => info.libraries[name] ?? "", onProgress, shouldStop };
  const cases: CaseResult[] = [];
  const order: Record<string, string[][][]> = {};
  let minBatchNs = NaN;

  if (settings.modes.includes("codec")) {
    const result = await runCodecMode(settings, { ...hooks, codecs: CODECS.filter((c) => settings.codecs.includes(c.name)), clock: performanceClock, calibration });
    cases.push(...result.cases);
    order.codec = result.order;
    minBatchNs = result.minBatchNs;
  }

  if (socketModesOf(settings).length > 0) {
    const server = location.origin;
    const result = await runSocketModes(settings, {
      ...hooks,
      server,
      clock: performanceClock,
      calibration,
      WebSocket: WebSocket as unknown as WebSocketClass,
      serverGc: requestServerGc,
    });
    // Per-call client timings are quantized to the page's clock; say so on every row.
    for (const c of result.cases) if (calibration.resolutionNs > 1000) c.flags.push("coarse-clock");
    cases.push(...result.cases);
    Object.assign(order, result.order);
  }

  flagLossy(cases, fidelity);
  return {
    timestamp,
    settings: { ...settings, minBatchNs, client: "browser", server: location.origin },
    environment,
    order,
    cases,
    elapsedMs: performance.now() - started,
    ...kneeField(cases),
    ...(fidelity.length > 0 ? { fidelity } : {}),
  };
}
