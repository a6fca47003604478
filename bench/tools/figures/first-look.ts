/** The README's first look, made from the committed `--quick` run (bun run figures writes it into the README). */

import { ARTICLE_PAYLOADS } from "../../../protocols/messages.ts";
import { count } from "../../report/format.ts";
import { ranked } from "../../report/ranking.ts";
import { find, MARKS, machineLine, ratioCell, type Sample, VS_JSON } from "./sample-cells.ts";

/**
 * The committed `--quick` run as a first look: per payload, each codec's bytes and its time per
 * message relative to JSON's in process and inside the server (stream mode's field figure), each
 * ± its 95% interval: over the processes where the run's rounds say which process timed them, else
 * over the rounds.
 */
export function quickFigures(sample: Sample): string {
  const r = sample.results;
  const byProcess = r.cases.some((c) => c.ratios?.vsJson?.processes !== undefined);
  const figure = byProcess
    ? "± its 95% interval over the processes (each one estimate)"
    : "the median of the rounds ± its 95% interval";
  const lines = [
    `\`npm run bench -- --quick\` (\`${sample.name}\`, ${Math.round(r.elapsedMs / 1000)} s on ${machineLine(r)}): time per message relative to JSON's, ${figure}; below 1 is faster; ${MARKS}.`,
    "",
  ];
  lines.push("| payload | codec | bytes | in process | in the server (stream) |", "|---|---|---|---|---|");
  for (const payload of ARTICLE_PAYLOADS) {
    const of = ranked(
      r.cases.filter((c) => c.mode === "codec" && c.payload === payload && c.verified),
      (c) => c.ratios?.vsJson?.value,
      (c) => c.total.median,
    );
    for (const c of of) {
      const field = find(r, "stream", payload, c.codec);
      const lab = c.codec === "json" ? "1.00" : ratioCell(c, VS_JSON).text;
      const server = c.codec === "json" ? "1.00" : ratioCell(field, (x) => x.fieldVsJson).text;
      lines.push(`| ${payload} | ${c.codec} | ${count(c.bytes)} | ${lab} | ${server} |`);
    }
  }
  return lines.join("\n");
}
