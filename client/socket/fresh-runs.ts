/**
 * Fanout, route, and any mode with several clients (`--clients N`), run
 * case by case on fresh connections: each run of a case opens its
 * connections (worker threads for several clients, subscribers for fanout,
 * members and routers for route, once each way), sends
 * every message and closes them. Codecs run in an order shuffled per run,
 * a warm-up before each case's first run, garbage collected on both ends
 * before each run; a ratio pairs the runs of the same index.
 */

import { shuffled } from "../harness/schedule.ts";
import type { SocketCase, SocketCaseFigures } from "./socket-case.ts";
import { runFanoutCase } from "./fanout.ts";
import { record, recordRoute, unreachable, type PayloadOutcome, type PayloadRun } from "./mode-context.ts";
import { ROUTE_PUBLISHERS, RouteSession, unopened, type RouteRun } from "./route.ts";
import { ROUTE_WAYS } from "../../protocols/contract.ts";
import type { BuiltInPayload } from "../../protocols/messages.ts";
import { runSocketCase } from "./runner.ts";
import { mergeFigures } from "./workers.ts";
import { inPhaseAsync } from "../harness/time-account.ts";

/** One run of case `s`: `count` messages over fresh connections. */
async function runOnce(p: PayloadRun, s: SocketCase, count: number, label: string): Promise<SocketCaseFigures> {
  const { settings, ctx } = p;
  const single = p.options(s, count, label);
  // Several clients (not fanout, whose subscribers run here): worker threads.
  if (s.mode !== "fanout" && settings.clients > 1 && ctx.workers) {
    const t0 = ctx.clock.now();
    const job = {
      server: ctx.server,
      codec: s.codec,
      payload: s.payload,
      mode: s.mode,
      seed: settings.seed,
      fixed: settings.fixed,
      userMessages: settings.userMessages,
      userProto: settings.userProto,
      codecModules: settings.codecModules,
      allowLossy: settings.allowLossy,
      ...(settings.equal ? { equal: settings.equal } : {}),
      window: single.window,
      rate: s.rate,
      stallTimeoutMs: settings.stallTimeoutMs,
      timerOverheadNs: ctx.calibration.overheadNs,
      ...(single.linkVia ? { linkVia: single.linkVia } : {}),
    };
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

/** Rounds of a route run: its messages in this many slices, each routed both ways back to back (so each ratio has rounds to pair). */
const ROUTE_ROUNDS = 4;

/**
 * One run of route case `s` on a session of its own: `count` messages in `rounds` slices, each
 * slice routed both ways, forwarding first in even rounds and recoding first in odd ones, so
 * neither always runs on a server the other has just warmed. The slices of each round, the
 * last failed one last.
 */
async function routeRun(
  p: PayloadRun,
  s: SocketCase,
  count: number,
  label: string,
  run: number,
  rounds: number,
): Promise<RouteRun[][]> {
  const { settings } = p;
  const options = {
    ...p.options(s, count, label),
    payload: s.payload as BuiltInPayload,
    subscribers: settings.members,
    publishers: ROUTE_PUBLISHERS,
    validate: settings.validate,
  };
  let session: RouteSession;
  try {
    session = await RouteSession.open(options);
  } catch (e) {
    return [[unopened("forward", ROUTE_PUBLISHERS, e)]];
  }
  const per = Math.ceil(count / rounds);
  const out: RouteRun[][] = [];
  let last: RouteRun | undefined;
  for (let k = 0; k < rounds && last?.figures.error === undefined; k++) {
    const ways = (run * rounds + k) % 2 === 0 ? ROUTE_WAYS : [...ROUTE_WAYS].reverse();
    const round: RouteRun[] = [];
    for (const way of ways) {
      last = await session.slice(way, k * per, per);
      round.push(last);
      if (last.figures.error !== undefined) break;
    }
    out.push(round);
  }
  await session.close(last);
  return out;
}

export async function runFreshConnections(p: PayloadRun, rng: () => number): Promise<PayloadOutcome> {
  const { settings, ctx, mode } = p;
  let done = 0;
  for (let run = 0; run < settings.runs[mode]; run++) {
    const codecs = shuffled(p.cases, rng);
    p.order.push(codecs.map((s) => s.codec));
    for (let position = 0; position < codecs.length; position++) {
      const s = codecs[position]!;
      if (s.error === undefined && !s.warmed && settings.warmup[mode] > 0) {
        p.progress("warmup", s.codec, run, done);
        const warmCount = Math.min(settings.warmup[mode], p.messagesOf(s).length);
        const warm = await inPhaseAsync(ctx.ledger, "warmup", async () =>
          mode === "route"
            ? (await routeRun(p, s, warmCount, "warmup", run, 1)).flat().find((r) => r.figures.error !== undefined)
                ?.figures
            : await runOnce(p, s, warmCount, "warmup"),
        );
        if (warm?.error !== undefined) s.error = `warm-up: ${warm.error}`;
        s.warmed = true;
      }
      if (s.error === undefined) {
        p.progress("run", s.codec, run, done);
        await inPhaseAsync(ctx.ledger, "collections", async () => {
          await ctx.serverGc?.(ctx.server);
          if (ctx.gc) ctx.gc();
        });
        const at = { run, round: run, position };
        if (mode === "route") {
          s.plannedRounds = settings.runs[mode] * ROUTE_ROUNDS;
          const rounds = await inPhaseAsync(ctx.ledger, "timed", () =>
            routeRun(p, s, settings.iterations[mode], `run${run + 1}`, run, ROUTE_ROUNDS),
          );
          rounds.forEach(
            (ways, k) =>
              s.error === undefined && recordRoute(s, ways, { run, round: run * ROUTE_ROUNDS + k, position }),
          );
        } else
          record(
            s,
            await inPhaseAsync(ctx.ledger, "timed", () => runOnce(p, s, settings.iterations[mode], `run${run + 1}`)),
            at,
          );
      }
      done++;
      if (unreachable(s.error)) return { stopped: false, aborted: `${mode} ${s.codec} ${p.payload}: ${s.error}` };
      if (ctx.shouldStop?.()) return { stopped: true };
    }
  }
  return { stopped: false };
}
