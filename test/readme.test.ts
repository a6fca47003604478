/**
 * Keeps the README true: its quick start, options and codec list must match
 * the code.
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { HELP } from "../bench/cli/help.ts";
import { compareRuns } from "../bench/report/compare.ts";
import { CSV_COLUMNS } from "../bench/report/csv-columns.ts";
import { resultsFromFile } from "../bench/report/results-file.ts";
import { BUILT_IN } from "../protocols/registry.ts";
import { compatMarkdown, compatMatrix } from "../bench/report/compat-table.ts";
import {
  allText,
  casesOf,
  codecModeMs,
  compatFiles,
  crosscheckRows,
  codecRows,
  csvSample,
  docPages,
  flat,
  front,
  num,
  type Row,
  sample,
} from "./helpers/samples.ts";
import { fixed, halfWidth, plusMinus, range, seconds, whole } from "./helpers/prose.ts";

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

  it("quotes the committed compatibility matrix (bun run compat) as it is", () => {
    const matrix = sample("compatibility.md");
    const start = readme.indexOf("<!-- compatibility: begin -->\n");
    const end = readme.indexOf("<!-- compatibility: end -->");
    expect(start).toBeGreaterThan(0);
    expect(readme.slice(start + "<!-- compatibility: begin -->\n".length, end)).toBe(matrix);
    for (const name of BUILT_IN.names.filter((n) => !n.startsWith("cal-")))
      expect(matrix, name).toContain(`| ${name} |`);
    // And it is what the committed runs give: a place given by --from in the samples' list (an
    // every-codec run) from that file, the others from compat/.
    const files = compatFiles();
    expect(
      files
        .filter((f) => f.given)
        .map((f) => f.place.dir)
        .sort(),
    ).toEqual(["bun", "chromium"]);
    const columns = files.map((f) => ({ label: f.place.label, results: resultsFromFile(sample(f.file)) }));
    expect(compatMarkdown(compatMatrix(columns))).toBe(matrix);
  });

  it("the cross-check figures it quotes are the committed cross-check's", () => {
    const output = sample("crosscheck-epyc-default-1.txt");
    const section = readme.slice(readme.indexOf("## Cross-check"), readme.indexOf("The codecs (`protocols/`"));
    const text = flat(section);
    // Where codec mode and the plain loop disagree most, and where the server falls.
    const rows = crosscheckRows();
    expect(rows).toHaveLength(18);
    const most = rows.reduce((a, b) => (Math.abs(b.diffPct) > Math.abs(a.diffPct) ? b : a));
    const two = fixed(2);
    expect(text).toContain(
      `(${most.codec} on the ${most.payload} message: ${two(most.codecMode)} in codec mode, ${two(most.plain)} in the plain loop, ${two(most.fieldRt)} and ${two(most.fieldStream)} in the server, between the two)`,
    );
    const [lo, hi] = [most.codecMode, most.plain].sort((a, b) => a - b);
    for (const field of [most.fieldRt, most.fieldStream]) expect(field).toSatisfy((f: number) => f >= lo! && f <= hi!);
    const differing = rows.filter((r) => r.differs);
    const explained = differing.filter((r) => r.explains).length;
    expect(output).toContain(`the field explains ${explained} of them`);
    expect(text).toContain(`It explained ${explained} of the ${differing.length}`);
    expect(section).toContain(`${rows.length - differing.length} of 18 ratios agreed within 10%`);
  });

  it("the custom-binary figures it quotes are the committed runs'", () => {
    const bun = codecRows("epyc-default-1.csv");
    const before = codecRows("browser-custom-binary-before-1.csv");
    const after = codecRows("browser-custom-binary-after-1.csv");
    const section = readme.slice(
      readme.indexOf("How close to the floor"),
      readme.indexOf("Against JSON with its UTF-8"),
    );
    const ratio = (r: typeof bun, payload: string) => num(r(payload, "custom-binary"), "total_vs_json").toFixed(2);
    /** custom-binary's total against json-bytes' in the run. */
    const vsBytes = (payload: string) =>
      (num(bun(payload, "custom-binary"), "total_ns") / num(bun(payload, "json-bytes"), "total_ns")).toFixed(2);
    /** The plain loop's ratio, as the cross-check printed it. */
    const plain = (payload: string) =>
      crosscheckRows()
        .find((r) => r.payload === payload && r.codec === "custom-binary")!
        .plain.toFixed(2);
    for (const payload of ["small", "medium", "large"]) {
      const line = section.split("\n").find((l) => l.startsWith(`| ${payload} |`))!;
      expect(line, payload).toBeDefined();
      const cells = line.split("|").map((c) => c.trim());
      expect(cells[2]).toMatch(new RegExp(`^${ratio(bun, payload)} `));
      expect(cells[3]).toBe(vsBytes(payload));
      expect(cells[4]).toBe(plain(payload));
      expect(cells[5]).toBe(`${ratio(before, payload)} / ${ratio(after, payload)}`);
    }
    // custom-binary-performance.md says the same of the same run, in a sentence.
    const three = (f: (payload: string) => string) => ["small", "medium", "large"].map(f).join(" / ");
    const text = flat(readme);
    expect(text).toContain(
      `custom-binary's total per message against JSON's is ${three((p) => ratio(bun, p))} (small / medium / large), against \`json-bytes\`'s ${three(vsBytes)}`,
    );
    expect(text).toContain(`gives ${three(plain)}.`);
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
    const text = flat(readme);
    const widest = (v: number[]) => Math.max(...v).toFixed(2);
    expect(text).toContain(
      `agreed within 1.05x on ${within(lab, 1.05)} of 72 codec-mode ratios, the widest ${widest(lab)}x`,
    );
    expect(text).toContain(
      `put ${within(lab, 1.05)} of 72 codec-mode ratios (in process, echo, read-one and validated, 18 each) within 1.05x of each other and ${within(lab, 1.1)} within 1.10x, the widest ${widest(lab)}x`,
    );
    const stream = across("stream", (c) => c.ratios?.fieldVsJson);
    const roundtrip = across("roundtrip", (c) => c.ratios?.fieldVsJson);
    expect(text).toContain(
      `the field ratios within ${widest(stream)}x in a busy server (stream) but up to ${widest(roundtrip)}x in an idle one`,
    );
    expect(text).toContain(
      `in roundtrip mode ${within(roundtrip, 1.1)} of ${roundtrip.length} stay within 1.10x, the widest ${widest(roundtrip)}x`,
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

  it("its comparison of two sample runs is what bun run report A B finds in them", () => {
    const all = compareRuns(casesOf("epyc-default-1.csv"), casesOf("epyc-default-2.csv"));
    const small = all.filter((c) => c.mode === "codec" && c.payload === "small");
    const pcts = small.map((c) => Math.round((c.total.ratio - 1) * 100));
    const signed = (p: number) => `${p > 0 ? "+" : ""}${p}%`;
    const count = (verdict: string) => small.filter((c) => c.total.verdict === verdict).length;
    const text = flat(readme);
    expect(text).toContain(
      `put the small message's codec-mode times ${signed(Math.min(...pcts))} to ${signed(Math.max(...pcts))} apart (${count("slower")} of ${small.length} "slower", ${count("faster")} "faster")`,
    );
    const withRatio = all.filter((c) => c.codec !== "json" && c.a.ratios?.vsJson !== undefined);
    const moved = withRatio.filter((c) => c.vsJsonMoved === "faster" || c.vsJsonMoved === "slower");
    expect(text).toContain(`of the ${withRatio.length} ratios to JSON ${moved.length} moved beyond both intervals`);
  });

  it("its compression figures are the committed runs' (bytes counted on the socket, round trips)", () => {
    const load = (name: string) => {
      const run = csvSample(name);
      return (payload: string, codec: string, col: string): number => num(run.row({ payload, codec }), col);
    };
    const plain = load("epyc-roundtrip-plain.csv");
    const deflate = load("epyc-roundtrip-deflate.csv");
    const text = flat(readme);
    const b = (payload: string, codec: string) => Math.round(deflate(payload, codec, "reply_wire_bytes"));
    const u = (payload: string, codec: string) => Math.round(plain(payload, codec, "reply_wire_bytes"));
    expect(text).toContain(
      `replies were ${b("large", "json")} B for large JSON (${u("large", "json")} B uncompressed), ${b("medium", "json")} B for medium (${u("medium", "json")} B)`,
    );
    expect(text).toContain(
      `(small JSON ${b("small", "json")} B against ${u("small", "json")} B, large custom-binary ${b("large", "custom-binary")} B against ${u("large", "custom-binary")} B)`,
    );
    expect(text).toContain(`${b("large", "msgpackr")} B for large msgpackr (${u("large", "msgpackr")} B)`);
    const us = (f: typeof plain, payload: string) => (f(payload, "json", "total_mean_ns") / 1000).toFixed(1);
    expect(text).toContain(
      `(the mean round trip of JSON ${us(plain, "small")} to ${us(deflate, "small")} µs, ${us(plain, "medium")} to ${us(deflate, "medium")} µs)`,
    );
    const ratios = ["small", "medium"].flatMap((p) =>
      ["json", "custom-binary", "msgpackr"].map((c) => deflate(p, c, "total_mean_ns") / plain(p, c, "total_mean_ns")),
    );
    expect(text).toContain(`took ${Math.min(...ratios).toFixed(1)}-${Math.max(...ratios).toFixed(1)}x as long`);
    for (const p of ["small", "medium", "large"])
      for (const c of ["json", "custom-binary", "msgpackr"]) expect(deflate(p, c, "wire_compressed_share")).toBe(0);
  });

  it("its latency figures at 2,000, 10,000 and 40,000 messages/s are the committed runs'", () => {
    const load = (name: string) => {
      const rows = csvSample(name).where({ mode: "latency" });
      const col = (c: string, raw = false) => rows.filter((r) => (r("codec") === "raw") === raw).map((r) => num(r, c));
      return { rows, col, flags: rows.map((r) => r("flags")) };
    };
    const us = (x: number) => (x / 1000).toFixed(0);
    const ms = (x: number) => (x / 1e6).toFixed(1);
    const text = flat(readme);
    const at2000 = load("epyc-latency-2000.csv");
    const achieved = [...at2000.col("achieved_rate"), ...at2000.col("achieved_rate", true)];
    expect(text).toContain(
      `(${range(achieved, whole)} achieved, at most ${Math.max(...at2000.col("late_sends"), ...at2000.col("late_sends", true))} of 6,000 messages late)`,
    );
    expect(text).toContain(
      `corrected p50 ${range(at2000.col("latency_p50_ns"), us)} µs for all of them (\`raw\`, no codec, ${range(at2000.col("latency_p50_ns", true), us)} µs), p99 ${range(at2000.col("latency_p99_ns"), ms)} ms`,
    );
    const at10k = load("epyc-latency-large-10000.csv");
    const late10k = [...at10k.col("late_sends"), ...at10k.col("late_sends", true)];
    expect(text).toContain(
      `${range(late10k, whole)} of 12,000 messages late, p99 ${range(at10k.col("latency_p99_ns"), ms)} ms`,
    );
    const at40k = load("epyc-latency-large-40000.csv");
    expect(at40k.flags.every((f) => f.includes("below-rate"))).toBe(true);
    expect(text).toContain(`none does (${range(at40k.col("achieved_rate"), whole)} msgs/s achieved`);
    const corrected = at40k.col("latency_p99_ns");
    const service = at40k.col("service_p99_ns");
    const most = Math.max(...corrected.map((c, i) => c / service[i]!));
    expect(text).toContain(
      `corrected p99 (${range(corrected, ms)} ms) is at most ${most.toFixed(2)}x the service time's`,
    );
    expect(text).toContain(
      `service time's (${range(at40k.col("service_p99_ns"), ms)} ms): ${range(at40k.col("late_sends"), whole)} of 12,000 sends were late`,
    );
  });

  it("its Chromium latency figures are the committed run's, beside Bun's client in the first sweep", () => {
    const rows = (name: string) =>
      csvSample(name)
        .where({ mode: "latency" })
        .filter((r) => r("codec") !== "raw");
    const chromium = rows("chromium-latency.csv");
    const at = (rate: number) => chromium.filter((r) => Number(r("target_rate")) === rate);
    const us = (ns: number) => (ns / 1000).toFixed(0);
    const text = flat(readme);
    expect(at(1000).every((r) => !r("flags").includes("below-rate"))).toBe(true);
    const bun = rows("epyc-sweep-1.csv").filter((r) => Number(r("target_rate")) === 1000);
    expect(text).toContain(
      `every codec kept the rate with corrected p50 ${range(
        at(1000).map((r) => Number(r("latency_p50_ns"))),
        us,
      )} µs (Bun's client in the first sweep above: ${range(
        bun.map((r) => Number(r("latency_p50_ns"))),
        us,
      )} µs)`,
    );
    const short = at(5000).filter((r) => r("flags").includes("below-rate")).length;
    const achieved = range(
      at(5000).map((r) => Number(r("achieved_rate"))),
      (x) => Math.round(x).toLocaleString("en-US"),
    );
    const p50 = range(
      at(5000).map((r) => Number(r("latency_p50_ns"))),
      (x) => (x / 1e6).toFixed(1),
    );
    expect(text).toContain(
      `at 5,000/s ${short} of the ${at(5000).length} cases fell short of it (the ${at(5000).length} achieved ${achieved}) with p50 ${p50} ms`,
    );
  });

  it("its latency sweep's CPU and memory table is the committed sweep's, rate by rate", () => {
    const codecs = csvSample("epyc-sweep-1.csv")
      .where({ mode: "latency" })
      .filter((r) => r("codec") !== "raw");
    const span = (values: number[], unit: string) => `${range(values, fixed(0))} ${unit}`.replace(" %", "%");
    const section = readme.slice(
      readme.indexOf("| rate (msgs/s) | server CPU per message"),
      readme.indexOf("**Charts.**"),
    );
    const lines = section.split("\n").filter((l) => /^\| [\d,]+ \|/.test(l));
    expect(lines.length).toBeGreaterThanOrEqual(4);
    for (const line of lines) {
      const [rate, cpu, share, busy, rss] = line
        .split("|")
        .slice(1, 6)
        .map((c) => c.trim());
      const at = codecs.filter((r) => num(r, "target_rate") === Number(rate!.replace(/,/g, "")));
      expect(at.length, line).toBeGreaterThan(0);
      const each = (f: (r: Row) => number, unit: string) => span(at.map(f), unit);
      expect([cpu, share, busy, rss], line).toEqual([
        each((r) => num(r, "server_cpu_ns_per_msg") / 1000, "µs"),
        each((r) => (100 * num(r, "server_cpu_ns_per_msg") * num(r, "achieved_rate")) / 1e9, "%"),
        each((r) => num(r, "client_busy_ns_per_msg") / 1000, "µs"),
        each((r) => num(r, "server_rss_peak_bytes") / 2 ** 20, "MiB"),
      ]);
    }
  });

  it("its browser-against-Bun table and figures are the committed runs'", () => {
    const bun = casesOf("epyc-default-1.csv");
    const chromium = casesOf("chromium-codec-stream.csv");
    const find = (cases: typeof bun, payload: string, codec: string, mode: string) =>
      cases.find((c) => c.payload === payload && c.codec === codec && c.mode === mode);
    const ns = (c: (typeof bun)[number] | undefined) =>
      c === undefined
        ? "-"
        : c.total.median >= 1000
          ? `${(c.total.median / 1000).toFixed(2)} µs`
          : `${Math.round(c.total.median)} ns`;
    const rate = (c: (typeof bun)[number] | undefined) =>
      c === undefined ? "-" : `${Math.round(c.msgsPerS!).toLocaleString("en-US")}/s`;
    const start = readme.indexOf("**Browser against Bun on the same machine**");
    const section = readme.slice(start, readme.indexOf("- The page's clock is 5 µs", start));
    const lines = section.split("\n").filter((l) => /^\| (small|medium|large) \|/.test(l));
    expect(lines).toHaveLength(24);
    for (const line of lines) {
      const [payload, codec, ...cells] = line
        .split("|")
        .slice(1, 7)
        .map((c) => c.trim());
      expect(cells, line).toEqual([
        ns(find(bun, payload!, codec!, "codec")),
        ns(find(chromium, payload!, codec!, "codec")),
        rate(find(bun, payload!, codec!, "stream")),
        rate(find(chromium, payload!, codec!, "stream")),
      ]);
    }
    const text = flat(section);
    const cb = ["small", "medium", "large"].map((p) =>
      find(chromium, p, "custom-binary", "codec")!.ratios!.vsJson!.ratio.toFixed(2),
    );
    expect(text).toContain(
      `custom-binary is ${cb[0]}x JSON's time on the small message, ${cb[1]}x on the medium one and ${cb[2]}x on the large one`,
    );
    const streams = chromium.filter((c) => c.mode === "stream").map((c) => c.msgsPerS!);
    expect(text).toContain(`moves ${whole(Math.min(...streams))}-${whole(Math.max(...streams))} messages per second`);
  });

  it("its table of three links is the committed link runs', row by row", () => {
    const ms = (ns: number) => `${(ns / 1e6).toFixed(2)} ms`;
    const section = readme.slice(readme.indexOf("| link | payload | codec | bytes | round trip p50"));
    const lines = section.split("\n").filter((l) => /^\| (wifi|4g|slow-4g) \| (small|medium|large) \|/.test(l));
    expect(lines).toHaveLength(36);
    const runs = new Map(["wifi", "4g", "slow-4g"].map((link) => [link, csvSample(`links/${link}.csv`)]));
    for (const line of lines) {
      const [link, payload, codec, ...cells] = line
        .split("|")
        .slice(1, 10)
        .map((c) => c.trim());
      const rt = runs.get(link!)!.row({ mode: "roundtrip", payload: payload!, codec: codec! });
      const st = runs.get(link!)!.row({ mode: "stream", payload: payload!, codec: codec! });
      const limit = st("link_limit");
      const share = { up: "link_up_share", down: "link_down_share", window: "link_window_share" }[limit];
      expect(cells, line).toEqual([
        rt("bytes"),
        ms(Number(rt("rtt_p50_ns"))),
        ms(Number(rt("rtt_p99_ns"))),
        `${Number(rt("link_wire_ms")).toFixed(2)} ms`,
        Math.round(Number(st("msgs_per_s"))).toLocaleString("en-US"),
        share ? `${limit} ${Math.round(Number(st(share)) * 100)}%` : limit,
      ]);
    }
  });

  it("what it says of the three links is what their runs say", () => {
    const load = (link: string) => {
      const run = csvSample(`links/${link}.csv`);
      return (mode: string, payload: string, codec?: string) =>
        run
          .where(codec === undefined ? { mode, payload } : { mode, payload, codec })
          .map((r) => (c: string) => num(r, c));
    };
    const links = { wifi: load("wifi"), "4g": load("4g"), "slow-4g": load("slow-4g") };
    const text = flat(readme);
    const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
    const spread = (link: keyof typeof links, payload: string) => {
      const p50 = links[link]("roundtrip", payload).map((r) => r("rtt_p50_ns"));
      return Math.max(...p50) / Math.min(...p50) - 1;
    };
    const others = (["wifi", "4g", "slow-4g"] as const).flatMap((l) =>
      ["small", "medium", "large"].filter((p) => l !== "wifi" || p !== "large").map((p) => spread(l, p)),
    );
    expect(text).toContain(
      `differ by at most ${pct(Math.max(...others))} (${pct(spread("wifi", "large"))} on \`wifi\`'s large message`,
    );
    const rate = (link: keyof typeof links, codec: string, payload = "large") =>
      links[link]("stream", payload, codec)[0]!("msgs_per_s");
    const more = (link: keyof typeof links) =>
      `${Math.round((rate(link, "custom-binary") / rate(link, "json") - 1) * 100)}% more`;
    expect(text).toContain(
      `custom-binary carries ${more("4g")} large messages than JSON over \`4g\` (${whole(rate("4g", "custom-binary"))} against ${whole(rate("4g", "json"))} a second) and ${more("slow-4g")} over \`slow-4g\` (${whole(rate("slow-4g", "custom-binary"))} against ${whole(rate("slow-4g", "json"))})`,
    );
    const ahead = ["small", "medium", "large"].map((p) =>
      Math.round((rate("wifi", "custom-binary", p) / rate("wifi", "json", p) - 1) * 100),
    );
    expect(text).toContain(`custom-binary ${Math.min(...ahead)}-${Math.max(...ahead)}% ahead of JSON`);
  });

  it("what it says of compression over 4g is the two 4g runs'", () => {
    const load = (name: string) => {
      const run = csvSample(`links/${name}`);
      return (mode: string, payload: string, codec: string) => {
        const r = run.row({ mode, payload, codec });
        return (c: string) => num(r, c);
      };
    };
    const plain = load("4g.csv");
    const deflate = load("4g-deflate.csv");
    const text = flat(readme);
    const cases = ["small", "medium", "large"].flatMap((p) =>
      ["json", "custom-binary", "protobuf", "msgpackr"].map((c) => [p, c] as const),
    );
    for (const [p, c] of cases) expect(deflate("roundtrip", p, c)("wire_compressed_share"), `${p} ${c}`).toBe(0);
    const reply = (f: typeof plain, codec: string) => Math.round(f("roundtrip", "large", codec)("reply_wire_bytes"));
    expect(text).toContain(
      `(${reply(plain, "json")} to ${reply(deflate, "json")} bytes, ${reply(plain, "msgpackr")} to ${reply(deflate, "msgpackr")})`,
    );
    expect(text).toContain(`(${reply(plain, "custom-binary")} to ${reply(deflate, "custom-binary")} for custom-binary`);
    const rt = Math.max(
      ...cases.map(([p, c]) =>
        Math.abs(deflate("roundtrip", p, c)("rtt_p50_ns") - plain("roundtrip", p, c)("rtt_p50_ns")),
      ),
    );
    const st = Math.max(
      ...cases.map(([p, c]) =>
        Math.abs(deflate("stream", p, c)("msgs_per_s") / plain("stream", p, c)("msgs_per_s") - 1),
      ),
    );
    expect(text).toContain(
      `Round trips moved by at most ${(rt / 1e6).toFixed(2)} ms and stream rates by at most ${(st * 100).toFixed(1)}%, both ways.`,
    );
  });

  it("its table of each codec's knee over 4g is the committed sweep's, and what it says of it", () => {
    const knees = csvSample("links/4g-knees.csv");
    const of = (payload: string, codec: string) => knees.where({ mode: "latency", payload, codec });
    const at = (payload: string, codec: string, rate: number) =>
      of(payload, codec).find((r) => num(r, "target_rate") === rate)!;
    const section = readme.slice(readme.indexOf("| payload | codec | frame bytes up |"));
    const lines = section.split("\n").filter((l) => /^\| (small|medium|large) \|/.test(l));
    expect(lines.length).toBeGreaterThanOrEqual(12);
    for (const line of lines.slice(0, 12)) {
      const [payload, codec, ...cells] = line
        .split("|")
        .slice(1, 7)
        .map((c) => c.trim());
      const first = of(payload!, codec!)[0]!;
      const byWindow = (num(first, "window") * 1000) / num(first, "link_rtt_ms");
      const byUp = (num(first, "link_up_kbps") * 1000) / (8 * num(first, "wire_bytes"));
      expect(cells, line).toEqual([
        String(num(first, "wire_bytes")),
        byWindow <= byUp ? `${whole(byWindow)} (window)` : `${whole(byUp)} (up)`,
        whole(num(first, "knee_rate")),
        whole(num(at(payload!, codec!, 1000), "achieved_rate")),
      ]);
    }
    const text = flat(readme);
    const sent = (codec: string) => num(at("large", codec, 1000), "achieved_rate");
    expect(text).toContain(`custom-binary keeps ${(sent("custom-binary") / sent("json")).toFixed(2)}x JSON's rate`);
    const knee = num(of("large", "custom-binary")[0]!, "knee_rate");
    const ms = (r: Row) => Math.round(num(r, "latency_p50_ns") / 1e6);
    const json = at("large", "json", knee);
    expect(text).toContain(
      `Its median latency at ${knee} a second was ${ms(at("large", "custom-binary", knee))} ms (the link's 60 plus ${ms(at("large", "custom-binary", knee)) - 60}); JSON's, asked the same, ${ms(json)} ms, with ${whole(num(json, "late_sends"))} of ${whole(num(json, "sent"))} sends late`,
    );
    const small = (codec: string) => at("small", codec, 1000);
    expect(text).toContain(
      `left ${num(small("custom-binary"), "late_sends")} of ${whole(num(small("custom-binary"), "sent"))} sends late (JSON ${num(small("json"), "late_sends")})`,
    );
  });

  it("its crossover table is the committed link sweep's", () => {
    const sweep = JSON.parse(sample("links/sweep.json")) as {
      crossovers: {
        payload: string;
        fast: { codec: string; msgsPerS: number; wireBytes: number };
        small: { codec: string; msgsPerS: number; wireBytes: number };
        ceilingKbps: number;
        predictedKbps: number;
        rungs: { kbps: number; fast: number; small: number }[];
        verdict: string;
      }[];
    };
    const mbit = (kbps: number) =>
      `${kbps >= 100_000 ? Math.round(kbps / 1000) : Number((kbps / 1000).toPrecision(3))} Mbit/s`;
    const side = (c: { codec: string; msgsPerS: number; wireBytes: number }) =>
      `${c.codec} ${whole(c.msgsPerS)} msgs/s, ${c.wireBytes} B`;
    const section = readme.slice(readme.indexOf("| payload | fast on loopback |"));
    expect(sweep.crossovers).toHaveLength(3);
    for (const c of sweep.crossovers) {
      const rungs = c.rungs.map((r) => `${mbit(r.kbps)}: ${whole(r.fast)} / ${whole(r.small)}`).join("; ");
      expect(section).toContain(
        `| ${c.payload} | ${side(c.fast)} | ${side(c.small)} | ${mbit(c.ceilingKbps)} | ${rungs} | ${mbit(c.predictedKbps)} | ${c.verdict.replace(/^\w+: /, "")} |`,
      );
    }
  });

  it("its compressed sizes are the every-codec run's, row by row", () => {
    const run = csvSample("epyc-every-codec.csv");
    const section = readme.slice(
      readme.indexOf("- **Compressed sizes**"),
      readme.indexOf("Chat text and market symbols"),
    );
    const lines = section.split("\n").filter((l) => /^ *\| (small|medium|large|chat|game-tick|market) \|/.test(l));
    expect(lines).toHaveLength(24);
    const n = (v: string) => whole(Number(v));
    for (const line of lines) {
      const [payload, codec, ...sizes] = line
        .split("|")
        .slice(1, 7)
        .map((c) => c.trim());
      const row = run.row({ mode: "codec", payload: payload!, codec: codec! });
      const cols = ["bytes", "deflate_bytes", "deflate_context_bytes", "zstd_bytes"];
      expect(sizes, line).toEqual(cols.map((c) => n(row(c))));
    }
    const text = flat(readme);
    const exact = (payload: string, codec: string, col: string) => num(run.row({ mode: "codec", payload, codec }), col);
    const at = (payload: string, codec: string, col: string) => Math.round(exact(payload, codec, col));
    expect(text).toContain(
      `(chat JSON ${at("chat", "json", "bytes")} to ${at("chat", "json", "deflate_context_bytes")} bytes)`,
    );
    const excess = (col: string) => Math.round(exact("large", "json", col) - exact("large", "custom-binary", col));
    expect(text).toContain(`JSON's excess shrinks from ${excess("bytes")} to ${excess("deflate_context_bytes")} bytes`);
  });

  it("its message-set figures are the committed runs': bytes, ratio to json in process and in stream mode, compressed sizes", () => {
    const load = (name: string) => {
      const run = csvSample(name);
      return (payload: string, codec: string) => {
        const r = run.row({ payload, codec });
        return (col: string): number => num(r, col);
      };
    };
    const inProcessRun = load("epyc-every-codec.csv");
    const streamRun = load("epyc-every-codec-field.csv");
    const section = readme.slice(
      readme.indexOf("## Messages of real applications"),
      readme.indexOf("## How far a ratio holds"),
    );
    const lines = section.split("\n").filter((l) => /^\| (chat|game-tick|market) \|/.test(l));
    expect(lines).toHaveLength(12);
    for (const line of lines) {
      const [payload, codec, bytes, inProcess, stream, deflated] = line
        .split("|")
        .slice(1, 7)
        .map((c) => c.trim());
      const k = inProcessRun(payload!, codec!);
      const s = streamRun(payload!, codec!);
      expect(s("lost"), line).toBe(0);
      expect(bytes, line).toBe(Math.round(k("bytes")).toLocaleString("en-US"));
      expect(inProcess!.split(" ")[0], line).toBe(k("total_vs_json").toFixed(2));
      expect(stream!.split(" ")[0], line).toBe(s("total_vs_json").toFixed(2));
      expect(deflated, line).toBe(Math.round(k("deflate_context_bytes")).toLocaleString("en-US"));
    }
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
