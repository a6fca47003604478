/**
 * The summary table printed at the end of a run: one block per mode and payload, one line per
 * codec, in the columns every table shows (columns.ts), laid out to fit a terminal, with the
 * notes that say how to read them. Where a codec's interval overlaps JSON's, the ratio is marked
 * "≈" and the text does not call either faster.
 */

import { provenanceLine } from "./provenance-line.ts";
import type { BenchResults, CaseResult } from "../../client/harness/results.ts";
import { isSocketMode, type Mode } from "../../client/harness/settings.ts";
import { linkText } from "../../client/harness/link.ts";
import { isBuiltIn, orderPayloads } from "../../protocols/messages.ts";
import { benchmarkSummary } from "./summary.ts";
import {
  coldProcessesText,
  count,
  formatNs,
  pad,
  PRECISION_MARK,
  markNotes,
  TERMINAL_WIDTH,
  wrapLine,
} from "./format.ts";
import { type Column, columnsFor, COMPRESSION_COLUMNS, MODE_VIEWS, NAME } from "./columns.ts";
import { codecModeRatios } from "../../client/harness/ratios.ts";
import { FLOOR_MARK, floorNote, noiseLines } from "./table-notes.ts";
import { KNEE_RULE, knees } from "../../client/harness/knee.ts";
import { accountLines } from "./account-lines.ts";
import { messagesText, runsText } from "./messages-line.ts";

/** How the table is laid out: `wide` shows every column (wider than a terminal). */
export interface TableOptions {
  wide?: boolean;
}

function block(
  cases: readonly CaseResult[],
  baseColumns: readonly Column[],
  order: (a: CaseResult, b: CaseResult) => number,
  wide: boolean,
  /** false: no near-floor mark (a table whose figures are not the loop's, compression's). */
  floorMarks = true,
): string[] {
  const lines: string[] = [];
  const columns = columnsFor(cases, baseColumns, wide);
  const header = columns.map((col, i) => pad(col.title, col.width, i > 0)).join("  ");
  lines.push(header);
  lines.push("-".repeat([...header].length));
  const sorted = [...cases].sort((a, b) =>
    a.verified === b.verified ? (a.verified ? order(a, b) : 0) : a.verified ? -1 : 1,
  );
  for (const c of sorted) {
    if (!c.verified) {
      lines.push(
        ...wrapLine(`${pad(NAME.cell(c), NAME.width)}  FAILED: ${c.error}`, TERMINAL_WIDTH, " ".repeat(NAME.width + 2)),
      );
      continue;
    }
    const flag = floorMarks && c.flags.includes("near-empty-loop") ? ` ${FLOOR_MARK}` : "";
    lines.push(columns.map((col, i) => pad(col.cell(c), col.width, i > 0)).join("  ") + flag);
  }
  return lines;
}

/** How many rounds and slices codec mode's figures rest on. */
function codecModeLine(cases: readonly CaseResult[], iterations: number, forks: number): string {
  const slices = orderPayloads(cases.map((c) => c.payload))
    .map((p) => {
      const c = cases.find((x) => x.payload === p && x.verified);
      // Results from before rounds: one slice per run.
      return c ? `${p} ${c.rounds ?? c.raw.length} x ${c.serializeBatches.batch.toLocaleString("en-US")}` : "";
    })
    .filter((x) => x !== "");
  return (
    `   ${iterations.toLocaleString("en-US")} messages per run${forks > 1 ? `, the runs spread over ${forks} processes` : ""}, timed in rounds: one slice per codec,\n` +
    `   order shuffled per round\n` +
    `   rounds x messages per slice: ${slices.join(", ")}\n` +
    `   total and ratios: medians of the rounds; mean+gc: every message, garbage collection included`
  );
}

/** What cold mode's figures rest on, and what each column is. */
function coldModeLine(cases: readonly CaseResult[], iterations: number): string {
  const processes = Math.max(0, ...cases.map((c) => c.rounds));
  const page = cases.some((c) => c.client === "browser");
  return (
    `   ${processes} ${coldProcessesText(cases, processes)} per case, one at a time, each case once per repeat, shuffled\n` +
    (page
      ? `   each a page load in a browser context of its own; import: the codec's bundle (its module and\n   library) from a blob URL, parsed, compiled and run; set-up`
      : `   import: the codec's module and library; set-up`) +
    `: the codec made for the payload; then\n` +
    `   ${iterations.toLocaleString("en-US")} messages, each encode + decode timed alone (first: the first alone; first 100 / 1k:\n` +
    `   the mean per message over them); vs json: beside json's process of the same repeat, geometric\n` +
    `   mean ± its 95% interval over the repeats`
  );
}

