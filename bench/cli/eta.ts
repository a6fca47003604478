/**
 * How long a benchmark has left, for the progress line: the work is split into
 * stretches (one mode over one payload, `codecs x runs` case-runs each),
 * each stretch's time per case-run is measured as it runs, and what has not
 * run yet is estimated from the last benchmark's timings in the same results
 * folder (scaled to this benchmark's messages), else from built-in figures,
 * either way corrected by how fast this machine is going today (what the
 * stretches measured so far took against their estimate).
 */

import { readFileSync } from "node:fs";
import path from "node:path";
import type { ModeWork, Plan } from "../../client/harness/plan.ts";
import type { Progress } from "../../client/harness/progress.ts";
import type { StretchTiming } from "../../client/harness/results.ts";
import { latencyStep, type Mode, type Settings } from "../../client/harness/settings.ts";
import type { PayloadName } from "../../protocols/messages.ts";
import { LOAD_ROUNDS, LOAD_WARM_MS, LOAD_WINDOW_MS, loadCell, loadCodecs } from "../../client/harness/load.ts";

type RunTimings = Record<string, StretchTiming>;

/**
 * Milliseconds per 1,000 messages of one case-run, warm-up and checks
 * included (codec mode: per progress unit, one time through the messages), when
 * no earlier benchmark says better: the mean of two plain `bun run bench` benchmarks on
 * a 2-core Intel Xeon with Bun 1.4.4, 2026-11-23 (the message sets: one
 * `--payloads chat,game-tick,market --modes all` benchmark); a user's own
 * messages use large's.
 * Only the first benchmark in a results folder uses them, and only until its own
 * stretches correct them.
 */
const BUILT_IN_MS_PER_1000: Record<Mode, Partial<Record<PayloadName, number>>> = {
  codec: { small: 1.8, medium: 2.5, large: 5.1, chat: 4.9, "game-tick": 30, market: 1.9 },
  roundtrip: { small: 135, medium: 110, large: 129, chat: 200, "game-tick": 187, market: 125 },
  stream: { small: 6.5, medium: 8.4, large: 10.5, chat: 9.5, "game-tick": 33, market: 6.7 },
  fanout: { small: 30, medium: 35, large: 40, chat: 25, "game-tick": 46, market: 20 },
  // Not used: latency mode is paced by its schedule (latencyPrior).
  latency: {},
  // Both ways per run, eight members (a first guess until a benchmark's own stretches correct it).
  route: { small: 60, medium: 70, large: 80, chat: 60, "game-tick": 100, market: 50 },
  // One fresh process per case-run, its start and imports included: 450 processes of every codec took 37 s, 2026-11-29.
  cold: { small: 85, medium: 85, large: 90, chat: 90, "game-tick": 100, market: 85 },
  // Per codec and 1,000 messages: its six changes both ways, each version's schemas made (a first guess).
  evolve: { large: 500 },
};

const key = (mode: string, payload: string): string => `${mode} ${payload}`;

interface Stretch {
  mode: Mode | "load";
  payload: PayloadName;
  planned: number;
  iterations: number;
  /** Estimated ms per case-run before any is measured. */
  prior: number;
  done: number;
  ms: number;
}

export class RunEstimate {
  private readonly stretches = new Map<string, Stretch>();
  private readonly started: number;
  private last: number;
  /** Last `done` seen per progress group (codec mode, the socket modes), to turn totals into increments. */
  private readonly lastDone = new Map<string, number>();
  private current: Stretch | undefined;

