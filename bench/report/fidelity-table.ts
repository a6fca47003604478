/**
 * The table of what each codec did to a user's own messages (`--messages`):
 * per payload, per codec, how many messages came back changed and how, and
 * the codecs left out with the reason. Printed before the timings, because
 * it says which of them count.
 */

import type { BenchResults } from "../../client/harness/results.ts";
import { userMessagesOf } from "../../client/harness/user-messages.ts";
import { orderPayloads } from "../../protocols/messages.ts";
import { pad, TERMINAL_WIDTH, wrapLine } from "./format.ts";

export function fidelityLines(results: BenchResults): string[] {
  const s = results.settings;
  const reports = results.fidelity ?? [];
  const excluded = s.excluded ?? [];
  const payloads = orderPayloads([...reports.map((r) => r.payload), ...excluded.map((e) => e.payload)]);
  if (payloads.length === 0) return [];
  const lines: string[] = [];
  for (const payload of payloads) {
    const file = s.userMessages?.find((f) => f.name === payload);
    const notes = file ? userMessagesOf(s.userMessages, payload).notes : [];
    const of = reports.filter((r) => r.payload === payload);
    lines.push("", `== your messages: ${payload}, what each codec gives back`);
    if (file)
      lines.push(
        ...wrapLine(
          `   ${userMessagesOf(s.userMessages, payload).messages.length} messages ${file.file !== undefined ? `from ${file.file}` : "given inline"}`,
        ),
      );
    for (const note of notes) lines.push(...wrapLine(`   when read: ${note}`));
    if (s.equal && s.equal.length > 0)
      lines.push(...wrapLine(`   --equal ${s.equal.join(",")}: these changes count as no loss`));
    lines.push(`${pad("codec", 19)}${pad("changed", 10)}what came back changed (field path: messages)`);
    lines.push("-".repeat(Math.min(TERMINAL_WIDTH, 72)));
    for (const r of of) {
      const what = r.error
        ? `cannot carry them: ${r.error}`
        : r.changes.length === 0
          ? "nothing: every value, key and key order kept"
          : r.changes
              .map(
                (c) =>
                  `${c.change} at ${c.path}: ${c.messages}${c.first !== undefined ? ` (first: message ${c.first})` : ""}${c.equal ? ", equal by --equal" : ""}`,
              )
              .join("; ");
      const mark = r.lossy ? "!" : "";
      lines.push(
        ...wrapLine(
          `${pad(r.codec + mark, 19)}${pad(r.error ? "-" : `${r.changed} of ${r.messages}`, 9)} ${what}`,
          TERMINAL_WIDTH,
          " ".repeat(29),
        ),
      );
    }
    for (const e of excluded.filter((x) => x.payload === payload && !of.some((r) => r.codec === x.codec))) {
      lines.push(
        ...wrapLine(
          `${pad(e.codec, 19)}${pad("n/a", 10)}${e.why.replace(/^not applicable: /, "")}`,
          TERMINAL_WIDTH,
          " ".repeat(29),
        ),
      );
    }
  }
  if (!reports.some((r) => r.lossy)) return lines;
  lines.push(
    "",
    ...wrapLine(
      s.allowLossy
        ? "! lossy: changed values of these messages; timed anyway (--allow-lossy), against its own round trip of each message, and marked ! in every table."
        : "! lossy: changed values of these messages, so not timed (a codec that does less cannot look faster by it); --allow-lossy times it, marked !.",
    ),
  );
  return lines;
}
