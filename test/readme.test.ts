/**
 * Keeps the README true: its quick start, options and codec list must match
 * the code.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { HELP } from "../bench/cli/help.ts";
import { compareRuns } from "../bench/report/compare.ts";
import { CSV_COLUMNS } from "../bench/report/csv-columns.ts";
import { resultsFromFile } from "../bench/report/results-file.ts";
import { parseCsv } from "../bench/report/csv-read.ts";
import { BUILT_IN } from "../protocols/registry.ts";
import { compatMarkdown, compatMatrix } from "../bench/report/compat-table.ts";
import { PLACES } from "../bench/tools/compat.ts";

const front = readFileSync(new URL("../README.md", import.meta.url), "utf8");
const DOCS = new URL("../docs/", import.meta.url);
const docPages = readdirSync(DOCS).filter((f) => f.endsWith(".md"));
/** The README and every page of docs/: the text whose figures and names the tests below hold to the code. */
const readme = [front, ...docPages.map((f) => readFileSync(new URL(f, DOCS), "utf8"))].join("\n");
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
    const run = resultsFromFile(readFileSync(new URL("../results/sample/epyc-quick.csv", import.meta.url), "utf8"));
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
    const matrix = readFileSync(new URL("../results/sample/compatibility.md", import.meta.url), "utf8");
    const start = readme.indexOf("<!-- compatibility: begin -->\n");
    const end = readme.indexOf("<!-- compatibility: end -->");
    expect(start).toBeGreaterThan(0);
    expect(readme.slice(start + "<!-- compatibility: begin -->\n".length, end)).toBe(matrix);
    for (const name of BUILT_IN.names.filter((n) => !n.startsWith("cal-")))
      expect(matrix, name).toContain(`| ${name} |`);
    // And it is what the six committed runs give.
    const columns = PLACES.map((p) => ({
      label: p.label,
      results: resultsFromFile(readFileSync(new URL(`../results/sample/compat/${p.dir}.csv`, import.meta.url), "utf8")),
    }));
    expect(compatMarkdown(compatMatrix(columns))).toBe(matrix);
  });

  it("the cross-check figures it quotes are the committed cross-check's", () => {
    const output = readFileSync(new URL("../results/sample/crosscheck-epyc-default-1.txt", import.meta.url), "utf8");
    const section = readme.slice(readme.indexOf("## Cross-check"), readme.indexOf("The codecs (`protocols/`"));
    const text = section.replace(/\s+/g, " ");
    expect(text).toContain(
      "protobuf on the medium message: 1.67 in codec mode, 2.59 in the plain loop, 1.87 and 2.18 in the server",
    );
    expect(output).toMatch(/^medium +protobuf +1\.67 \[.*\] +2\.59 .* 1\.87 +2\.18 +yes \(rt, stream\)$/m);
    const rows = output.split("\n").filter((l) => /^(small|medium|large) /.test(l));
    const explained = rows.filter((l) => / !.*yes \(/.test(l)).length;
    expect(output).toContain(`the field explains ${explained} of them`);
    expect(text).toContain(`It explained ${explained} of the ${rows.filter((l) => / !/.test(l)).length}`);
    const agreeing = output.split("\n").filter((l) => /^(small|medium|large) /.test(l) && !l.includes(" !")).length;
    expect(section).toContain(`${agreeing} of 18 ratios agreed within 10%`);
  });

  it("the custom-binary figures it quotes are the committed runs'", () => {
    const sample = (name: string) => readFileSync(new URL(`../results/sample/${name}`, import.meta.url), "utf8");
    /** codec -> payload -> row, from a committed CSV's codec-mode rows. */
    const rows = (name: string) => {
      const [header, ...body] = parseCsv(sample(name));
      const col = (row: string[], c: string) => row[header!.indexOf(c)]!;
      const out = new Map<string, Map<string, (c: string) => string>>();
      for (const row of body.filter((r) => r.length > 1 && col(r, "mode") === "codec")) {
        if (!out.has(col(row, "codec"))) out.set(col(row, "codec"), new Map());
        out.get(col(row, "codec"))!.set(col(row, "payload"), (c) => col(row, c));
      }
      return out;
    };
    const bun = rows("xeon-codec-custom-binary.csv");
    const before = rows("browser-custom-binary-before-1.csv");
    const after = rows("browser-custom-binary-after-1.csv");
    const crosscheck = sample("crosscheck-xeon-codec-custom-binary.txt");
    const section = readme.slice(readme.indexOf("How close to the floor"), readme.indexOf("## Development"));
    const ratio = (r: Map<string, Map<string, (c: string) => string>>, payload: string) =>
      Number(r.get("custom-binary")!.get(payload)!("total_vs_json")).toFixed(2);
    for (const payload of ["small", "medium", "large"]) {
      const cb = bun.get("custom-binary")!.get(payload)!;
      const vsBytes = (
        Number(cb("total_median_ns")) / Number(bun.get("json-bytes")!.get(payload)!("total_median_ns"))
      ).toFixed(2);
      const plain = new RegExp(`^${payload} +custom-binary +\\S+ \\[.*\\] +(\\S+) `, "m").exec(crosscheck)![1]!;
      const line = section.split("\n").find((l) => l.startsWith(`| ${payload} |`))!;
      expect(line, payload).toBeDefined();
      const cells = line.split("|").map((c) => c.trim());
      expect(cells[2]).toMatch(new RegExp(`^${ratio(bun, payload)} `));
      expect(cells[3]).toBe(vsBytes);
      expect(cells[4]).toBe(plain);
      expect(cells[5]).toBe(`${ratio(before, payload)} / ${ratio(after, payload)}`);
    }
  });

  it("the CSV columns it names exist", () => {
    for (const col of ["total_vs_json", "round_msgs", "timer_resolution_ns", "csv_version"]) {
      expect(readme).toContain(col);
      expect(CSV_COLUMNS).toContain(col);
    }
  });

  it("its comparison of two sample runs is what bun run report A B finds in them", () => {
    const rows = (n: number) =>
      resultsFromFile(readFileSync(new URL(`../results/sample/epyc-default-${n}.csv`, import.meta.url), "utf8")).cases;
    const all = compareRuns(rows(1), rows(2));
    const small = all.filter((c) => c.mode === "codec" && c.payload === "small");
    const pcts = small.map((c) => Math.round((c.total.ratio - 1) * 100));
    const signed = (p: number) => `${p > 0 ? "+" : ""}${p}%`;
    const count = (verdict: string) => small.filter((c) => c.total.verdict === verdict).length;
    const text = readme.replace(/\s+/g, " ");
    expect(text).toContain(
      `put the small message's codec-mode times ${signed(Math.min(...pcts))} to ${signed(Math.max(...pcts))} apart (${count("slower")} of ${small.length} "slower", ${count("faster")} "faster")`,
    );
    const withRatio = all.filter((c) => c.codec !== "json" && c.a.ratios?.vsJson !== undefined);
    const moved = withRatio.filter((c) => c.vsJsonMoved === "faster" || c.vsJsonMoved === "slower");
    expect(text).toContain(`of the ${withRatio.length} ratios to JSON ${moved.length} moved beyond both intervals`);
  });

  it("its compression figures are the committed runs' (bytes counted on the socket, round trips)", () => {
    const load = (name: string) => {
      const [header, ...body] = parseCsv(readFileSync(new URL(`../results/sample/${name}`, import.meta.url), "utf8"));
      return (payload: string, codec: string, col: string): number =>
        Number(
          body.find((r) => r[header!.indexOf("payload")] === payload && r[header!.indexOf("codec")] === codec)![
            header!.indexOf(col)
          ],
        );
    };
    const plain = load("xeon-roundtrip-plain.csv");
    const deflate = load("xeon-roundtrip-deflate.csv");
    const text = readme.replace(/\s+/g, " ");
    const b = (payload: string, codec: string) => Math.round(deflate(payload, codec, "reply_wire_bytes"));
    const u = (payload: string, codec: string) => Math.round(plain(payload, codec, "reply_wire_bytes"));
    expect(text).toContain(
      `replies were ${b("large", "json")} B for large JSON (${u("large", "json")} B uncompressed), ${b("medium", "json")} B for medium (${u("medium", "json")} B)`,
    );
    expect(text).toContain(
      `(small JSON ${b("small", "json")} B against ${u("small", "json")} B, large custom-binary ${b("large", "custom-binary")} B against ${u("large", "custom-binary")} B)`,
    );
    const us = (f: typeof plain, payload: string) => (f(payload, "json", "total_mean_ns") / 1000).toFixed(1);
    expect(text).toContain(
      `(JSON ${us(plain, "small")} to ${us(deflate, "small")} µs, ${us(plain, "medium")} to ${us(deflate, "medium")} µs)`,
    );
    const ratios = ["small", "medium"].flatMap((p) =>
      ["json", "custom-binary", "msgpackr"].map((c) => deflate(p, c, "total_mean_ns") / plain(p, c, "total_mean_ns")),
    );
    expect(text).toContain(`took ${Math.min(...ratios).toFixed(1)}-${Math.max(...ratios).toFixed(1)}x as long`);
    for (const p of ["small", "medium", "large"])
      for (const c of ["json", "custom-binary", "msgpackr"]) expect(deflate(p, c, "wire_compressed_share")).toBe(0);
  });

  it("its message-set figures are the committed run's: bytes, ratio to json in process, share of raw in stream mode, compressed sizes", () => {
    const [header, ...body] = parseCsv(
      readFileSync(new URL("../results/sample/xeon-message-sets.csv", import.meta.url), "utf8"),
    );
    const row = (mode: string, payload: string, codec: string) =>
      body.find(
        (r) =>
          r[header!.indexOf("mode")] === mode &&
          r[header!.indexOf("payload")] === payload &&
          r[header!.indexOf("codec")] === codec,
      )!;
    const get = (r: string[], col: string): number => Number(r[header!.indexOf(col)]);
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
      const codecRow = row("codec", payload!, codec!);
      expect(bytes, line).toBe(Math.round(get(codecRow, "bytes")).toLocaleString("en-US"));
      expect(inProcess!.split(" ")[0], line).toBe(get(codecRow, "total_vs_json").toFixed(2));
      // The table's paired ratio (median over rounds) and the CSV's ratio of means differ in the last digit at most.
      expect(
        Math.abs(Number(stream!.split(" ")[0]) - get(row("stream", payload!, codec!), "msgs_per_s_vs_raw")),
        line,
      ).toBeLessThanOrEqual(0.011);
      expect(deflated, line).toBe(Math.round(get(codecRow, "deflate_context_bytes")).toLocaleString("en-US"));
    }
  });
});
