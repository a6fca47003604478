/**
 * Keeps the README true: its quick start, options and codec list must match
 * the code.
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { HELP } from "../bench/cli/help.ts";
import { CSV_COLUMNS } from "../bench/report/csv-columns.ts";
import { resultsFromFile } from "../bench/report/results-file.ts";
import { BUILT_IN } from "../protocols/registry.ts";
import { allText, casesOf, codecModeMs, csvSample, docPages, flat, front, sample } from "./helpers/samples.ts";
import { halfWidth, plusMinus, range, seconds } from "./helpers/prose.ts";

const DOCS = new URL("../docs/", import.meta.url);
/** The README and every page of docs/: the text whose figures and names the tests below hold to the code. */
const readme = allText;
const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as {
  scripts: Record<string, string>;
};

/** A heading's anchor as GitHub makes it. */
const slug = (heading: string): string =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\- _]/gu, "")
    .replace(/ /g, "-");

/** The anchors of a Markdown file's headings (outside code blocks). */
function anchorsOf(text: string): Set<string> {
  const out = new Set<string>();
  let fence = false;
  for (const line of text.split("\n")) {
    if (line.startsWith("```")) fence = !fence;
    const m = !fence && /^#{1,6} (.*)$/.exec(line);
    if (m) out.add(slug(m[1]!));
  }
  return out;
}

describe("README and docs/", () => {
  it("the README fits in 250 lines; every page of docs/ is in its index", () => {
    expect(front.split("\n").length).toBeLessThanOrEqual(250);
    const index = readFileSync(new URL("README.md", DOCS), "utf8");
    for (const page of docPages.filter((f) => f !== "README.md")) expect(index, page).toContain(`](${page})`);
  });

  it("every link to a file or an anchor resolves", () => {
    const root = path.resolve(import.meta.dirname, "..");
    const files = ["README.md", ...docPages.map((f) => `docs/${f}`)];
    const broken: string[] = [];
    for (const file of files) {
      const text = readFileSync(path.join(root, file), "utf8").replace(/```[\s\S]*?```/g, "");
      for (const m of text.matchAll(/\[[^\]]*\]\(([^)\s]+)\)/g)) {
        const target = m[1]!;
        if (/^[a-z]+:/.test(target)) continue;
        const [where, anchor] = target.split("#") as [string, string | undefined];
        const resolved =
          where === "" ? path.join(root, file) : path.resolve(path.dirname(path.join(root, file)), where);
        if (!existsSync(resolved)) broken.push(`${file}: ${target} (no such file)`);
        else if (anchor && resolved.endsWith(".md") && !anchorsOf(readFileSync(resolved, "utf8")).has(anchor))
          broken.push(`${file}: ${target} (no such heading)`);
      }
    }
    expect(broken).toEqual([]);
  });
});

