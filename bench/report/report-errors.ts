/**
 * How reading results for a report fails. Each failure is a ReportError
 * with a stable `code`; `bun run report` prints its one line naming the
 * file and exits 2.
 *
 * - NOT_RESULTS: the file is not a results JSON this benchmark wrote, nor
 *   k6's JSON output.
 * - CSV_NOT_READ: the file is a results CSV: an export for spreadsheets,
 *   written beside the JSON, which is the file to read.
 * - OLD_FORMAT: a results JSON in a format older than this reader's; the
 *   message names its version and the command that remakes it.
 */

export type ReportErrorCode = "NOT_RESULTS" | "CSV_NOT_READ" | "OLD_FORMAT";

export class ReportError extends Error {
  override readonly name = "ReportError";

  constructor(
    readonly code: ReportErrorCode,
    message: string,
  ) {
    super(message);
  }
}
