/**
 * How reading results for a report fails. Each failure is a ReportError
 * with a stable `code`; `bun run report` prints its one line naming the
 * file and exits 2.
 *
 * - NOT_RESULTS: the file is not a results CSV or JSON this benchmark wrote,
 *   nor k6's JSON output.
 * - NO_FIGURES_BLOCK: the README or docs/results.md has no generated figures block to fill.
 */

export type ReportErrorCode = "NOT_RESULTS" | "NO_FIGURES_BLOCK";

export class ReportError extends Error {
  override readonly name = "ReportError";

  constructor(
    readonly code: ReportErrorCode,
    message: string,
  ) {
    super(message);
  }
}