describe("README", () => {
  it("quick start is exactly two commands a machine with only Node.js and npm can run", () => {
    const quick = front.slice(front.indexOf("## Quick start"), front.indexOf("## What it answers"));
    const block = /```sh\n([\s\S]*?)```/.exec(quick)![1]!.trim().split("\n");
    expect(block).toEqual(["npm install && npm run bench", "npm install && npm test"]);
    expect(pkg.scripts.bench).toMatch(/^bun /);
    expect(pkg.scripts.test).toMatch(/^bun --bun vitest run/);
  });

  it("the quick look's time it quotes is the committed --quick run's, under 20 s, every row verified", () => {
    const quoted =
      /`npm run bench -- --quick` gives a first look, every row verified and every\nratio with its interval, in (\d+) s here \(`results\/sample\/epyc-quick\.csv`/.exec(
        readme,
      );
    expect(quoted).not.toBeNull();
    const run = resultsFromFile(sample("epyc-quick.csv"));
    expect(Number(quoted![1])).toBe(Math.round(run.elapsedMs / 1000));
    expect(run.elapsedMs).toBeLessThan(20_000);
    expect(run.cases.every((c) => c.verified)).toBe(true);
    for (const c of run.cases.filter((x) => x.codec !== "json"))
      expect(c.ratios?.vsJson?.high, `${c.mode} ${c.payload} ${c.codec}`).toBeGreaterThan(c.ratios!.vsJson!.low);
  });

  it("CI runs the README's test command", () => {
    const ci = readFileSync(new URL("../.ci/run", import.meta.url), "utf8");
    expect(ci).toContain("npm test");
  });

  it("documents every option of the CLI", () => {
    const flags = [...HELP.matchAll(/^\s+(?:-h, )?(--[a-z]+)/gm)].map((m) => m[1]!);
    expect(flags.length).toBeGreaterThan(8);
    for (const flag of flags) expect(readme, flag).toContain(`\`${flag}`);
  });

  it("names every codec", () => {
    for (const name of BUILT_IN.names) expect(readme, name).toContain(`\`${name}\``);
  });

  it("the CSV columns it names exist", () => {
    for (const col of ["total_vs_json", "round_msgs", "timer_resolution_ns", "csv_version"]) {
      expect(readme).toContain(col);
      expect(CSV_COLUMNS).toContain(col);
    }
  });

  it("how far the three default runs agree, and how wide their intervals are, is what their files say", () => {
    type Ratio = { ratio: number; low: number; high: number } | undefined;
    const runs = [1, 2, 3].map((n) => casesOf(`epyc-default-${n}.csv`));
    const half = (r: Ratio) => (r ? halfWidth(r) : 0);
    /** Per codec and payload of a mode, the picked ratio in each run. */
    const across = (mode: string, pick: (c: (typeof runs)[number][number]) => Ratio) => {
      const spreads: number[] = [];
      for (const c of runs[0]!.filter((x) => x.mode === mode && x.codec !== "json" && x.codec !== "raw")) {
        const ratios = runs
          .map((run) => run.find((x) => x.mode === mode && x.payload === c.payload && x.codec === c.codec))
          .map((x) => (x ? pick(x)?.ratio : undefined))
          .filter((r): r is number => r !== undefined && Number.isFinite(r));
        if (ratios.length === runs.length) spreads.push(Math.max(...ratios) / Math.min(...ratios));
      }
      return spreads;
    };
    const lab = (["vsJson", "echoVsJson", "readOneVsJson", "validatedVsJson"] as const).flatMap((k) =>
      across("codec", (c) => c.ratios?.[k]),
    );
    expect(lab).toHaveLength(72);
    const within = (v: number[], x: number) => v.filter((s) => s <= x).length;
    const text = flat(front);
    const widest = (v: number[]) => Math.max(...v).toFixed(2);
    expect(text).toContain(
      `agreed within 1.05x on ${within(lab, 1.05)} of 72 codec-mode ratios, the widest ${widest(lab)}x`,
    );
    const stream = across("stream", (c) => c.ratios?.fieldVsJson);
    const roundtrip = across("roundtrip", (c) => c.ratios?.fieldVsJson);
    expect(text).toContain(
      `the field ratios within ${widest(stream)}x in a busy server (stream) but up to ${widest(roundtrip)}x in an idle one`,
    );
    // The intervals: the default runs' widest in process and in the server (stream), and the first look's.
    const widestHalf = (
      cases: (typeof runs)[number],
      mode: string,
      pick: (c: (typeof runs)[number][number]) => Ratio,
    ) =>
      Math.max(
        ...cases.filter((c) => c.mode === mode && c.codec !== "json" && c.codec !== "raw").map((c) => half(pick(c))),
      );
    const inProcess = Math.max(...runs.map((r) => widestHalf(r, "codec", (c) => c.ratios?.vsJson)));
    const inServer = Math.max(...runs.map((r) => widestHalf(r, "stream", (c) => c.ratios?.fieldVsJson)));
    expect(text).toContain(`(up to ${plusMinus(inProcess)} and ${plusMinus(inServer)} in the committed runs)`);
    const quick = casesOf("epyc-quick.csv");
    const first = Math.max(
      widestHalf(quick, "codec", (c) => c.ratios?.vsJson),
      widestHalf(quick, "stream", (c) => c.ratios?.fieldVsJson),
    );
    expect(text).toContain(`(few messages: up to ${plusMinus(first)} here)`);
  });
});

describe("README prose", () => {
  const text = flat(front);

  it("the first look's machine and modes are the committed --quick run's", () => {
    const quick = csvSample("epyc-quick.csv");
    const cores = [...new Set(quick.rows.map((r) => r("cores")))];
    const cpus = [...new Set(quick.rows.map((r) => r("cpu")))];
    expect(cores, "the quick run's core counts").toHaveLength(1);
    expect(cpus, "the quick run's processors").toHaveLength(1);
    const modes = [...new Set(quick.rows.map((r) => r("mode")))];
    expect(text).toContain(
      `(\`results/sample/epyc-quick.csv\`, on a ${cores[0]}-core ${cpus[0]}: ${modes.map((m) => `${m} mode`).join(" and ")})`,
    );
  });

  it("how long the default run takes is the three committed runs' time, and codec mode's share of the first", () => {
    const elapsed = [1, 2, 3].map((i) => resultsFromFile(sample(`epyc-default-${i}.csv`)).elapsedMs);
    const codecMs = codecModeMs("epyc-default-1.json");
    expect(codecMs).toBeGreaterThan(0);
    const mean = elapsed.reduce((a, b) => a + b, 0) / elapsed.length;
    expect(text).toContain(
      `the default run takes about ${Math.round(mean / 60_000)} minutes (${range(elapsed, seconds)} s for the three committed runs here, codec mode's ${seconds(codecMs)} s of it;`,
    );
  });

  it("the idle server's field ratio that moved most between the default runs is on the message it names", () => {
    const runs = [1, 2, 3].map((n) => casesOf(`epyc-default-${n}.csv`));
    const idle = runs[0]!
      .filter((c) => c.mode === "roundtrip" && c.codec !== "json" && c.codec !== "raw")
      .map((c) => {
        const ratios = runs.map(
          (cases) =>
            cases.find((x) => x.mode === "roundtrip" && x.payload === c.payload && x.codec === c.codec)!.ratios!
              .fieldVsJson!.ratio,
        );
        return { payload: c.payload, spread: Math.max(...ratios) / Math.min(...ratios) };
      });
    const most = idle.reduce((a, b) => (b.spread > a.spread ? b : a));
    expect(text).toContain(
      `but up to ${most.spread.toFixed(2)}x in an idle one (roundtrip, the ${most.payload} message)`,
    );
  });
});
