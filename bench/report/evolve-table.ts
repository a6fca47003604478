/**
 * Evolve mode's rows (client/harness/evolve.ts) as the table, report.html and the page print
 * them: per payload, each codec's outcome for each change, an old reader of the new writer's
 * messages and a new reader of the old writer's side by side; the rows whose value came back
 * silently wrong, each with what was written and what was read; and the verdict's line naming the
 * codecs that read every change both ways without an error or a wrong value.
 */

import { EVOLVE_CHANGES } from "../../client/harness/evolve.ts";
import type { EvolveChange, EvolveOutcome, EvolveRow } from "../../client/harness/results.ts";
import { orderPayloads } from "../../protocols/messages.ts";
import { pad, TERMINAL_WIDTH, wrapLine } from "./format.ts";

/** Each outcome as a table cell: short, and the ones that lose data loud. */
export const OUTCOME_CELLS: Readonly<Record<EvolveOutcome, string>> = {
  exact: "exact",
  "extra-ignored": "drop",
  "missing-defaulted": "dflt",
  error: "ERROR",
  "silently-wrong": "WRONG",
  "not-run": "-",
  "not-applicable": "n/a",
};

/** Each change's column title. */
const CHANGE_TITLES: Readonly<Record<EvolveChange, string>> = {
  "field-added": "added",
  "field-removed": "removed",
  "field-renamed": "renamed",
  "number-widened": "widened",
  "enum-member-added": "enum+1",
  "optional-left-out": "optional",
};

const CODEC_WIDTH = 17;
const CELL = 6;

/** One payload's table: a codec per line, a pair of cells per change (old reader, new reader). */
function payloadTable(rows: readonly EvolveRow[], payload: string): string[] {
  const of = rows.filter((r) => r.payload === payload);
  const codecs = [...new Set(of.map((r) => r.codec))];
  const head = pad("codec", CODEC_WIDTH) + EVOLVE_CHANGES.map((c) => pad(CHANGE_TITLES[c], CELL * 2, true)).join("");
  const sub = pad("", CODEC_WIDTH) + EVOLVE_CHANGES.map(() => pad("old", CELL, true) + pad("new", CELL, true)).join("");
  const lines = [payload, head, sub, "-".repeat(head.length)];
  for (const codec of codecs) {
    const cell = (change: EvolveChange, direction: EvolveRow["direction"]): string => {
      const r = of.find((x) => x.codec === codec && x.change === change && x.direction === direction);
      return pad(r ? OUTCOME_CELLS[r.outcome] : "", CELL, true);
    };
    lines.push(
      pad(codec, CODEC_WIDTH) + EVOLVE_CHANGES.map((c) => cell(c, "old-reader") + cell(c, "new-reader")).join(""),
    );
  }
  return lines;
}

/** The evolve section: what the columns mean, each payload's table, then every row that came back silently wrong. */
export function evolveSection(rows: readonly EvolveRow[] | undefined): string[] {
  if (!rows || rows.length === 0) return [];
  const messages = Math.max(0, ...rows.map((r) => r.messages));
  const lines = [
    "",
    "== evolve mode: what a reader on one version of the messages reads from a writer on another",
    `   each change made to the payload's own fields, ${messages.toLocaleString("en-US")} messages each way, each encoded by`,
    "   the writer and decoded by the reader, each codec its own way (docs/schema-evolution.md)",
    "   old: an old reader of the new writer's messages; new: a new reader of the old writer's",
    "   exact: read as written; drop: a field the reader does not know dropped; dflt: a field not",
    "   written read as absent or a default; ERROR: refused; WRONG: a value the writer did not write,",
    "   with no error; -: not run (each row says why: no schema for the messages, no compiler here,",
    "   left out of the run); n/a: the payload has no field the change needs",
  ];
  for (const payload of orderPayloads(rows.map((r) => r.payload))) lines.push("", ...payloadTable(rows, payload));
  const wrong = rows.filter((r) => r.outcome === "silently-wrong");
  if (wrong.length > 0) {
    lines.push("", "Silently wrong (read without an error, a value the writer did not write):");
    for (const r of wrong)
      lines.push(
        ...wrapLine(`  ${r.payload} ${r.codec}, ${r.change}, ${r.direction}: ${r.detail}`, TERMINAL_WIDTH, "      "),
      );
  }
  // A field the writer left out read as its default by the writer's own version too (pbf: no proto3 optional).
  const asOwn = new Map<string, { fields: Set<string>; rows: number }>();
  for (const r of rows) {
    const fields = [...r.detail.matchAll(/'([^']+)' read as [^;]+?, as the writer's own version reads it/g)].map(
      (m) => m[1]!,
    );
    if (fields.length === 0) continue;
    const key = `${r.payload} ${r.codec}`;
    const a = asOwn.get(key) ?? { fields: new Set<string>(), rows: 0 };
    for (const f of fields) a.fields.add(f);
    a.rows++;
    asOwn.set(key, a);
  }
  if (asOwn.size > 0) {
    lines.push(
      "",
      "Read as the writer's own version reads them (a field left out, read as its default), not as written:",
    );
    for (const [key, a] of asOwn)
      lines.push(
        ...wrapLine(
          `  ${key}: ${[...a.fields].map((f) => `'${f}'`).join(", ")}, in ${a.rows} row${a.rows === 1 ? "" : "s"}`,
          TERMINAL_WIDTH,
          "      ",
        ),
      );
  }
  return lines;
}

/**
 * The verdict's line: the codecs that read every change both ways with no error and no wrong
 * value, then those that read a value wrong without an error (and where), then those that refused
 * (and where; a codec may be in both).
 */
export function evolveVerdictLines(rows: readonly EvolveRow[] | undefined): string[] {
  if (!rows || rows.length === 0) return [];
  const ran = [
    ...new Set(rows.filter((r) => r.outcome !== "not-run" && r.outcome !== "not-applicable").map((r) => r.codec)),
  ];
  if (ran.length === 0) return [];
  const where = (codec: string, outcome: EvolveOutcome): string[] => [
    ...new Set(rows.filter((r) => r.codec === codec && r.outcome === outcome).map((r) => r.change)),
  ];
  const safe = ran.filter((c) => where(c, "error").length === 0 && where(c, "silently-wrong").length === 0);
  const wrong = ran.filter((c) => where(c, "silently-wrong").length > 0);
  const refused = ran.filter((c) => where(c, "error").length > 0);
  const listed = (codecs: readonly string[], outcome: EvolveOutcome): string =>
    codecs.map((c) => `${c} (${where(c, outcome).join(", ")})`).join(", ");
  const parts = [
    `read every change both ways, no error and no wrong value: ${safe.length > 0 ? safe.join(", ") : "none"}`,
    ...(wrong.length > 0 ? [`a value read wrong without an error: ${listed(wrong, "silently-wrong")}`] : []),
    ...(refused.length > 0 ? [`refused: ${listed(refused, "error")}`] : []),
  ];
  return wrapLine(`Schema change (evolve): ${parts.join("; ")}`, TERMINAL_WIDTH, "    ");
}
