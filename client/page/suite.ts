/**
 * A whole benchmark run inside the browser: the in-process codec mode with
 * the same harness as the CLI (batches sized from the page's own clock), and
 * the WebSocket modes with the same runner, against the server that served
 * the page. Returns the same results object the CLI builds, with
 * client = "browser".
 */

import { calibrateClock, performanceClock, type ClockCalibration } from "../../bench/harness/clock.ts";
import { runCodecMode } from "../../bench/harness/codec-mode.ts";
import type { Environment } from "../../bench/cli/environment.ts";
import type { PayloadName } from "../../protocols/messages.ts";
import type { ProgressUpdate } from "../../bench/harness/progress.ts";
import type { BenchResults, CaseResult, RunSettings } from "../../bench/harness/results.ts";
import { CODECS } from "../../protocols/registry.ts";
import { GC_PATH, INFO_PATH } from "../../protocols/socket/contract.ts";
import type { SocketMode, WebSocketClass } from "../socket/runner.ts";
import { runSocketModes } from "../socket/modes.ts";

/** What a page run needs: the CLI's settings, and the stream window. */
export type SuiteSettings = Pick<RunSettings, "modes" | "codecs" | "payloads" | "iterations" | "runs" | "warmup" | "seed" | "fixed"> & {
  window: number;
};

export const PAGE_DEFAULTS: SuiteSettings = {
  modes: ["codec", "roundtrip", "stream"],
  codecs: [],
  payloads: ["small", "medium", "large"],
  iterations: { codec: 20_000, roundtrip: 500, stream: 10_000, fanout: 0 },
  runs: 3,
  warmup: { codec: 5_000, roundtrip: 100, stream: 1_000, fanout: 0 },
  seed: 1,
  fixed: false,
  window: 64,
};

/** The page reports progress in the CLI's shape, so `--client browser` can print it. */
export type SuiteProgress = ProgressUpdate;

interface ServerInfo {
  runtime: string;
  runtimeVersion: string;
  libraries: Record<string, string>;
}

/** "Chrome/156.0.8078.73" -> "Chrome 156.0.8078.73" (Firefox, Safari alike). */
export function browserVersion(userAgent: string): string {
  const m = /(Firefox|Edg|Chrome|Version)\/([\d.]+)/.exec(userAgent);
  if (!m) return "unknown";
  const name = m[1] === "Version" ? "Safari" : m[1] === "Edg" ? "Edge" : m[1];
  return `${name} ${m[2]}`;
}

export async function fetchInfo(): Promise<ServerInfo> {
  const res = await fetch(INFO_PATH);
  return (await res.json()) as ServerInfo;
}

export function browserEnvironment(calibration: ClockCalibration, info: ServerInfo): Environment {
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

export async function runSuite(settings: SuiteSettings, onProgress: (p: SuiteProgress) => void, shouldStop: () => boolean = () => false): Promise<BenchResults> {
  const timestamp = new Date().toISOString();
  const started = performance.now();
  const calibration = calibrateClock(performanceClock);
  const info = await fetchInfo();
  const environment = browserEnvironment(calibration, info);
  const userAgent = navigator.userAgent;
  const cases: CaseResult[] = [];
  const order: Record<string, string[][][]> = {};
  let minBatchNs = NaN;
  const libraryVersion = (name: string): string => info.libraries[name] ?? "";

  if (settings.modes.includes("codec")) {
    const result = await runCodecMode({
      codecs: CODECS.filter((c) => settings.codecs.includes(c.name)),
      payloads: settings.payloads,
      iterations: settings.iterations.codec,
      runs: settings.runs,
      warmup: settings.warmup.codec,
      seed: settings.seed,
      fixed: settings.fixed,
      clock: performanceClock,
      calibration,
      client: "browser",
      clientLibrary: userAgent,
      libraryVersion,
      onProgress: (e) => onProgress({ ...e, mode: "codec" }),
      shouldStop,
    });
    cases.push(...result.cases);
    order.codec = result.order;
    minBatchNs = result.minBatchNs;
  }

  const socketModes = (["roundtrip", "stream"] as SocketMode[]).filter((m) => settings.modes.includes(m));
  if (socketModes.length > 0) {
    const result = await runSocketModes({
      server: location.origin,
      modes: socketModes,
      codecs: settings.codecs,
      payloads: settings.payloads,
      iterations: { roundtrip: settings.iterations.roundtrip, stream: settings.iterations.stream, fanout: 0 },
      runs: settings.runs,
      warmup: { roundtrip: settings.warmup.roundtrip, stream: settings.warmup.stream, fanout: 0 },
      seed: settings.seed,
      fixed: settings.fixed,
      window: settings.window,
      stallTimeoutMs: 10_000,
      deflate: false,
      clock: performanceClock,
      calibration,
      WebSocket: WebSocket as unknown as WebSocketClass,
      client: "browser",
      clientLibrary: userAgent,
      libraryVersion,
      serverGc: async () => {
        await fetch(GC_PATH, { method: "POST" }).catch(() => undefined);
      },
      onProgress,
      shouldStop,
    });
    // Per-call client timings are quantized to the page's clock; say so on every row.
    for (const c of result.cases) if (calibration.resolutionNs > 1000) c.flags.push("coarse-clock");
    cases.push(...result.cases);
    Object.assign(order, result.order);
  }

  return {
    timestamp,
    settings: {
      modes: settings.modes,
      codecs: settings.codecs,
      payloads: settings.payloads,
      iterations: settings.iterations,
      runs: settings.runs,
      warmup: settings.warmup,
      seed: settings.seed,
      fixed: settings.fixed,
      minBatchNs,
      client: "browser",
      window: settings.window,
      deflate: false,
      server: location.origin,
    },
    environment,
    order,
    cases,
    elapsedMs: performance.now() - started,
  };
}
