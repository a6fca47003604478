/**
 * Roundtrip, stream and latency with one client, in interleaved rounds: every codec
 * of the payload (raw included) warms up (in the server's process, then briefly
 * on a connection of its own), then
 * opens the connection it keeps for the whole case. Each run over the
 * messages is cut into slices; in each round every codec sends one slice
 * on its open connection, in an order
 * shuffled per round. The machine's speed drifts over milliseconds to
 * seconds, and two processes share its cores; codecs measured in the same
 * round see the same drift, so their ratio, taken round by round, holds.
 * Garbage is collected on both ends before each run; within it,
 * collections land where they fall.
 *
 * Each codec sends messages of its own (schedule.ts, codecMessages): a
 * server that has just handled a message handles the same text again
 * faster (docs/performance-notes.md, "Figures behind the defaults"), which
 * would reward whichever codec a round shuffled later.
 */

import {
  jsonBytesPerMessage,
  latencySliceSize,
  shuffled,
  sliceOverLink,
  socketSliceSize,
} from "../harness/schedule.ts";
import type { SocketCase, SocketCaseFigures, SocketCaseOptions } from "./socket-case.ts";
import type { Message } from "../../protocols/messages.ts";
import { record, unreachable, type PayloadOutcome, type PayloadRun } from "./mode-context.ts";
import { runSocketCase, SocketSession } from "./runner.ts";
import { fetchKnownCost, warmUpServer } from "./client-connection.ts";
import { clientCodec, type ClientCodec } from "./client-codec.ts";
import type { Encoded } from "../../protocols/codec.ts";
import { RAW_CODEC_NAME } from "../../protocols/contract.ts";
import { KNOWN_COST_CODEC_NAMES } from "../../protocols/calibration.ts";
import { inPhaseAsync } from "../harness/time-account.ts";

/** A case's open connection and the last slice it recorded (which takes the server's figures at close). */
interface Open {
  session: SocketSession;
  last: SocketCaseFigures | undefined;
}

/**
 * Messages of a warm-up that go over the socket, at most: enough to compile the server's message
 * handler; the codec's own calls are compiled in the server's process (warm-up.ts).
 */
const SOCKET_WARM_UP = 1_000;
/** Distinct frames a warm-up in the server cycles through. */
const WARM_UP_FRAMES = 1_000;

/** Each case's client codec over its first WARM_UP_FRAMES messages and their frames, made for its first server and sent to every one. */
const framesOf = new WeakMap<SocketCase, { codec: ClientCodec; frames: Encoded[] }>();

function warmUpFrames(
  s: SocketCase,
  o: SocketCaseOptions,
  messages: readonly Message[],
): { codec: ClientCodec; frames: Encoded[] } {
  let made = framesOf.get(s);
  if (!made) {
    const first = messages.slice(0, WARM_UP_FRAMES);
    const codec = clientCodec(o.catalog, o.codec, o.payload, first, o.ownRoundTrip);
    made = { codec, frames: first.map((_, i) => codec.encode(i)) };
    framesOf.set(s, made);
  }
  return made;
}

/** The client's own warm-up yields to the event loop this often, calls, so the server's request goes out meanwhile and a stop is heard. */
const CLIENT_WARM_UP_CHUNK = 5_000;

/**
 * Case `s`'s warm-up on `server`, `warmup` messages: the codec's decode and encode in the
 * server's process over frames this client encoded, and meanwhile (the server has a core of its
 * own) the codec's encode, decode and check in this process, once per codec and payload, less
 * the calls this process has made already (codec mode run here); then
 * the first messages streamed on a connection of its own, whatever the mode (the server's figures
 * stay clean of it). Sending every warm-up message over the socket cost the client a system call
 * each, several times what the server's calls cost. Why it failed, if it did.
 */
async function warmUpCase(p: PayloadRun, s: SocketCase, server: string, warmup: number): Promise<string | undefined> {
  const messages = p.messagesOf(s);
  const o = p.options(s, Math.min(SOCKET_WARM_UP, warmup, messages.length), "warmup");
  const { codec, frames } = warmUpFrames(s, o, messages);
  const inServer =
    s.codec === RAW_CODEC_NAME
      ? Promise.resolve(undefined)
      : warmUpServer(server, s.codec, s.payload, frames, warmup).then(
          () => undefined,
          (e: Error) => e.message,
        );
  const inClient = `client ${s.codec}`;
  const already = p.warmedOn.get(inClient) ?? 0;
  if (warmup > already) {
    // Only what this process's calls so far leave short (codec mode, run here, counts).
    for (let i = already; i < warmup; i++) {
      const k = i % frames.length;
      if (!codec.matches(k, codec.decode(codec.encode(k)))) {
        await inServer;
        return `the client's own round trip of message #${k} did not match it`;
      }
      if (i % CLIENT_WARM_UP_CHUNK === CLIENT_WARM_UP_CHUNK - 1) await new Promise((resolve) => setTimeout(resolve, 0));
    }
    p.warmedOn.set(inClient, warmup);
  }
  const failed = await inServer;
  if (failed !== undefined) return failed;
  return (await runSocketCase({ ...o, server, mode: "stream", window: p.settings.window })).error;
}

