/**
 * docs/your-messages-and-codecs.md's figures: the compatibility matrix (results/sample/compatibility.md,
 * rebuilt from its eight places' runs: Bun's and Chromium's the every-codec runs the samples' list
 * gives `compat --from`, the other six under results/sample/compat/), what those runs were, and what
 * the matrix shows.
 */

import { type CompatMatrix, compatMarkdown, compatMatrix } from "../../report/compat-table.ts";
import { CALIBRATION_CODEC_NAMES } from "../../../protocols/calibration.ts";
import { BUILT_IN } from "../../../protocols/registry.ts";
import { claim, type PageFigures } from "./figure-spec.ts";
import { hi, list, lo, range, whole, word } from "./prose.ts";
import { casesIn, compatFiles, sampleResults, sampleText } from "./sample-files.ts";

let built: CompatMatrix | undefined;
/** The matrix as `bun run compat` makes it from the eight places' runs. */
const matrix = (): CompatMatrix =>
  (built ??= compatMatrix(compatFiles().map((f) => ({ label: f.place.label, results: sampleResults(f.file) }))));
/** A codec's time against JSON's in a place, unrounded; undefined where it fails. */
const cell = (codec: string, label: string): number | undefined => {
  const m = matrix();
  return m.cells[m.codecs.indexOf(codec)]![m.columns.indexOf(label)]!.ratio;
};
/** A cell as the matrix writes it, to one or two decimals. */
const x1 = (v: number | undefined): string => (v === undefined ? "fails" : `${v.toFixed(1)}x`);
const x2 = (v: number | undefined): string => (v === undefined ? "fails" : `${v.toFixed(2)}x`);

/** The places whose columns come from the every-codec runs (`compat --from`), and their settings. */
const given = () => compatFiles().filter((f) => f.given);
const givenSettings = () => given().map((f) => sampleResults(f.file).settings);

/** The cases `compat` ran itself (the other six places), each with its place. */
const ownRows = () =>
  compatFiles()
    .filter((f) => !f.given)
    .flatMap((f) =>
      sampleResults(f.file)
        .cases.filter((c) => c.codec !== "raw")
        .map((c) => ({ place: f.place, payload: c.payload, iterations: c.iterations, runs: c.runs })),
    );
const isNode = (r: ReturnType<typeof ownRows>[number]): boolean => r.place.args.includes("node");
/** The messages per case of the places but Node's; one figure, or throws. */
const ownMessages = (): number => {
  const messages = [
    ...new Set(
      ownRows()
        .filter((r) => !isNode(r))
        .map((r) => r.iterations),
    ),
  ];
  if (messages.length !== 1)
    throw new Error(`the compat runs but Node's ran ${list(messages.map(String))} messages a case`);
  return messages[0]!;
};
/** The runs most cases timed: what the tool asked for. */
const askedRuns = (): number => {
  const counts = new Map<number, number>();
  for (const r of ownRows()) counts.set(r.runs, (counts.get(r.runs) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1])[0]![0];
};

/** Per codec that runs beside a strict policy and under it, how far the strict column is from the one beside it, in %. */
const strictMoves = (codec: string) =>
  (["Chromium", "Firefox"] as const).flatMap((browser) => {
    const [beside, strict] = [cell(codec, browser), cell(codec, `${browser}, strict CSP`)];
    if (beside === undefined || strict === undefined) return [];
    return [{ codec, browser, beside, strict, pct: Math.round(Math.abs(strict / beside - 1) * 100) }];
  });
/** msgpackr and cbor-x fall back to their interpreters under the policy; the page gives them apart. */
const FALLBACKS = ["msgpackr", "cbor"];
const most = (v: readonly { pct: number }[]): number => hi(v.map((m) => m.pct));

const recordsByPayload = () =>
  casesIn(given().find((f) => f.place.dir === "bun")!.file, { mode: "codec", codec: "msgpackr-records" }).map(
    (c) => c.ratios!.vsJson!.value,
  );
/** The payloads each place's run covered. */
const payloadCounts = () => compatFiles().map((f) => new Set(sampleResults(f.file).cases.map((c) => c.payload)).size);

