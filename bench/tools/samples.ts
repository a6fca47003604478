/**
 * `bun run samples [NAME...] [--into DIR] [--resume STAGING] [--list]`: remakes the committed
 * samples the documents quote (sample-list.ts), one command after another, then every document's
 * figures (`bun run figures`). Every sample is made into a folder of its own first; results/sample/
 * changes only once all of them are made, so a failed command or Ctrl-C leaves the committed
 * samples as they were. Each result file names the commit that made it, so it refuses a checkout
 * with uncommitted changes to its code; `--into DIR` writes the samples there instead (and leaves
 * the documents alone), from any checkout. A remake takes hours: `--resume STAGING` takes up
 * one that stopped, keeping every sample it had made (each marked so when its command succeeded)
 * where the code they measure is the checkout's.
 */

import { spawn } from "node:child_process";
import {
  accessSync,
  constants,
  copyFileSync,
  createWriteStream,
  existsSync,
  mkdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { gunzipSync, gzipSync } from "node:zlib";
import { didYouMean } from "../../client/harness/did-you-mean.ts";
import type { TimeAccount } from "../../client/harness/time-account.ts";
import { readResults } from "../cli/read-results.ts";
import { ROOT } from "../cli/paths.ts";
import { codeProvenance } from "../cli/provenance.ts";
import { measuredCodeChangedSince } from "./figures/sample-staleness.ts";
import { generate } from "./figures/generate.ts";
import { PAGES } from "./figures/pages.ts";
import { HISTORY, SAMPLES, type SampleEntry, samplesNamed } from "./sample-list.ts";

const USAGE = "usage: bun run samples [NAME...] [--into DIR] [--resume STAGING] [--list]";
/** In an entry's staging folder once its command succeeded and its files are there: the commit that made it. */
const MADE_MARK = "made.json";
const COMMITTED = path.join(ROOT, "results", "sample");

/** Seconds, as the progress shows them. */
const seconds = (ms: number): string => `${Math.round(ms / 1000)} s`;

/** The list as `--list` prints it: each sample's command, files, and the pages whose figures read them. */
function listText(): string {
  const pages = generate(ROOT, PAGES);
  const quoting = (files: readonly string[]): string =>
    pages
      .filter((p) => p.quotes.some((f) => files.includes(f)))
      .map((p) => p.page)
      .join(", ") || "no page";
  const lines = [`${SAMPLES.length} samples, made by bun run samples:`];
  for (const s of SAMPLES)
    lines.push(
      `  ${s.name}: ${s.command}`,
      `    -> ${Object.keys(s.files).join(", ")}; quoted by ${quoting(Object.keys(s.files))}`,
    );
  lines.push(`${HISTORY.length} kept as they were made:`);
  for (const h of HISTORY) lines.push(`  ${h.file}: ${h.why}; quoted by ${quoting([h.file])}`);
  return lines.join("\n") + "\n";
}

/** The child running now, for Ctrl-C. */
let child: ReturnType<typeof spawn> | undefined;
let stopped = false;

/** Runs one entry's command with Bun in `dir`; resolves to its exit code (its output in dir/output.log, its standard output in dir/stdout). */
function runEntry(entry: SampleEntry, dir: string, made: Map<string, string>): Promise<number> {
  const argv = entry.argv.map((a) =>
    a
      .replaceAll("{out}", dir)
      .replace(/\{sample:([^}]+)\}/g, (_m, file: string) => made.get(file) ?? path.join(COMMITTED, file)),
  );
  return new Promise((resolve) => {
    const out: Buffer[] = [];
    // Written as it comes, so a long sample's progress can be followed (tail -f).
    const log = createWriteStream(path.join(dir, "output.log"));
    const proc = spawn(process.execPath, argv, { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
    child = proc;
    proc.stdout!.on("data", (d: Buffer) => {
      out.push(d);
      log.write(d);
    });
    proc.stderr!.on("data", (d: Buffer) => log.write(d));
    proc.on("close", (code, signal) => {
      child = undefined;
      writeFileSync(path.join(dir, "stdout"), Buffer.concat(out));
      log.end(() => resolve(code ?? (signal ? 128 : 1)));
    });
  });
}

async function main(argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      options: {
        into: { type: "string" },
        resume: { type: "string" },
        list: { type: "boolean" },
        help: { type: "boolean", short: "h" },
      },
      allowPositionals: true,
      strict: true,
    });
  } catch (e) {
    const option = /'(-[^']*)'/.exec((e as Error).message)?.[1];
    process.stderr.write(
      `samples: ${option ? `unknown option '${option}'` : (e as Error).message.split("\n")[0]}; valid options: --into, --resume, --list, --help; ${USAGE}\n`,
    );
    return 2;
  }
  if (parsed.values.help) {
    process.stdout.write(
      `${USAGE}\n\nRemakes the samples the documents quote (--list names them), then their figures.\n`,
    );
    return 0;
  }
  if (parsed.values.list) {
    process.stdout.write(listText());
    return 0;
  }
  const { entries, unknown } = samplesNamed(parsed.positionals);
  if (unknown.length > 0) {
    const names = SAMPLES.map((s) => s.name);
    process.stderr.write(
      `samples: no sample '${unknown[0]}'; ${didYouMean(unknown[0]!, names)}valid: ${names.join(", ")}\n`,
    );
    return 2;
  }
  const target = parsed.values.into ? path.resolve(parsed.values.into) : COMMITTED;
  const committed = target === COMMITTED;
  if (committed && codeProvenance().dirty !== false) {
    process.stderr.write(
      codeProvenance().commit === ""
        ? "samples: results/sample/ is remade from a git checkout of the project, whose files name the commit; use --into DIR here\n"
        : "samples: the checkout has uncommitted changes to its code (git status): commit them first, so every sample names the code that made it, or use --into DIR\n",
    );
    return 2;
  }
  try {
    mkdirSync(target, { recursive: true });
    accessSync(target, constants.W_OK);
  } catch (e) {
    process.stderr.write(
      `samples: cannot write into ${target} (${(e as { code?: string }).code ?? (e as Error).message}); name a folder you can write to with --into DIR\n`,
    );
    return 2;
  }
  // Beside the target, so the finished files move in by renaming; or the folder of a remake taken up again.
  const resume = parsed.values.resume === undefined ? undefined : path.resolve(parsed.values.resume);
  const staging = resume ?? path.join(path.dirname(target), `.samples-${process.pid}`);
  let kept: Set<string>;
  if (resume !== undefined) {
    const found = resumable(resume, entries);
    if (typeof found === "string") {
      process.stderr.write(`samples: --resume ${parsed.values.resume}: ${found}\n`);
      return 2;
    }
    kept = found;
  } else {
    kept = new Set();
    rmSync(staging, { recursive: true, force: true });
    mkdirSync(staging, { recursive: true });
  }
  const onSignal = (): void => {
    stopped = true;
    // The bench's own quit: it writes what it has and ends its servers.
    child?.kill("SIGTERM");
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  const started = performance.now();
  /** Each file made so far: its name under results/sample/ -> where it waits. */
  const made = new Map<string, string>();
  const took: string[] = [];
  for (const [i, entry] of entries.entries()) {
    if (stopped) break;
    const dir = path.join(staging, entry.name);
    if (kept.has(entry.name)) {
      for (const file of Object.keys(entry.files)) made.set(file, stagedFile(dir, entry, file));
      took.push(`${entry.name} kept`);
      process.stderr.write(`samples: [${i + 1}/${entries.length}] ${entry.name}: kept, made earlier in ${dir}\n`);
      continue;
    }
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    process.stderr.write(
      `samples: [${i + 1}/${entries.length}] ${entry.name}: ${entry.command} (its output: ${path.join(dir, "output.log")})\n`,
    );
    const began = performance.now();
    const code = await runEntry(entry, dir, made);
    if (stopped) break;
    const missing = Object.values(entry.files).filter((from) => from !== "stdout" && !existsSync(path.join(dir, from)));
    if (code !== 0 || missing.length > 0) {
      process.stderr.write(
        `samples: ${entry.name} failed (exit ${code}${missing.length > 0 ? `, no ${missing.join(", ")}` : ""}); its output is in ${path.join(dir, "output.log")}. Nothing in ${target} changed.\n`,
      );
      return 1;
    }
    for (const [file, from] of Object.entries(entry.files)) {
      const staged = path.join(dir, from);
      // A run's JSON is kept gzip-compressed: a tenth of its size, read back as it is.
      if (file.endsWith(".gz")) writeFileSync(`${staged}.gz`, gzipSync(readFileSync(staged), { level: 9 }));
      made.set(file, stagedFile(dir, entry, file));
    }
    writeFileSync(path.join(dir, MADE_MARK), JSON.stringify({ commit: codeProvenance().commit }) + "\n");
    took.push(`${entry.name} ${seconds(performance.now() - began)}`);
    process.stderr.write(
      `samples: [${i + 1}/${entries.length}] ${entry.name} made in ${seconds(performance.now() - began)} (${seconds(performance.now() - started)} so far)\n`,
    );
  }
  if (stopped) {
    if (took.length === 0) rmSync(staging, { recursive: true, force: true });
    process.stderr.write(
      `samples: stopped; nothing in ${target} changed${took.length > 0 ? ` (the ${took.length} sample(s) made so far are in ${staging}; --resume ${path.relative(ROOT, staging) || staging} takes the remake up again)` : ""}\n`,
    );
    return 130;
  }
  // Every sample made: now they replace the committed ones, each file by a rename, a run's JSON
  // with its figures only unless its entry keeps its rounds.
  const keepsRounds = new Set(SAMPLES.filter((s) => s.rounds === "kept").flatMap((s) => Object.keys(s.files)));
  for (const [file, from] of made) {
    const to = path.join(target, file);
    mkdirSync(path.dirname(to), { recursive: true });
    const waiting = path.join(staging, "ready", file);
    mkdirSync(path.dirname(waiting), { recursive: true });
    if (file.endsWith(".json.gz") && !keepsRounds.has(file)) writeFileSync(waiting, figuresOnly(readFileSync(from)));
    else copyFileSync(from, waiting);
    renameSync(waiting, to);
  }
  rmSync(staging, { recursive: true, force: true });
  const wallMs = performance.now() - started;
  process.stderr.write(
    `samples: ${entries.length} sample(s), ${made.size} file(s) in ${target}, in ${seconds(wallMs)}: ${took.join(", ")}\n`,
  );
  const spent = timedShare([...made.keys()].map((file) => path.join(target, file)));
  if (spent)
    process.stderr.write(
      `samples: of that, the runs' timed loops ${seconds(spent.timedMs)} (${Math.round((100 * spent.timedMs) / wallMs)}%), their warm-up ${seconds(spent.warmupMs)}, verifying ${seconds(spent.verifyMs)} (the files' time accounts)\n`,
    );
  if (!committed) return 0;
  const figures = Bun.spawnSync([process.execPath, path.join(ROOT, "bench/tools/figures.ts")], {
    cwd: ROOT,
    stdout: "inherit",
    stderr: "inherit",
  });
  return figures.exitCode === 0 ? 0 : 1;
}

