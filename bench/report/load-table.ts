/**
 * What each format costs at the user's traffic (--load, client/harness/load.ts), as the table,
 * report.html and the page print it: per codec, its own decode + encode in the server's cores,
 * the server's cores predicted and measured, the bytes a second each way (plain, and the way down
 * deflated), and what switching from JSON saves a day; and the verdict's line saying whether the
 * format matters at that load.
 */

import type { Estimate, LoadCodecFigures, LoadResult } from "../../client/harness/results.ts";
import { LOAD_KEPT_SHARE, loadRate, loadText } from "../../client/harness/load.ts";
import { RAW_CODEC_NAME } from "../../protocols/contract.ts";
import { pad, wrapLine } from "./format.ts";

const COLUMNS = [
  { title: "codec", width: 14 },
  { title: "codec cores", width: 14 },
  { title: "predicted", width: 13 },
  { title: "measured", width: 13 },
  { title: "vs pred", width: 7 },
  { title: "up B/s", width: 8 },
  { title: "down B/s", width: 8 },
  { title: "deflated", width: 8 },
] as const;

/** Cores with enough digits to tell a few thousandths apart: 0.0031, 0.084, 1.25. */
export function coresText(cores: number): string {
  if (!Number.isFinite(cores)) return "n/a";
  const a = Math.abs(cores);
  return cores.toFixed(a >= 1 ? 2 : a >= 0.1 ? 3 : a >= 0.01 ? 4 : 5);
}

/** An estimate of cores as "0.084 ±9%" (no interval below two rounds). */
function coresWithInterval(e: Estimate | undefined): string {
  if (!e) return "";
  if (e.rounds < 2 || e.value === 0) return coresText(e.value);
  const half = Math.max(e.high - e.value, e.value - e.low) / Math.abs(e.value);
  return `${coresText(e.value)} ±${(half * 100).toFixed(half < 0.1 ? 1 : 0)}%`;
}

/** Bytes a second in short SI units: 268 k, 1.2 M, 4.5 G. */
export function rateBytes(n: number | undefined): string {
  if (n === undefined || !Number.isFinite(n)) return "";
  const units = ["", "k", "M", "G", "T"];
  let v = n;
  let u = 0;
  while (Math.abs(v) >= 1000 && u < units.length - 1) {
    v /= 1000;
    u++;
  }
  return `${v.toFixed(Math.abs(v) >= 100 || u === 0 ? 0 : 1)}${units[u] === "" ? "" : ` ${units[u]}`}`;
}

/** Gigabytes a day in a few digits: 0.31 GB, 48 GB, 1.2 TB. */
function gbText(gb: number): string {
  const a = Math.abs(gb);
  if (a >= 1000) return `${(gb / 1000).toFixed(1)} TB`;
  return `${gb.toFixed(a >= 10 ? 0 : a >= 1 ? 1 : 2)} GB`;
}

function row(f: LoadCodecFigures): string {
  const agreement = f.agreement === undefined ? "" : `${f.agreement >= 0 ? "+" : ""}${(f.agreement * 100).toFixed(0)}%`;
  const cells = [
    f.codec,
    coresWithInterval(f.codecCores),
    coresWithInterval(f.predictedCores),
    coresWithInterval(f.measuredCores),
    agreement,
    rateBytes(f.bytesUpPerS),
    rateBytes(f.bytesDownPerS),
    rateBytes(f.deflatedDownPerS),
  ];
  return cells
    .map((c, i) => pad(c, COLUMNS[i]!.width, i > 0))
    .join(" ")
    .trimEnd();
}

/** The codecs a line may name: every codec but raw with a prediction of its own and a load carried. */
function priced(load: LoadResult): LoadCodecFigures[] {
  return load.codecs.filter(
    (f) => f.codec !== RAW_CODEC_NAME && f.codecCores !== undefined && (f.keptShare ?? 1) >= LOAD_KEPT_SHARE,
  );
}

/** How far the measured cores came from the predicted, over every codec that has both: "within 4-18%". */
function agreementText(load: LoadResult): string | undefined {
  const all = load.codecs.filter((f) => f.agreement !== undefined);
  if (all.length === 0) return undefined;
  const abs = all.map((f) => Math.abs(f.agreement!) * 100);
  const worst = all[abs.indexOf(Math.max(...abs))]!;
  const lo = Math.min(...abs).toFixed(0);
  const hi = Math.max(...abs).toFixed(0);
  return `measured ${lo === hi ? `${hi}%` : `${lo}-${hi}%`} from predicted (the farthest: ${worst.codec}, ${worst.agreement! >= 0 ? "+" : ""}${(worst.agreement! * 100).toFixed(0)}%)`;
}

