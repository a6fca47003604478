/**
 * The WebSocket modes (`roundtrip`, `stream`, `fanout`) for one client:
 * every codec x payload, `runs` times, codec order shuffled per run, a
 * warm-up connection before a case's first run, garbage collected on both
 * ends before each run. Runs wherever the client runs (Bun, Node, a
 * browser), so it takes the WebSocket class, the clock and the hooks it
 * needs in its context. Measures only; never prints.
 */

import type { Clock, ClockCalibration } from "../../bench/harness/clock.ts";
import { createRng, makeMessages } from "../../bench/harness/generator.ts";
import type { RunHooks } from "../../bench/harness/progress.ts";
import type { CaseResult } from "../../bench/harness/results.ts";
import { shuffled } from "../../bench/harness/schedule.ts";
import { SOCKET_MODES, type ClientKind, type Settings, type SocketMode } from "../../bench/harness/settings.ts";
import type { Message, PayloadName } from "../../protocols/messages.ts";
import { socketCaseResult, type SocketCase } from "./case-result.ts";
import { runFanoutCase } from "./fanout.ts";
import type { WebSocketClass } from "./connection.ts";
import { runSocketCase, type SocketCaseFigures } from "./runner.ts";
import { mergeFigures, type ClientWorkers } from "./workers.ts";

/** What the socket modes need besides the settings. */
export interface SocketModeContext extends RunHooks {
  /** Server base URL, http://host:port. */
  server: string;
  clock: Clock;
  calibration: ClockCalibration;
  WebSocket: WebSocketClass;
  client: ClientKind;
  clientLibrary: string;
  /** With `settings.clients` above 1, the worker threads that run the connections. */
  workers?: ClientWorkers;
  /** Asks the server to collect its garbage before each run. */
  serverGc?: () => Promise<void>;
  cpuMs?: () => number;
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

/** The settings' WebSocket modes, in the order they run. */
export function socketModesOf(settings: Settings): SocketMode[] {
  return SOCKET_MODES.filter((m) => settings.modes.includes(m));
}

/** Runs one case's connection (or connections, with several clients) for `count` messages. */
class CaseRunner {
  private connection = 0;

  constructor(
    private readonly settings: Settings,
    private readonly ctx: SocketModeContext,
    private readonly messages: Map<PayloadName, Message[]>,
  ) {}

