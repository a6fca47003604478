/**
 * Where a run's wall time went: the timed loops, and everything a run does
 * around them (warm-up, making and verifying messages, starting processes
 * and browsers, the collections the harness forces between runs,
 * compression, writing files). A benchmark that spends most of its time
 * preparing has a cost its figures don't show (docs/methodology.md); this
 * is how a run shows it. Every process keeps a ledger of its own; a process
 * that runs another's work (codec mode's processes, the Node client, the
 * page) adds that process's phases to its own. What no phase claims is
 * "other": the wall time less every phase.
 */

/**
 * The phases of a run's wall time, in the order the account lists them: the timed loops and
 * slices; untimed warm-up; making the messages and the frames the loops read; checking that they
 * round-trip; starting and stopping processes and browsers; the full collections the harness
 * forces between runs; what compression makes of the messages; writing result files; and
 * "other", what is left (docs/results-columns.md, the run_*_ms columns).
 */
export const ACCOUNT_PHASES = ["timed", "warmup", "messages", "verify", "start", "collections", "compression", "files", "other"] as const;
export type AccountPhase = (typeof ACCOUNT_PHASES)[number];

/** Milliseconds per phase. */
export type PhaseTimes = Record<AccountPhase, number>;

/** A process of the run and the most memory it held (resident set), bytes. */
export interface ProcessPeak {
  process: string;
  peakRssBytes: number;
}

/** Where a run's (or one process's) wall time went, and each process's peak memory. */
export interface RunAccount {
  wallMs: number;
  phases: PhaseTimes;
  peaks: ProcessPeak[];
}

function emptyPhases(): PhaseTimes {
  return Object.fromEntries(ACCOUNT_PHASES.map((p) => [p, 0])) as PhaseTimes;
}

/** Accumulates time per phase; `account` closes it against a wall time. */
export class TimeLedger {
  private readonly times = emptyPhases();
  private readonly peaks: ProcessPeak[] = [];

  constructor(private readonly now: () => number = () => performance.now()) {}

  add(phase: Exclude<AccountPhase, "other">, ms: number): void {
    if (Number.isFinite(ms) && ms > 0) this.times[phase] += ms;
  }

  /** Runs `fn`, its time counted to `phase`. */
  time<T>(phase: Exclude<AccountPhase, "other">, fn: () => T): T {
    const t0 = this.now();
    try {
      return fn();
    } finally {
      this.add(phase, this.now() - t0);
    }
  }

  /** Awaits `fn`, its time counted to `phase`. */
  async timeAsync<T>(phase: Exclude<AccountPhase, "other">, fn: () => Promise<T>): Promise<T> {
    const t0 = this.now();
    try {
      return await fn();
    } finally {
      this.add(phase, this.now() - t0);
    }
  }

  /**
   * Another process's account, taken into this one: its phases (its "other" stays in this
   * ledger's rest), its peaks, and the time this process waited on it beyond the other's own
   * wall time (spawning it and its exit) as `start`.
   */
  addProcess(account: RunAccount, waitedMs?: number): void {
    for (const phase of ACCOUNT_PHASES) if (phase !== "other") this.add(phase, account.phases[phase]);
    this.peaks.push(...account.peaks);
    if (waitedMs !== undefined) this.add("start", waitedMs - account.wallMs);
  }

  addPeak(process: string, peakRssBytes: number | undefined): void {
    if (peakRssBytes !== undefined && Number.isFinite(peakRssBytes) && peakRssBytes > 0) this.peaks.push({ process, peakRssBytes });
  }

  /** The account against `wallMs`: every phase, "other" being what none of them holds. */
  account(wallMs: number): RunAccount {
    const phases = { ...this.times };
    const named = ACCOUNT_PHASES.reduce((sum, p) => (p === "other" ? sum : sum + phases[p]), 0);
    phases.other = Math.max(0, wallMs - named);
    return { wallMs, phases, peaks: [...this.peaks] };
  }
}

/** This process's peak resident memory so far, bytes, where the runtime tells it (Bun and Node on Linux and macOS); undefined in a browser. */
export function selfPeakRssBytes(): number | undefined {
  const usage = (globalThis as { process?: { resourceUsage?: () => { maxRSS: number } } }).process?.resourceUsage?.();
  // maxRSS is in kilobytes.
  return usage && usage.maxRSS > 0 ? usage.maxRSS * 1024 : undefined;
}

/** `fn`, its time counted to `phase` in `ledger` where there is one. */
export function inPhase<T>(ledger: TimeLedger | undefined, phase: Exclude<AccountPhase, "other">, fn: () => T): T {
  return ledger ? ledger.time(phase, fn) : fn();
}

/** `fn` awaited, its time counted to `phase` in `ledger` where there is one. */
export function inPhaseAsync<T>(ledger: TimeLedger | undefined, phase: Exclude<AccountPhase, "other">, fn: () => Promise<T>): Promise<T> {
  return ledger ? ledger.timeAsync(phase, fn) : fn();
}
