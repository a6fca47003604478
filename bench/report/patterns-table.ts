/**
 * What an app does with a message, beside encode + decode (codec mode, built-in payloads):
 * read-one, the payload's routing key (market's symbol, chat's room, game-tick's match, the
 * article's num) read from each frame, the way each codec reads it (Codec.keyAccess), as a router
 * or a client filtering a feed does; and validated, a decode and the checks a server facing the
 * internet needs before it trusts a message (protocols/validation.ts). The ranking can change
 * from encode + decode's with either.
 */

import type { CaseResult } from "../harness/results.ts";
import { orderPayloads, ROUTING_KEYS, isBuiltIn } from "../../protocols/messages.ts";
import { codecLabel, formatNs, pad, ratioText } from "./format.ts";

const COLUMNS = [
  { title: "codec", width: 17 },
  { title: "reads by", width: 8 },
  { title: "read-one", width: 10 },
  { title: "vs json", width: 12 },
  { title: "adds", width: 9 },
  { title: "validated", width: 10 },
  { title: "vs json", width: 12 },
] as const;

/** Read-one and validated per payload of the first client's codec-mode cases, fastest read-one first; nothing when no case has them. */
export function patternLines(cases: readonly CaseResult[]): string[] {
  const all = cases.filter((c) => c.mode === "codec" && c.verified && c.readOne !== undefined);
  // One client's: the table's block of each, or a report's first.
  const withKey = all.filter((c) => c.client === all[0]?.client);
  if (withKey.length === 0) return [];
  const lines = [
    "",
    "== what an app does with a message: per message, median of the rounds; vs json: json's same work",
    "   read-one: the routing key read from a frame (a router's or a feed filter's work); reads by:",
    "   offset (where the layout puts it), lazy (accessors), scan (fields walked, the rest skipped),",
    "   decode (a full decode). validated: a decode and the checks a server needs to trust it; adds:",
    "   validator (the whole message against its schema), ranges (what the schema's types leave out)",
  ];
  for (const payload of orderPayloads(withKey.map((c) => c.payload))) {
    if (!isBuiltIn(payload)) continue;
    const of = withKey.filter((c) => c.payload === payload).sort((a, b) => a.readOne!.median - b.readOne!.median);
    lines.push("", `${payload} (${ROUTING_KEYS[payload]})`);
    const header = COLUMNS.map((col, i) => pad(col.title, col.width, i > 0)).join("  ");
    lines.push(header, "-".repeat([...header].length));
    for (const c of of) {
      const cells = [
        codecLabel(c),
        c.keyAccess ?? "decode",
        formatNs(c.readOne!.median),
        c.codec === "json" ? "1.00" : ratioText(c.ratios?.readOneVsJson),
        c.addedChecks ?? "-",
        c.validated ? formatNs(c.validated.median) : "-",
        c.codec === "json" && c.validated ? "1.00" : ratioText(c.ratios?.validatedVsJson),
      ];
      lines.push(cells.map((t, i) => pad(t, COLUMNS[i]!.width, i > 0)).join("  "));
    }
  }
  return lines;
}
