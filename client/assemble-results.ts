/**
 * A benchmark's results from what it finished: every front end's last step, and
 * what a front end writes when it must stop early. A plain function of its
 * parts, so a front end that did not run the steps itself (the bench
 * driving the page, which runs them in the browser) assembles the same
 * results without an orchestrator: lossy codecs flagged, every case's
 * ratios to json and raw worked out (once, for every report to read),
 * knees found, the benchmark's settings and machine recorded.
 */

import { flagLossy } from "./harness/exclusions.ts";
import { kneeField } from "./harness/knee.ts";
import { withRatios } from "./harness/ratios.ts";
import { loadFigures, type LoadMeasurement } from "./harness/load.ts";

import type { Plan } from "./harness/plan.ts";
import type {
  BenchResults,
  CaseResult,
  Environment,
  BenchmarkSettings,
  EvolveRow,
  StretchTiming,
} from "./harness/results.ts";
import { selfPeakRssBytes, type TimeAccount, type TimeLedger } from "./harness/time-account.ts";

export interface ResultsParts {
  plan: Plan;
  /** Every case finished, in the order they finished; a case given twice (mode, client, codec, payload, rate) counts once, the first. */
  cases: readonly CaseResult[];
  settings: BenchmarkSettings;
  /** order[mode][payloadIndex][round]: the codecs of each round in the order they ran. */
  order: BenchResults["order"];
  timestamp: string;
  environment: Environment;
  environments?: BenchResults["environments"];
  elapsedMs: number;
  account?: TimeAccount;
  timings?: Record<string, StretchTiming>;
  /** The run ended before its plan did (a stop, a quit). */
  interrupted: boolean;
  /** --load: what driving the user's traffic measured, priced with the cases' field figures. */
  load?: LoadMeasurement;
  /** Evolve mode's rows. */
  evolve?: readonly EvolveRow[];
}

export function assembleResults(p: ResultsParts): BenchResults {
  const key = (c: CaseResult): string => `${c.mode}|${c.client}|${c.codec}|${c.payload}|${c.socket?.targetRate ?? ""}`;
  const seen = new Set<string>();
  const cases: CaseResult[] = [];
  for (const c of p.cases) {
    if (seen.has(key(c))) continue;
    seen.add(key(c));
    cases.push(c);
  }
  flagLossy(cases, p.plan.fidelity);
  const withOwn = withRatios(cases, p.plan.settings.precision);
  return {
    timestamp: p.timestamp,
    settings: { ...p.settings, interrupted: p.interrupted },
    environment: p.environment,
    ...(p.environments ? { environments: p.environments } : {}),
    order: p.order,
    ...withOwn,
    elapsedMs: p.elapsedMs,
    ...(p.account ? { account: p.account } : {}),
    ...(p.timings ? { timings: p.timings } : {}),
    ...kneeField(cases),
    ...(p.plan.fidelity.length > 0 ? { fidelity: [...p.plan.fidelity] } : {}),
    ...(p.load ? { load: loadFigures(p.load, withOwn.cases) } : {}),
    ...(p.evolve ? { evolve: [...p.evolve] } : {}),
  };
}

/** Where a benchmark's wall time went, from its ledger, with this process's peak memory first when it has a name ("bench"). */
export function timeAccountOf(
  ledger: TimeLedger | undefined,
  elapsedMs: number,
  processName?: string,
): TimeAccount | undefined {
  const account = ledger?.account(elapsedMs);
  const peak = processName !== undefined ? selfPeakRssBytes() : undefined;
  if (account && peak !== undefined) account.peaks.unshift({ process: processName!, peakRssBytes: peak });
  return account;
}