export const YOUR_MESSAGES_AND_CODECS: PageFigures = {
  page: "docs/your-messages-and-codecs.md",
  figures: {
    payloads: () => {
      const counts = payloadCounts();
      return claim(new Set(counts).size === 1, word(counts[0]!), "every place of the matrix run on the same payloads");
    },
    "every-codec-messages": () => {
      const sizes = givenSettings().map((s) => s.iterations.codec);
      return claim(
        given()
          .map((f) => f.place.dir)
          .sort()
          .join() === "bun,chromium" && new Set(sizes).size === 1,
        whole(sizes[0]!),
        "the Bun and Chromium columns as the every-codec runs, of one size",
      );
    },
    "compat-flags": () => `\`--iterations ${ownMessages()} --runs ${askedRuns()}\``,
    "node-messages": () => {
      const node = [
        ...new Set(
          ownRows()
            .filter(isNode)
            .map((r) => r.iterations),
        ),
      ];
      return claim(
        node.length === 1 && node[0] === ownMessages() / 10,
        whole(ownMessages() / 10),
        "Node's round trips taking a tenth of the other places' messages",
      );
    },
    compatibility: () => {
      const table = compatMarkdown(matrix());
      const codecs = BUILT_IN.names.filter((n) => !CALIBRATION_CODEC_NAMES.includes(n));
      return claim(
        table === sampleText("compatibility.md") && codecs.every((n) => matrix().codecs.includes(n)),
        table.replace(/\n+$/, ""),
        "results/sample/compatibility.md as the eight places' runs give it, with a row for every codec",
      );
    },
    "fallbacks-moved": () => `${most(FALLBACKS.flatMap(strictMoves))}%`,
    "others-moved": () => {
      const others = matrix()
        .codecs.filter((c) => c !== "json" && !FALLBACKS.includes(c))
        .flatMap(strictMoves)
        .sort((a, b) => b.pct - a.pct);
      // The codec that moved furthest is named when it moved more than 1.5x as far as any other;
      // otherwise the largest move covers them all.
      const [furthest, ...rest] = others;
      if (furthest !== undefined && rest.length > 0 && furthest.pct > 1.5 * most(rest))
        return `${most(rest)}% or less but ${furthest.codec} in ${furthest.browser}, ${x2(furthest.beside)} to ${x2(furthest.strict)}`;
      return `${most(others)}% or less`;
    },
    "runs-everywhere": () => {
      const m = matrix();
      const plain = m.columns.filter((c) => !c.includes("strict"));
      return claim(
        ["Bun", "Node", "Chromium", "Firefox"].every((e) => plain.some((c) => c.split(/[ ,]/)[0] === e)) &&
          m.codecs.every((codec) => plain.every((column) => (cell(codec, column) ?? 0) > 0)),
        "Every codec runs in Bun, Node, Chromium and Firefox",
        "every codec running in every column of Bun, Node, Chromium and Firefox without a strict policy",
      );
    },
    "bson-chromium": () => x1(cell("bson", "Chromium")),
    "bson-firefox": () => x1(cell("bson", "Firefox")),
    flatbuffers: () => `${x1(cell("flatbuffers", "Chromium"))} and ${x1(cell("flatbuffers", "Firefox"))}`,
    cbor: () => `${x1(cell("cbor", "Chromium"))} and ${x1(cell("cbor", "Firefox"))}`,
    "records-bun": () => x2(cell("msgpackr-records", "Bun")),
    "records-payloads": () => word(recordsByPayload().length),
    "records-range": () => `${x2(lo(recordsByPayload()))} to ${x2(hi(recordsByPayload()))}`,
    "records-no-addons": () => x2(cell("msgpackr-records", "Bun, no add-ons")),
    "records-dearer": () => {
      const bun = cell("msgpackr-records", "Bun")!;
      return claim(
        matrix()
          .columns.filter((c) => !c.startsWith("Bun"))
          .every((c) => (cell("msgpackr-records", c) ?? 0) > bun),
        "is dearer in Node, Chromium and Firefox",
        "msgpackr-records dearer than in Bun in every place but Bun's two columns",
      );
    },
    "avro-bun": () => x2(cell("avro", "Bun")),
    "avro-chromium": () => x1(cell("avro", "Chromium")),
    "avro-firefox": () => x1(cell("avro", "Firefox")),
    "every-codec-runs": () =>
      range(
        givenSettings().map((s) => s.runs.codec!),
        String,
      ),
    "every-codec-each": () => whole(givenSettings()[0]!.iterations.codec!),
    "other-runs": () => String(askedRuns()),
    "other-messages": () => whole(ownMessages()),
    "more-runs": () => {
      // More runs than asked: a payload whose ratios went on for --precision, in fresh processes; per
      // place, each such payload with its runs.
      const asked = askedRuns();
      const more = ownRows().filter((r) => r.runs > asked);
      if (more.length === 0) return "";
      const timed = [...new Set(more.map((r) => r.place.label))].map((label) => {
        const mine = more.filter((r) => r.place.label === label);
        const payloads = [...new Set(mine.map((r) => r.payload))].map((p) => {
          const runs = [...new Set(mine.filter((r) => r.payload === p).map((r) => r.runs))].sort((a, b) => a - b);
          return `the ${p} message ${range(runs, String)} runs`;
        });
        return `${label.replace(/, no add-ons$/, " without add-ons")} timed ${list(payloads)}`;
      });
      return ` (${list(timed)}, those past ${asked} in fresh processes for \`--precision\`)`;
    },
  },
};
