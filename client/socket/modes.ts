/**
 * The WebSocket modes (`roundtrip`, `stream`, `fanout`) for one client: every codec x
 * payload, `runs` times, codec order shuffled per run, a warm-up connection
 * before a case's first run, garbage collected on both ends before each
 * run. Runs wherever the client runs (Bun, Node, a browser), so it takes the
 * WebSocket class, the clock and the hooks it needs as options. Measures
 * only; never prints.
 */

import { shuffled } from "../../bench/harness/codec-mode.ts";
import type { Clock, ClockCalibration } from "../../bench/harness/clock.ts";
import { createRng, makeMessages } from "../../bench/harness/generator.ts";
import { type Message, type PayloadName } from "../../protocols/messages.ts";
import type { ProgressUpdate } from "../../bench/harness/progress.ts";
import type { CaseResult, ClientKind, LatencyPercentiles, RunFigures } from "../../bench/harness/results.ts";
import { percentileSorted, summarize } from "../../bench/harness/stats.ts";
import { getCodec } from "../../protocols/registry.ts";
import { RAW_CODEC_NAME, frameBytes, frameOf } from "../../protocols/socket/contract.ts";
import { runSocketCase, type SocketCaseFigures, type SocketMode, type WebSocketClass } from "./runner.ts";
import { mergeFigures, type ClientWorkers } from "./workers.ts";
import { runFanoutCase } from "./fanout.ts";
import type { ClientFigures } from "../../bench/harness/results.ts";

export interface SocketModeOptions {
  /** Server base URL, http://host:port. */
  server: string;
  modes: readonly SocketMode[];
  /** Socket codec names, `raw` included where wanted. */
  codecs: readonly string[];
  payloads: readonly PayloadName[];
  /** Messages per run, by mode. */
  iterations: Record<SocketMode, number>;
  runs: number;
  /** Messages of the untimed warm-up connection before a case's first run, by mode. */
  warmup: Record<SocketMode, number>;
  seed: number;
  fixed: boolean;
  window: number;
  stallTimeoutMs: number;
  /** Concurrent connections per case; above 1 they run on `workers`. */
  clients?: number;
  workers?: ClientWorkers;
  /** Compression was asked for: wire sizes are then unknown to the client. */
  deflate: boolean;
  clock: Clock;
  calibration: ClockCalibration;
  WebSocket: WebSocketClass;
  client: ClientKind;
  clientLibrary: string;
  /** The library version of each codec, for the results. */
  libraryVersion?: (library: string) => string;
  /** Full collection in the client before each run. */
  gc?: () => void;
  /** Asks the server to collect its garbage before each run. */
  serverGc?: () => Promise<void>;
  cpuMs?: () => number;
  onProgress?: (event: SocketProgress) => void;
  shouldStop?: () => boolean;
  /** Called once per case as soon as it is finished (its last run, or its failure). */
  onCaseDone?: (c: CaseResult) => void;
}

/** The shared progress shape (bench/progress.ts), narrowed to these modes. */
export interface SocketProgress extends ProgressUpdate {
  stage: "warmup" | "run";
  mode: SocketMode;
  payload: PayloadName;
}

export interface SocketModeResult {
  /** The cases that ran (all of them unless the run was stopped or aborted). */
  cases: CaseResult[];
  /** shouldStop ended the run early. */
  stopped: boolean;
  /** Why the modes ended early when the server could no longer be reached. */
  aborted: string;
  /** order[mode][run][payloadIndex] = codec names in the order they ran. */
  order: Record<string, string[][][]>;
}

interface CaseState {
  mode: SocketMode;
  codec: string;
  payload: PayloadName;
  runs: RunFigures[];
  figures: SocketCaseFigures[];
  rtt: Float64Array[];
  perClient: ClientFigures[][];
  warmed: boolean;
  reported: boolean;
  error: string;
}

function describeCodec(name: string): { standard: boolean; library: string } {
  if (name === RAW_CODEC_NAME) return { standard: true, library: "" };
  const c = getCodec(name);
  return { standard: c?.standard ?? true, library: c?.library ?? "" };
}

