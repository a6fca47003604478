/**
 * `bun run compat [--iterations N] [--payloads LIST] [--out DIR] [--from PLACE=FILE]`: where each
 * codec runs, measured. Runs every codec in eight places: Bun (codec mode)
 * and Node (`--client node`, round trips: codec mode runs in Bun), each with msgpackr's native add-on
 * (msgpackr-extract) allowed and turned off, and Chromium and Firefox, each
 * with no Content-Security-Policy and with a strict one (`--csp strict`: no
 * eval or new Function). Writes DIR/compatibility.md (the matrix, and why each
 * failing cell fails) and DIR/<place>/ (each run's results), and prints the
 * matrix. A cell is the codec's time against JSON's there, so a codec that
 * falls back to a slower path without eval shows it beside its figure with.
 *
 * `--from PLACE=FILE` (repeatable) takes a place's column from a results file
 * already made there instead of running it again: `bun run samples` gives Bun
 * and Chromium the every-codec runs it has just made (the same codecs and
 * payloads, in the same mode), so the matrix costs no run twice. The file
 * must hold that place's client and mode; an add-on or a policy it cannot
 * show is the caller's word (the places that set one are not offered).
 *
 * cbor-x's add-on (cbor-extract) is not among the places: the cbor codec
 * uses cbor-x's pure JavaScript build everywhere (protocols/cbor.ts says why).
 */

import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, rmSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import type { BenchResults } from "../../client/harness/results.ts";
import { readResults } from "../cli/read-results.ts";
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
  /** What a results file given with --from must hold to stand for this place: its client and mode, and the user agent's mark for a browser. */
  from?: { client: string; mode: string; agent?: RegExp };
}

const NO_ADDONS = { MSGPACKR_NATIVE_ACCELERATION_DISABLED: "true" };

export const PLACES: readonly Place[] = [
  { dir: "bun", label: "Bun", args: [], from: { client: "inprocess", mode: "codec" } },
  { dir: "bun-no-addons", label: "Bun, no add-ons", args: [], env: NO_ADDONS },
  // Codec mode runs in Bun whatever the client: Node's figure is its client's encode + decode in round trips.
  { dir: "node", label: "Node (client)", args: ["--client", "node", "--modes", "roundtrip"] },
  {
    dir: "node-no-addons",
    label: "Node (client), no add-ons",
    args: ["--client", "node", "--modes", "roundtrip"],
    env: NO_ADDONS,
  },
  {
    dir: "chromium",
    label: "Chromium",
    args: ["--client", "chromium"],
    from: { client: "browser", mode: "codec", agent: /Chrome\// },
  },
  { dir: "chromium-csp", label: "Chromium, strict CSP", args: ["--client", "chromium", "--csp", "strict"] },
  {
    dir: "firefox",
    label: "Firefox",
    args: ["--client", "firefox"],
    from: { client: "browser", mode: "codec", agent: /Firefox\// },
  },
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
        from: { type: "string", multiple: true },
      },
      strict: true,
      allowPositionals: false,
    }).values;
  } catch (e) {
    process.stderr.write(
      `compat: ${(e as Error).message.split("\n")[0]}; valid options: --iterations, --runs, --payloads, --out, --from\n`,
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
  const given = new Map<string, BenchResults>();
  for (const arg of values.from ?? []) {
    const taken = fromFile(arg);
    if (typeof taken === "string") {
      process.stderr.write(`compat: --from ${arg}: ${taken}\n`);
      return 2;
    }
    given.set(taken.place, taken.results);
  }
  const out = path.resolve(values.out ?? path.join(ROOT, "results/compat"));
  const columns: CompatColumn[] = [];
  for (const place of PLACES) {
    const kept = given.get(place.dir);
    if (kept) {
      process.stderr.write(`compat: ${place.label}: from the file given\n`);
      columns.push({ label: place.label, results: kept });
      continue;
    }
    const dir = path.join(out, place.dir);
    mkdirSync(dir, { recursive: true });
    // The JSON, the record the table is rebuilt from when the files are kept.
    const file = path.join(dir, "latest.json");
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
    const results = readResults(file);
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

/** PLACE=FILE: the place and the results read from the file, or why they cannot stand for it (one line). */
function fromFile(arg: string): { place: string; results: BenchResults } | string {
  const at = arg.indexOf("=");
  const name = at < 0 ? arg : arg.slice(0, at);
  const offered = PLACES.filter((p) => p.from).map((p) => p.dir);
  const place = PLACES.find((p) => p.dir === name && p.from);
  if (at < 0 || !place) return `expected PLACE=FILE, PLACE one of ${offered.join(", ")}`;
  const file = arg.slice(at + 1);
  let results: BenchResults;
  try {
    results = readResults(file);
  } catch (e) {
    return `cannot read ${file}: ${(e as Error).message.split("\n")[0]}`;
  }
  const want = place.from!;
  const rows = results.cases.filter((c) => c.mode === want.mode);
  const wrong = rows.find((c) => c.client !== want.client || (want.agent && !want.agent.test(c.clientLibrary)));
  if (rows.length === 0 || wrong)
    return `${file} holds no ${want.mode}-mode run of ${place.label} (${wrong ? `a row of client ${wrong.client}, ${wrong.clientLibrary}` : "no such rows"})`;
  return { place: place.dir, results: { ...results, cases: rows } };
}

if (import.meta.main) process.exit(main(process.argv.slice(2)));
