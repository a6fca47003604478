/**
 * `bun run samples`: remakes the listed samples into a folder of their own first, so the files it
 * replaces change only once every sample is made; a bad flag or name is one line and exit 2.
 */
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { readResults } from "../../../bench/cli/read-results.ts";
import { hasRounds } from "../../../bench/report/results-file.ts";
import { JSON_VERSION } from "../../../bench/report/results-json.ts";
import { HISTORY, SAMPLES } from "../../../bench/tools/sample-list.ts";
import { timedShare } from "../../../bench/tools/samples.ts";
import { until } from "../../helpers/until.ts";

const ROOT = path.resolve(import.meta.dirname, "../../..");
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
const tempDir = (): string => {
  const d = mkdtempSync(path.join(tmpdir(), "samples-"));
  dirs.push(d);
  return d;
};
// A sample takes a quiet machine 10-45 s and a busy one several times that: the time a test
// allows is a bound on a hang, not a figure to meet.
const samples = (...args: string[]) =>
  spawnSync(process.execPath, ["bench/tools/samples.ts", ...args], { cwd: ROOT, encoding: "utf8", timeout: 400_000 });

/** `bun run samples ARGS`, stopped with Ctrl-C once its stderr shows `line`; its exit code and stderr. */
async function stoppedAt(args: string[], line: string, what: string, timeoutMs: number) {
  const proc = spawn(process.execPath, ["bench/tools/samples.ts", ...args], {
    cwd: ROOT,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  proc.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<number | null>((resolve) => proc.on("close", (code) => resolve(code)));
  await until(() => stderr.includes(line), what, timeoutMs);
  proc.kill("SIGINT");
  return { code: await exited, stderr };
}

describe("bun run samples", () => {
  it("--list names every sample with its command and who quotes it, and every one kept as it was", () => {
    const r = samples("--list");
    expect(r.status).toBe(0);
    for (const s of SAMPLES) expect(r.stdout).toContain(`  ${s.name}: ${s.command}\n`);
    for (const h of HISTORY) expect(r.stdout).toContain(`  ${h.file}: `);
  });

  it("a bad option, an unknown sample or a folder it cannot write is one line and exit 2", () => {
    const flag = samples("--fast");
    expect(flag.status).toBe(2);
    expect(flag.stderr).toBe(
      "samples: unknown option '--fast'; valid options: --into, --resume, --list, --help; usage: bun run samples [NAME...] [--into DIR] [--resume STAGING] [--list]\n",
    );
    const name = samples("bun-quik");
    expect(name.status).toBe(2);
    expect(name.stderr).toMatch(/^samples: no sample 'bun-quik'; did you mean bun-quick\? valid: bun-default-1, /);
    expect(name.stderr.trimEnd().split("\n")).toHaveLength(1);
    const into = samples("bun-quick", "--into", "/proc/forbidden");
    expect(into.status).toBe(2);
    expect(into.stderr).toMatch(/^samples: cannot write into \/proc\/forbidden \(.*\); name a folder you can write to/);
  });

  it("remakes a sample into the folder named, in the current format, naming the commit that made it", () => {
    const dir = tempDir();
    writeFileSync(path.join(dir, "bun-quick.json.gz"), "the previous file\n");
    const staging = () => readdirSync(path.dirname(dir)).filter((f) => f.startsWith(".samples-"));
    const before = staging();
    const r = samples("bun-quick", "--into", dir);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/^samples: \[1\/1\] bun-quick: bun run bench --quick \(its output: .*output\.log\)\n/);
    expect(r.stderr).toMatch(/samples: \[1\/1\] bun-quick made in \d+ s/);
    const made = readResults(path.join(dir, "bun-quick.json.gz"));
    // Where the time went, from the run's own account.
    const timed = Math.round(made.account!.phases.timed / 1000);
    expect(r.stderr).toMatch(
      new RegExp(
        `^samples: of that, the runs' timed loops ${timed} s \\(\\d+%\\), their warm-up \\d+ s, verifying \\d+ s \\(the files' time accounts\\)$`,
        "m",
      ),
    );
    expect(made.provenance!.format).toBe(`json ${JSON_VERSION}`);
    const head = spawnSync("git", ["rev-parse", "HEAD"], { cwd: ROOT, encoding: "utf8" }).stdout.trim();
    expect(made.provenance!.commit).toBe(head);
    expect(made.provenance!.benchVersion).toBe(
      (JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as { version: string }).version,
    );
    // Nothing left behind beside it but the sample.
    expect(readdirSync(dir)).toEqual(["bun-quick.json.gz"]);
    expect(staging()).toEqual(before);
  }, 450_000);

  it("adds up the timed loops of the runs it made, and skips what is not a results file", () => {
    const sample = (f: string) => path.join(ROOT, "results/sample", f);
    const [one, two] = ["bun-default-1.json.gz", "bun-quick.json.gz"].map((f) => readResults(sample(f)).account!);
    expect(
      timedShare([
        sample("bun-default-1.json.gz"),
        sample("bun-quick.json.gz"),
        sample("crosscheck-bun-default-1.txt"),
        sample("links/sweep.json"),
      ]),
    ).toEqual({
      timedMs: one!.phases.timed + two!.phases.timed,
      warmupMs: one!.phases.warmup + two!.phases.warmup,
      verifyMs: one!.phases.verify + two!.phases.verify,
    });
    expect(timedShare([sample("compatibility.md")])).toBeUndefined();
  });

  it("Ctrl-C while a sample is being made leaves the files it would replace as they were", async () => {
    const dir = tempDir();
    writeFileSync(path.join(dir, "bun-quick.json.gz"), "the previous file\n");
    const { code, stderr } = await stoppedAt(
      ["bun-quick", "--into", dir],
      "[1/1] bun-quick: ",
      "the sample's start",
      60_000,
    );
    expect(code).toBe(130);
    expect(stderr).toContain(`samples: stopped; nothing in ${dir} changed`);
    expect(readFileSync(path.join(dir, "bun-quick.json.gz"), "utf8")).toBe("the previous file\n");
    expect(readdirSync(dir)).toEqual(["bun-quick.json.gz"]);
  });

  it("--resume takes a stopped remake up again: the samples it made are kept, the rest made, then all move in", async () => {
    const dir = tempDir();
    const { code, stderr } = await stoppedAt(
      ["bun-quick", "fanout-1-process", "--into", dir],
      "[2/2] fanout-1-process: ",
      "the second sample's start",
      120_000,
    );
    expect(code).toBe(130);
    const staging = /--resume (\S+) takes the remake up again/.exec(stderr)?.[1];
    expect(staging, stderr).toBeDefined();
    expect(readdirSync(dir)).toEqual([]);
    const again = samples("bun-quick", "fanout-1-process", "--into", dir, "--resume", path.resolve(ROOT, staging!));
    expect(again.status, again.stderr).toBe(0);
    expect(again.stderr).toContain("samples: [1/2] bun-quick: kept, made earlier in ");
    expect(again.stderr).toMatch(/samples: \[2\/2\] fanout-1-process made in \d+ s/);
    expect(readdirSync(dir).sort()).toEqual(["bun-quick.json.gz", "fanout-1-process.json.gz"]);
    // --quick keeps its rounds, for its verdict; the fanout run moves in with its figures alone.
    const [quick, fanout] = ["bun-quick", "fanout-1-process"].map((n) => readResults(path.join(dir, `${n}.json.gz`)));
    expect(hasRounds(quick!)).toBe(true);
    expect(hasRounds(fanout!)).toBe(false);
    expect(fanout!.cases.length).toBeGreaterThan(0);
    expect(fanout!.cases.every((c) => Number.isFinite(c.msgsPerS))).toBe(true);
    // A folder that is no remake's: one line, exit 2.
    const none = samples("bun-quick", "--into", dir, "--resume", path.join(dir, "nothing-here"));
    expect(none.status).toBe(2);
    expect(none.stderr).toMatch(
      /^samples: --resume .*nothing-here: no such folder; name the folder a stopped remake left/,
    );
  }, 600_000);
});
