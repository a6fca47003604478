/**
 * docs/schema-evolution.md's figures: the committed evolve runs on the built-in payloads
 * (bun-evolve) and on a whiteboard's own messages (bun-evolve-whiteboard), their tables and
 * verdict lines as the terminal prints them, and counts of their outcomes in the prose.
 */

import type { EvolveRow } from "../../../client/harness/results.ts";
import { evolveVerdictLines } from "../../report/evolve-table.ts";
import { SAMPLES } from "../sample-list.ts";
import { claim, type PageFigures } from "./figure-spec.ts";
import { machineOf, sampleResults, tableSection } from "./sample-files.ts";
import { codeBlock } from "./prose.ts";

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
