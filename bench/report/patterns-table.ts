/**
 * What an app does with a message, beside encode + decode (codec mode, built-in payloads):
 * read-one, the payload's routing key (market's symbol, chat's room, game-tick's tick, the
 * article's num) read from each frame, the way each codec reads it (Codec.keyAccess). A router or
 * a client filtering a feed does only this; the ranking can change from encode + decode's.
 */

import type { CaseResult } from "../harness/results.ts";
import { orderPayloads, ROUTING_KEYS, isBuiltIn } from "../../protocols/messages.ts";
import { codecLabel, formatNs, pad, ratioText } from "./format.ts";

const COLUMNS = [
  { title: "codec", width: 17 },
  { title: "reads by", width: 8 },
  { title: "read-one", width: 10 },
  { title: "vs json", width: 12 },
  { title: "decode", width: 11 },
  { title: "of decode", width: 9 },
] as const;

/** Read-one per payload of one client's codec-mode cases, fastest first; nothing when no case has it. */
export function patternLines(cases: readonly CaseResult[]): string[] {
  const withKey = cases.filter((c) => c.mode === "codec" && c.verified && c.readOne !== undefined);
  if (withKey.length === 0) return [];
  const lines = [
    "",
    "== read-one: the routing key read from each frame (a router's or a feed filter's work), per message,",
    "   median of the rounds; reads by: offset (where the layout puts it), lazy (the format's accessors),",
    "   scan (fields walked, the rest skipped), decode (a full decode); of decode: read-one / decode",
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
        formatNs(c.deserialize.median),
        (c.readOne!.median / c.deserialize.median).toFixed(2),
      ];
      lines.push(cells.map((t, i) => pad(t, COLUMNS[i]!.width, i > 0)).join("  "));
    }
  }
  return lines;
}