/** How many messages and rounds a socket mode's figures rest on. */
function socketModeLine(cases: readonly CaseResult[], s: BenchResults["settings"], mode: Mode): string {
  const iterations = `   ${s.iterations[mode].toLocaleString("en-US")} messages per run`;
  const c = cases.find((x) => x.verified && x.rounds > x.runs);
  if (!c) return `${iterations}; rtt and msgs/s: means of the runs`;
  return (
    `${iterations}, timed in rounds on connections kept open:\n` +
    `   one slice of ${(c.socket?.slice ?? NaN).toLocaleString("en-US")} per codec, order shuffled per round; ${c.rounds} rounds; rtt and msgs/s: means of the rounds, ratios: medians`
  );
}

/** What route mode's table shows: the topology, and each column. */
function routeModeLine(c: CaseResult, s: BenchResults["settings"]): string {
  const r = c.route;
  return (
    `   ${s.iterations.route.toLocaleString("en-US")} messages per run in ${c.rounds > 0 ? Math.round(c.rounds / Math.max(1, c.runs)) : "?"} slices, each routed both ways; ` +
    `${r?.publishers ?? "?"} routers, ${r?.members ?? "?"} members${r?.validate ? "; every message validated on the way in (--validate)" : ""}`
  );
}

/** Each codec's knee, per payload, when latency mode ran at several rates (client/harness/knee.ts). */
function kneeLines(cases: readonly CaseResult[]): string[] {
  const found = knees(cases);
  if (found.length === 0) return [];
  const lines = [
    "",
    `knee: the highest rate kept (at least ${KNEE_RULE.minAchievedShare * 100}% of it sent, at most ${KNEE_RULE.maxLateShare * 100}% late, p99 within ` +
      `${KNEE_RULE.maxP99Factor}x its p99 at the lowest rate, or 10 ms; each the median of the step's slices) before two rates in a row missed, msgs/s` +
      `${found.some((k) => k.besideRaw) ? "; (beside raw: the knee when only the rates raw kept count against the codec)" : ""}`,
  ];
  const payloads = orderPayloads(found.map((k) => k.payload));
  const width = Math.max(...payloads.map((p) => p.length)) + 1;
  for (const payload of payloads) {
    const of = found.filter((k) => k.payload === payload).sort((a, b) => b.rate - a.rate);
    const beside = (k: (typeof of)[number]): string =>
      k.besideRaw ? ` (beside raw ${count(k.besideRaw.rate)}${k.besideRaw.missed === undefined ? "+" : ""})` : "";
    if (of.length > 0)
      lines.push(
        `${pad(payload, width)}${of.map((k) => `${k.codec} ${k.rate > 0 ? count(k.rate) : "none"}${k.missed === undefined ? "+" : ""}${k.forgiven ? "~" : ""}${beside(k)}`).join(", ")}`,
      );
  }
  lines.push(
    `   (+: kept every rate tried${found.some((k) => k.forgiven) ? "; ~: missed a lower rate once, then kept the next" : ""})`,
  );
  return lines;
}

/** Codec mode's compressed sizes, a block per payload, smallest in a stream first. */
function compressionLines(cases: readonly CaseResult[], wide: boolean): string[] {
  const sized = cases.filter((c) => c.compression !== undefined && c.verified);
  if (sized.length === 0) return [];
  const lines = [
    "",
    "compressed, bytes per message: permessage-deflate alone and in a stream (context kept), zstd alone;",
    wide
      ? "   zstd time: one zstdCompressSync call per message, set-up included (empty: the call on no bytes)"
      : "   zstd time: one zstdCompressSync call per message, set-up included (the set-up alone, --wide and\n   the CSV's zstd_empty_ns, moves between runs by more than these figures do)",
  ];
  for (const payload of orderPayloads(sized.map((c) => c.payload))) {
    const of = sized.filter((c) => c.payload === payload);
    if (of.length === 0) continue;
    lines.push("", `${payload}, compressed`);
    lines.push(
      ...block(
        of,
        COMPRESSION_COLUMNS,
        (a, b) => a.compression!.deflateContextBytes - b.compression!.deflateContextBytes,
        wide,
        false,
      ),
    );
  }
  return lines;
}

