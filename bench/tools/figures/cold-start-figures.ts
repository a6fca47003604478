/**
 * docs/cold-start.md's figures: the committed cold run (bun-cold), its table and verdict line as
 * the terminal prints them, a few of its figures in the prose, the plain script's check of it
 * (cold-check-bun-cold), and the same run in Chromium's and Firefox's fresh pages
 * (chromium-cold, firefox-cold) beside Bun's.
 */

import type { CaseResult } from "../../../client/harness/results.ts";
import { verdictLines } from "../../report/verdict.ts";
import { formatNs } from "../../report/format.ts";
import { SAMPLES } from "../sample-list.ts";
import type { PageFigures } from "./figure-spec.ts";
import { caseIn, machineOf, sampleResults, sampleText, tableSection } from "./sample-files.ts";
import { codeBlock, mdTable, whole } from "./prose.ts";

const FILE = "bun-cold.json.gz";
const CHECK = "cold-check-bun-cold.txt";
const WARM = "bun-default-1.json.gz";
/** The same run in each engine: Bun's processes, Chromium's and Firefox's pages. */
const ENGINES = [
  ["Bun", FILE],
  ["Chromium", "chromium-cold.json.gz"],
  ["Firefox", "firefox-cold.json.gz"],
] as const;

/** The verdict's cold-start line, with the lines it wraps onto. */
function coldVerdict(file = FILE): string[] {
  const lines = verdictLines(sampleResults(file).cases);
  const start = lines.findIndex((l) => l.startsWith("Cold start"));
  if (start < 0) throw new Error(`${file}'s verdict has no cold-start line`);
  let end = start + 1;
  while (end < lines.length && lines[end]!.startsWith(" ")) end++;
  return lines.slice(start, end);
}

const coldCase = (codec: string, payload = "small", file: string = FILE): CaseResult => {
  const c = sampleResults(file).cases.find((x) => x.mode === "cold" && x.codec === codec && x.payload === payload);
  if (!c?.cold) throw new Error(`${file} has no cold ${codec} on ${payload}`);
  return c;
};
const ratio = (e: { value: number; low: number; high: number } | undefined): string =>
  e ? `${times(e.value)} (${times(e.low)}-${times(e.high)})` : "-";

/** Each codec on small in each engine: the first message and the first 1,000 against json's, and its load (import + set-up). */
function enginesTable(): string {
  const codecs = sampleResults(FILE)
    .cases.filter((c) => c.mode === "cold" && c.payload === "small" && c.verified)
    .sort((a, b) => a.cold!.first.median - b.cold!.first.median)
    .map((c) => c.codec);
  const rows = codecs.map((codec) => {
    const of = ENGINES.map(([, file]) => coldCase(codec, "small", file));
    return [
      codec,
      ...of.map((c) => (codec === "json" ? formatNs(c.cold!.first.median) : ratio(c.ratios?.coldFirstVsJson))),
      ...of.map((c) => (codec === "json" ? formatNs(c.cold!.first1000!.median) : ratio(c.ratios?.coldFirst1000VsJson))),
      ...of.map((c) => formatNs(c.cold!.import.median + c.cold!.setup.median)),
    ];
  });
  const engines = ENGINES.map(([name]) => name);
  return mdTable(
    [
      "codec",
      ...engines.map((e) => `first, ${e}`),
      ...engines.map((e) => `first 1,000, ${e}`),
      ...engines.map((e) => `load, ${e}`),
    ],
    rows,
  );
}
const times = (x: number): string => `${x >= 10 ? Math.round(x) : x.toFixed(x < 1 ? 2 : 1)}x`;

