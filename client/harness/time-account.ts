/**
 * Where a benchmark's wall time went: the timed loops, and everything a benchmark does
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
 * The phases of a benchmark's wall time, in the order the account lists them: the timed loops and
 * slices; untimed warm-up; making the messages and the frames the loops read; checking that they
 * round-trip; starting and stopping processes and browsers; the full collections the harness
 * forces between runs; what compression makes of the messages; writing result files; and
 * "other", what is left (docs/results-columns.md, the account_*_ms columns).
 */
export const ACCOUNT_PHASES = [
  "timed",
  "warmup",
  "messages",
  "verify",
  "start",
  "collections",
  "compression",
  "files",
  "other",
] as const;
export type AccountPhase = (typeof ACCOUNT_PHASES)[number];

/** Milliseconds per phase. */
export type PhaseTimes = Record<AccountPhase, number>;

/** A process of the benchmark and the most memory it held (resident set), bytes. */
export interface ProcessPeak {
  process: string;
  peakRssBytes: number;
}

/** Where a run's (or one process's) wall time went, and each process's peak memory. */
export interface TimeAccount {
  wallMs: number;
  phases: PhaseTimes;
  peaks: ProcessPeak[];
}

function emptyPhases(): PhaseTimes {
  return Object.fromEntries(ACCOUNT_PHASES.map((p) => [p, 0])) as PhaseTimes;
}

/** A phase being timed: what phases opened inside it have claimed of its time, ms. */
interface OpenPhase {
  inner: number;
}

/**
 * Accumulates time per phase; `account` closes it against a wall time. A phase timed inside
 * another (the messages a warm-up makes, the checks inside a timed slice) counts to the inner
 * phase only: the outer one keeps what is left, so no millisecond is counted twice.
 */
export class TimeLedger {
  private readonly times = emptyPhases();
  private readonly peaks: ProcessPeak[] = [];
  /** The phases being timed, innermost last. */
  private readonly open: OpenPhase[] = [];

  constructor(private readonly now: () => number = () => performance.now()) {}

  /** `ms` counted to `phase`, and taken from the phase it was spent inside, if any. */
  add(phase: Exclude<AccountPhase, "other">, ms: number): void {
    if (!(Number.isFinite(ms) && ms > 0)) return;
    this.times[phase] += ms;
    const outer = this.open.at(-1);
    if (outer) outer.inner += ms;
  }

  private begin(): { frame: OpenPhase; t0: number } {
    const frame = { inner: 0 };
    this.open.push(frame);
    return { frame, t0: this.now() };
  }

  private end(phase: Exclude<AccountPhase, "other">, { frame, t0 }: { frame: OpenPhase; t0: number }): void {
    const at = this.open.lastIndexOf(frame);
    if (at >= 0) this.open.splice(at, 1);
    const elapsed = this.now() - t0;
    // Only what no inner phase claimed; the whole of it is taken from the phase around it.
    if (Number.isFinite(elapsed) && elapsed > 0) {
      this.times[phase] += Math.max(0, elapsed - frame.inner);
      const outer = this.open.at(-1);
      if (outer) outer.inner += elapsed;
    }
  }

  /** Runs `fn`, its time counted to `phase` (less what phases inside it claim). */
  time<T>(phase: Exclude<AccountPhase, "other">, fn: () => T): T {
    const opened = this.begin();
    try {
      return fn();
    } finally {
      this.end(phase, opened);
    }
  }

  /** Awaits `fn`, its time counted to `phase` (less what phases inside it claim). */
  async timeAsync<T>(phase: Exclude<AccountPhase, "other">, fn: () => Promise<T>): Promise<T> {
    const opened = this.begin();
    try {
      return await fn();
    } finally {
      this.end(phase, opened);
    }
  }

  /**
   * Another process's account, taken into this one: its phases (its "other" stays in this
   * ledger's rest), its peaks, and the time this process waited on it beyond the other's own
   * wall time (spawning it and its exit) as `start`.
   */
  addProcess(account: TimeAccount, waitedMs?: number): void {
    for (const phase of ACCOUNT_PHASES) if (phase !== "other") this.add(phase, account.phases[phase]);
    this.peaks.push(...account.peaks);
    if (waitedMs !== undefined) this.add("start", waitedMs - account.wallMs);
  }

  addPeak(process: string, peakRssBytes: number | undefined): void {
    if (peakRssBytes !== undefined && Number.isFinite(peakRssBytes) && peakRssBytes > 0)
      this.peaks.push({ process, peakRssBytes });
  }

  /** The account against `wallMs`: every phase, "other" being what none of them holds. */
  account(wallMs: number): TimeAccount {
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
export function inPhaseAsync<T>(
  ledger: TimeLedger | undefined,
  phase: Exclude<AccountPhase, "other">,
  fn: () => Promise<T>,
): Promise<T> {
  return ledger ? ledger.timeAsync(phase, fn) : fn();
}
