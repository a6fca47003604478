/**
 * What an app does with a message, beside encode + decode (codec mode, built-in payloads):
 * read-one, the payload's routing key (market's symbol, chat's room, game-tick's match, the
 * article's num) read from each frame, the way each codec reads it (Codec.keyAccess), as a router
 * or a client filtering a feed does; and validated, a decode and the checks a server facing the
 * internet needs before it trusts a message (protocols/validation.ts). The ranking can change
 * from encode + decode's with either. And over the socket, route mode: the server as a router,
 * its CPU per routed message forwarding the bytes and recoding, side by side.
 */

import type { CaseResult } from "../../client/harness/results.ts";
import { orderPayloads, ROUTING_KEYS, isBuiltIn } from "../../protocols/messages.ts";
import { codecLabel, count, formatNs, pad, ratioText } from "./format.ts";
import { ROUTE_COLUMNS } from "./columns.ts";

const COLUMNS = [
  { title: "codec", width: 17 },
  { title: "reads by", width: 8 },
  { title: "read-one", width: 10 },
  { title: "vs json", width: 12 },
  { title: "adds", width: 9 },
  { title: "validated", width: 10 },
  { title: "vs json", width: 12 },
] as const;

/** The clients of `cases` in the order they first appear, each with a label for a block's title when there are several (one client: none). */
function byClient(cases: readonly CaseResult[]): { cases: CaseResult[]; label: string }[] {
  const clients = [...new Set(cases.map((c) => c.client))];
  return clients.map((client) => ({
    cases: cases.filter((c) => c.client === client),
    label: clients.length > 1 ? `, ${client} client` : "",
  }));
}

/** Read-one and validated per payload of every client's codec-mode cases, fastest read-one first; nothing when no case has them. */
export function patternLines(cases: readonly CaseResult[]): string[] {
  const all = cases.filter((c) => c.mode === "codec" && c.verified && c.readOne !== undefined);
  if (all.length === 0) return [];
  const lines = [
    "",
    "== what an app does with a message: per message, median of the rounds; vs json: json's same work",
    "   read-one: the routing key read from a frame (a router's or a feed filter's work); reads by:",
    "   offset (where the layout puts it), lazy (accessors), scan (fields walked, the rest skipped),",
    "   decode (a full decode). validated: a decode and the checks a server needs to trust it; adds:",
    "   validator (the whole message against its schema), ranges (what the schema's types leave out)",
  ];
  for (const { cases: withKey, label } of byClient(all)) {
    for (const payload of orderPayloads(withKey.map((c) => c.payload))) {
      if (!isBuiltIn(payload)) continue;
      const of = withKey.filter((c) => c.payload === payload).sort((a, b) => a.readOne!.median - b.readOne!.median);
      lines.push("", `${payload} (${ROUTING_KEYS[payload]})${label}`);
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
  }
  return lines;
}

/** Route mode's deliveries of a payload's cases: all made, or which codec missed how many. */
function routeDeliveries(cases: readonly CaseResult[]): string {
  const missed = cases.filter((c) => c.route!.delivered !== c.route!.expected || c.route!.misrouted > 0);
  if (missed.length === 0) {
    const expected = [...new Set(cases.map((c) => c.route!.expected))];
    const each = expected.length === 1 ? `${count(expected[0]!)} each` : expected.map(count).join(" / ");
    return `deliveries: all made (${each}, every message to exactly its room's members), none misrouted`;
  }
  return `deliveries: ${missed.map((c) => `${c.codec} ${count(c.route!.delivered)} of ${count(c.route!.expected)}${c.route!.misrouted > 0 ? `, ${count(c.route!.misrouted)} misrouted` : ""}`).join("; ")}`;
}

/**
 * Route mode's cases per payload and client, least server CPU forwarding first, each block with
 * its deliveries. Nothing when no case routed.
 */
function routeLines(cases: readonly CaseResult[], wide = false): string[] {
  const all = cases.filter((c) => c.mode === "route" && c.route !== undefined);
  const columns = ROUTE_COLUMNS.filter((col) => wide || col.wide !== true);
  const lines: string[] = [];
  for (const { cases: routed, label } of byClient(all)) {
    for (const payload of orderPayloads(routed.map((c) => c.payload))) {
      const of = routed
        .filter((c) => c.payload === payload)
        .sort((a, b) => a.route!.forward.cpuNs.median - b.route!.forward.cpuNs.median);
      const header = columns.map((col, i) => pad(col.title, col.width, i > 0)).join("  ");
      lines.push("", `${payload}${label}`, header, "-".repeat([...header].length));
      for (const c of of) lines.push(columns.map((col, i) => pad(col.cell(c), col.width, i > 0)).join("  "));
      lines.push(routeDeliveries(of));
    }
  }
  return lines;
}

/** Route mode's section (summary.ts): its title, what its columns hold, and routeLines; `wide`: the columns --wide adds. The terminal puts the benchmark's settings under the title. */
export function routeSection(cases: readonly CaseResult[], wide = false): string[] {
  const lines = routeLines(cases, wide);
  if (lines.length === 0) return [];
  return [
    "",
    "== route mode: the server as a router, each message published to the room its key names",
    "   per routed message, medians of the slices: cpu fwd: the server's CPU forwarding the bytes (the",
    '   key read as "reads" says); cpu rec: decoding and encoding again; rec/f: the one over the other;',
    "   --wide adds the server's time reading the key, decoding, encoding and publishing (≈0: less than",
    "   its clock can tell), and misses",
    ...lines,
  ];
}