export async function runSocketModes(o: SocketModeOptions): Promise<SocketModeResult> {
  const now = o.clock.now;
  const started = now();
  const maxIterations = Math.max(...o.modes.map((m) => o.iterations[m]));
  const messages = new Map<PayloadName, Message[]>();
  for (const p of o.payloads) messages.set(p, makeMessages(p, { count: maxIterations, seed: o.seed, fixed: o.fixed }));

  const states: CaseState[] = [];
  const stateOf = new Map<string, CaseState>();
  for (const mode of o.modes) {
    for (const payload of o.payloads) {
      for (const codec of o.codecs) {
        const s: CaseState = { mode, codec, payload, runs: [], figures: [], rtt: [], perClient: [], warmed: false, reported: false, error: "" };
        states.push(s);
        stateOf.set(`${mode}|${codec}|${payload}`, s);
      }
    }
  }
  const total = states.length * o.runs;
  let done = 0;
  let stopped = false;
  let aborted = "";
  let connection = 0;
  const rng = createRng(o.seed ^ 0x2545f491);
  const order: Record<string, string[][][]> = {};

  const clients = Math.max(1, o.clients ?? 1);
  const runCase = async (s: CaseState, count: number, label: string): Promise<SocketCaseFigures> => {
    const id = `${o.client}-${label}-${s.mode}-${s.codec}-${s.payload}-${Date.now().toString(36)}-${connection++}`;
    const window = s.mode === "roundtrip" ? 1 : o.window;
    // Several clients (not fanout, whose subscribers run here): worker threads.
    if (s.mode !== "fanout" && clients > 1 && o.workers) {
      const t0 = now();
      const all = await o.workers.run(
        { server: o.server, codec: s.codec, payload: s.payload, mode: s.mode, seed: o.seed, fixed: o.fixed, window, stallTimeoutMs: o.stallTimeoutMs, timerOverheadNs: o.calibration.overheadNs },
        clients,
        count,
        id,
      );
      const { merged, perClient } = mergeFigures(all, now() - t0);
      if (label !== "warmup") s.perClient.push(perClient);
      return merged;
    }
    const single = {
      server: o.server,
      codec: s.codec,
      payload: s.payload,
      mode: s.mode,
      messages: messages.get(s.payload)!.slice(0, count),
      window,
      stallTimeoutMs: o.stallTimeoutMs,
      clock: o.clock,
      timerOverheadNs: o.calibration.overheadNs,
      WebSocket: o.WebSocket,
      id,
      cpuMs: o.cpuMs,
    };
    if (s.mode === "fanout") {
      const r = await runFanoutCase({ ...single, subscribers: clients });
      if (label !== "warmup") s.perClient.push(r.perSubscriber);
      return r.figures;
    }
    return runSocketCase(single);
  };

  outer: for (const mode of o.modes) {
    const modeOrder: string[][][] = (order[mode] = []);
    const n = o.iterations[mode];
    for (let run = 0; run < o.runs; run++) {
      const runOrder: string[][] = [];
      modeOrder.push(runOrder);
      for (const payload of o.payloads) {
        const codecs = shuffled(o.codecs, rng);
        runOrder.push(codecs);
        for (let position = 0; position < codecs.length; position++) {
          const s = stateOf.get(`${mode}|${codecs[position]}|${payload}`)!;
          const progress = (stage: SocketProgress["stage"]): void =>
            o.onProgress?.({ stage, mode, codec: s.codec, payload, run, runs: o.runs, done, total, elapsedMs: now() - started });
          if (s.error === "" && !s.warmed && o.warmup[mode] > 0) {
            progress("warmup");
            const warm = await runCase(s, Math.min(o.warmup[mode], maxIterations), "warmup");
            if (warm.error !== "") s.error = `warm-up: ${warm.error}`;
            s.warmed = true;
          }
          if (s.error === "") {
            progress("run");
            await o.serverGc?.();
            o.gc?.();
            const f = await runCase(s, n, `run${run + 1}`);
            s.figures.push(f);
            if (f.error !== "") s.error = `run ${run + 1}: ${f.error}`;
            else {
              const perMessage = (ns: number): number => ns / f.sent;
              s.runs.push({
                run,
                position,
                serializeNs: perMessage(f.serializeNs),
                // fanout: every subscriber decodes every message.
                deserializeNs: mode === "fanout" ? f.deserializeNs / f.received : perMessage(f.deserializeNs),
                totalNs: mode === "roundtrip" ? mean(f.rttNs!) : (f.elapsedMs * 1e6) / f.received,
              });
              if (f.rttNs) s.rtt.push(f.rttNs);
            }
          }
          done++;
          if (!s.reported && (s.error !== "" || run === o.runs - 1)) {
            s.reported = true;
            o.onCaseDone?.(toCaseResult(s, o));
          }
          // A server that cannot be reached fails every case alike: stop at the first.
          const unreachable = /(^|: )cannot connect to /.exec(s.error);
          if (unreachable) {
            aborted = `${mode} ${s.codec} ${payload}: ${s.error}`;
            break outer;
          }
          if (o.shouldStop?.()) {
            stopped = true;
            break outer;
          }
        }
      }
    }
  }

  const ran = states.filter((s) => s.warmed || s.figures.length > 0 || s.error !== "");
  return { cases: ran.map((s) => toCaseResult(s, o)), order, stopped, aborted };
}