  /**
   * `work`: each mode's progress units per payload, as its progress events
   * count them (the socket modes: codecs x runs; codec mode: times through
   * the messages, checks and warm-up included).
   */
  constructor(
    settings: Settings,
    work: readonly ModeWork[],
    history: RunTimings | undefined,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.started = this.last = now();
    for (const { mode, units } of work) {
      for (const payload of settings.payloads) {
        const iterations = settings.iterations[mode];
        const before = history?.[key(mode, payload)];
        const prior =
          mode === "latency"
            ? latencyPrior(settings)
            : before && before.units > 0 && before.iterations > 0
              ? ((before.ms / before.units) * iterations) / before.iterations
              : ((BUILT_IN_MS_PER_1000[mode][payload] ?? BUILT_IN_MS_PER_1000[mode].large!) * iterations) / 1000;
        this.stretches.set(key(mode, payload), { mode, payload, planned: units, iterations, prior, done: 0, ms: 0 });
      }
    }
    // --load: a window per codec and round, raw among the codecs, each its warm-up and window and about 0.4 s to connect and drain.
    if (settings.load) {
      const payload = loadCell(settings.load);
      const prior = LOAD_WARM_MS + LOAD_WINDOW_MS + 400;
      const planned = LOAD_ROUNDS * loadCodecs(settings, settings.load).length;
      this.stretches.set(key("load", payload), {
        mode: "load",
        payload,
        planned,
        iterations: 1,
        prior,
        done: 0,
        ms: 0,
      });
    }
  }

  /** Takes one progress event: the time since the last one was spent on the work it reports. */
  update(e: Progress): void {
    const t = this.now();
    const stretch = this.stretches.get(key(e.mode, e.payload));
    if (stretch) stretch.ms += t - this.last;
    this.last = t;
    if (!stretch) return;
    const group = e.mode === "codec" || e.mode === "load" || e.mode === "cold" ? e.mode : "socket";
    const before = this.lastDone.get(group) ?? 0;
    stretch.done = Math.min(stretch.planned, stretch.done + Math.max(0, e.done - before));
    this.lastDone.set(group, e.done);
    this.current = stretch;
  }

  elapsedMs(): number {
    return this.now() - this.started;
  }

  /**
   * Time left: each stretch's unfinished case-runs at its own measured pace
   * once it has one, else at its estimate times this benchmark's speed so far.
   */
  remainingMs(): number {
    let measuredMs = 0;
    let estimatedMs = 0;
    for (const s of this.stretches.values()) {
      if (s.done > 0) {
        measuredMs += s.ms;
        estimatedMs += s.prior * s.done;
      }
    }
    const speed = estimatedMs > 0 ? Math.min(4, Math.max(0.25, measuredMs / estimatedMs)) : 1;
    let left = 0;
    for (const s of this.stretches.values()) {
      const pace = s.done >= 1 && s.ms > 0 ? s.ms / s.done : s.prior * speed;
      left += pace * (s.planned - s.done);
    }
    // The stretch running now has spent time on a case-run it has not finished.
    if (this.current && this.current.done < this.current.planned) left -= Math.min(this.now() - this.last, left);
    return Math.max(0, left);
  }

  /** What this benchmark took per stretch, for the next one's estimate. */
  timings(): RunTimings {
    const out: RunTimings = {};
    for (const [k, s] of this.stretches)
      if (s.done > 0) out[k] = { ms: Math.round(s.ms), units: s.done, iterations: s.iterations };
    return out;
  }
}

/** Latency mode is paced by its schedule: a case-run takes its messages over its rate, averaged over the rates, and about 12% more. */
function latencyPrior(settings: Settings): number {
  const ms = settings.rates.map((rate) => (latencyStep(settings, rate).iterations.latency / rate) * 1000);
  return (1.12 * ms.reduce((a, b) => a + b, 0)) / ms.length;
}

/** The timings of the last benchmark in `outDir` (its latest.json), if it has any. */
function lastRunTimings(outDir: string): RunTimings | undefined {
  try {
    const last = JSON.parse(readFileSync(path.join(outDir, "latest.json"), "utf8")) as { timings?: RunTimings };
    return last.timings && typeof last.timings === "object" ? last.timings : undefined;
  } catch {
    return undefined;
  }
}

/** A benchmark's estimate: the plan's work, paced by the last benchmark in `outDir` (one that writes files) or the built-in figures. */
export function estimateFor(plan: Plan, outDir: string | undefined): RunEstimate {
  return new RunEstimate(plan.settings, plan.work, outDir === undefined ? undefined : lastRunTimings(outDir));
}
