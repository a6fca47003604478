/**
 * `bun run readme-figures [--check]`: makes the README's first look and the figures block of
 * docs/results.md from the committed result files (results/sample/, listed in sample-list.ts) and
 * writes them in; with --check, only says whether the documents' copies are current, and of every
 * quoted sample what code made it and whether that code has changed since (exit 1 when a copy is
 * out of date or a sample's format is older than the reader's).
 */

import { readFileSync } from "node:fs";
import path from "node:path";
import { resultsFromFile } from "../report/results-file.ts";
import { type SampleSet, sampleFigures } from "../report/sample-figures.ts";
import { quickFigures } from "../report/first-look.ts";
import { withFigures, withMade, withQuick, MADE_BEGIN, MADE_END } from "../report/figure-blocks.ts";
import { madeLine, sampleStates, stalenessLines } from "./sample-staleness.ts";
import type { Sample } from "../report/sample-cells.ts";
import { writeAtomic } from "../cli/output.ts";
import { ROOT } from "../cli/paths.ts";

/** Back-to-back default runs (`bun run bench --out ...`). */
export const SAMPLE_RUNS = [
  "results/sample/epyc-default-1.csv",
  "results/sample/epyc-default-2.csv",
  "results/sample/epyc-default-3.csv",
];
/** `bun run bench --calibrate`. */
export const CALIBRATED_RUN = "results/sample/epyc-calibrate.csv";
/** Back-to-back `bun run bench --modes latency --rate sweep`. */
export const SAMPLE_SWEEPS = [
  "results/sample/epyc-sweep-1.csv",
  "results/sample/epyc-sweep-2.csv",
  "results/sample/epyc-sweep-3.csv",
];
/** `bun run bench --codecs all --payloads all --modes codec`, and the same with `--client browser`. */
/** `bun run bench --modes codec --codecs all --payloads all`: read-one and validated are timed beside encode + decode. */
export const PATTERNS_RUN = "results/sample/epyc-every-codec.csv";
/** `bun run bench --modes route --codecs all --payloads market,chat,game-tick --clients 8`. */
export const ROUTE_RUN = "results/sample/epyc-route.csv";
/** The default codecs on every payload in each engine: `bun run bench --modes codec,roundtrip --payloads all` with Bun's client, `--client chromium` and `--client firefox`; `--client node --modes roundtrip`. */
export const ENGINE_RUNS = {
  bun: "results/sample/engines-bun.csv",
  node: "results/sample/engines-node.csv",
  chromium: "results/sample/engines-chromium.csv",
  firefox: "results/sample/engines-firefox.csv",
} as const;
/** `npm run bench -- --quick`: the README's first look. */
export const QUICK_RUN = "results/sample/epyc-quick.csv";
/** fanout with 8 subscribers on one process, one through Redis, and two joined by Redis. */
export const CLUSTER_RUNS = {
  alone: "results/sample/fanout-1-process.csv",
  redis: "results/sample/fanout-1-process-redis.csv",
  cluster: "results/sample/fanout-2-processes-redis.csv",
} as const;
export const EVERY_CODEC_RUNS = [
  "results/sample/epyc-every-codec.csv",
  "results/sample/chromium-every-codec.csv",
  "results/sample/epyc-every-codec-field.csv",
];

export const loadSample = (file: string): Sample => ({
  name: file,
  results: resultsFromFile(readFileSync(path.join(ROOT, file), "utf8")),
});

export function sampleSet(): SampleSet {
  return {
    runs: SAMPLE_RUNS.map(loadSample),
    calibrated: loadSample(CALIBRATED_RUN),
    sweeps: SAMPLE_SWEEPS.map(loadSample),
    everyCodec: EVERY_CODEC_RUNS.map(loadSample),
    patterns: loadSample(PATTERNS_RUN),
    route: loadSample(ROUTE_RUN),
    engines: {
      bun: loadSample(ENGINE_RUNS.bun),
      node: loadSample(ENGINE_RUNS.node),
      chromium: loadSample(ENGINE_RUNS.chromium),
      firefox: loadSample(ENGINE_RUNS.firefox),
    },
    cluster: {
      alone: loadSample(CLUSTER_RUNS.alone),
      redis: loadSample(CLUSTER_RUNS.redis),
      cluster: loadSample(CLUSTER_RUNS.cluster),
    },
  };
}

/** The block as the committed files give it. */
export function currentFigures(): string {
  return sampleFigures(sampleSet());
}

/** The README's first look, as the committed quick run gives it. */
export function currentQuick(): string {
  return quickFigures(loadSample(QUICK_RUN));
}

function main(argv: string[]): number {
  const unknown = argv.filter((a) => a !== "--check");
  if (unknown.length > 0) {
    process.stderr.write(`readme-figures: unknown argument '${unknown[0]}'; valid: --check\n`);
    return 2;
  }
  const readmePath = path.join(ROOT, "README.md");
  const resultsPath = path.join(ROOT, "docs", "results.md");
  const readme = readFileSync(readmePath, "utf8");
  const results = readFileSync(resultsPath, "utf8");
  const newReadme = withQuick(readme, currentQuick());
  const states = sampleStates();
  const newResults = withMade(
    withFigures(results, currentFigures()),
    `${MADE_BEGIN}\n${madeLine(states)}\n${MADE_END}`,
  );
  if (argv.includes("--check")) {
    const same = newReadme === readme && newResults === results;
    const staleness = stalenessLines(states);
    process.stdout.write(
      same
        ? "README and docs/results.md figures match results/sample/.\n"
        : "README or docs/results.md figures differ from results/sample/: run bun run readme-figures\n",
    );
    process.stdout.write(`What made each quoted sample:\n${staleness.lines.join("\n")}\n`);
    return same && !staleness.failed ? 0 : 1;
  }
  writeAtomic(readmePath, newReadme);
  writeAtomic(resultsPath, newResults);
  process.stdout.write(
    `Wrote the README's first look from ${QUICK_RUN}, and the figures block of docs/results.md from ${[...SAMPLE_RUNS, CALIBRATED_RUN, ...SAMPLE_SWEEPS, ...EVERY_CODEC_RUNS, PATTERNS_RUN, ROUTE_RUN, ...Object.values(ENGINE_RUNS), ...Object.values(CLUSTER_RUNS)].join(", ")}.\n`,
  );
  return 0;
}

if (import.meta.main) process.exitCode = main(process.argv.slice(2));
