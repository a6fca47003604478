/**
 * Lab and field side by side, and the calibration that says how far the
 * field can be trusted (client/harness/field.ts computes both as the results
 * are assembled; this lays them out for the terminal, report.html and the
 * page).
 */

import type { BenchResults, CalibrationCheck, CaseResult, Estimate } from "../../client/harness/results.ts";
import { orderPayloads } from "../../protocols/messages.ts";
import { isSocketMode } from "../../client/harness/settings.ts";
import { CALIBRATION_TOLERANCE, disagree, recovers } from "../../client/harness/field.ts";
import { SPIN_STEPS } from "../../protocols/calibration.ts";
import { codecLabel, count, pad, ratioText, TERMINAL_WIDTH, wrapLine } from "./format.ts";

/** A field column: a socket mode (latency: at one rate) whose cases carry the server's figures. */
interface FieldColumn {
  title: string;
  mode: string;
  rate?: number;
}

/** The field columns of a run: roundtrip, stream, and latency at the highest rate every codec of the payload ran. */
function fieldColumns(cases: readonly CaseResult[], client: string): FieldColumn[] {
  const withField = cases.filter(
    (c) => c.client === client && c.verified && c.socket?.field !== undefined && c.codec !== "raw",
  );
  const columns: FieldColumn[] = [];
  for (const mode of ["roundtrip", "stream"])
    if (withField.some((c) => c.mode === mode))
      columns.push({ title: `field ${mode === "roundtrip" ? "rt" : mode}`, mode });
  const rates = [...new Set(withField.filter((c) => c.mode === "latency").map((c) => c.socket!.targetRate!))].sort(
    (a, b) => a - b,
  );
  if (rates.length > 0) {
    const codecsAt = (rate: number): number =>
      new Set(withField.filter((c) => c.mode === "latency" && c.socket!.targetRate === rate).map((c) => c.codec)).size;
    const most = Math.max(...rates.map(codecsAt));
    const rate = rates.filter((r) => codecsAt(r) === most).at(-1)!;
    columns.push({ title: `field ${rate >= 1000 ? `${rate / 1000}k` : rate}/s`, mode: "latency", rate });
  }
  return columns;
}

function fieldCase(
  cases: readonly CaseResult[],
  c: CaseResult,
  client: string,
  column: FieldColumn,
): CaseResult | undefined {
  return cases.find(
    (x) =>
      x.client === client &&
      x.mode === column.mode &&
      x.codec === c.codec &&
      x.payload === c.payload &&
      x.verified &&
      (column.rate === undefined || x.socket?.targetRate === column.rate),
  );
}

/**
 * Per payload, each codec's time relative to json's: in the lab (codec mode, as a client's work
 * and as the server's echo) and in the field (the server, per load). "≠" marks a field ratio
 * whose interval does not overlap the lab echo's.
 */
export function labFieldLines(results: Pick<BenchResults, "cases">): string[] {
  const cases = results.cases;
  // The lab in Bun, as the server runs: a page's codec mode ran in the browser's engine instead.
  const lab = cases.filter((c) => c.mode === "codec" && c.client === "inprocess" && c.verified && c.echo !== undefined);
  const client = cases.find((c) => isSocketMode(c.mode) && c.socket?.field !== undefined)?.client;
  if (client === undefined) return [];
  const columns = fieldColumns(cases, client);
  if (columns.length === 0) return [];
  const lines = [
    "",
    "== lab and field: time per message relative to json's, medians of paired rounds ± 95%",
    "   lab: in process, codec mode: a client's work (encode objects, decode frames made in advance),",
    "   and echo, the server's (decode a frame, encode what it gave). field: inside the server, every",
    "   message's decode + encode timed, raw's timers taken off; rt: a server idle between messages",
    "   (roundtrip), stream: a busy one. ≠: the field and the lab echo disagree beyond their intervals.",
    "   collections: the share of each field figure (in its column's order) that went to pauses the",
    "   codec caused, collections mostly; time the scheduler gave other processes is taken off",
  ];
  const widths = [17, 13, 13, ...columns.map(() => 15), 14];
  for (const payload of orderPayloads(cases.filter((c) => isSocketMode(c.mode)).map((c) => c.payload))) {
    const socketCodecs = new Set(
      cases
        .filter(
          (c) => c.payload === payload && c.client === client && c.socket?.field !== undefined && c.codec !== "raw",
        )
        .map((c) => c.codec),
    );
    if (socketCodecs.size === 0) continue;
    const labOf = new Map(lab.filter((c) => c.payload === payload).map((c) => [c.codec, c]));
    const any = cases.filter((c) => c.payload === payload && c.client === client && socketCodecs.has(c.codec));
    const codecs = [...socketCodecs].sort(
      (a, b) => (labOf.get(a)?.total.median ?? Infinity) - (labOf.get(b)?.total.median ?? Infinity),
    );
    lines.push("", payload);
    const header = ["codec", "lab", "lab echo", ...columns.map((c) => c.title), "collections"]
      .map((t, i) => pad(t, widths[i]!, i > 0))
      .join("  ");
    lines.push(header, "-".repeat([...header].length));
    for (const codec of codecs) {
      const labCase = labOf.get(codec);
      const echo = labCase && (codec === "json" ? undefined : labCase.ratios?.echoVsJson);
      const cells = [
        codecLabel(any.find((c) => c.codec === codec)!),
        codec === "json" && labCase ? "1.00" : ratioText(labCase?.ratios?.vsJson),
        codec === "json" && labCase ? "1.00" : ratioText(echo),
        ...columns.map((col) => {
          const f = fieldCase(cases, { codec, payload } as CaseResult, client, col);
          if (!f) return "-";
          if (codec === "json") return "1.00";
          const r = f.ratios?.fieldVsJson;
          return `${ratioText(r)}${disagree(r, echo) ? " ≠" : ""}`;
        }),
        collectionShares(
          columns.map(
            (col) => fieldCase(cases, { codec, payload } as CaseResult, client, col)?.socket?.field?.collection,
          ),
        ),
      ];
      lines.push(cells.map((t, i) => pad(t, widths[i]!, i > 0)).join("  "));
    }
  }
  return lines;
}

