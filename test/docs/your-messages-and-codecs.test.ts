/**
 * docs/your-messages-and-codecs.md quotes the committed compatibility matrix
 * (held as a whole to what the committed runs give) and, around it, what its eight
 * places' runs were and what the matrix shows: each of those figures is
 * worked out here from the same files, the matrix's cells unrounded.
 */
import { describe, expect, it } from "vitest";
import { compatMarkdown, compatMatrix } from "../../bench/report/compat-table.ts";
import { BUILT_IN } from "../../protocols/registry.ts";
import { resultsFromFile } from "../../bench/report/results-file.ts";
import { compatFiles, csvSample, doc, flat, num, sample } from "../helpers/samples.ts";
import { list, sayer, whole } from "../helpers/prose.ts";

const page = doc("your-messages-and-codecs.md");
const text = flat(page);
/** The page says this, word for word (its lines joined); a failure names the fragment it should hold, with the file's figures in it. */
const says = sayer(text, "docs/your-messages-and-codecs.md");

/** Each place's results file: Bun's and Chromium's from the every-codec runs the samples' list gives, the others from compat/. */
const FILES = compatFiles();

const matrix = compatMatrix(FILES.map((f) => ({ label: f.place.label, results: resultsFromFile(sample(f.file)) })));
/** A codec's time against JSON's in a place, unrounded; undefined where it fails. */
const cell = (codec: string, label: string): number | undefined =>
  matrix.cells[matrix.codecs.indexOf(codec)]![matrix.columns.indexOf(label)]!.ratio;
/** A cell as the matrix writes it, to one or two decimals; "fails" where the codec does not run. */
const x1 = (v: number | undefined) => (v === undefined ? "fails" : `${v.toFixed(1)}x`);
const x2 = (v: number | undefined) => (v === undefined ? "fails" : `${v.toFixed(2)}x`);