/**
 * A run's gzip-compressed JSON with its figures only: every case keeps its figures and intervals
 * as the run wrote them; its round table keeps its columns but no row, and the order each round
 * took and a latency case's histograms (what `--out` writes as .hgrm) go too. Read back, it has no
 * rounds: a report gives no verdict, which pairs them, and says so.
 */
export function figuresOnly(gz: Buffer): Buffer {
  const results = JSON.parse(gunzipSync(gz).toString("utf8")) as {
    cases: { raw?: { rows: unknown[] }; socket?: { histograms?: unknown } }[];
    order?: unknown;
  };
  for (const c of results.cases) {
    if (c.raw) c.raw.rows = [];
    if (c.socket) delete c.socket.histograms;
  }
  results.order = {};
  return gzipSync(JSON.stringify(results), { level: 9 });
}

/** Where an entry's `file` waits in its staging folder `dir` once made (a run's JSON gzip-compressed). */
function stagedFile(dir: string, entry: SampleEntry, file: string): string {
  const staged = path.join(dir, entry.files[file]!);
  return file.endsWith(".gz") ? `${staged}.gz` : staged;
}

/**
 * The entries a stopped remake in `staging` made, to keep: each marked made, with its files
 * there. A line saying why not, when the folder is no remake's or the code its samples measure
 * has changed since the commit that made them (a remake's samples are of one version of that
 * code).
 */