export const COLD_START: PageFigures = {
  page: "docs/cold-start.md",
  figures: {
    command: () => `\`${SAMPLES.find((s) => s.name === "bun-cold")!.command}\``,
    machine: () => {
      const m = machineOf([FILE]);
      return `${m.cpu}, ${m.cores} cores`;
    },
    section: () => codeBlock(tableSection(FILE, "cold mode")),
    verdict: () => codeBlock(coldVerdict()),
    "json-first": () => formatNs(coldCase("json").cold!.first.median),
    "json-first1000": () => formatNs(coldCase("json").cold!.first1000!.median),
    "protobuf-first": () => formatNs(coldCase("protobuf").cold!.first.median),
    "protobuf-first-vs-json": () => times(coldCase("protobuf").ratios!.coldFirstVsJson!.value),
    "protobuf-first1000-vs-json": () => times(coldCase("protobuf").ratios!.coldFirst1000VsJson!.value),
    "protobuf-import": () => formatNs(coldCase("protobuf").cold!.import.median),
    "custom-binary-first1000-vs-json": () => times(coldCase("custom-binary").ratios!.coldFirst1000VsJson!.value),
    // The same codec warm: codec mode's ratio in the first default run, after its warm-up.
    "custom-binary-warm-vs-json": () =>
      times(caseIn(WARM, { mode: "codec", payload: "small", codec: "custom-binary" }).ratios!.vsJson!.value),
    "msgpackr-first": () => formatNs(coldCase("msgpackr").cold!.first.median),
    "custom-binary-first-vs-json": () => times(coldCase("custom-binary").ratios!.coldFirstVsJson!.value),
    "page-bytes": () => {
      const rows = sampleResults(FILE)
        .cases.filter((c) => c.mode === "cold" && c.payload === "small" && c.cold?.bundleBytes !== undefined)
        .sort((a, b) => a.cold!.bundleGzipBytes! - b.cold!.bundleGzipBytes!)
        .map((c) => [c.codec, whole(c.cold!.bundleBytes!), whole(c.cold!.bundleGzipBytes!)]);
      return mdTable(["codec", "bytes over json's, minified", "gzipped"], rows);
    },
    engines: enginesTable,
    "chromium-verdict": () => codeBlock(coldVerdict("chromium-cold.json.gz")),
    "firefox-verdict": () => codeBlock(coldVerdict("firefox-cold.json.gz")),
    "browser-command": () => `\`${SAMPLES.find((s) => s.name === "chromium-cold")!.command}\``,
    "protobuf-first-vs-json-chromium": () =>
      times(coldCase("protobuf", "small", "chromium-cold.json.gz").ratios!.coldFirstVsJson!.value),
    "protobuf-first-vs-json-firefox": () =>
      times(coldCase("protobuf", "small", "firefox-cold.json.gz").ratios!.coldFirstVsJson!.value),
    "custom-binary-first-vs-json-firefox": () =>
      times(coldCase("custom-binary", "small", "firefox-cold.json.gz").ratios!.coldFirstVsJson!.value),
    "json-first-chromium": () => formatNs(coldCase("json", "small", "chromium-cold.json.gz").cold!.first.median),
    "json-first-firefox": () => formatNs(coldCase("json", "small", "firefox-cold.json.gz").cold!.first.median),
    check: () => codeBlock(sampleText(CHECK).trimEnd().split("\n")),
    "check-outside": () => {
      // Each row: codec, then the first message's and the mean's verdicts ("inside", "above by N%", "below by N%").
      const outside: string[] = [];
      for (const line of sampleText(CHECK).split("\n")) {
        const codec = /^(\S+)\s+\d/.exec(line)?.[1];
        if (!codec) continue;
        const verdicts = [...line.matchAll(/(inside|(?:above|below) by \d+%)/g)].map((m) => m[1]!);
        for (const [i, figure] of ["first message", "mean"].entries())
          if (verdicts[i] && verdicts[i] !== "inside")
            outside.push(`${codec}'s ${figure} (the script's ${verdicts[i]})`);
      }
      return outside.length > 0 ? outside.join(", ") : "none";
    },
    "check-inside": () => {
      const m = /^(\d+) of (\d+) figures inside/m.exec(sampleText(CHECK));
      if (!m) throw new Error(`${CHECK} has no count of figures inside`);
      return `${m[1]} of ${m[2]}`;
    },
  },
};