describe("docs/your-messages-and-codecs.md", () => {
  it("the Bun and Chromium columns are every-codec runs of the stated size; the other places ran the messages it states", () => {
    const given = FILES.filter((f) => f.given);
    expect(given.map((f) => f.place.dir).sort()).toEqual(["bun", "chromium"]);
    const sizes = given.map((f) => resultsFromFile(sample(f.file)).settings);
    for (const s of sizes) expect(s.iterations.codec).toEqual(sizes[0]!.iterations.codec);
    const iterations = sizes[0]!.iterations.codec!;
    // The runs each asked for; "3-4" when the two differ.
    const givenRuns = sizes.map((s) => s.runs.codec!);
    const runs =
      Math.min(...givenRuns) === Math.max(...givenRuns)
        ? `${givenRuns[0]}`
        : `${Math.min(...givenRuns)}-${Math.max(...givenRuns)}`;
    says(`the every-codec runs of the figures block (${whole(iterations)} messages per codec and payload)`);
    says(`(${runs} runs of ${whole(iterations)} messages per codec and payload, spread over several processes)`);
    // The other six: per payload, the messages and the runs each timed.
    const rows = FILES.filter((f) => !f.given).flatMap((f) =>
      csvSample(f.file)
        .rows.filter((r) => r("codec") !== "raw")
        .map((r) => ({
          place: f.place,
          payload: r("payload"),
          iterations: num(r, "iterations"),
          runs: num(r, "runs"),
        })),
    );
    const node = rows.filter((r) => r.place.args.includes("--client") && r.place.args.includes("node"));
    const others = rows.filter((r) => !node.includes(r));
    const messages = [...new Set(others.map((r) => r.iterations))];
    expect(messages, "the messages per case of the places but Node's").toHaveLength(1);
    expect([...new Set(node.map((r) => r.iterations))], "Node's messages per case").toEqual([messages[0]! / 10]);
    /** The runs most cases timed: what the tool asked for. */
    const counts = new Map<number, number>();
    for (const r of rows) counts.set(r.runs, (counts.get(r.runs) ?? 0) + 1);
    const asked = [...counts].sort((a, b) => b[1] - a[1])[0]![0];
    says(
      `\`compat\` with its defaults, \`--iterations ${messages[0]} --runs ${asked}\` (Node's round trips take a tenth of the messages, ${whole(messages[0]! / 10)};`,
    );
    // More runs than asked: a payload whose ratios went on for --precision, in fresh processes.
    // Per place, each such payload with its runs ("Bun without add-ons timed the small message 11 runs").
    const more = rows.filter((r) => r.runs > asked);
    const timed = [...new Set(more.map((r) => r.place.label))].map((label) => {
      const mine = more.filter((r) => r.place.label === label);
      const payloads = [...new Set(mine.map((r) => r.payload))].map((p) => {
        const runs = [...new Set(mine.filter((r) => r.payload === p).map((r) => r.runs))].sort((a, b) => a - b);
        return `the ${p} message ${runs.length === 1 ? runs[0] : `${runs[0]}-${runs.at(-1)}`} runs`;
      });
      return `${label.replace(/, no add-ons$/, " without add-ons")} timed ${list(payloads)}`;
    });
    says(
      `where the other places run ${asked} of ${whole(messages[0]!)} in one process${
        timed.length === 0 ? ":" : ` (${list(timed)}, those past ${asked} in fresh processes for \`--precision\`):`
      }`,
    );
  });

  it("under the strict policy the codecs moved against the column beside it by the percentages it states", () => {
    /** Per codec that runs under both, how far the strict column is from the one beside it, in %. */
    const moved = (codec: string) =>
      (["Chromium", "Firefox"] as const).flatMap((browser) => {
        const [beside, strict] = [cell(codec, browser), cell(codec, `${browser}, strict CSP`)];
        if (beside === undefined || strict === undefined) return [];
        return [{ browser, beside, strict, pct: Math.round(Math.abs(strict / beside - 1) * 100) }];
      });
    // msgpackr and cbor-x fall back to their interpreters under the policy; the page gives them apart.
    const fallbacks = ["msgpackr", "cbor"].flatMap(moved);
    const others = matrix.codecs
      .filter((c) => !["json", "msgpackr", "cbor"].includes(c))
      .flatMap((c) => moved(c).map((m) => ({ codec: c, ...m })))
      .sort((a, b) => b.pct - a.pct);
    const most = (v: { pct: number }[]) => Math.max(...v.map((m) => m.pct));
    // The page names the codec that moved furthest when it moved more than 1.5x as far as any other
    // ("but custom-binary in Firefox, 0.65x to 0.80x"); otherwise the largest move covers them all.
    const [furthest, ...rest] = others;
    const apart = furthest !== undefined && rest.length > 0 && furthest.pct > 1.5 * most(rest);
    says(
      `(msgpackr's and cbor-x's moved by ${most(fallbacks)}% or less against the column beside it, every other codec by ${
        apart
          ? `${most(rest)}% or less but ${furthest.codec} in ${furthest.browser}, ${x2(furthest.beside)} to ${x2(furthest.strict)}`
          : `${most(others)}% or less`
      };`,
    );
  });

  it("every codec runs in Bun, Node, Chromium and Firefox, as the matrix's columns without a strict policy say", () => {
    const plain = matrix.columns.filter((c) => !c.includes("strict"));
    expect(plain.map((c) => c.split(/[ ,]/)[0])).toEqual(
      expect.arrayContaining(["Bun", "Node", "Chromium", "Firefox"]),
    );
    for (const codec of matrix.codecs)
      for (const column of plain) expect(cell(codec, column), `${codec} in ${column}`).toBeGreaterThan(0);
    says("**Every codec runs in Bun, Node, Chromium and Firefox**");
  });

  it("what it says of the engines' rankings is the matrix's", () => {
    const pair = (codec: string) => `${x1(cell(codec, "Chromium"))} and ${x1(cell(codec, "Firefox"))}`;
    says(
      `js-bson costs ${x1(cell("bson", "Chromium"))} JSON's time in Chromium and ${x1(cell("bson", "Firefox"))} in Firefox, FlatBuffers ${pair("flatbuffers")}, cbor-x ${pair("cbor")};`,
    );
    const bun = cell("msgpackr-records", "Bun")!;
    const byPayload = csvSample(FILES.find((f) => f.place.dir === "bun")!.file)
      .where({ mode: "codec", codec: "msgpackr-records" })
      .map((r) => num(r, "total_vs_json"));
    expect(byPayload).toHaveLength(6);
    const noAddons = cell("msgpackr-records", "Bun, no add-ons")!;
    // Dearer in every place but Bun's two columns.
    const elsewhere = matrix.columns.filter((c) => !c.startsWith("Bun"));
    for (const column of elsewhere) expect(cell("msgpackr-records", column), column).toBeGreaterThan(bun);
    expect(noAddons).toBeLessThan(bun);
    says(
      `msgpackr with records comes to ${x2(bun)} JSON's time in Bun over the six payloads (${x2(Math.min(...byPayload))} to ${x2(Math.max(...byPayload))} payload by payload; ${x2(noAddons)} without add-ons) and is dearer in Node, Chromium and Firefox,`,
    );
    says(
      `and Avro, ${x2(cell("avro", "Bun"))} in Bun, costs ${x1(cell("avro", "Chromium"))} in Chromium and ${x1(cell("avro", "Firefox"))} in Firefox.`,
    );
  });

  it("it quotes the committed compatibility matrix (bun run compat) as it is", () => {
    const matrix = sample("compatibility.md");
    const start = page.indexOf("<!-- compatibility: begin -->\n");
    const end = page.indexOf("<!-- compatibility: end -->");
    expect(start).toBeGreaterThan(0);
    expect(page.slice(start + "<!-- compatibility: begin -->\n".length, end)).toBe(matrix);
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
});
