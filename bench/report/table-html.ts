/**
 * The case table as HTML, for report.html and the page: the terminal's columns (columns.ts), every
 * one of them (an HTML table scrolls where a terminal cannot), a table per mode, a row per case
 * with its payload first (and the run it came from, when rows of several runs stand together), a
 * failed case as a row that says why.
 */

import { orderPayloads } from "../../protocols/messages.ts";
import { columnsFor, MODE_VIEWS } from "./columns.ts";
import { codecLabel, count } from "./format.ts";
import type { SourcedCase } from "./sources.ts";

/** Text safe inside HTML, attribute values included. */
export function escapeHtml(s: string): string {
  return s.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;").replaceAll('"', "&quot;");
}

/**
 * A figure's cell: on one line, but where it has a place to wrap when a table needs the room,
 * before its interval (`0.85 ±3.2%`) or after the dash of a range of times (`28.61 µs-30.24 µs`);
 * each part stays whole (a number and its unit, a codec's name).
 */
function figureCell(text: string): string {
  const parts = text.split(/(?<= )(?=±)|(?<=s-)(?=\d)/);
  if (parts.length === 1) return `<td>${escapeHtml(text)}</td>`;
  return `<td class="wraps">${parts.map((part) => `<span>${escapeHtml(part)}</span>`).join("<wbr>")}</td>`;
}

/** A row: header cells wrap between words; a figure only where figureCell lets it. */
const cells = (tag: "td" | "th", texts: readonly string[]): string =>
  `<tr>${texts.map((t) => (tag === "td" ? figureCell(t) : `<th>${escapeHtml(t)}</th>`)).join("")}</tr>`;

/** Every mode's table of these cases, in the terminal's order of modes. */
export function caseTablesHtml(rows: readonly SourcedCase[]): string {
  const several = new Set(rows.map((r) => r.source)).size > 1;
  return MODE_VIEWS.flatMap((view) => {
    const of = rows.filter((r) => r.case.mode === view.mode);
    if (of.length === 0) return [];
    const columns = columnsFor(
      of.map((r) => r.case),
      view.columns,
      true,
    );
    const lead = (r: SourcedCase): string[] => {
      const rate = r.case.socket?.targetRate;
      return [...(several ? [r.source] : []), `${r.case.payload}${rate === undefined ? "" : ` at ${count(rate)}/s`}`];
    };
    const sorted = [...new Set(of.map((r) => r.source))].flatMap((source) =>
      orderPayloads(of.map((r) => r.case.payload)).flatMap((payload) =>
        of
          .filter((r) => r.source === source && r.case.payload === payload)
          .sort(
            (a, b) =>
              (a.case.socket?.targetRate ?? 0) - (b.case.socket?.targetRate ?? 0) ||
              Number(b.case.verified) - Number(a.case.verified) ||
              (a.case.verified ? view.order(a.case, b.case) : 0),
          ),
      ),
    );
    const body = sorted.map((r) =>
      r.case.verified
        ? cells("td", [...lead(r), ...columns.map((col) => col.cell(r.case))])
        : `<tr>${[...lead(r), codecLabel(r.case)].map((t) => `<td>${escapeHtml(t)}</td>`).join("")}<td colspan="${columns.length - 1}">${escapeHtml(`FAILED: ${r.case.error}`)}</td></tr>`,
    );
    const head = [...(several ? ["source"] : []), "payload", ...columns.map((col) => col.title)];
    return [
      `<table class="cases" data-mode="${view.mode}">`,
      `<caption>${escapeHtml(view.title)}</caption>`,
      cells("th", head),
      ...body,
      "</table>",
    ];
  }).join("\n");
}
