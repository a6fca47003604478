/**
 * docs/schema-evolution.md's figures: the committed evolve runs on the built-in payloads
 * (bun-evolve) and on a whiteboard's own messages (bun-evolve-whiteboard), their tables and
 * verdict lines as the terminal prints them, and counts of their outcomes in the prose.
 */

import type { EvolveRow } from "../../../client/harness/results.ts";
import { COMPILED_CODECS } from "../../../protocols/compiled-versions.ts";
import { evolveVerdictLines, OUTCOME_CELLS } from "../../report/evolve-table.ts";
import { SAMPLES } from "../sample-list.ts";
import { claim, type PageFigures } from "./figure-spec.ts";
import { machineOf, sampleResults, tableSection } from "./sample-files.ts";
import { codeBlock, list, mdTable } from "./prose.ts";

const FILE = "bun-evolve.json.gz";
const WHITEBOARD = "bun-evolve-whiteboard.json.gz";

const rowsOf = (file: string): EvolveRow[] => {
  const rows = sampleResults(file).evolve;
  if (!rows || rows.length === 0) throw new Error(`${file} has no evolve rows`);
  return rows;
};
const command = (name: string): string => `\`${SAMPLES.find((s) => s.name === name)!.command}\``;
/** How many rows of a codec (every payload, change and direction) came out so. */
const count = (file: string, codec: string, outcome: EvolveRow["outcome"]): string =>
  String(rowsOf(file).filter((r) => r.codec === codec && r.outcome === outcome).length);
const ran = (file: string, codec: string): string =>
  String(
    rowsOf(file).filter((r) => r.codec === codec && r.outcome !== "not-run" && r.outcome !== "not-applicable").length,
  );

/** The codecs whose code a compiler makes from each version's schema. */
const COMPILED = Object.keys(COMPILED_CODECS);
/** The codecs with a schema, in the order the widened table lists them. */
const SCHEMA_CODECS = ["custom-binary", "protobuf", "pbf", "protobuf-es", "avro", "bebop", "flatbuffers", "capnp"];

/** A codec's outcomes of one change and direction over the payloads, as `6 WRONG` or `5 WRONG, 1 ERROR`. */
function outcomesOf(
  file: string,
  codec: string,
  change: EvolveRow["change"],
  direction: EvolveRow["direction"],
): string {
  const counts = new Map<string, number>();
  for (const r of rowsOf(file))
    if (r.codec === codec && r.change === change && r.direction === direction && r.outcome !== "not-applicable")
      counts.set(OUTCOME_CELLS[r.outcome], (counts.get(OUTCOME_CELLS[r.outcome]) ?? 0) + 1);
  return [...counts].map(([o, n]) => `${n} ${o}`).join(", ") || "-";
}

export const SCHEMA_EVOLUTION: PageFigures = {
  page: "docs/schema-evolution.md",
  figures: {
    command: () => command("bun-evolve"),
    "whiteboard-command": () => command("bun-evolve-whiteboard"),
    machine: () => {
      const m = machineOf([FILE]);
      return `${m.cpu}, ${m.cores} cores`;
    },
    section: () => codeBlock(tableSection(FILE, "evolve mode")),
    verdict: () => codeBlock(evolveVerdictLines(rowsOf(FILE))),
    "whiteboard-section": () => codeBlock(tableSection(WHITEBOARD, "evolve mode")),
    "whiteboard-verdict": () => codeBlock(evolveVerdictLines(rowsOf(WHITEBOARD))),
    "custom-binary-errors": () => count(FILE, "custom-binary", "error"),
    "custom-binary-wrong": () => count(FILE, "custom-binary", "silently-wrong"),
    "custom-binary-ran": () => ran(FILE, "custom-binary"),
    // An enum member appended after the old values: an old reader refuses its index, a new one reads the old values as they were.
    "custom-binary-enum": () => {
      const enums = rowsOf(FILE).filter(
        (r) => r.codec === "custom-binary" && r.change === "enum-member-added" && r.outcome !== "not-applicable",
      );
      return claim(
        enums.length > 0 &&
          enums.every((r) => (r.direction === "old-reader" ? r.outcome === "error" : r.outcome === "exact")),
        "An enum member appended after the old values is refused by an old reader (its index is past the old range) and read exactly by a new one.",
        "custom-binary's enum rows refused by old readers and exact for new ones",
      );
    },
    // The compiled codecs outside number-widened: each change and direction as their formats promise.
    "compiled-promised": () => {
      const promised: Partial<Record<EvolveRow["change"], Record<EvolveRow["direction"], EvolveRow["outcome"]>>> = {
        "field-added": { "old-reader": "extra-ignored", "new-reader": "missing-defaulted" },
        "field-removed": { "old-reader": "missing-defaulted", "new-reader": "extra-ignored" },
        "field-renamed": { "old-reader": "exact", "new-reader": "exact" },
        "enum-member-added": { "old-reader": "exact", "new-reader": "exact" },
        "optional-left-out": { "old-reader": "missing-defaulted", "new-reader": "exact" },
      };
      const rows = rowsOf(FILE).filter((r) => COMPILED.includes(r.codec) && r.change !== "number-widened");
      const expected = rowsOf(FILE).filter((r) => r.codec === "json" && r.change !== "number-widened").length;
      return claim(
        rows.length === COMPILED.length * expected &&
          rows.every((r) => r.outcome === "not-applicable" || promised[r.change]?.[r.direction] === r.outcome),
        `outside \`number-widened\`, every row of ${list(COMPILED)} reads as its format promises: an added field is dropped by an old reader and read as absent or its default by a new one; a removed field the other way round; a renamed field keeps its number, index, id or ordinal and reads exactly; a new enum member (a string in every schema) reads exactly; a field the new writer leaves out is defaulted for an old reader, and a new reader reads the old writer's values exactly.`,
        "the compiled codecs' rows outside number-widened: added dropped and defaulted, removed the other way, renamed and enum exact, optional defaulted and exact",
      );
    },
    widened: () =>
      mdTable(
        ["codec", "old reader (of fractions)", "new reader (of integers)"],
        SCHEMA_CODECS.map((c) => [
          c,
          outcomesOf(FILE, c, "number-widened", "old-reader"),
          outcomesOf(FILE, c, "number-widened", "new-reader"),
        ]),
      ),
    // pbf's compiled code reads an absent optional field as its default, in every version: named in the rows' detail.
    "pbf-presence": () => {
      const rows = rowsOf(FILE).filter(
        (r) => r.codec === "pbf" && r.detail.includes("as the writer's own version reads it"),
      );
      return claim(
        rows.length > 0 && rows.every((r) => r.payload === "chat"),
        String(rows.length),
        "pbf's rows that read a field as its own version does, all on chat",
      );
    },
    // On the whiteboard's strokes (a list of [x, y] tuples), the compiled codecs ran too.
    "whiteboard-compiled": () => {
      const rows = rowsOf(WHITEBOARD).filter((r) => COMPILED.includes(r.codec));
      return claim(
        rows.length > 0 && rows.every((r) => r.outcome !== "not-run"),
        `${list(COMPILED)} ran on all three of the whiteboard's message files, the strokes' lists of [x, y] tuples included (a struct of two places in each schema).`,
        "the compiled codecs ran on every whiteboard payload",
      );
    },
    "protobuf-wrong": () => {
      const wrong = rowsOf(FILE).filter((r) => r.codec === "protobuf" && r.outcome === "silently-wrong");
      return claim(
        wrong.length > 0 && wrong.every((r) => r.change === "number-widened"),
        String(wrong.length),
        "protobuf's wrong rows all number-widened",
      );
    },
  },
};
