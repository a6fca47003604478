/**
 * What code made each committed sample, and whether the code it measures has changed since:
 * `bun run figures --check` prints it. A sample from `bun run samples` names its commit (the
 * JSON's provenance); one kept as history has the commit and day the list gives it. A listed
 * sample the reader refuses for its format fails the check (remake it); code changed since is a
 * warning, by file, since remaking every sample takes two hours.
 */

import { readFileSync } from "node:fs";
import path from "node:path";
import type { Provenance } from "../../../client/harness/results.ts";
import { git } from "../../cli/provenance.ts";
import { ROOT } from "../../cli/paths.ts";
import { resultsText } from "../../cli/read-results.ts";
import { ReportError } from "../../report/report-errors.ts";
import { resultsFromFile } from "../../report/results-file.ts";
import { HISTORY, SAMPLES } from "../sample-list.ts";

/** The code a sample measures: the codecs, the messages, the measuring loops and the server, and the libraries' versions (package.json's dependencies, not its scripts). */
const MEASURED_CODE = ["custom-binary", "protocols", "client", "server", "server.ts"];

export interface SampleState {
  /** Under results/sample/. */
  file: string;
  /** The commit that made it (its file says, or the list for a sample kept as history) or, for a text output, the one that last wrote it; "" when unknown. */
  commit: string;
  /** The commit is the one that wrote the file into the repository, not one the file names. */
  written?: true;
  /** YYYY-MM-DD. */
  date: string;
  /** Kept as history, and why. */
  history?: { why: string };
  /** Why the reader refuses its format (a listed sample): the check fails. */
  oldFormat?: string;
  /** Files of the measured code changed since its commit; undefined when that cannot be told. */
  changed?: string[];
}

/** What a sample's file says of the code that made it: a run's JSON its provenance (or why this reader refuses it), the link sweep's JSON its own field; a text file nothing. */
function provenanceOf(file: string): { provenance?: Provenance; timestamp: string; oldFormat?: string } {
  if (!file.endsWith(".json") && !file.endsWith(".json.gz")) return { timestamp: "" };
  const text = resultsText(path.join(ROOT, "results/sample", file));
  try {
    const r = resultsFromFile(text);
    return { provenance: r.provenance, timestamp: r.timestamp };
  } catch (e) {
    if (e instanceof ReportError && e.code === "OLD_FORMAT") return { timestamp: "", oldFormat: e.message };
  }
  // The link sweep's own file: its provenance is a field of its own.
  const o = JSON.parse(text) as { provenance?: Provenance; timestamp?: string };
  return { provenance: o.provenance, timestamp: o.timestamp ?? "" };
}

/** The measured files changed between `commit` and the working tree (package.json's dependencies as one); undefined when that cannot be told. */
export function measuredCodeChangedSince(commit: string): string[] | undefined {
  // Most samples share a commit: one diff each.
  if (diffs.has(commit)) return diffs.get(commit);
  let changed: string[] | undefined;
  if (commit !== "" && git(["cat-file", "-e", `${commit}^{commit}`]) !== undefined) {
    const out = git(["diff", "--name-only", commit, "--", ...MEASURED_CODE, ":(exclude,glob)**/*.md"]);
    const then = git(["show", `${commit}:package.json`]);
    changed =
      out === undefined || then === undefined
        ? undefined
        : [
            ...out.split("\n").filter((l) => l !== ""),
            ...(dependencies(then) === dependencies(readFileSync(path.join(ROOT, "package.json"), "utf8"))
              ? []
              : ["package.json (dependencies)"]),
          ];
  }
  diffs.set(commit, changed);
  return changed;
}
const diffs = new Map<string, string[] | undefined>();

/** A package.json's dependencies, the libraries a sample measured, as one comparable string. */
const dependencies = (packageJson: string): string =>
  JSON.stringify((JSON.parse(packageJson) as { dependencies?: unknown }).dependencies ?? {});

/** The commit that last wrote a file under results/sample/, and its date. */
function lastWritten(file: string): { commit: string; date: string } {
  const out = git(["log", "-1", "--format=%H %cs", "--", `results/sample/${file}`]) ?? "";
  const [commit = "", date = ""] = out.split(" ");
  return { commit, date };
}

/** The day `commit` was made (YYYY-MM-DD): the date of a file that carries a commit but no timestamp of its own. */
function commitDate(commit: string): string {
  return git(["show", "-s", "--format=%cs", commit]) ?? "";
}

/** Every quoted sample's state, in the list's order, history last. */
export function sampleStates(): SampleState[] {
  const states: SampleState[] = [];
  for (const entry of SAMPLES)
    for (const file of Object.keys(entry.files)) {
      if (file.endsWith(".md")) continue; // made from the runs beside it
      const { provenance, timestamp, oldFormat } = provenanceOf(file);
      const commit = provenance?.commit || "";
      // Only a file that names no commit is dated by git.
      const written = commit === "" ? lastWritten(file) : { commit: "", date: "" };
      const date = timestamp.slice(0, 10) || written.date || (commit !== "" ? commitDate(commit) : "");
      states.push({
        file,
        commit: commit || written.commit,
        ...(commit === "" ? { written: true as const } : {}),
        date,
        ...(oldFormat !== undefined ? { oldFormat } : {}),
        changed: measuredCodeChangedSince(commit || written.commit),
      });
    }
  for (const h of HISTORY)
    states.push({
      file: h.file,
      commit: h.made.commit,
      date: h.made.date,
      history: { why: h.why },
      changed: measuredCodeChangedSince(h.made.commit),
    });
  return states;
}

/** The check's report: a line per sample; failed when the reader refuses a listed sample's format. */
export function stalenessLines(states: readonly SampleState[]): { lines: string[]; failed: boolean } {
  const lines: string[] = [];
  for (const s of states) {
    const made =
      s.commit === ""
        ? "commit unknown"
        : `${s.written ? "written at" : "made at"} ${s.commit.slice(0, 10)} (${s.date})`;
    const since =
      s.changed === undefined
        ? "whether its code changed since cannot be told here"
        : s.changed.length === 0
          ? "the code it measures is unchanged since"
          : `warning: the code it measures changed since (${s.changed.slice(0, 3).join(", ")}${s.changed.length > 3 ? ` and ${s.changed.length - 3} more` : ""})`;
    const kept = s.history ? "; kept as history" : "";
    const format = s.oldFormat ? `; FAILED: ${s.oldFormat}` : "";
    lines.push(`  ${s.file}: ${made}${kept}; ${since}${format}`);
  }
  return { lines, failed: states.some((s) => s.oldFormat !== undefined) };
}

/** The one line docs/results.md opens with: the commit(s) and date(s) of its remade samples. */
export function madeLine(states: readonly SampleState[]): string {
  const listed = states.filter((s) => !s.history && !s.written);
  const commits = [...new Set(listed.map((s) => s.commit.slice(0, 10)))];
  const dates = [...new Set(listed.map((s) => s.date))].sort();
  const when = dates.length === 1 ? dates[0] : `${dates[0]} to ${dates[dates.length - 1]}`;
  // Several commits are one version of the code measured when none has changed it since any of them.
  const same = listed.every((s) => s.changed !== undefined && s.changed.length === 0);
  const which =
    commits.length === 1
      ? `commit \`${commits[0]}\``
      : `${commits.length} commits (${commits.map((c) => `\`${c}\``).join(", ")}${same ? ", whose measured code is the same" : ""})`;
  return `The samples below were made by ${which}, ${when}, with \`bun run samples\`; \`bun run figures --check\` says of each whether the code it measures has changed since.`;
}