function resumable(staging: string, entries: readonly SampleEntry[]): Set<string> | string {
  if (!existsSync(staging)) return "no such folder; name the folder a stopped remake left (results/.samples-PID)";
  const kept = new Set<string>();
  for (const entry of entries) {
    const dir = path.join(staging, entry.name);
    const mark = path.join(dir, MADE_MARK);
    if (!existsSync(mark)) continue;
    const { commit } = JSON.parse(readFileSync(mark, "utf8")) as { commit: string };
    const changed = measuredCodeChangedSince(commit);
    if (changed === undefined)
      return `${entry.name} was made at ${commit.slice(0, 10)}, a commit this checkout does not have`;
    if (changed.length > 0)
      return `${entry.name} was made at ${commit.slice(0, 10)}, and the code it measures has changed since (${changed.slice(0, 3).join(", ")}${changed.length > 3 ? ` and ${changed.length - 3} more` : ""}); remake every sample`;
    if (Object.keys(entry.files).every((file) => existsSync(stagedFile(dir, entry, file)))) kept.add(entry.name);
  }
  return kept;
}

/**
 * What the runs that made `files` spent in their timed loops, warm-up and verifying pass, from
 * each results file's time account (a file that is not one, or has none, adds nothing);
 * undefined when none has an account.
 */
export function timedShare(
  files: readonly string[],
): { timedMs: number; warmupMs: number; verifyMs: number } | undefined {
  const total = { timedMs: 0, warmupMs: 0, verifyMs: 0 };
  let runs = 0;
  for (const file of files) {
    if (!/\.json(\.gz)?$/.test(file)) continue;
    let account: TimeAccount | undefined;
    try {
      account = readResults(file).account;
    } catch {
      continue; // not a results file (the link sweep's JSON)
    }
    if (!account) continue;
    runs++;
    total.timedMs += account.phases.timed;
    total.warmupMs += account.phases.warmup;
    total.verifyMs += account.phases.verify;
  }
  return runs > 0 ? total : undefined;
}

if (import.meta.main) process.exitCode = await main(process.argv.slice(2));