function mean(values: Float64Array): number {
  let sum = 0;
  for (let i = 0; i < values.length; i++) sum += values[i]!;
  return sum / values.length;
}

function latency(samples: Float64Array[]): LatencyPercentiles | undefined {
  const count = samples.reduce((n, s) => n + s.length, 0);
  if (count === 0) return undefined;
  const all = new Float64Array(count);
  let at = 0;
  for (const s of samples) {
    all.set(s, at);
    at += s.length;
  }
  all.sort();
  return {
    samples: count,
    p50: percentileSorted(all, 50),
    p90: percentileSorted(all, 90),
    p99: percentileSorted(all, 99),
    p999: percentileSorted(all, 99.9),
    max: all[count - 1]!,
  };
}

const NO_BATCHES = { batch: NaN, samples: 0, p50: NaN, p90: NaN, p99: NaN };

function toCaseResult(s: CaseState, o: SocketModeOptions): CaseResult {
  const { standard, library } = describeCodec(s.codec);
  const figures = s.figures;
  const sum = (pick: (f: SocketCaseFigures) => number): number => figures.reduce((acc, f) => acc + pick(f), 0);
  const ok = s.error === "" && s.runs.length > 0;
  const n = o.iterations[s.mode];
  const sent = sum((f) => f.sent);
  const bytesPerMessage = sent > 0 ? sum((f) => f.bytesSent) / sent : NaN;
  const received = sum((f) => f.received);
  const replyBytes = received > 0 ? sum((f) => f.bytesReceived) / received : NaN;
  const elapsedMs = sum((f) => f.elapsedMs);
  const servers = figures.map((f) => f.server).filter((x) => x !== undefined);
  const serverPer = (pick: (x: (typeof servers)[number]) => number): number[] =>
    servers.filter((x) => x.messages > 0).map((x) => pick(x) / x.messages);
  const total = summarize(s.runs.map((r) => r.totalNs));
  const flags: string[] = [];
  if (!standard) flags.push("non-standard");
  if (s.codec === RAW_CODEC_NAME) flags.push("transport-baseline");
  if (ok && s.runs.length < o.runs) flags.push("stopped-early");
  const isRaw = s.codec === RAW_CODEC_NAME;
  return {
    client: o.client,
    clientLibrary: o.clientLibrary,
    mode: s.mode,
    codec: s.codec,
    standard,
    frame: frameOf(s.codec),
    library,
    libraryVersion: o.libraryVersion?.(library) ?? "",
    payload: s.payload,
    iterations: n,
    runs: s.runs.length,
    warmup: o.warmup[s.mode],
    bytes: bytesPerMessage,
    bytesMin: NaN,
    bytesMax: NaN,
    verified: ok,
    error: s.error !== "" ? s.error : s.runs.length === 0 ? "no run finished" : "",
    serialize: isRaw ? summarize([]) : summarize(s.runs.map((r) => r.serializeNs)),
    deserialize: isRaw ? summarize([]) : summarize(s.runs.map((r) => r.deserializeNs)),
    total,
    totalMs: summarize(s.runs.map((r) => (r.totalNs * n) / 1e6)),
    msgsPerS: ok ? summarize(s.runs.map((r) => 1e9 / r.totalNs)).mean : NaN,
    serializeBatches: NO_BATCHES,
    deserializeBatches: NO_BATCHES,
    loopFloorNs: NaN,
    flags,
    raw: s.runs,
    socket: {
      clients: Math.max(1, o.clients ?? 1),
      perClient: s.perClient.length > 0 ? s.perClient : undefined,
      window: s.mode === "roundtrip" ? 1 : Math.min(o.window, n),
      sent,
      received,
      lost: sum((f) => f.lost),
      reordered: sum((f) => f.reordered),
      corrupted: sum((f) => f.corrupted),
      wireBytes: o.deflate ? NaN : frameBytes(bytesPerMessage, true),
      replyBytes,
      rtt: latency(s.rtt),
      serverDeserialize: summarize(isRaw ? [] : serverPer((x) => x.decodeNs)),
      serverSerialize: summarize(isRaw ? [] : serverPer((x) => x.encodeNs)),
      mbPerS: elapsedMs > 0 ? (sum((f) => f.bytesSent) / 1e6) / (elapsedMs / 1000) : NaN,
      serverCpuMs: servers.reduce((acc, x) => acc + x.cpuMs, 0),
      clientCpuMs: sum((f) => f.clientCpuMs),
      elapsedMs,
      backpressure: servers.reduce((acc, x) => acc + x.backpressure + (x.publishBackpressure ?? 0), 0),
      dropped: servers.reduce((acc, x) => acc + x.dropped + (x.publishDropped ?? 0), 0),
      extensions: figures[0]?.extensions ?? "",
    },
  };
}