/** Warms case `s` up on `server` (warmUpCase) unless that server has had as much of it, then opens its session there. */
async function openCase(p: PayloadRun, s: SocketCase, server: string): Promise<Open | undefined> {
  // Over a link (--link) runs are short for the link's time, not because the codecs need less:
  // the server still compiles each fully (its warm-up goes straight to it, not over the link).
  const warmup = p.ctx.linkVia ? p.settings.warmup[p.mode] : Math.min(p.settings.warmup[p.mode], p.longestRun);
  const warmed = `${server} ${s.codec}`;
  if (warmup > (p.warmedOn.get(warmed) ?? 0)) {
    p.progress("warmup", s.codec, 0, 0);
    const failed = await inPhaseAsync(p.ctx.ledger, "warmup", () => warmUpCase(p, s, server, warmup));
    if (failed !== undefined) {
      s.error = `warm-up: ${failed}`;
      return undefined;
    }
    p.warmedOn.set(warmed, warmup);
  }
  // Each slice ends with a mark, so the server's figures come slice by slice and pair by round.
  try {
    const session = await SocketSession.open({
      ...p.options(s, p.messagesOf(s).length, "rounds"),
      server,
      sliceFigures: p.ctx.sliceFigures !== false,
    });
    return { session, last: undefined };
  } catch (e) {
    s.error = (e as Error).message;
    return undefined;
  }
}

/** Closes every session; a server-side failure found at close (a dropped message) fails its case. */
async function closeAll(sessions: Map<SocketCase, Open[]>): Promise<void> {
  for (const [s, opens] of sessions) {
    for (const { session, last } of opens) {
      await session.close(last);
      if (s.error === undefined && last && last.error !== undefined) s.error = last.error;
    }
  }
  sessions.clear();
}

export async function runInRounds(p: PayloadRun, rng: () => number): Promise<PayloadOutcome> {
  const { settings, ctx, mode } = p;
  const iterations = settings.iterations[mode];
  // Over a link, a slice's length depends on the messages' size (a sample's JSON, as the run's count does).
  const bytes = settings.link && p.cases[0] ? jsonBytesPerMessage(p.messagesOf(p.cases[0]).slice(0, 32)) : 0;
  const slice = sliceOverLink(
    mode === "latency"
      ? latencySliceSize(iterations)
      : socketSliceSize(iterations, mode === "roundtrip" ? 1 : settings.window),
    iterations,
    mode,
    settings,
    bytes,
  );
  const roundsPerRun = Math.ceil(iterations / slice);
  for (const s of p.cases) {
    s.plannedRounds = settings.runs[mode] * roundsPerRun;
    s.slice = slice;
  }
  // Every case keeps a connection to each server process; round k runs on server k mod n, the round's process.
  const servers = ctx.serverForks ?? [ctx.server];
  const sessions = new Map<SocketCase, Open[]>();
  try {
    for (const s of p.cases) {
      const opens: Open[] = [];
      for (const server of servers) {
        const open = await openCase(p, s, server);
        if (open) opens.push(open);
        else break;
      }
      sessions.set(s, opens);
      if (unreachable(s.error)) return { stopped: false, aborted: `${mode} ${s.codec} ${p.payload}: ${s.error}` };
      // A stop asked during the warm-ups ends the payload before its first round (its cases ran nothing, so none is reported).
      if (ctx.shouldStop?.()) return { stopped: true };
    }
    let done = 0;
    for (let run = 0; run < settings.runs[mode]; run++) {
      await inPhaseAsync(ctx.ledger, "collections", async () => {
        for (const server of servers) await ctx.serverGc?.(server);
        if (ctx.gc) ctx.gc();
      });
      for (let k = 0; k < roundsPerRun; k++) {
        const round = run * roundsPerRun + k;
        const on = round % servers.length;
        const live = shuffled(
          p.cases.filter((s) => s.error === undefined && sessions.get(s)?.length === servers.length),
          rng,
        );
        p.order.push(live.map((s) => s.codec));
        const start = k * slice;
        for (let position = 0; position < live.length; position++) {
          const s = live[position]!;
          const open = sessions.get(s)![on]!;
          const f = await inPhaseAsync(ctx.ledger, "timed", () =>
            open.session.slice(start, Math.min(slice, iterations - start)),
          );
          open.last = f;
          // With several server processes, each is the unit of the intervals (client/harness/pairing.ts).
          record(s, f, { run, round, position, ...(servers.length > 1 ? { process: on } : {}) });
        }
        // A calibrated run: each known cost (cal-spin's loop), timed in the server right after the round, beside the round's field figure.
        for (const known of live) {
          if (
            KNOWN_COST_CODEC_NAMES.includes(known.codec) &&
            known.error === undefined &&
            known.runs.at(-1)?.round === round
          )
            known.runs.at(-1)!.knownNs = await fetchKnownCost(servers[on]!, known.codec);
        }
        done += p.cases.length / roundsPerRun;
        p.progress("run", `round ${k + 1}/${roundsPerRun}`, run, done);
        // Stop at a round boundary, every case keeping its finished rounds.
        if (ctx.shouldStop?.()) return { stopped: true };
      }
    }
    return { stopped: false };
  } finally {
    await closeAll(sessions);
  }
}