/** The section: a title, what the columns hold, a row per codec (raw first), the agreement and any codec's why. */
export function loadSection(load: LoadResult | undefined): string[] {
  if (!load) return [];
  const agreement = agreementText(load);
  return [
    "",
    ...wrapLine(`== At your load: ${loadText(load.spec)} (the server's cores, ${load.windowMs / 1000} s windows)`),
    ...wrapLine(
      `codec cores: the codec's decode + encode in the server (${load.fieldModes && load.fieldModes.length > 0 ? `${load.fieldModes.join(" and ")} mode's field figure` : "field figure"} x rate); predicted: raw's measured cores at the load plus that; measured: the server process's CPU while the codec carried the load; up/down: payload bytes a second to and from the server (down: fan-out times); deflated: down with permessage-deflate`,
    ),
    COLUMNS.map((c, i) => pad(c.title, c.width, i > 0)).join(" "),
    ...load.codecs.map(row),
    ...(agreement ? [agreement] : []),
    ...load.codecs.flatMap((f) => (f.why ? wrapLine(`${f.codec}: ${f.why}`) : [])),
  ];
}

/** Core-hours a day in a few digits. */
const hours = (h: number): string => h.toFixed(Math.abs(h) >= 10 ? 0 : 2);

/** The codec of `all` with the largest of a figure, or undefined. */
function most(all: readonly LoadCodecFigures[], pick: (f: LoadCodecFigures) => number | undefined) {
  return all.filter((f) => pick(f) !== undefined).sort((a, b) => pick(b)! - pick(a)!)[0];
}

/**
 * The verdict's answer at the user's load, one statement: what the format costs the server with
 * JSON against the server's whole CPU there; the codec that used the least CPU measured at the
 * load, against JSON, window by window; where the field figures name another as the cheapest,
 * that one too, with what it measured (the field leaves out part of what a codec costs at a
 * load); and the codec that would save the most bytes a day.
 */
export function loadVerdictLines(load: LoadResult | undefined): string[] {
  if (!load) return [];
  const json = load.codecs.find((f) => f.codec === "json");
  const others = priced(load).filter((f) => f.codec !== "json");
  if (!json?.codecCores) return [];
  // Measured figures count only where json's drive carried the load.
  const jsonCarried = (json.keptShare ?? 1) >= LOAD_KEPT_SHARE;
  const server = json.predictedCores ?? (jsonCarried ? json.measuredCores : undefined);
  // Without the server's whole CPU at the load, json's decode + encode alone, against a core.
  const share = json.codecCores.value / (server?.value ?? 1);
  const parts = [
    server
      ? `At your load (${loadText(load.spec)}) json's decode + encode is ${(share * 100).toFixed(share < 0.1 ? 1 : 0)}% of the server's ${coresText(server.value)} cores by the field figures`
      : `At your load (${loadText(load.spec)}) json's decode + encode alone takes ${coresText(json.codecCores.value)} cores by the field figures`,
  ];
  if (!jsonCarried)
    parts.push(
      `the drive did not carry it (json sent ${Math.round(json.keptShare! * loadRate(load.spec)).toLocaleString("en-US")} messages a second), so nothing measured is compared`,
    );
  const measured = jsonCarried ? most(others, (f) => f.measuredSavedCoreHoursPerDay?.value) : undefined;
  // A codec the field figures price above json saves nothing: it is not named as a saving.
  const byField = most(others, (f) => {
    const v = f.savedCoreHoursPerDay?.value;
    return v !== undefined && v > 0 ? v : undefined;
  });
  // What the format changes of the server's CPU: measured where the load was driven, else by the field figures.
  let judgement =
    share >= 0.1 ? "the format matters to the server's CPU here" : "the format barely matters to the server's CPU here";
  if (measured) {
    const saved = measured.measuredSavedCoreHoursPerDay!;
    // Apart only with an interval: one window pair has none.
    const apart = saved.rounds >= 2 && saved.value > 0 && saved.low > 0;
    parts.push(
      apart
        ? `measured there, ${measured.codec} used the least CPU, ${hours(saved.value)} core-hours a day less than json`
        : `measured there, no codec used less CPU than json beyond the windows' spread (${measured.codec}, the least, ${hours(saved.value)} core-hours a day)`,
    );
    const of = json.measuredCores ? saved.value / 24 / json.measuredCores.value : Number.NaN;
    judgement = !apart
      ? "the format does not measurably change the server's CPU here"
      : of >= 0.1
        ? "the format matters to the server's CPU here"
        : "the format changes the server's CPU a little here";
  }
  if (byField && !measured) {
    parts.push(
      `${byField.codec}, the cheapest by the field figures, would save ${hours(byField.savedCoreHoursPerDay!.value)} core-hours a day`,
    );
  } else if (byField && byField.codec !== measured?.codec) {
    const field = byField.savedCoreHoursPerDay!.value;
    const itself = byField.measuredSavedCoreHoursPerDay?.value;
    parts.push(
      `by the field figures ${byField.codec} would save ${hours(field)}${itself !== undefined ? `, measured ${hours(itself)}` : ""}`,
    );
  }
  const bytes = most(others, (f) => f.savedGbPerDay);
  if (bytes && bytes.savedGbPerDay! > 0) {
    const deflated = bytes.savedDeflatedGbPerDay;
    parts.push(
      `${bytes.codec}, the smallest, ${gbText(bytes.savedGbPerDay!)} a day${deflated !== undefined ? ` (${gbText(deflated)} where both are deflated)` : ""}`,
    );
  }
  parts[parts.length - 1] += `: ${judgement}`;
  return wrapLine(`${parts.join("; ")}.`, undefined, "    ");
}
