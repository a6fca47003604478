/**
 * `bun run crosscheck [--from FILE] [--iterations N] [--repetitions N] [--processes N]`:
 * codec mode's ratios to JSON beside those of the plainest possible loop,
 * one codec and payload per process (plain-loop.ts), each in `--processes`
 * processes (taken in turn, codec after codec) whose median it uses: one
 * process's compiled code can run a codec 1.7x slower than another's, so a
 * single process per codec would cross-check nothing. A harness that
 * agrees only with itself proves little; where the two differ by more than
 * 10% the line says so, beside how far the plain loop's own processes were
 * apart. Without --from it first runs codec mode (`bun run bench --modes
 * codec`) into a temporary folder.
 */

import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import type { BenchResults } from "../harness/results.ts";
import { parseInteger } from "../harness/settings.ts";
import { pad } from "../report/format.ts";
import { vsJson } from "../report/ratios.ts";
import { ROOT } from "./paths.ts";

const USAGE = "usage: bun run crosscheck [--from results.json] [--iterations N] [--repetitions N] [--processes N]";
/** Ratios further apart than this are called out. */
const AGREE_WITHIN = 0.1;

function codecModeResults(from: string | undefined): BenchResults {
  if (from) return JSON.parse(readFileSync(from, "utf8")) as BenchResults;
  const out = mkdtempSync(path.join(tmpdir(), "crosscheck-"));
  try {
    process.stderr.write("crosscheck: running codec mode (bun run bench --modes codec)...\n");
    const r = spawnSync(process.execPath, [path.join(ROOT, "bench/cli/bench.ts"), "--modes", "codec", "--out", out], { cwd: ROOT, stdio: ["ignore", "ignore", "inherit"] });
    if (r.status !== 0) throw new Error(`codec mode failed (exit ${r.status})`);
    return JSON.parse(readFileSync(path.join(out, "latest.json"), "utf8")) as BenchResults;
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

/** ns per message (encode + decode) of one codec and payload, in a process of its own. */
function plainLoop(codec: string, payload: string, iterations: number, repetitions: number, seed: number): number {
  const r = spawnSync(process.execPath, [path.join(ROOT, "bench/cli/plain-loop.ts"), codec, payload, String(iterations), String(repetitions), String(seed)], { cwd: ROOT, encoding: "utf8" });
  if (r.status !== 0) throw new Error(`plain loop ${codec} ${payload} failed: ${r.stderr.trim()}`);
  return (JSON.parse(r.stdout) as { nsPerMessage: number }).nsPerMessage;
}

function main(argv: string[]): number {
  let values;
  try {
    values = parseArgs({ args: argv, options: { from: { type: "string" }, iterations: { type: "string" }, repetitions: { type: "string" }, processes: { type: "string" }, help: { type: "boolean", short: "h" } }, strict: true }).values;
    if (values.help) {
      process.stdout.write(`${USAGE}\n`);
      return 0;
    }
    values.iterations ??= "100000";
    values.repetitions ??= "7";
    values.processes ??= "3";
    parseInteger("--processes", values.processes, 1, 100);
    parseInteger("--iterations", values.iterations, 1, 10_000_000);
    parseInteger("--repetitions", values.repetitions, 1, 1000);
  } catch (e) {
    process.stderr.write(`crosscheck: ${(e as Error).message.split("\n")[0]}; ${USAGE}\n`);
    return 2;
  }
  const results = codecModeResults(values.from);
  const cases = results.cases.filter((c) => c.mode === "codec" && c.verified);
  const lines = [
    `codec mode (${results.environment.cpu}) against a plain loop, one codec per process, median of ${values.processes} processes; ratio to json, encode + decode per message`,
    `("processes apart": the plain loop's slowest process over its fastest, for that codec)`,
    "",
    `${pad("payload", 8)}${pad("codec", 19)}${pad("codec mode", 22, true)}${pad("plain loop", 12, true)}${pad("difference", 12, true)}${pad("processes apart", 17, true)}`,
  ];
  let disagreements = 0;
  const processes = Number(values.processes);
  for (const payload of [...new Set(cases.map((c) => c.payload))]) {
    const codecs = cases.filter((c) => c.payload === payload).map((c) => c.codec);
    const runs = new Map(codecs.map((codec) => [codec, [] as number[]]));
    // In turn: every codec's k-th process before any codec's (k+1)-th, so the machine's drift spreads over all of them.
    for (let k = 0; k < processes; k++) for (const codec of codecs) runs.get(codec)!.push(plainLoop(codec, payload, Number(values.iterations), Number(values.repetitions), results.settings.seed));
    const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
    for (const c of cases.filter((x) => x.payload === payload && x.codec !== "json")) {
      const mode = vsJson(c, results.cases);
      if (!mode) continue;
      const mine = runs.get(c.codec)!;
      const plainRatio = median(mine) / median(runs.get("json")!);
      const difference = plainRatio / mode.ratio - 1;
      const off = Math.abs(difference) > AGREE_WITHIN;
      if (off) disagreements++;
      const interval = `${mode.ratio.toFixed(2)} [${mode.low.toFixed(2)}-${mode.high.toFixed(2)}]`;
      const apart = `${(Math.max(...mine) / Math.min(...mine)).toFixed(2)}x`;
      lines.push(`${pad(payload, 8)}${pad(c.codec, 19)}${pad(interval, 22, true)}${pad(plainRatio.toFixed(2), 12, true)}${pad(`${difference >= 0 ? "+" : ""}${(100 * difference).toFixed(1)}%${off ? " !" : ""}`, 12, true)}${pad(apart, 17, true)}`);
    }
  }
  lines.push("", disagreements === 0 ? `Every ratio agrees within ${100 * AGREE_WITHIN}%.` : `${disagreements} ratio(s) differ by more than ${100 * AGREE_WITHIN}% (marked !): see the README, "Cross-check".`);
  process.stdout.write(lines.join("\n") + "\n");
  return 0;
}

process.exitCode = main(process.argv.slice(2));