/** Where a socket mode's cases ran: the client, the server, how they were pinned, and the link between them (--link). */
function whereLine(first: CaseResult, s: BenchResults["settings"]): string {
  return (
    `; client: ${first.clientLibrary}; server: ${s.server ?? "?"}${s.pinning ? `; ${s.pinning}` : ""}` +
    (s.link ? `\n   over a link, ${linkText(s.link)} (emulated by Toxiproxy: docs/links.md)` : "")
  );
}

export function formatTable(results: BenchResults, options: TableOptions = {}): string {
  const wide = options.wide === true;
  const s = results.settings;
  const lines: string[] = [];
  if (results.cases.length > 0) {
    lines.push(
      `${messagesText(s, [...new Set(results.cases.map((c) => c.payload))])}, ${runsText(s, [...new Set(results.cases.map((c) => c.mode))])} through them per case.`,
    );
    lines.push(`"vs json" / "vs raw": ratio to that codec, paired round by round; with several processes`);
    lines.push(`(--forks), each process's median of its rounds' ratios is one estimate and the figure their`);
    lines.push(`geometric mean ± its 95% interval over the processes; with one, the median of the per-round`);
    lines.push(`ratios ± its interval (below 6 rounds, their geometric mean); ≈: the interval holds 1.`);
  } else if (results.evolve && results.evolve.length > 0)
    lines.push(`${messagesText(s, [...new Set(results.evolve.map((r) => r.payload))])}.`);
  const summary = benchmarkSummary(results, { wide });
  lines.push(...summary.fidelity);
  for (const view of MODE_VIEWS) {
    const ofMode = results.cases.filter((c) => c.mode === view.mode);
    if (ofMode.length === 0) continue;
    if (view.mode === "route") {
      // The summary's route section, with the benchmark's settings under its title.
      const [blank = "", title = `== ${view.title}`, ...body] = summary.route;
      const first = ofMode[0]!;
      lines.push(blank, title, routeModeLine(first, s) + whereLine(first, s), ...body);
      continue;
    }
    for (const client of [...new Set(ofMode.map((c) => c.client))]) {
      const first = ofMode.find((c) => c.client === client)!;
      lines.push("");
      lines.push(`== ${view.title}`);
      lines.push(
        (view.mode === "codec"
          ? codecModeLine(ofMode, s.iterations.codec, s.forks ?? 1)
          : view.mode === "cold"
            ? coldModeLine(ofMode, s.iterations.cold)
            : socketModeLine(ofMode, s, view.mode)) +
          (view.mode === "fanout"
            ? ` published, ${first.socket?.clients ?? 1} subscriber(s)${wide ? ' ("clients" column: slowest..fastest subscriber)' : ""}`
            : (first.socket?.clients ?? 1) > 1
              ? ` per client, ${first.socket!.clients} concurrent clients (msgs/s: all clients together; "clients" column: slowest..fastest client)`
              : "") +
          (client === "inprocess" || view.mode === "cold" ? "" : whereLine(first, s)) +
          (view.mode === "stream" || view.mode === "fanout" ? `; window ${first.socket?.window ?? "?"}` : "") +
          (view.mode === "latency"
            ? `; at most ${first.socket?.window ?? "?"} in flight` +
              `\n   p50..p99.9: from when each message was due (stalls included); svc p99: from when it went out;` +
              `\n   late: sent over one interval (at least 1 ms) after it was due; vs json: mean latency`
            : "") +
          (first.socket?.extensions.includes("permessage-deflate")
            ? `\n   COMPRESSED (permessage-deflate): "bytes" before compression; "wire" / "reply wire": frames counted on the socket`
            : isSocketMode(view.mode) && s.deflate
              ? "\n   --deflate was offered but not negotiated: nothing was compressed"
              : ""),
      );
      for (const payload of orderPayloads(ofMode.map((c) => c.payload))) {
        const ofPayload = ofMode.filter((c) => c.client === client && c.payload === payload);
        // Latency mode: a block per rate; the other modes have none.
        for (const rate of [...new Set(ofPayload.map((c) => c.socket?.targetRate))].sort(
          (a, b) => (a ?? 0) - (b ?? 0),
        )) {
          const cases = ofPayload.filter((c) => c.socket?.targetRate === rate);
          if (cases.length === 0) continue;
          lines.push("");
          const title = rate === undefined ? payload : `${payload} at ${count(rate)} msgs/s`;
          // raw alone is no comparison: one line instead of a table of the transport by itself.
          if (cases.every((c) => c.codec === "raw")) {
            lines.push(`${title}: no codec was timed on these messages (the verdict says why); raw's row left out`);
            continue;
          }
          lines.push(title);
          lines.push(...block(cases, view.columns, view.order, wide));
        }
      }
      if (view.mode === "latency") lines.push(...kneeLines(ofMode.filter((c) => c.client === client)));
      if (view.mode === "codec")
        lines.push(
          ...compressionLines(
            ofMode.filter((c) => c.client === client),
            wide,
          ),
        );
    }
    if (view.mode === "codec") lines.push(...summary.patterns);
  }
  lines.push(...summary.labField, ...summary.calibration, ...summary.load, ...summary.evolve);
  if (results.cases.some((c) => codecModeRatios(c).some((r) => r.wide))) {
    lines.push("");
    lines.push(
      `${PRECISION_MARK}: its interval is still wider than the ±${s.precision ?? "?"}% asked (--precision); the time allowed ran out first (--max-time).`,
    );
  }
  lines.push(...floorNote(results.cases));
  // `!` is the fidelity table's to explain (it leads the output); `*` is said here, of the codecs that carry it.
  const { nonStandard } = markNotes(results.cases);
  if (nonStandard) lines.push("", nonStandard);
  if (results.cases.some((c) => c.codec === "raw")) {
    lines.push(
      `raw: the transport alone (${results.cases.some((c) => c.codec === "raw" && !isBuiltIn(c.payload)) ? "custom-binary's bytes, or your messages' JSON" : "custom-binary's bytes"}, echoed without decoding).`,
    );
  }
  if (results.cases.some((c) => isSocketMode(c.mode) && c.codec !== "raw")) {
    lines.push("client / server: encode + decode time per message on that side of the socket; server: timed inside");
    lines.push("   the server message by message, raw's timers (the same clock reads around no work) taken off.");
  }
  const fanout = results.cases.filter((c) => c.mode === "fanout" && c.socket?.cluster);
  if (fanout.length > 0) {
    const { processes, backplane } = fanout[0]!.socket!.cluster!;
    lines.push(
      `fanout: ${processes} server process${processes > 1 ? "es" : ""}${backplane ? ` joined by ${backplane}` : ""}; p50 / p99: each delivery's time from its send;`,
    );
    lines.push("   cpu/dlv: every server process's CPU per delivered message (medians of the runs);");
    lines.push("   bp B/msg: backplane wire bytes per published message (RESP framing, every process's share).");
  }
  lines.push(...noiseLines(results.cases));
  lines.push("");
  for (const env of [results.environment, ...Object.values(results.environments ?? {})]) {
    if (!env) continue;
    const isolation =
      env.crossOriginIsolated === undefined
        ? ""
        : env.crossOriginIsolated
          ? ", cross-origin isolated"
          : ", NOT cross-origin isolated";
    // A strict Content-Security-Policy (--csp strict): loops shared by every codec, and codecs that need eval fail.
    const policy = env.evalAllowed === false ? "; eval refused (strict CSP)" : "";
    lines.push(
      `${env.runtime} ${env.runtimeVersion}, ${env.os}, ${env.cpu} x${env.cores}; clock ${env.clock}: resolution ${formatNs(env.timerResolutionNs)}, read ${formatNs(env.timerOverheadNs)}${isolation}${policy}`,
    );
  }
  // What code made it (a page's own run knows no commit and says nothing).
  if (results.provenance) lines.push(provenanceLine(results.provenance));
  lines.push(...accountLines(results.account));
  if (summary.verdict.length > 0) lines.push("", ...summary.verdict);
  // Prose wraps at the terminal's width (table rows are laid out to fit it); --wide wraps nothing.
  const physical = lines.flatMap((l) => l.split("\n"));
  return (wide ? physical : physical.flatMap((l) => wrapLine(l))).join("\n");
}
