/**
 * `bun run bench --link-sweep`: for each payload, the link speed below which
 * the smaller codec streams more messages than the faster one. Stream mode on
 * loopback first (every selected codec: which is fastest, which smallest),
 * then the two over links of falling bandwidth (a ladder, then two halvings of
 * the gap between the two steps where the winner changed), each through the link emulator. The
 * crossover found is printed beside the one the loopback figures predict
 * (bench/report/crossover.ts) and written to link-sweep.json and .csv.
 */

import { codeProvenance } from "./provenance.ts";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { processCpuMs, type WebSocketClass } from "../../client/socket/client-connection.ts";
import { socketModeContext } from "../../client/socket/mode-context.ts";
import { runSocketModes } from "../../client/socket/modes.ts";
import type { ClockCalibration } from "../../client/harness/clock.ts";
import { iterationsOverLink, rateText } from "../../client/harness/link.ts";
import type { Plan } from "../../client/harness/plan.ts";
import type { CaseResult } from "../../client/harness/results.ts";
import type { LinkProfile, Settings } from "../../client/harness/settings.ts";
import type { TimeLedger } from "../../client/harness/time-account.ts";
import {
  crossoverVerdict,
  fastAndSmall,
  measuredCrossoverKbps,
  predictedCrossoverKbps,
  sweepCsv,
  sweepLines,
  type Crossover,
  type SweepStep,
} from "../report/crossover.ts";
import type { BenchOptions } from "./resolve-options.ts";
import { DEFAULT_OUT } from "./option-specs.ts";
import { startLink } from "./processes/link-emulator.ts";
import type { Streams } from "./progress-line.ts";
import { useServer, type UsedServer } from "./servers.ts";

/** The ladder of link speeds, kbit/s each way: half decades from 1 Gbit/s to 1 Mbit/s. */
const SWEEP_LADDER_KBPS: readonly number[] = [1_000_000, 300_000, 100_000, 30_000, 10_000, 3_000, 1_000];

/** Halvings (geometric) of the gap between the two steps where the winner changed, after the ladder. */
const BISECTIONS = 2;

/** A link of `kbps` each way and nothing else (0: no limit at all, the emulator alone): the sweep asks about bandwidth alone. */
function sweepLink(kbps: number): LinkProfile {
  return { name: `sweep ${rateText(kbps)}`, rttMs: 0, jitterMs: 0, downKbps: kbps, upKbps: kbps };
}

/** A step is run only below this share of what the emulator carries: nearer, its own work would set the pace. */
const CEILING_SHARE = 0.8;

/** Runs the sweep against a server of the bench's own (or --url); writes link-sweep.json and .csv to --out; the exit code. */
export async function runLinkSweep(
  plan: Plan,
  options: BenchOptions,
  calibration: ClockCalibration,
  streams: Streams,
  ledger: TimeLedger,
  shouldStop: () => boolean,
): Promise<number> {
  const client = {
    kind: "bun" as const,
    library: `bun WebSocket ${Bun.version}`,
    WebSocket: globalThis.WebSocket as unknown as WebSocketClass,
    cpuMs: processCpuMs,
  };
  const say = (line: string): void => void streams.stderr.write(`link sweep: ${line}\n`);
  const base: Settings = { ...plan.settings, modes: ["stream"] };
  const crossovers = await useServer(
    options,
    async (server: UsedServer) => {
      const run = async (settings: Settings, linkVia?: Readonly<Record<string, string>>): Promise<CaseResult[]> => {
        const ctx = socketModeContext(
          client,
          { server: server.url, ...(linkVia ? { linkVia } : {}) },
          { catalog: plan.catalog, calibration, hooks: { ledger, shouldStop } },
        );
        return (await runSocketModes(settings, ctx)).cases;
      };
      say(`stream mode on loopback: ${base.codecs.length} codecs x ${base.payloads.length} payloads`);
      const loopback = await run(base);
      const out: Crossover[] = [];
      for (const payload of base.payloads) {
        const pair = fastAndSmall(loopback.filter((c) => c.payload === payload));
        if (!pair || shouldStop()) continue;
        const { fast, small } = pair;
        const steps: SweepStep[] = [];
        const step = async (kbps: number): Promise<SweepStep> => {
          const link = sweepLink(kbps);
          const emulator = await startLink(link, [server.url]);
          try {
            const settings: Settings = {
              ...base,
              payloads: [payload],
              codecs: [fast.codec, small.codec],
              link,
              iterations: iterationsOverLink(base.iterations, link, fast.wireBytes, base.window),
            };
            const cases = await run(settings, emulator.via);
            const rate = (codec: string): number => cases.find((c) => c.codec === codec && c.verified)?.msgsPerS ?? NaN;
            const r = { kbps, fast: rate(fast.codec), small: rate(small.codec) };
            say(
              `${payload} at ${kbps > 0 ? rateText(kbps) : "no limit"}: ${fast.codec} ${Math.round(r.fast)} msgs/s, ${small.codec} ${Math.round(r.small)}`,
            );
            return r;
          } finally {
            await emulator.stop();
          }
        };
        let ceilingKbps = Number.NaN;
        if (fast.codec !== small.codec) {
          // The emulator alone, no limit: what it carries of the faster codec's frames on these cores.
          const open = await step(0);
          ceilingKbps = (8 * fast.wireBytes * open.fast) / 1000;
          say(`${payload}: the emulator carries ${rateText(ceilingKbps)} of ${fast.codec}'s frames here`);
          // Down the ladder (below the emulator's own pace) until the smaller codec has won two steps in a row.
          let wins = 0;
          for (const kbps of SWEEP_LADDER_KBPS.filter((k) => k < CEILING_SHARE * ceilingKbps)) {
            if (shouldStop()) break;
            const r = await step(kbps);
            steps.push(r);
            wins = r.small > r.fast ? wins + 1 : 0;
            if (wins >= 2) break;
          }
          // Then halve (geometrically) the gap between the two steps where the winner changed.
          for (let k = 0; k < BISECTIONS && !shouldStop(); k++) {
            const sorted = [...steps].sort((a, b) => b.kbps - a.kbps);
            const at = sorted.findIndex((r, i) => i > 0 && sorted.slice(i).every((x) => x.small > x.fast));
            if (at <= 0 || sorted[at - 1]!.small > sorted[at - 1]!.fast) break;
            steps.push(await step(Math.round(Math.sqrt(sorted[at - 1]!.kbps * sorted[at]!.kbps))));
          }
        }
        const found = {
          payload,
          fast,
          small,
          predictedKbps: predictedCrossoverKbps(fast, small),
          measuredKbps: fast.codec === small.codec ? Number.NaN : measuredCrossoverKbps(steps),
          ceilingKbps,
          steps,
        };
        out.push({ ...found, verdict: crossoverVerdict(found) });
      }
      return out;
    },
    1,
    ledger,
  );
  streams.stdout.write(sweepLines(crossovers).join("\n") + "\n");
  const out = options.out ?? DEFAULT_OUT;
  mkdirSync(out, { recursive: true });
  const json = path.join(out, "link-sweep.json");
  writeFileSync(
    json,
    JSON.stringify(
      { timestamp: new Date().toISOString(), provenance: codeProvenance(), settings: base, crossovers },
      (_, v) => (typeof v === "number" && !Number.isFinite(v) ? null : v),
    ) + "\n",
  );
  writeFileSync(path.join(out, "link-sweep.csv"), sweepCsv(crossovers, codeProvenance()));
  streams.stdout.write(`Wrote ${json} and link-sweep.csv beside it\n`);
  return crossovers.length > 0 ? 0 : 1;
}