  async run(s: SocketCase, count: number, label: string): Promise<SocketCaseFigures> {
    const { settings, ctx } = this;
    const id = `${ctx.client}-${label}-${s.mode}-${s.codec}-${s.payload}-${Date.now().toString(36)}-${this.connection++}`;
    const window = s.mode === "roundtrip" ? 1 : settings.window;
    // Several clients (not fanout, whose subscribers run here): worker threads.
    if (s.mode !== "fanout" && settings.clients > 1 && ctx.workers) {
      const t0 = ctx.clock.now();
      const job = { server: ctx.server, codec: s.codec, payload: s.payload, mode: s.mode, seed: settings.seed, fixed: settings.fixed, window, stallTimeoutMs: settings.stallTimeoutMs, timerOverheadNs: ctx.calibration.overheadNs };
      const all = await ctx.workers.run(job, settings.clients, count, id);
      const { merged, perClient } = mergeFigures(all, ctx.clock.now() - t0);
      if (label !== "warmup") s.perClient.push(perClient);
      return merged;
    }
    const single = {
      server: ctx.server,
      codec: s.codec,
      payload: s.payload,
      mode: s.mode,
      messages: this.messages.get(s.payload)!.slice(0, count),
      window,
      stallTimeoutMs: settings.stallTimeoutMs,
      clock: ctx.clock,
      timerOverheadNs: ctx.calibration.overheadNs,
      WebSocket: ctx.WebSocket,
      id,
      cpuMs: ctx.cpuMs,
    };
    if (s.mode === "fanout") {
      const r = await runFanoutCase({ ...single, subscribers: settings.clients });
      if (label !== "warmup") s.perClient.push(r.perSubscriber);
      return r.figures;
    }
    return runSocketCase(single);
  }
}

function mean(values: Float64Array): number {
  let sum = 0;
  for (let i = 0; i < values.length; i++) sum += values[i]!;
  return sum / values.length;
}

/** Adds one run's figures to its case; sets the case's error when the run failed. */
function record(s: SocketCase, f: SocketCaseFigures, run: number, position: number): void {
  s.figures.push(f);
  if (f.error !== "") {
    s.error = `run ${run + 1}: ${f.error}`;
    return;
  }
  s.runs.push({
    run,
    round: run,
    position,
    serializeNs: f.serializeNs / f.sent,
    // fanout: every subscriber decodes every message.
    deserializeNs: s.mode === "fanout" ? f.deserializeNs / f.received : f.deserializeNs / f.sent,
    totalNs: s.mode === "roundtrip" ? mean(f.rttNs!) : (f.elapsedMs * 1e6) / f.received,
  });
  if (f.rttNs) s.rtt.push(f.rttNs);
}

export async function runSocketModes(settings: Settings, ctx: SocketModeContext): Promise<SocketModeResult> {
  const now = ctx.clock.now;
  const started = now();
  const modes = socketModesOf(settings);
  const maxIterations = Math.max(...modes.map((m) => settings.iterations[m]));
  const messages = new Map<PayloadName, Message[]>();
  for (const p of settings.payloads) messages.set(p, makeMessages(p, { count: maxIterations, seed: settings.seed, fixed: settings.fixed }));
  const runner = new CaseRunner(settings, ctx, messages);
  const source = { client: ctx.client, clientLibrary: ctx.clientLibrary, libraryVersion: ctx.libraryVersion };

  const cases = new Map<string, SocketCase>();
  for (const mode of modes) {
    for (const payload of settings.payloads) {
      for (const codec of settings.codecs) {
        cases.set(`${mode}|${codec}|${payload}`, { mode, codec, payload, runs: [], figures: [], rtt: [], perClient: [], warmed: false, reported: false, error: "" });
      }
    }
  }
  const total = cases.size * settings.runs;
  let done = 0;
  let stopped = false;
  let aborted = "";
  const rng = createRng(settings.seed ^ 0x2545f491);
  const order: Record<string, string[][][]> = {};

  outer: for (const mode of modes) {
    const modeOrder: string[][][] = (order[mode] = []);
    for (let run = 0; run < settings.runs; run++) {
      const runOrder: string[][] = [];
      modeOrder.push(runOrder);
      for (const payload of settings.payloads) {
        const codecs = shuffled(settings.codecs, rng);
        runOrder.push(codecs);
        for (let position = 0; position < codecs.length; position++) {
          const s = cases.get(`${mode}|${codecs[position]}|${payload}`)!;
          const progress = (stage: "warmup" | "run"): void =>
            ctx.onProgress?.({ stage, mode, codec: s.codec, payload, run, runs: settings.runs, done, total, elapsedMs: now() - started });
          if (s.error === "" && !s.warmed && settings.warmup[mode] > 0) {
            progress("warmup");
            const warm = await runner.run(s, Math.min(settings.warmup[mode], maxIterations), "warmup");
            if (warm.error !== "") s.error = `warm-up: ${warm.error}`;
            s.warmed = true;
          }
          if (s.error === "") {
            progress("run");
            await ctx.serverGc?.();
            ctx.gc?.();
            record(s, await runner.run(s, settings.iterations[mode], `run${run + 1}`), run, position);
          }
          done++;
          if (!s.reported && (s.error !== "" || run === settings.runs - 1)) {
            s.reported = true;
            ctx.onCaseDone?.(socketCaseResult(s, settings, source));
          }
          // A server that cannot be reached fails every case alike: stop at the first.
          if (/(^|: )cannot connect to /.test(s.error)) {
            aborted = `${mode} ${s.codec} ${payload}: ${s.error}`;
            break outer;
          }
          if (ctx.shouldStop?.()) {
            stopped = true;
            break outer;
          }
        }
      }
    }
  }

  const ran = [...cases.values()].filter((s) => s.warmed || s.figures.length > 0 || s.error !== "");
  return { cases: ran.map((s) => socketCaseResult(s, settings, source)), order, stopped, aborted };
}
