/**
 * `bun run compat [--iterations N] [--payloads LIST] [--out DIR]`: where each
 * codec runs, measured. Runs every codec in eight places: Bun (codec mode)
 * and Node (`--client node`, round trips: codec mode runs in Bun), each with msgpackr's native add-on
 * (msgpackr-extract) allowed and turned off, and Chromium and Firefox, each
 * with no Content-Security-Policy and with a strict one (`--csp strict`: no
 * eval or new Function). Writes DIR/compatibility.md (the matrix, and why each
 * failing cell fails) and DIR/<place>/ (each run's results), and prints the
 * matrix. A cell is the codec's time against JSON's there, so a codec that
 * falls back to a slower path without eval shows it beside its figure with.
 *
 * cbor-x's add-on (cbor-extract) is not among the places: the cbor codec
 * uses cbor-x's pure JavaScript build everywhere (protocols/cbor.ts says why).
 */

import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { resultsFromFile } from "../report/results-file.ts";
import { compatMarkdown, compatMatrix, type CompatColumn } from "../report/compat-table.ts";
import { writeAtomic } from "../cli/output.ts";
import { ROOT } from "../cli/paths.ts";
import { PAYLOAD_NAMES } from "../../protocols/messages.ts";

interface Place {
  /** Its folder under --out, and the column's label. */
  dir: string;
  label: string;
  args: string[];
  env?: Record<string, string>;
}

const NO_ADDONS = { MSGPACKR_NATIVE_ACCELERATION_DISABLED: "true" };

export const PLACES: readonly Place[] = [
  { dir: "bun", label: "Bun", args: [] },
  { dir: "bun-no-addons", label: "Bun, no add-ons", args: [], env: NO_ADDONS },
  // Codec mode runs in Bun whatever the client: Node's figure is its client's encode + decode in round trips.
  { dir: "node", label: "Node (client)", args: ["--client", "node", "--modes", "roundtrip"] },
  {
    dir: "node-no-addons",
    label: "Node (client), no add-ons",
    args: ["--client", "node", "--modes", "roundtrip"],
    env: NO_ADDONS,
  },
  { dir: "chromium", label: "Chromium", args: ["--client", "chromium"] },
  { dir: "chromium-csp", label: "Chromium, strict CSP", args: ["--client", "chromium", "--csp", "strict"] },
  { dir: "firefox", label: "Firefox", args: ["--client", "firefox"] },
  { dir: "firefox-csp", label: "Firefox, strict CSP", args: ["--client", "firefox", "--csp", "strict"] },
];

function main(argv: string[]): number {
  let values;
  try {
    values = parseArgs({
      args: argv,
      options: {
        iterations: { type: "string" },
        runs: { type: "string" },
        payloads: { type: "string" },
        out: { type: "string" },
      },
      strict: true,
      allowPositionals: false,
    }).values;
  } catch (e) {
    process.stderr.write(
      `compat: ${(e as Error).message.split("\n")[0]}; valid options: --iterations, --runs, --payloads, --out\n`,
    );
    return 2;
  }
  const iterations = values.iterations ?? "20000";
  const runs = values.runs ?? "3";
  for (const [flag, v, max] of [
    ["--iterations", iterations, 10_000_000],
    ["--runs", runs, 1000],
  ] as const) {
    if (!/^[1-9]\d*$/.test(v) || Number(v) > max) {
      process.stderr.write(`compat: ${flag} must be a whole number from 1 to ${max}, got '${v}'\n`);
      return 2;
    }
  }
  const payloads = values.payloads ?? "all";
  const unknown = payloads.split(",").find((p) => p !== "all" && !(PAYLOAD_NAMES as readonly string[]).includes(p));
  if (unknown !== undefined) {
    process.stderr.write(
      `compat: --payloads: unknown value '${unknown}'; valid values: ${PAYLOAD_NAMES.join(", ")} or all\n`,
    );
    return 2;
  }
  const out = path.resolve(values.out ?? path.join(ROOT, "results/compat"));
  const columns: CompatColumn[] = [];
  for (const place of PLACES) {
    const dir = path.join(out, place.dir);
    mkdirSync(dir, { recursive: true });
    // The CSV, the file a user keeps and commits, so the table rebuilt from the kept files is this one.
    const file = path.join(dir, "latest.csv");
    // A results file left by an earlier run must not stand in for this one.
    rmSync(file, { force: true });
    process.stderr.write(`compat: ${place.label}...\n`);
    const modes = place.args.includes("--modes") ? [] : ["--modes", "codec"];
    // A round trip costs about a hundred encodes: a tenth of the messages.
    const n = modes.length > 0 ? Number(iterations) : Math.max(100, Math.ceil(Number(iterations) / 10));
    const args = [
      "bench/cli/bench.ts",
      ...modes,
      "--codecs",
      "all",
      "--payloads",
      payloads,
      "--iterations",
      String(n),
      "--warmup",
      String(Math.ceil(n / 5)),
      "--runs",
      runs,
      "--forks",
      "1",
      "--out",
      dir,
      ...place.args,
    ];
    const r = spawnSync(process.execPath, args, {
      cwd: ROOT,
      encoding: "utf8",
      env: { ...process.env, ...place.env },
      timeout: 1_800_000,
    });
    // Exit 1 is a run with failed cases (a codec that cannot run there): its results still count.
    if ((r.status !== 0 && r.status !== 1) || !existsSync(file)) {
      process.stderr.write(
        `compat: ${place.label}: the bench exited ${r.status ?? r.signal}:\n${r.stderr.trim().split("\n").slice(-5).join("\n")}\n`,
      );
      return 1;
    }
    const results = resultsFromFile(readFileSync(file, "utf8"));
    if (!results.cases.some((c) => c.verified)) {
      process.stderr.write(
        `compat: ${place.label}: no codec ran there:\n${r.stderr.trim().split("\n").slice(-5).join("\n")}\n`,
      );
      return 1;
    }
    columns.push({ label: place.label, results });
  }
  const markdown = compatMarkdown(compatMatrix(columns));
  writeAtomic(path.join(out, "compatibility.md"), markdown);
  process.stdout.write(markdown);
  return 0;
}

if (import.meta.main) process.exit(main(process.argv.slice(2)));
