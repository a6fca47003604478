/**
 * The JSON results file: settings, environment, codec order of every run,
 * and every case with its summaries and raw per-round figures. NaN (a figure
 * a failed case never got) is written as null.
 *
 * Indented for a reader, except the long lists, which are written compactly
 * (format 2): each case's rounds as a table, its column names once
 * (`server.codecNs` for a nested figure) and one row of values per line;
 * the codec order of each mode and payload as its codecs once and each round
 * as their indices. Written field by field, three back-to-back default runs
 * were 13 MB each; one entry per line with its keys, 7.7 MB; as tables, 2.4
 * MB. A round's fractions keep 5 significant digits, far finer than any
 * clock here reads; every other figure is written exactly, so a report read
 * back prints what the run printed (7 digits had 112,315.49 msgs/s read back
 * as 112,315.5 and printed 112,316). results-file.ts reads it back.
 */

import type { BenchResults, SliceFigures } from "../../client/harness/results.ts";

/** What this writer writes: 2 lays the long lists out as tables; 3 says what code made the file (`provenance`); 4 names every figure with its interval `value` (a ratio's was `ratio`). */
export const JSON_VERSION = 4;
const JSON_FORMAT = `ws-serialization-bench/${JSON_VERSION}`;

/** A case's rounds as a table: `columns` (dotted for nested figures), one row of values per round. */
export interface RoundsTable {
  columns: string[];
  rows: (number | string | null)[][];
}

/** A mode and payload's codec order: its codecs, and each round as their indices in the order they ran. */
export interface OrderTable {
  codecs: string[];
  rounds: string[];
}

function number(value: unknown): unknown {
  if (typeof value !== "number") return value;
  if (!Number.isFinite(value)) return null;
  return value;
}

/** `value` on one line, numbers as in the file. */
const oneLine = (value: unknown): string => JSON.stringify(value, (_key, v: unknown) => number(v));

/** A round's figure: 5 significant digits (a microsecond to a tenth of a nanosecond, a ratio to 1 in 10,000), the bulk of a file being its rounds. */
function roundFigure(value: unknown): unknown {
  return typeof value === "number" && Number.isFinite(value) && !Number.isInteger(value)
    ? Number(value.toPrecision(5))
    : number(value);
}

/** One round's figures flattened: nested objects' keys joined with dots. */
function flatten(o: object, prefix = "", out: Record<string, unknown> = {}): Record<string, unknown> {
  for (const [k, v] of Object.entries(o)) {
    if (v !== null && typeof v === "object" && !Array.isArray(v)) flatten(v as object, `${prefix}${k}.`, out);
    else out[`${prefix}${k}`] = v;
  }
  return out;
}

/** Rounds as a table, written with a row per line. */
function roundsText(raw: readonly SliceFigures[]): string {
  const flat = raw.map((r) => flatten(r));
  const columns: string[] = [];
  for (const f of flat) for (const k of Object.keys(f)) if (!columns.includes(k)) columns.push(k);
  // A figure a round does not have is null in its row, as NaN is: the reader leaves both out of that round.
  const rows = flat.map((f) => JSON.stringify(columns.map((k) => (k in f ? roundFigure(f[k]) : null))));
  return `{"columns": ${oneLine(columns)}, "rows": [\n${rows.join(",\n")}\n]}`;
}

/** Each mode's codec order, per payload, as tables. */
function orderText(order: BenchResults["order"]): string {
  const modes = Object.entries(order).map(([mode, payloads]) => {
    const tables = payloads.map((rounds) => {
      const codecs = [...new Set(rounds.flat())];
      const table: OrderTable = { codecs, rounds: rounds.map((r) => r.map((c) => codecs.indexOf(c)).join(" ")) };
      return oneLine(table);
    });
    return `${JSON.stringify(mode)}: [\n${tables.join(",\n")}\n]`;
  });
  return `{\n${modes.join(",\n")}\n}`;
}

export function toJson(results: BenchResults): string {
  const lists: string[] = [];
  const placeholder = (text: string): string => {
    lists.push(text);
    return `\u0000list ${lists.length - 1}\u0000`;
  };
  // Results read from an older file carry its format; what is written is this writer's.
  const { format: _read, provenance, ...rest } = results as BenchResults & { format?: string };
  // The format a file was read in is not the one written.
  const made = provenance ? { provenance: { ...provenance, format: undefined } } : {};
  const text = JSON.stringify(
    { format: JSON_FORMAT, ...made, ...rest },
    (key, value: unknown) => {
      if (key === "raw" && Array.isArray(value)) return placeholder(roundsText(value as SliceFigures[]));
      if (key === "order" && value !== null && typeof value === "object" && !Array.isArray(value))
        return placeholder(orderText(value as BenchResults["order"]));
      return number(value);
    },
    2,
  );
  return text.replace(/"\\u0000list (\d+)\\u0000"/g, (_m, i: string) => lists[Number(i)]!);
}

/** A case's rounds as the file holds them, a table, as figures. */
export function roundsFrom(raw: RoundsTable): SliceFigures[] {
  return raw.rows.map((row) => {
    const round: Record<string, unknown> = {};
    raw.columns.forEach((column, i) => {
      const v = row[i];
      if (v === null || v === undefined) return;
      const path = column.split(".");
      let at = round;
      for (const part of path.slice(0, -1)) at = (at[part] ??= {}) as Record<string, unknown>;
      at[path[path.length - 1]!] = v;
    });
    return round as unknown as SliceFigures;
  });
}

/** The codec order as the file holds it, tables, as names. */
export function orderFrom(order: Record<string, OrderTable[]>): BenchResults["order"] {
  return Object.fromEntries(
    Object.entries(order).map(([mode, payloads]) => [
      mode,
      payloads.map((p) => p.rounds.map((r) => (r === "" ? [] : r.split(" ").map((i) => p.codecs[Number(i)]!)))),
    ]),
  );
}
