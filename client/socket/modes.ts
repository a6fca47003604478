/**
 * The WebSocket modes (`roundtrip`, `stream`, `fanout`) for one client:
 * every codec x payload, mode by mode and payload by payload. With one
 * client, roundtrip and stream run in interleaved rounds on connections
 * kept open (rounds.ts); fanout and several clients run case by case on
 * fresh connections (fresh-runs.ts). Runs wherever the client runs (Bun,
 * Node, a browser), so it takes the WebSocket class, the clock and the
 * hooks it needs in its context. Measures only; never prints.
 */

import { createRng, makeMessages } from "../../bench/harness/generator.ts";
import type { CaseResult } from "../../bench/harness/results.ts";
import { SOCKET_MODES, type Settings, type SocketMode } from "../../bench/harness/settings.ts";
import type { PayloadName } from "../../protocols/messages.ts";
import { socketCaseResult, type SocketCase } from "./case-result.ts";
import { runFreshConnections } from "./fresh-runs.ts";
import type { PayloadOutcome, PayloadRun, SocketModeContext } from "./mode-context.ts";
import { runInRounds } from "./rounds.ts";

export type { SocketModeContext } from "./mode-context.ts";

export interface SocketModeResult {
  /** The cases that ran (all of them unless the run was stopped or aborted). */
  cases: CaseResult[];
  /** shouldStop ended the run early. */
  stopped: boolean;
  /** Why the modes ended early when the server could no longer be reached. */
  aborted: string;
  /** order[mode][payloadIndex][round] = codec names in the order they ran (fresh connections: one round per run). */
  order: Record<string, string[][][]>;
}

/** The settings' WebSocket modes, in the order they run. */
export function socketModesOf(settings: Settings): SocketMode[] {
  return SOCKET_MODES.filter((m) => settings.modes.includes(m));
}

/** Roundtrip and stream with one client keep a connection per codec open and run in rounds. */
function runsInRounds(mode: SocketMode, settings: Settings): boolean {
  return mode !== "fanout" && settings.clients === 1;
}

function newCase(mode: SocketMode, codec: string, payload: PayloadName): SocketCase {
  return { mode, codec, payload, runs: [], figures: [], rtt: [], service: [], perClient: [], warmed: false, error: "" };
}

export async function runSocketModes(settings: Settings, ctx: SocketModeContext): Promise<SocketModeResult> {
  const now = ctx.clock.now;
  const started = now();
  const modes = socketModesOf(settings);
  const maxIterations = Math.max(...modes.map((m) => settings.iterations[m]));
  // One list per payload, shared by every mode.
  const messagesOf = new Map(settings.payloads.map((p) => [p, makeMessages(p, { count: maxIterations, seed: settings.seed, fixed: settings.fixed })]));
  const source = { client: ctx.client, clientLibrary: ctx.clientLibrary, libraryVersion: ctx.libraryVersion };
  const total = modes.length * settings.payloads.length * settings.codecs.length * settings.runs;
  const rng = createRng(settings.seed ^ 0x2545f491);
  const order: Record<string, string[][][]> = {};
  const ran: SocketCase[] = [];
  let finished = 0;
  let connection = 0;
  let outcome: PayloadOutcome = { stopped: false, aborted: "" };

  outer: for (const mode of modes) {
    order[mode] = [];
    for (const payload of settings.payloads) {
      const messages = messagesOf.get(payload)!;
      const p: PayloadRun = {
        settings,
        ctx,
        mode,
        payload,
        cases: settings.codecs.map((codec) => newCase(mode, codec, payload)),
        messages,
        order: [],
        progress: (stage, codec, run, done) =>
          ctx.onProgress?.({ stage, mode, codec, payload, run, runs: settings.runs, done: Math.round(finished + done), total, elapsedMs: now() - started }),
        options: (s, count, label) => ({
          server: ctx.server,
          codec: s.codec,
          payload,
          mode,
          messages: count >= messages.length ? messages : messages.slice(0, count),
          window: mode === "roundtrip" ? 1 : settings.window,
          rate: settings.rate,
          stallTimeoutMs: settings.stallTimeoutMs,
          clock: ctx.clock,
          timerOverheadNs: ctx.calibration.overheadNs,
          WebSocket: ctx.WebSocket,
          id: `${ctx.client}-${label}-${mode}-${s.codec}-${payload}-${Date.now().toString(36)}-${connection++}`,
          cpuMs: ctx.cpuMs,
        }),
      };
      order[mode].push(p.order);
      outcome = runsInRounds(mode, settings) ? await runInRounds(p, rng) : await runFreshConnections(p, rng);
      finished += p.cases.length * settings.runs;
      for (const s of p.cases) {
        // A case that never ran a slice (stopped or aborted before its turn) is not reported.
        if (s.figures.length === 0 && s.error === "") continue;
        ran.push(s);
        ctx.onCaseDone?.(socketCaseResult(s, settings, source));
      }
      if (outcome.stopped || outcome.aborted !== "") break outer;
    }
  }

  return { cases: ran.map((s) => socketCaseResult(s, settings, source)), order, stopped: outcome.stopped, aborted: outcome.aborted };
}
