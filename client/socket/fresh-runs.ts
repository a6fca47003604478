/**
 * Fanout, and any mode with several clients (`--clients N`), run case by
 * case on fresh connections: each run of a case opens its connections
 * (worker threads for several clients, subscribers for fanout), sends
 * every message and closes them. Codecs run in an order shuffled per run,
 * a warm-up before each case's first run, garbage collected on both ends
 * before each run; a ratio pairs the runs of the same index.
 */

import { shuffled } from "../../bench/harness/schedule.ts";
import type { SocketCase, SocketCaseFigures } from "./socket-case.ts";
import { runFanoutCase } from "./fanout.ts";
import { record, unreachable, type PayloadOutcome, type PayloadRun } from "./mode-context.ts";
import { runSocketCase } from "./runner.ts";
import { mergeFigures } from "./workers.ts";

/** One run of case `s`: `count` messages over fresh connections. */
async function runOnce(p: PayloadRun, s: SocketCase, count: number, label: string): Promise<SocketCaseFigures> {
  const { settings, ctx } = p;
  const single = p.options(s, count, label);
  // Several clients (not fanout, whose subscribers run here): worker threads.
  if (s.mode !== "fanout" && settings.clients > 1 && ctx.workers) {
    const t0 = ctx.clock.now();
    const job = { server: ctx.server, codec: s.codec, payload: s.payload, mode: s.mode, seed: settings.seed, fixed: settings.fixed, userMessages: settings.userMessages, userProto: settings.userProto, codecModules: settings.codecModules, allowLossy: settings.allowLossy, window: single.window, rate: s.rate, stallTimeoutMs: settings.stallTimeoutMs, timerOverheadNs: ctx.calibration.overheadNs };
    const all = await ctx.workers.run(job, settings.clients, count, single.id);
    const { merged, perClient } = mergeFigures(all, ctx.clock.now() - t0);
    if (label !== "warmup") s.perClient.push(perClient);
    return merged;
  }
  if (s.mode === "fanout") {
    const r = await runFanoutCase({ ...single, subscribers: settings.clients });
    if (label !== "warmup") s.perClient.push(r.perSubscriber);
    return r.figures;
  }
  return runSocketCase(single);
}

export async function runFreshConnections(p: PayloadRun, rng: () => number): Promise<PayloadOutcome> {
  const { settings, ctx, mode } = p;
  let done = 0;
  for (let run = 0; run < settings.runs; run++) {
    const codecs = shuffled(p.cases, rng);
    p.order.push(codecs.map((s) => s.codec));
    for (let position = 0; position < codecs.length; position++) {
      const s = codecs[position]!;
      if (s.error === undefined && !s.warmed && settings.warmup[mode] > 0) {
        p.progress("warmup", s.codec, run, done);
        const warm = await runOnce(p, s, Math.min(settings.warmup[mode], p.messagesOf(s).length), "warmup");
        if (warm.error !== undefined) s.error = `warm-up: ${warm.error}`;
        s.warmed = true;
      }
      if (s.error === undefined) {
        p.progress("run", s.codec, run, done);
        await ctx.serverGc?.(ctx.server);
        ctx.gc?.();
        record(s, await runOnce(p, s, settings.iterations[mode], `run${run + 1}`), { run, round: run, position });
      }
      done++;
      if (unreachable(s.error)) return { stopped: false, aborted: `${mode} ${s.codec} ${p.payload}: ${s.error}` };
      if (ctx.shouldStop?.()) return { stopped: true };
    }
  }
  return { stopped: false };
}
