/**
 * `bun run cold-check [--from FILE] [--payload NAME] [--runs N]`: cold mode's figures beside
 * those of the plainest possible script (cold-plain.ts), which imports one codec's module in a
 * fresh process, makes the codec, times its first message alone and the rest in one interval.
 * Each codec runs in `--runs` fresh processes (default: as many as the run had), taken in turn,
 * codec after codec, each repeat in a shuffled order; their median is set against the 95%
 * interval of the same figure in cold mode. A harness that agrees only with itself proves
 * little: where the script's median falls outside the interval, the line says so. Without
 * --from it first runs `bun run bench --modes cold` into a temporary folder.
 */

import { spawnSync } from "node:child_process";
import path from "node:path";
import { parseArgs } from "node:util";
import { createRng } from "../../client/harness/random.ts";
import type { BenchResults, CaseResult } from "../../client/harness/results.ts";
import { shuffled } from "../../client/harness/schedule.ts";
import { parseInteger } from "../../client/harness/settings.ts";
import { summarizeByProcess, type Summary } from "../../client/harness/statistics.ts";
import { CODEC_MODULES, codecModuleUrl, type CodecModule } from "../../client/harness/codec-loaders.ts";
import { formatNs, pad } from "../report/format.ts";
import { ROOT } from "../cli/paths.ts";
import { resultsToCheck } from "./bench-results.ts";
import { CliError } from "../cli/cli-errors.ts";

const USAGE = "usage: bun run cold-check [--from results.json] [--payload NAME] [--runs N]";

interface Plain {
  loadNs: number;
  firstNs: number;
  meanNs: number;
}

/** One fresh process of the plain script, with the transpiler cache off as cold mode's processes have it. */
function plainRun(module: CodecModule, payload: string, messages: number, seed: number): Plain {
  const r = spawnSync(
    process.execPath,
    [
      path.join(ROOT, "bench/tools/cold-plain.ts"),
      codecModuleUrl(module),
      module.name,
      payload,
      String(messages),
      String(seed),
    ],
    { cwd: ROOT, encoding: "utf8", env: { ...process.env, BUN_RUNTIME_TRANSPILER_CACHE_PATH: "0" } },
  );
  if (r.status !== 0) throw new CliError("TOOL", `the plain script for ${module.name} failed: ${r.stderr.trim()}`);
  return JSON.parse(r.stdout) as Plain;
}

/** `value` against a cold-mode summary's interval: "inside", or how far outside. */
function against(value: number, s: Summary | undefined): { text: string; inside: boolean } {
  if (!s || !Number.isFinite(s.medianLow)) return { text: "no interval", inside: false };
  if (value >= s.medianLow && value <= s.medianHigh) return { text: "inside", inside: true };
  const edge = value < s.medianLow ? s.medianLow : s.medianHigh;
  return {
    text: `${value < edge ? "below" : "above"} by ${Math.round(Math.abs(value / edge - 1) * 100)}%`,
    inside: false,
  };
}

interface Options {
  from?: string;
  payload?: string;
  runs?: string;
}

function parseOptions(argv: string[]): Options | "help" | Error {
  try {
    const values = parseArgs({
      args: argv,
      options: {
        from: { type: "string" },
        payload: { type: "string" },
        runs: { type: "string" },
        help: { type: "boolean", short: "h" },
      },
      strict: true,
    }).values;
    if (values.help) return "help";
    if (values.runs !== undefined) parseInteger("--runs", values.runs, 2, 1000);
    return { from: values.from, payload: values.payload, runs: values.runs };
  } catch (e) {
    return e as Error;
  }
}

function main(argv: string[]): number {
  const values = parseOptions(argv);
  if (values === "help") {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  if (values instanceof Error) {
    process.stderr.write(`cold-check: ${values.message.split("\n")[0]}; ${USAGE}\n`);
    return 2;
  }
  let results: BenchResults;
  try {
    results = resultsToCheck("cold-check", values.from, ["--modes", "cold"], "cold mode");
  } catch (e) {
    process.stderr.write(`cold-check: ${(e as Error).message.split("\n")[0]}\n`);
    return 1;
  }
  const cold = results.cases.filter((c) => c.mode === "cold" && c.verified && c.cold);
  const payload = values.payload ?? cold[0]?.payload;
  const cases = cold.filter((c) => c.payload === payload);
  if (cases.length === 0) {
    process.stderr.write(
      `cold-check: ${values.from ?? "the run"} has no verified cold-mode rows${values.payload ? ` on ${values.payload}` : ""}; run bun run bench --modes cold first\n`,
    );
    return 1;
  }
  const checked = cases.filter((c) => Object.hasOwn(CODEC_MODULES, c.codec));
  const runs = values.runs !== undefined ? Number(values.runs) : Math.max(2, ...checked.map((c) => c.runs));
  const messages = checked[0]!.iterations;
  const seed = results.settings.seed;
  const rng = createRng(seed ^ 0xc01d);
  const measured = new Map<string, Plain[]>(checked.map((c) => [c.codec, []]));
  try {
    for (let repeat = 0; repeat < runs; repeat++)
      for (const c of shuffled(checked, rng))
        measured.get(c.codec)!.push(plainRun(CODEC_MODULES[c.codec]!, payload!, messages, seed));
  } catch (e) {
    process.stderr.write(`cold-check: ${(e as Error).message.split("\n")[0]}\n`);
    return 1;
  }
  const median = (values: number[]): number =>
    summarizeByProcess(
      values,
      values.map((_, i) => i),
    ).median;
  const lines = [
    `cold mode against a plain script (bench/tools/cold-plain.ts) on ${payload}, ${messages.toLocaleString("en-US")} messages, each codec in ${runs} fresh`,
    `processes taken in turn; the script's median beside cold mode's median and 95% interval ("load": import + set-up, beside the sum`,
    ` of cold mode's two; "mean": per message over all the messages)`,
    "",
    `${pad("codec", 18)}${pad("first: cold", 26, true)}${pad("script", 10, true)}  ${pad("", 14)}${pad("mean: cold", 26, true)}${pad("script", 10, true)}  ${pad("", 14)}${pad("load: cold", 12, true)}${pad("script", 10, true)}`,
  ];
  let inside = 0;
  let outside = 0;
  const interval = (s: Summary | undefined): string =>
    s ? `${formatNs(s.median)} [${formatNs(s.medianLow)}-${formatNs(s.medianHigh)}]` : "-";
  for (const c of checked) {
    const plain = measured.get(c.codec)!;
    const first = median(plain.map((p) => p.firstNs));
    const mean = median(plain.map((p) => p.meanNs));
    const load = median(plain.map((p) => p.loadNs));
    const f = against(first, c.cold!.first);
    const m = against(mean, c.total);
    for (const x of [f, m]) x.inside ? inside++ : outside++;
    lines.push(
      `${pad(c.codec, 18)}${pad(interval(c.cold!.first), 26, true)}${pad(formatNs(first), 10, true)}  ${pad(f.text, 14)}${pad(interval(c.total as CaseResult["total"]), 26, true)}${pad(formatNs(mean), 10, true)}  ${pad(m.text, 14)}${pad(formatNs(c.cold!.import.median + c.cold!.setup.median), 12, true)}${pad(formatNs(load), 10, true)}`,
    );
  }
  lines.push("", `${inside} of ${inside + outside} figures inside cold mode's interval`);
  process.stdout.write(`${lines.join("\n")}\n`);
  return 0;
}

process.exitCode = main(process.argv.slice(2));
