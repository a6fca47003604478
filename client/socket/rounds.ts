/**
 * Roundtrip, stream and latency with one client, in interleaved rounds: every codec
 * of the payload (raw included) warms up on a connection of its own, then
 * opens the connection it keeps for the whole case. Each run over the
 * messages is cut into slices; in each round every codec sends one slice
 * (the same messages for all) on its open connection, in an order
 * shuffled per round. The machine's speed drifts over milliseconds to
 * seconds, and two processes share its cores; codecs measured in the same
 * round see the same drift, so their ratio, taken round by round, holds.
 * Garbage is collected on both ends before each run; within it,
 * collections land where they fall.
 */

import { shuffled, socketSliceSize } from "../../bench/harness/schedule.ts";
import type { SocketCase } from "./case-result.ts";
import { record, unreachable, type PayloadOutcome, type PayloadRun } from "./mode-context.ts";
import type { SocketCaseFigures } from "./figures.ts";
import { runSocketCase, SocketSession } from "./runner.ts";

/** A case's open connection and the last slice it recorded (which takes the server's figures at close). */
interface Open {
  session: SocketSession;
  last: SocketCaseFigures | undefined;
}

/** Warms case `s` up on a connection of its own (the server's figures stay clean of it), then opens its session. */
async function openCase(p: PayloadRun, s: SocketCase, sessions: Map<SocketCase, Open>): Promise<void> {
  const warmup = Math.min(p.settings.warmup[p.mode], p.messages.length);
  if (warmup > 0) {
    p.progress("warmup", s.codec, 0, 0);
    const warm = await runSocketCase(p.options(s, warmup, "warmup"));
    if (warm.error !== "") {
      s.error = `warm-up: ${warm.error}`;
      return;
    }
  }
  const opened = await SocketSession.open(p.options(s, p.messages.length, "rounds"));
  if (typeof opened === "string") s.error = opened;
  else sessions.set(s, { session: opened, last: undefined });
}

/** Closes every session; a server-side failure found at close (a dropped message) fails its case. */
async function closeAll(sessions: Map<SocketCase, Open>): Promise<void> {
  for (const [s, { session, last }] of sessions) {
    await session.close(last);
    if (s.error === "" && last && last.error !== "") s.error = last.error;
  }
  sessions.clear();
}

export async function runInRounds(p: PayloadRun, rng: () => number): Promise<PayloadOutcome> {
  const { settings, ctx, mode } = p;
  const iterations = settings.iterations[mode];
  const slice = socketSliceSize(iterations, mode === "roundtrip" ? 1 : settings.window);
  const roundsPerRun = Math.ceil(iterations / slice);
  for (const s of p.cases) {
    s.plannedRounds = settings.runs * roundsPerRun;
    s.slice = slice;
  }
  const sessions = new Map<SocketCase, Open>();
  try {
    for (const s of p.cases) {
      await openCase(p, s, sessions);
      if (unreachable(s.error)) return { stopped: false, aborted: `${mode} ${s.codec} ${p.payload}: ${s.error}` };
    }
    let done = 0;
    for (let run = 0; run < settings.runs; run++) {
      await ctx.serverGc?.();
      ctx.gc?.();
      for (let k = 0; k < roundsPerRun; k++) {
        const round = run * roundsPerRun + k;
        const live = shuffled(p.cases.filter((s) => s.error === "" && sessions.has(s)), rng);
        p.order.push(live.map((s) => s.codec));
        const start = k * slice;
        for (let position = 0; position < live.length; position++) {
          const s = live[position]!;
          const open = sessions.get(s)!;
          const f = await open.session.slice(start, Math.min(slice, iterations - start));
          open.last = f;
          record(s, f, { run, round, position });
        }
        done += p.cases.length / roundsPerRun;
        p.progress("run", `round ${k + 1}/${roundsPerRun}`, run, done);
        // Stop at a round boundary, every case keeping its finished rounds.
        if (ctx.shouldStop?.()) return { stopped: true, aborted: "" };
      }
    }
    return { stopped: false, aborted: "" };
  } finally {
    await closeAll(sessions);
  }
}
