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
const cell = (codec: string, label: string): number | undefined =>
  matrix().cells[matrix().codecs.indexOf(codec)]![matrix().columns.indexOf(label)]!.ratio;
/** A cell as the matrix writes it, to so many decimals. */
const x = (v: number | undefined, digits = 1): string => (v === undefined ? "fails" : `${v.toFixed(digits)}x`);
/** The one value some figures share; throws when they differ. */
function only<T>(values: readonly T[]): T {
  if (new Set(values).size !== 1) throw new Error(`the runs differ: ${[...new Set(values)].join(", ")}`);
  return values[0]!;
}
/** The places whose columns come from the every-codec runs (`compat --from`). */
const given = () => compatFiles().filter((f) => f.given);
/** The settings of the runs `compat` made itself: Node's, or the other places'. */
const own = (node: boolean) =>
  compatFiles()
    .filter((f) => !f.given && f.place.args.includes("node") === node)
    .map((f) => sampleResults(f.file).settings);
const ownMessages = (): number => only(own(false).map((s) => s.iterations.codec!));
/** How far the strict-policy column moved from the one beside it, at most, over some codecs, in %. */
const strictMoved = (codecs: readonly string[]): string =>
  `${hi(
    codecs.flatMap((codec) =>
      ["Chromium", "Firefox"].flatMap((b) => {
        const [beside, strict] = [cell(codec, b), cell(codec, `${b}, strict CSP`)];
        return beside && strict ? [Math.round(Math.abs(strict / beside - 1) * 100)] : [];
      }),
    ),
  )}%`;
/** msgpackr and cbor-x fall back to their interpreters under the policy; the page gives them apart. */
const FALLBACKS = ["msgpackr", "cbor"];
const browsers = (codec: string, name: string): string =>
  `${name} ${x(cell(codec, "Chromium"))} and ${x(cell(codec, "Firefox"))}`;

export const YOUR_MESSAGES_AND_CODECS: PageFigures = {
  page: "docs/your-messages-and-codecs.md",
  figures: {
    payloads: () => word(only(compatFiles().map((f) => new Set(casesIn(f.file).map((c) => c.payload)).size))),
    "every-codec-messages": () => whole(only(given().map((f) => sampleResults(f.file).settings.iterations.codec))),
    // The fewest runs a place's settings record: what compat asked for (`--precision` only adds runs).
    "compat-flags": () => `\`--iterations ${ownMessages()} --runs ${lo(own(false).map((s) => s.runs.codec!))}\``,
    "node-messages": () => {
      const node = only(own(true).map((s) => s.iterations.roundtrip!));
      return claim(
        node === ownMessages() / 10,
        whole(node),
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
    "fallbacks-moved": () => strictMoved(FALLBACKS),
    "others-moved": () => strictMoved(matrix().codecs.filter((c) => c !== "json" && !FALLBACKS.includes(c))),
    "runs-everywhere": () => {
      const plain = matrix().columns.filter((c) => !c.includes("strict"));
      return claim(
        ["Bun", "Node", "Chromium", "Firefox"].every((e) => plain.some((c) => c.startsWith(e))) &&
          matrix().codecs.every((codec) => plain.every((column) => (cell(codec, column) ?? 0) > 0)),
        "Every codec runs in Bun, Node, Chromium and Firefox",
        "every codec running in every column of Bun, Node, Chromium and Firefox without a strict policy",
      );
    },
    engines: () =>
      `${browsers("bson", "js-bson")}, ${browsers("flatbuffers", "FlatBuffers")}, ${browsers("cbor", "cbor-x")}, ${browsers("avro", "Avro")} (${x(cell("avro", "Bun"), 2)} in Bun)`,
    records: () => {
      const bun = cell("msgpackr-records", "Bun")!;
      const each = casesIn(compatFiles()[0]!.file, { mode: "codec", codec: "msgpackr-records" }).map(
        (c) => c.ratios!.vsJson!.value,
      );
      const others = matrix().columns.filter((c) => !c.startsWith("Bun"));
      const cheaper = others.filter((c) => (cell("msgpackr-records", c) ?? 0) <= bun);
      const where =
        cheaper.length === 0
          ? "is dearer in Node, Chromium and Firefox"
          : `is dearer in every other place but ${list(cheaper.map((c) => `${c} (${x(cell("msgpackr-records", c), 2)})`))}`;
      return `${x(bun, 2)} JSON's time in Bun (${x(lo(each), 2)} to ${x(hi(each), 2)} payload by payload; ${x(cell("msgpackr-records", "Bun, no add-ons"), 2)} without add-ons) and ${claim(cheaper.length < others.length / 2, where, "msgpackr-records dearer than in Bun in most places but Bun's two columns")}`;
    },
    "every-codec-runs": () =>
      range(
        given().map((f) => sampleResults(f.file).settings.runs.codec!),
        String,
      ),
  },
};