/** Each field column's share in collections, "4% / 11%"; "-" where no column has one (a file from before they counted). */
function collectionShares(shares: readonly (number | undefined)[]): string {
  if (!shares.some((x) => x !== undefined && Number.isFinite(x))) return "-";
  return shares.map((x) => (x !== undefined && Number.isFinite(x) ? `${Math.round(x * 100)}%` : "-")).join(" / ");
}

/** A share of the known cost with its interval: "1.02 [0.97..1.08]". */
const shareText = (e: Estimate): string => `${e.value.toFixed(2)} [${e.low.toFixed(2)}..${e.high.toFixed(2)}]`;

function checkLines(c: CalibrationCheck): string[] {
  const judged = (e: Estimate | undefined): string => (e ? `${shareText(e)} ${recovers(e) ? "holds" : "FAILS"}` : "-");
  const where = `${c.mode}${c.rate !== undefined ? ` ${count(c.rate)}/s` : ""} ${c.payload}`;
  const lines = [
    `${where}: ${c.codec}'s known work ${count(c.known.value)} ns [${count(c.known.low)}..${count(c.known.high)}]; raw's timers read ${c.timersOnNothing ? `${count(c.timersOnNothing.value)} ns` : "-"} on no work (taken off)`,
    `   field figure: ${c.codec} ${judged(c.knownByTimers)}; cal-json ${judged(c.twinByTimers)}`,
  ];
  // What the field figure found before collections counted, where it misses: the reason they count.
  if (c.knownByQuiet && recovers(c.knownByQuiet) === false)
    lines.push(`   interrupted messages left out: ${c.codec} ${judged(c.knownByQuiet)}`);
  lines.push(`   server CPU:   ${c.codec} ${judged(c.knownByCpu)}; cal-json ${judged(c.twinByCpu)}`);
  return lines;
}

/** The calibration: what each way of measuring inside the server finds of a cost known from the lab. */
export function calibrationLines(results: Pick<BenchResults, "calibration">): string[] {
  const checks = results.calibration ?? [];
  if (checks.length === 0) return [];
  const tolerance = `${CALIBRATION_TOLERANCE * 100}%`;
  const lines = [
    "",
    "== calibration: does measuring inside the server find a cost known from the lab?",
    ...wrapLine(
      `   cal-spin is json plus ${count(SPIN_STEPS)} steps of arithmetic in every decode, cal-json is json under another name. After every round the server times each known work on its own, hot (the known cost). ` +
        `Per method, median of the rounds [95%]: the codec's cost over json's as a share of its known cost, and cal-json's relative to json's (as the method compares any codec with json; by CPU, each less raw's). It holds where both come within ${tolerance} of 1.`,
      TERMINAL_WIDTH,
      "   ",
    ),
  ];
  for (const c of checks) lines.push(...checkLines(c).flatMap((l) => wrapLine(l, TERMINAL_WIDTH, "      ")));
  return lines;
}
